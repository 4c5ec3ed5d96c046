"""Checks shared by the tests that build whole projects (MkDocs, ProperDocs, Zensical, Pelican,
Sphinx) and read their sitemap: a written file for every URL, git's date of each page's source,
and ``assert_site_holds``, the invariants every built site must keep whatever its options."""

from __future__ import annotations

import re
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

from git_helpers import git
from lxml import etree

from sitemap_checks import assert_valid_tree, local_path, locs, read_bytes, robots_sitemaps
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


def validate_strict(site: Path, filename: str = "sitemap.xml") -> int:
    return main(["validate", str(site / filename), "--site-dir", str(site), "--strict"])


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


# ---------------------------------------------------------------- what every built site holds

_NOT_A_PAGE = (  # what a crawler would not index, read from the file itself (independent of sitemapkit)
    re.compile(rb'<meta[^>]+name=["\']?robots["\']?[^>]+noindex', re.IGNORECASE),
    re.compile(rb'<meta[^>]+http-equiv=["\']?refresh', re.IGNORECASE),
)


def sitemap_files(site: Path, base_url: str, filename: str = "sitemap.xml") -> list[Path]:
    """The entry point ``filename`` and, for an index, each local sitemap it names, each named
    once (checked), every one valid by the official XSDs."""
    files = assert_valid_tree(site, base_url, filename)
    named = locs(site / filename) if len(files) > 1 else []
    assert len(named) == len(set(named)), f"the index names a sitemap twice: {named}"
    return files


def listed(files: list[Path]) -> list[str]:
    """Every page URL of the urlsets among ``files``."""
    found = []
    for path in files:
        root = etree.fromstring(read_bytes(path))
        if etree.QName(root).localname == "urlset":
            found += [url.findtext("s:loc", namespaces=NS) for url in root.iterfind("s:url", NS)]
    return found


def assert_site_holds(site: Path, base_url: str, *, filename: str = "sitemap.xml", extra_urls: tuple[str, ...] = (),
                      robots: bool = True) -> list[str]:
    """The invariants of any sitemap a build wrote, whatever the generator and options; returns
    the listed URLs. Every listed URL is a written file (or one of ``extra_urls``, absolute),
    listed once; every written HTML page is listed, or recorded as left out on purpose (the own
    files record), or says itself that it is no page (noindex, a redirect, a fragment with no
    ``<html>``); robots.txt at the host root (``robots``) names the entry point once; and
    ``sitemapkit validate --site-dir --strict`` finds nothing."""
    from sitemapkit.site.owned import chosen_out, url_key

    files = sitemap_files(site, base_url, filename)
    urls = listed(files)
    assert len(urls) == len(set(urls)), f"a URL listed twice: {sorted(u for u in urls if urls.count(u) > 1)}"
    missing = [url for url in urls if url not in extra_urls and not served_file(site, base_url, url).is_file()]
    assert not missing, f"listed but not written: {missing}"
    out = chosen_out(site) or set()
    unlisted = []
    for page in sorted(site.rglob("*.htm*")):
        name = page.relative_to(site).as_posix()
        spellings = {base_url + name, base_url + name.removesuffix("index.html")}
        if spellings & set(urls) or any(url_key(url) in out for url in spellings):
            continue
        head = page.read_bytes()[:65536]
        if b"<html" not in head.lower() or any(pattern.search(head) for pattern in _NOT_A_PAGE):
            continue
        unlisted.append(name)
    assert not unlisted, f"written pages neither listed nor named as left out: {unlisted}"
    if robots:
        named = robots_sitemaps(site / "robots.txt")
        assert named.count(base_url + filename) == 1, f"robots.txt names {named}"
    assert validate_strict(site, filename) == 0
    return urls
