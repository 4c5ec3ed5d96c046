"""Each option that changes what is listed or where, in each shape users deploy: plain MkDocs,
MkDocs with mkdocs-static-i18n (in both plugin orders, a Material ``custom_dir`` in docs_dir as
that plugin's own documentation has it), Read the Docs (Sphinx and MkDocs), Pelican, and
``sitemapkit build`` on a folder. One real build per (shape, option), checked by
``project_checks.assert_site_holds`` and by what the option promises; an option that cannot
apply in a shape is refused with one line, never ignored. (mike's shape: test_mike_*.)"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from project_checks import assert_site_holds, pelican_conf

from sitemap_checks import read_bytes, robots_sitemaps

pytestmark = pytest.mark.slow  # real generator runs

BIN = Path(sys.executable).parent
HOST = "https://example.org/"
RTD_URL = "https://proj.readthedocs.io/en/latest/"
PAGE = ("<!doctype html><html><head><title>{0}</title></head>"
        "<body><main><h1>{0}</h1><p>Some words about {0}.</p></main></body></html>")
TRANSFORM = 'def drop_secret(entry):\n    return None if "secret" in entry.loc else entry\n'


def other_sitemap(base_url: str) -> str:
    """A sitemap another tool writes on the site's host."""
    return "/".join(base_url.split("/", 3)[:3]) + "/shop/sitemap.xml"


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")


@dataclass(frozen=True)
class Shape:
    """A project of one shape: how to make it, build it with options, and where it lands."""

    make: Callable[[Path, dict[str, object]], list[str]]
    """Writes the project with the options; returns the command that builds it."""
    site: str
    base_url: str
    section: str
    env: tuple[tuple[str, str], ...] = ()
    robots: bool = True
    """Whether robots.txt at the host root is this build's to write."""


# ---------------------------------------------------------------- the shapes


def mkdocs_project(root: Path, options: dict[str, object], *, i18n: str | None = None,
                   site_url: str = HOST) -> list[str]:
    """A small MkDocs site: a section, a page to leave out, a copied HTML page; with ``i18n``
    (``first`` or ``last``: where mkdocs-static-i18n stands in plugins), Material with
    ``custom_dir`` in docs_dir, as mkdocs-static-i18n's own documentation has it. On Read the
    Docs, ``site_url`` is the canonical URL its build gives (``!ENV READTHEDOCS_CANONICAL_URL``)."""
    files = {"docs/index.md": "# Home\n", "docs/guide/a.md": "# A\n", "docs/guide/b.md": "# B\n",
             "docs/secret.md": "# Secret\n", "docs/demo.html": PAGE.format("Demo"), "shape_transform.py": TRANSFORM}
    plugins: list[object] = [{"sitemapkit": options}]
    config: dict[str, object] = {"site_name": "Shapes", "site_url": site_url}
    if i18n is not None:
        files |= {"docs/index.fr.md": "# Accueil\n", "docs/guide/a.fr.md": "# A (fr)\n",
                  "docs/overrides/home.html": '{% extends "main.html" %}\n',
                  "docs/overrides/home.fr.html": '{% extends "main.html" %}\n',
                  "docs/overrides/partials/copyright.html": "<p>(c)</p>\n"}
        languages = {"docs_structure": "suffix", "languages": [
            {"locale": "en", "default": True, "name": "English"}, {"locale": "fr", "name": "Français"}]}
        plugins = [{"i18n": languages}, *plugins] if i18n == "first" else [*plugins, {"i18n": languages}]
        config |= {"theme": {"name": "material", "custom_dir": "docs/overrides"}, "exclude_docs": "overrides/\n"}
    write(root, {**files, "mkdocs.yml": json.dumps({**config, "plugins": plugins})})
    return [str(BIN / "mkdocs"), "build", "-q"]


