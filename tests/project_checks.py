"""Checks shared by the tests that build whole projects (MkDocs, ProperDocs, Zensical) and
read their sitemap: a written file for every URL, git's date of each page's source."""

from __future__ import annotations

import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

from git_helpers import git
from lxml import etree

from sitemap_checks import assert_valid_tree, local_path
from sitemapkit.cli import main

BIN = Path(sys.executable).parent
NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}


def served_file(site: Path, base_url: str, url: str) -> Path:
    """The file a static server sends for ``url``: ``a/`` -> ``a/index.html``; ``a`` -> the
    file ``a``, else ``a/index.html`` (as Docusaurus spells its URLs), else ``a.html``."""
    path = local_path(site, base_url, url)
    if url.endswith("/") or (not path.is_file() and (path / "index.html").is_file()):
        return path / "index.html"
    if not path.is_file() and path.with_name(path.name + ".html").is_file():  # a clean URL (VitePress)
        return path.with_name(path.name + ".html")
    return path


def urlset(site: Path, base_url: str, name: str = "sitemap.xml") -> dict[str, str | None]:
    """loc -> lastmod text of the urlset ``name`` in ``site``, each loc a file written there."""
    root = etree.parse(str(site / name)).getroot()
    assert etree.QName(root).localname == "urlset"
    found = {url.findtext("s:loc", namespaces=NS): url.findtext("s:lastmod", namespaces=NS)
             for url in root.iterfind("s:url", NS)}
    missing = [url for url in found if not served_file(site, base_url, url).is_file()]
    assert not missing, f"listed but not written: {missing}"
    return found


def lastmods(site: Path, base_url: str) -> dict[str, str | None]:
    """loc -> lastmod text of a site's ``sitemap.xml``, which must be one valid urlset."""
    assert [f.name for f in assert_valid_tree(site, base_url)] == ["sitemap.xml"]
    return urlset(site, base_url)


def fixture_sources(fixture: Path, built: tuple[str, ...]) -> dict[str, str]:
    """path -> text of a generator fixture's sources: every file but those under the folders
    the generator built (names starting with one of ``built``) and ``GENERATED_BY``."""
    return {str(path.relative_to(fixture)): path.read_text(encoding="utf-8")
            for path in sorted(fixture.rglob("*"))
            if path.is_file() and not path.relative_to(fixture).parts[0].startswith((*built, "GENERATED_BY"))}


def committed(repo: Path, source: str) -> str:
    """``git log -1`` of ``source``, as a sitemap writes a UTC time."""
    iso = git(repo, "log", "-1", "--format=%cI", "--", source).strip()
    return datetime.fromisoformat(iso).astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def validate_strict(site: Path) -> int:
    return main(["validate", str(site / "sitemap.xml"), "--site-dir", str(site), "--strict"])


SITE_URL = "https://docs.example.org/"


def quickstart(root: Path) -> Path:
    """A project as `mkdocs new` makes it, with ``site_url`` and sitemapkit enabled."""
    root.mkdir(parents=True, exist_ok=True)
    subprocess.run([str(BIN / "mkdocs"), "new", "."], cwd=root, check=True, capture_output=True)
    with open(root / "mkdocs.yml", "a", encoding="utf-8") as config:
        config.write(f"site_url: {SITE_URL}\nplugins:\n  - sitemapkit\n")
    return root


def pelican_conf(base_url: str, *lines: str) -> str:
    """A ``pelicanconf.py`` as the tests' blogs have it (content in ``content/``, output in
    ``output/``, no feeds, sitemapkit enabled), with ``lines`` added."""
    return "\n".join((
        f'SITEURL = "{base_url.rstrip("/")}"',
        'SITENAME = "Blog"',
        'PATH = "content"',
        'OUTPUT_PATH = "output"',
        'TIMEZONE = "UTC"',
        "LOAD_CONTENT_CACHE = False",
        "FEED_ALL_ATOM = CATEGORY_FEED_ATOM = AUTHOR_FEED_ATOM = AUTHOR_FEED_RSS = None",
        'PLUGINS = ["sitemapkit_pelican"]',
        *lines,
    )) + "\n"
