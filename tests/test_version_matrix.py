"""The versions sitemapkit declares, built: the projects each generator's quickstart makes
(``mkdocs new``, ``pelican-quickstart``, ``sphinx-quickstart``), enabled as the docs say, built
with the LOWEST version each extra of pyproject.toml allows and with the newest, on the lowest
Python ``requires-python`` allows and on the newest one the machine has, each in a venv of its
own made by uv.

The suite (CI) runs one cell, the floors on the lowest Python, the cell nobody tries by hand.
``make test-matrix`` runs them all: ``SITEMAPKIT_MATRIX`` lists the Pythons (versions uv finds,
or interpreters' paths). uv installs CPython builds only from GitHub: a Python this machine
does not have is skipped, and the skip says so."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import tomllib
from git_helpers import commit, init
from project_checks import urlset
from quickstarts import mkdocs_new, pelican_quickstart, run, sphinx_quickstart
from tool_venvs import tool_venv

from sitemap_checks import REPO, assert_valid_tree

pytestmark = pytest.mark.slow  # venvs of their own and real generator runs

PROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
EXTRAS = {name: specs for name, specs in PROJECT["optional-dependencies"].items() if name != "all"}
LOWEST_PYTHON = re.fullmatch(r">=\s*([\d.]+)", PROJECT["requires-python"]).group(1)
BASE = "https://docs.example.org/"
EPOCH = "1800000000"  # 2027-01-15: a build-time lastmod would show it


def floor(spec: str) -> str:
    """``mkdocs>=1.5,<2`` -> ``mkdocs==1.5``: the lowest version the requirement allows."""
    name, low = re.fullmatch(r"([\w.-]+)\s*>=\s*([\w.]+)(?:\s*,.*)?", spec).groups()
    return f"{name}=={low}"


def requirements(versions: str) -> list[str]:
    """Every extra's generator at its floor (``lowest``) or as the extra allows it (``newest``)."""
    specs = [spec for extra in EXTRAS.values() for spec in extra]
    return [floor(spec) for spec in specs] if versions == "lowest" else specs


def pythons() -> list[str]:
    asked = os.environ.get("SITEMAPKIT_MATRIX")
    return asked.split() if asked else [LOWEST_PYTHON]


def cells() -> list:
    versions = ("lowest", "newest") if os.environ.get("SITEMAPKIT_MATRIX") else ("lowest",)
    return [pytest.param(python, which, id=f"{python.rsplit('/', 1)[-1]}-{which}")
            for python in pythons() for which in versions]


def interpreter(python: str) -> str:
    """The interpreter uv finds for ``python``, or a skip that says this machine has none."""
    found = subprocess.run([sys.executable, "-m", "uv", "python", "find", "--no-python-downloads", python],
                           capture_output=True, text=True)  # not UV's --quiet: it keeps find from printing
    if found.returncode != 0:
        pytest.skip(f"uv finds no Python {python} here: give an interpreter's path in MATRIX_PYTHONS "
                    "(uv downloads CPython builds from GitHub only)")
    return found.stdout.strip()


def installed(bin_dir: Path) -> dict[str, str]:
    """Python's and each generator's version in the venv, for the record and the check."""
    code = ("import sys, importlib.metadata as m; print('python', '%d.%d.%d' % sys.version_info[:3]); "
            f"[print(n, m.version(n)) for n in {list(EXTRAS)!r}]")
    done = subprocess.run([bin_dir / "python", "-c", code], capture_output=True, text=True, check=True)
    return dict(line.split() for line in done.stdout.splitlines())


def checked(site: Path, bin_dir: Path) -> dict[str, str | None]:
    """The sitemap valid against the XSDs, every URL a written file, and the venv's own
    ``sitemapkit validate --strict`` content with the site."""
    assert_valid_tree(site, BASE)
    run(site, bin_dir, "sitemapkit", "validate", "sitemap.xml", "--site-dir", ".", "--strict")
    return urlset(site, BASE)


@pytest.mark.parametrize(("python", "versions"), cells())
def test_quickstart_projects_build_on_each_declared_version(request, tmp_path, python, versions):
    found = interpreter(python)
    bin_dir = tool_venv(request.config, requirements(versions), sitemapkit=True, python=found)
    have = installed(bin_dir)
    print(f"{found} {versions}: {have}")  # the record, shown by make test-matrix (-rP)
    assert found and subprocess.run([found, "-c", f"import sys; assert '%d.%d.%d' % sys.version_info[:3] == "
                                            f"{have['python']!r}"]).returncode == 0  # the venv runs that Python
    if versions == "lowest":  # the floors themselves, not a later version that satisfies them
        assert all(have[name] in (low, f"{low}.0")
                   for name, low in (floor(spec).split("==") for spec in requirements("newest")))
    env = {"SOURCE_DATE_EPOCH": EPOCH}

    mkdocs = mkdocs_new(tmp_path / "mkdocs", bin_dir, BASE)
    with open(mkdocs / "mkdocs.yml", "a", encoding="utf-8") as config:
        config.write("plugins:\n  - search\n  - sitemapkit\n")
    commit(init(mkdocs), "2024-03-05T10:00:00")
    run(mkdocs, bin_dir, "mkdocs", "build", "--strict", env=env)
    assert set(checked(mkdocs / "site", bin_dir)) == {BASE}

    posts = {"hello.md": "Title: Hello\nDate: 2025-03-01 10:00\nCategory: News\n\nHi.\n",
             "pages/about.md": "Title: About\n\nAbout us.\n"}
    pelican = pelican_quickstart(tmp_path / "pelican", bin_dir, BASE, posts)
    with open(pelican / "pelicanconf.py", "a", encoding="utf-8") as config:
        config.write('PLUGINS = ["sitemapkit_pelican"]\n')
    commit(init(pelican), "2024-03-05T10:00:00")
    run(pelican, bin_dir, "pelican", "content", "-s", "publishconf.py", env=env)
    listed = checked(pelican / "output", bin_dir)
    assert {BASE + "hello.html", BASE + "pages/about.html", BASE + "category/news.html"} <= set(listed)
    assert listed[BASE + "hello.html"].startswith("2025-03-01")

    sphinx = sphinx_quickstart(tmp_path / "sphinx", bin_dir, "--sep")
    with open(sphinx / "conf.py", "a", encoding="utf-8") as config:
        config.write(f'extensions = ["sitemapkit_sphinx"]\nhtml_baseurl = "{BASE}"\n')
    (sphinx / "_static" / ".gitkeep").touch()
    commit(init(sphinx.parent), "2024-03-05T10:00:00")
    run(sphinx.parent, bin_dir, "sphinx-build", "-W", "-b", "html", "source", "build/html", env=env)
    assert set(checked(sphinx.parent / "build/html", bin_dir)) == {BASE + "index.html"}


def test_a_floor_is_the_lowest_version_a_requirement_allows():
    assert floor("mkdocs>=1.5,<2") == "mkdocs==1.5" and floor("sphinx>=7.0") == "sphinx==7.0"
    assert len(requirements("lowest")) == len(EXTRAS) == 3