def sphinx_project(root: Path, options: dict[str, object]) -> list[str]:
    lines = ['project = "Shapes"', 'extensions = ["sitemapkit_sphinx"]', 'html_extra_path = ["extra"]',
             'exclude_patterns = ["_build", "extra"]', "import sys, os",
             "sys.path.insert(0, os.path.dirname(__file__))",
             *(f"sitemapkit_{key} = {value!r}" for key, value in options.items())]
    write(root, {
        "conf.py": "\n".join(lines) + "\n", "shape_transform.py": TRANSFORM,
        "index.rst": "Home\n====\n\n.. toctree::\n\n   guide/a\n   guide/b\n   secret\n",
        "guide/a.rst": "A\n=\n\nText.\n", "guide/b.rst": "B\n=\n\nText.\n", "secret.rst": "Secret\n======\n\nText.\n",
        "extra/demo.html": PAGE.format("Demo"),
    })
    return [str(BIN / "sphinx-build"), "-q", "-b", "html", ".", "_build/html"]


def pelican_project(root: Path, options: dict[str, object]) -> list[str]:
    write(root, {
        "content/first.md": "Title: First\nDate: 2026-01-10\n\nA post.",
        "content/pages/about.md": "Title: About\n\nAbout us.", "content/pages/secret.md": "Title: Secret\n\nHush.",
        "content/media/demo.html": PAGE.format("Demo"), "shape_transform.py": TRANSFORM,
        "pelicanconf.py": pelican_conf(HOST, 'STATIC_PATHS = ["media"]', 'ARTICLE_EXCLUDES = ["media"]',
                                       "import sys, os", "sys.path.insert(0, os.path.dirname(__file__))",
                                       f"SITEMAPKIT = {options!r}"),
    })
    return [str(BIN / "pelican"), "content", "-s", "pelicanconf.py", "-q"]


def folder_project(root: Path, options: dict[str, object]) -> list[str]:
    """Hand-written HTML in ``public/``, built by ``sitemapkit build`` with each option as a flag."""
    names = ("index", "guide/a", "guide/b", "secret", "demo")
    write(root, {f"public/{name}.html": PAGE.format(name) for name in names})
    write(root, {"shape_transform.py": TRANSFORM})
    flags = []
    for key, value in options.items():
        flag = "--" + key.replace("_", "-")
        for one in value if isinstance(value, list) else [value]:
            flags += [flag] if one is True else [flag, str(one)]
    flags = [flag.replace("--extra-urls", "--extra-url").replace("--extra-sitemaps", "--extra-sitemap")
             .replace("--sections", "--section") for flag in flags]
    return [str(BIN / "sitemapkit"), "build", "public", "--base-url", HOST, *flags]


READ_THE_DOCS = (("READTHEDOCS", "True"), ("READTHEDOCS_CANONICAL_URL", RTD_URL), ("READTHEDOCS_VERSION", "latest"))

SHAPES = {
    "mkdocs": Shape(mkdocs_project, "site", HOST, "guide/"),
    "i18n-first": Shape(lambda root, options: mkdocs_project(root, options, i18n="first"), "site", HOST, "guide/"),
    "i18n-last": Shape(lambda root, options: mkdocs_project(root, options, i18n="last"), "site", HOST, "guide/"),
    "rtd-sphinx": Shape(sphinx_project, "_build/html", RTD_URL, "guide/", READ_THE_DOCS, robots=False),
    "rtd-mkdocs": Shape(lambda root, options: mkdocs_project(root, options, site_url=RTD_URL), "site", RTD_URL,
                        "guide/", READ_THE_DOCS, robots=False),
    "pelican": Shape(pelican_project, "output", HOST, "pages/"),
    "cli": Shape(folder_project, "public", HOST, "guide/"),
}


# ---------------------------------------------------------------- the options


def entry_point(site: Path, shape: Shape) -> str:
    """The file robots.txt names (the sections' own index beside Material's urlset), or the
    default name where robots.txt is not this build's."""
    if not shape.robots:
        return "sitemap.xml"
    ours = [url for url in robots_sitemaps(site / "robots.txt") if url != other_sitemap(shape.base_url)]
    assert len(ours) == 1, ours
    return ours[0].removeprefix(shape.base_url)


