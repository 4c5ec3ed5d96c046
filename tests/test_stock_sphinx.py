"""Sphinx projects as ``sphinx-quickstart`` makes them, with only the README's enabling lines
added, built with the commands users type, from the project folder."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from git_helpers import commit, init
from lxml import etree, html

from sitemap_checks import assert_valid_tree, local_path, usp_urls

pytestmark = pytest.mark.slow  # real generator runs (make test-fast leaves them out)

BASE = "https://docs.example.org/proj/"
BIN = Path(sys.executable).parent
NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
EPOCH = "1938124800"  # 2031-06-01: a build-time lastmod would show it
COMMITTED = "2024-03-05T10:00:00"
PAGES = {
    "guide.rst": "Guide\n=====\n\nHow to use Proj.\n",
    "api.rst": "API\n===\n\n.. py:module:: proj\n\n.. py:function:: run()\n\n   Runs.\n",
}


def run(folder: Path, *command: str, check: bool = True) -> subprocess.CompletedProcess:
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}", "SOURCE_DATE_EPOCH": EPOCH}
    done = subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True)
    assert not check or done.returncode == 0, done.stdout + done.stderr
    return done


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> dict[bool, Path]:
    """What sphinx-quickstart makes from these answers, with ``--sep`` (True) and without: run
    once for the module; each test takes a copy."""
    folders = {}
    for sep in (True, False):
        folder = tmp_path_factory.mktemp("sep" if sep else "no-sep")
        run(folder, str(BIN / "sphinx-quickstart"), "-q", "-p", "Proj", "-a", "A", "-v", "1.0",
            "-r", "1.0.3", *(["--sep"] if sep else []), ".")
        folders[sep] = folder
    return folders


def quickstart(root: Path, made: Path, conf_lines: str = "") -> Path:
    """A copy of the quickstart project ``made``, in git, with two pages added to its toctree,
    enabled the README's way; returns the project folder."""
    project = root / "proj"
    shutil.copytree(made, project)
    init(project)
    source = project / "source" if (project / "source").is_dir() else project
    conf = source / "conf.py"
    text = conf.read_text(encoding="utf-8")
    assert "extensions = []" in text
    text = text.replace("extensions = []", 'extensions = ["sitemapkit_sphinx"]')
    conf.write_text(text + f'html_baseurl = "{BASE}"\n' + conf_lines, encoding="utf-8")
    index = source / "index.rst"
    toctree = ":caption: Contents:\n"
    index.write_text(index.read_text(encoding="utf-8").replace(toctree, toctree + "\n   guide\n   api\n"),
                     encoding="utf-8")
    for name, text in PAGES.items():
        (source / name).write_text(text, encoding="utf-8")
    (source / "_static" / ".gitkeep").touch()  # git keeps no empty folder; Sphinx warns without it
    commit(project, COMMITTED)
    return project


def canonical(page: Path) -> str:
    links = html.parse(str(page)).xpath("//link[@rel='canonical']/@href")
    assert len(links) == 1, page
    return links[0]


def check_site(out: Path) -> list[str]:
    """Every listed URL is a written page whose canonical link is that URL; no lastmod is
    the build's time; sitemapkit's own validator agrees with the site."""
    assert_valid_tree(out, BASE)
    listed = sorted(usp_urls(out, BASE))
    for url in listed:
        page = local_path(out, BASE, url)
        page = page / "index.html" if urlsplit(url).path.endswith("/") else page
        assert page.is_file(), url
        assert canonical(page) == url
    lastmods = etree.parse(str(out / "sitemap.xml")).xpath("//s:lastmod/text()", namespaces=NS)
    assert lastmods and all(value.startswith("2024-03-05") for value in lastmods)
    done = run(out, str(BIN / "sitemapkit"), "validate", "sitemap.xml", "--site-dir", ".", "--strict",
               check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return listed


@pytest.mark.parametrize("sep", [True, False], ids=["sep", "no-sep"])
def test_quickstart_project_lists_its_pages_at_their_canonical_urls(tmp_path, made, sep):
    project = quickstart(tmp_path, made[sep])
    if sep:
        run(project, "sphinx-build", "-b", "html", "source", "build/html")
        out = project / "build/html"
    else:
        run(project, "make", "html")
        out = project / "_build/html"
    listed = check_site(out)
    assert listed == [BASE + "api.html", BASE + "guide.html", BASE + "index.html"]
    # version = '1.0' in conf.py is not in any URL; the manifest sits with the doctrees.
    assert not (project / "source" / ".cache").exists() and not (project / ".cache").exists()


def test_parallel_and_incremental_builds_give_the_same_bytes(tmp_path, made):
    project = quickstart(tmp_path, made[True])
    run(project, "sphinx-build", "-b", "html", "-j", "1", "source", "build/j1")
    run(project, "sphinx-build", "-b", "html", "-j", "2", "source", "build/j2")
    first = (project / "build/j1/sitemap.xml").read_bytes()
    assert (project / "build/j2/sitemap.xml").read_bytes() == first
    run(project, "sphinx-build", "-b", "html", "source", "build/j1")  # nothing changed
    assert (project / "build/j1/sitemap.xml").read_bytes() == first
    check_site(project / "build/j1")


def test_warnings_as_errors_stay_green(tmp_path, made):
    project = quickstart(tmp_path, made[True])
    done = run(project, "sphinx-build", "-W", "-b", "html", "source", "build/html", check=False)
    assert done.returncode == 0, done.stderr
    assert "sitemapkit" not in done.stderr


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("", ""),
        ("language = None\n", ""),
        ("language = 'en'\n", ""),
        ("sitemap_url_scheme = '{lang}{version}{link}'\n", "1.0/"),
        ("language = 'de'\nsitemap_url_scheme = '{lang}{version}{link}'\n", "de/1.0/"),
        ("language = None\nsitemap_url_scheme = '{lang}{version}{link}'\n", "1.0/"),
        ("language = 'en'\nsitemap_url_scheme = '{lang}{version}{link}'\n", "en/1.0/"),
    ],
    ids=["version-only", "language-none", "language-en", "scheme", "scheme-language", "scheme-language-none",
         "scheme-language-en"],
)
def test_version_and_language_enter_urls_only_when_the_scheme_asks(tmp_path, made, line, expected):
    scheme = "sitemap_url_scheme" in line
    # Asking for a scheme means the site is served under it: html_baseurl says so too.
    extra = line + (f'html_baseurl = "{BASE}{expected}"\nsitemapkit_base_url = "{BASE}"\n' if scheme else "")
    project = quickstart(tmp_path, made[True], conf_lines=extra)
    done = run(project, "sphinx-build", "-b", "html", "source", "build/html")
    out = project / "build/html"
    assert sorted(usp_urls(out, BASE + expected)) == [
        BASE + expected + name for name in ("api.html", "guide.html", "index.html")
    ]
    assert "sitemapkit" not in done.stderr
