"""Checks of written sitemaps by tools sitemapkit did not write: lxml with the official
XSDs in ``tests/xsd`` (see SOURCES.md there), ultimate-sitemap-parser and protego."""

from __future__ import annotations

import gzip
import html
from functools import cache
from pathlib import Path
from urllib.parse import urlsplit

from lxml import etree

REPO = Path(__file__).resolve().parents[1]
XSD = Path(__file__).resolve().parent / "xsd"

SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"


@cache
def schema(name: str) -> etree.XMLSchema:
    return etree.XMLSchema(etree.parse(str(XSD / name)))


def read_bytes(path: Path) -> bytes:
    data = path.read_bytes()
    return gzip.decompress(data) if path.suffix == ".gz" else data


def assert_valid(path: Path) -> etree._Element:
    """Validate one sitemap or index file against the official XSDs; return its root."""
    root = etree.fromstring(read_bytes(path))
    name = "siteindex.xsd" if root.tag == f"{{{SITEMAP_NS}}}sitemapindex" else "sitemap-all.xsd"
    checker = schema(name)
    if not checker.validate(root):
        raise AssertionError(f"{path} fails {name}: {checker.error_log}")
    legacy = schema("variants/siteindex.legacy-2009.xsd") if name == "siteindex.xsd" else None
    if legacy is not None and not legacy.validate(root):
        raise AssertionError(f"{path} fails the legacy index XSD: {legacy.error_log}")
    return root


def local_path(site_dir: Path, base_url: str, url: str) -> Path:
    """The file in ``site_dir`` that ``url`` (under ``base_url``) names."""
    root = urlsplit(base_url).path
    path = urlsplit(url).path
    assert path.startswith(root), f"{url} is not under {base_url}"
    return site_dir / path[len(root):]


def assert_valid_tree(site_dir: Path, base_url: str, filename: str = "sitemap.xml") -> list[Path]:
    """Validate the entry file and, for an index, every local child; return the XML files."""
    entry = site_dir / filename
    root = assert_valid(entry)
    files = [entry]
    if root.tag == f"{{{SITEMAP_NS}}}sitemapindex":
        for loc in root.iterfind(f"{{{SITEMAP_NS}}}sitemap/{{{SITEMAP_NS}}}loc"):
            child = local_path(site_dir, base_url, loc.text)
            assert child.exists(), f"index lists {loc.text} but {child} is missing"
            if child.suffix in (".xml", ".gz"):
                assert_valid(child)
                files.append(child)
    return files


def usp_urls(site_dir: Path, base_url: str, filename: str = "sitemap.xml") -> list[str]:
    """Every page URL ultimate-sitemap-parser reads from the sitemap (an index followed
    through its local children), in file order."""
    from usp.objects.sitemap import IndexXMLSitemap
    from usp.tree import sitemap_from_str

    def pages(path: Path) -> list[str]:
        parsed = sitemap_from_str(read_bytes(path).decode("utf-8"))
        if isinstance(parsed, IndexXMLSitemap):
            urls = []
            for child in parsed.sub_sitemaps:
                target = local_path(site_dir, base_url, child.url)
                if target.suffix in (".xml", ".gz") and "-news" not in target.name:
                    urls.extend(pages(target))
            return urls
        return [page.url for page in parsed.all_pages()]

    return pages(site_dir / filename)


def as_usp_reads(loc: str) -> str:
    """What ultimate-sitemap-parser makes of a ``<loc>`` we wrote: it HTML-unescapes the text
    the XML parser already unescaped, so a path holding ``&gt`` reads back as ``>``. Crawlers
    and lxml read the exact URL; the comparison allows for that one quirk of the checker."""
    return html.unescape(loc)


def robots_sitemaps(robots_txt: Path) -> list[str]:
    """The ``Sitemap:`` URLs protego reads from a robots.txt."""
    from protego import Protego

    return list(Protego.parse(robots_txt.read_text(encoding="utf-8")).sitemaps)


def locs(path: Path) -> list[str]:
    root = etree.fromstring(read_bytes(path))
    return [el.text for el in root.iter(f"{{{SITEMAP_NS}}}loc")]