def no_secret(site: Path, shape: Shape, urls: list[str]) -> None:
    assert urls and not [url for url in urls if "secret" in url]


def check_extra_urls(site: Path, shape: Shape, urls: list[str]) -> None:
    assert shape.base_url + "app/" in urls


def check_extra_sitemaps(site: Path, shape: Shape, urls: list[str]) -> None:
    assert other_sitemap(shape.base_url) in robots_sitemaps(site / "robots.txt")


def check_sections(site: Path, shape: Shape, urls: list[str]) -> None:
    from sitemap_checks import locs

    children = locs(site / entry_point(site, shape))
    in_section = [url for url in urls if url.startswith(shape.base_url + shape.section)]
    assert len(children) > 1 and in_section
    assert any(set(locs(site / child.removeprefix(shape.base_url))) == set(in_section) for child in children)


def check_static_omit(site: Path, shape: Shape, urls: list[str]) -> None:
    assert urls and not [url for url in urls if "demo" in url]


def check_html_sitemap(site: Path, shape: Shape, urls: list[str]) -> None:
    assert shape.base_url + "sitemap.html" in urls and (site / "sitemap.html").is_file()


def check_txt(site: Path, shape: Shape, urls: list[str]) -> None:
    assert (site / "sitemap.txt").read_text(encoding="utf-8").split() == urls


def check_gzip(site: Path, shape: Shape, urls: list[str]) -> None:
    xml = [path for path in site.glob("sitemap*.xml")]
    assert xml and all(gzip.decompress(Path(f"{path}.gz").read_bytes()) == path.read_bytes() for path in xml)


def check_max_urls(site: Path, shape: Shape, urls: list[str]) -> None:
    assert b"<sitemapindex" in read_bytes(site / entry_point(site, shape)) and len(urls) > 2


OPTIONS: dict[str, tuple[Callable[[Shape], dict[str, object]], Callable[[Path, Shape, list[str]], None]]] = {
    "exclude": (lambda shape: {"exclude": ["secret*"]}, no_secret),
    "extra_urls": (lambda shape: {"extra_urls": ["app/"]}, check_extra_urls),
    "extra_sitemaps": (lambda shape: {"extra_sitemaps": [other_sitemap(shape.base_url)]}, check_extra_sitemaps),
    "sections": (lambda shape: {"sections": [shape.section]}, check_sections),
    "transform": (lambda shape: {"transform": "shape_transform:drop_secret"}, no_secret),
    "static_html": (lambda shape: {"static_html": "omit"}, check_static_omit),
    "html_sitemap": (lambda shape: {"html_sitemap": True}, check_html_sitemap),
    "txt": (lambda shape: {"txt": True}, check_txt),
    "gzip": (lambda shape: {"gzip": True}, check_gzip),
    "max_urls": (lambda shape: {"max_urls": 2}, check_max_urls),
}

REFUSED: dict[tuple[str, str], str] = {
    # (shape, option) -> what the one line that refuses it says
    # Read the Docs serves its own robots.txt at the domain's root: no line of ours goes there
    ("rtd-sphinx", "extra_sitemaps"): "has nowhere to go",
    ("rtd-mkdocs", "extra_sitemaps"): "has nowhere to go",
    # a folder of HTML alone cannot tell a copied file from a rendered one
    ("cli", "static_html"): "lists every HTML file of the folder",
}


@pytest.mark.parametrize("option", list(OPTIONS))
@pytest.mark.parametrize("shape_name", list(SHAPES))
def test_option_in_shape_keeps_every_invariant(tmp_path, shape_name, option):
    shape = SHAPES[shape_name]
    values, check = OPTIONS[option]
    command = shape.make(tmp_path, values(shape))
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "SOURCE_DATE_EPOCH": "1795262400", **dict(shape.env)}
    done = subprocess.run(command, cwd=tmp_path, env=env, text=True, capture_output=True, check=False)
    said = (done.stdout + done.stderr).splitlines()
    if (shape_name, option) in REFUSED:
        assert done.returncode != 0, said
        lines = [line for line in said if REFUSED[shape_name, option] in line]
        assert len(lines) == 1 and option in lines[0], said
        assert "Traceback" not in done.stderr
        return
    assert done.returncode == 0, done.stdout + done.stderr
    site = tmp_path / shape.site
    urls = assert_site_holds(site, shape.base_url, filename=entry_point(site, shape),
                             extra_urls=(shape.base_url + "app/",), robots=shape.robots)
    check(site, shape, urls)


@pytest.mark.parametrize("order", ["first", "last"])
def test_theme_templates_in_docs_dir_are_never_listed(tmp_path, order):
    """mkdocs-static-i18n's documentation: Material's ``custom_dir`` inside docs_dir. Without
    ``exclude_docs`` MkDocs copies the templates (``home.fr.html`` to ``fr/overrides/home.html``,
    by mkdocs-static-i18n): only what the build wrote is listed, nothing under a name it did
    not write, and the summary's count is the warnings printed (none)."""
    command = mkdocs_project(tmp_path, {}, i18n=order)
    config = json.loads((tmp_path / "mkdocs.yml").read_text(encoding="utf-8"))
    del config["exclude_docs"]
    (tmp_path / "mkdocs.yml").write_text(json.dumps(config), encoding="utf-8")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "SOURCE_DATE_EPOCH": "1795262400"}
    done = subprocess.run(command[:-1], cwd=tmp_path, env=env, text=True, capture_output=True, check=False)
    assert done.returncode == 0, done.stderr
    urls = assert_site_holds(tmp_path / "site", HOST)
    assert not [url for url in urls if "overrides" in url]
    assert "WARNING" not in done.stderr and "; 0 warnings" in done.stderr


@pytest.mark.parametrize("shape_name", ["mkdocs", "rtd-sphinx", "pelican", "cli"])
def test_a_transform_that_cannot_be_loaded_fails_the_build_in_one_line(tmp_path, shape_name):
    """The docs promise one line naming the option: never a crash report (Sphinx's
    ``Extension error!`` page) nor a traceback. A failed build, except with Sphinx, whose way
    with a value it cannot use is a warning and no sitemap (``-W`` fails it)."""
    shape = SHAPES[shape_name]
    command = shape.make(tmp_path, {"transform": "nomod:x"})
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "COLUMNS": "1000", **dict(shape.env)}
    done = subprocess.run(command, cwd=tmp_path, env=env, text=True, capture_output=True, check=False)
    said = done.stdout + done.stderr
    assert done.returncode != 0 or shape_name == "rtd-sphinx", said
    told = [line for line in said.splitlines() if "'nomod:x' cannot be loaded" in line and "transform" in line]
    assert len(told) == 1, said
    assert "Traceback" not in said and "Extension error" not in said, said


def test_a_bad_pelican_option_ends_in_one_line_never_a_traceback(tmp_path):
    """As pelican-sitemap reports a bad option: one line. The check runs when Pelican's run starts,
    not while Pelican is made, where ``--print-settings`` prints any error with a traceback."""
    command = pelican_project(tmp_path, {"max_urls": "x"})
    env = {**os.environ, "COLUMNS": "1000"}
    done = subprocess.run(command, cwd=tmp_path, env=env, text=True, capture_output=True, check=False)
    said = (done.stdout + done.stderr).splitlines()
    assert done.returncode == 1
    assert [line for line in said if line.strip()] == [
        next(line for line in said if "CRITICAL" in line and "SITEMAPKIT: option 'max_urls' must be" in line)]
    shown = subprocess.run([*command[:-1], "--print-settings", "SITEURL"], cwd=tmp_path, env=env, text=True,
                           capture_output=True, check=False)
    assert "Traceback" not in shown.stdout + shown.stderr and HOST.rstrip("/") in shown.stdout
