"""What a rendered page says about itself, read in one pass over its HTML.

Everything here comes from markup any generator writes: the robots meta, the canonical and
hreflang links, Open Graph article dates, ``<img>`` and ``<video>`` in the main content, and
a fingerprint of that content (so lastmod can move only when the content does).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urljoin

from lxml import etree, html

_SPACES = re.compile(r"\s+")
_MAIN = etree.XPath("//main | //*[@role='main']")
_ARTICLES = etree.XPath("//article")
_NOT_CONTENT = {"script", "style", "noscript", "template"}


@dataclass(frozen=True, slots=True)
class HtmlFacts:
    noindex: bool = False
    canonical: str | None = None
    alternates: tuple[tuple[str, str], ...] = ()
    """``(hreflang, absolute href)`` from ``<link rel="alternate" hreflang>``."""
    images: tuple[str, ...] = ()
    videos: tuple[dict[str, str], ...] = ()
    title: str | None = None
    lang: str | None = None
    published: str | None = None
    modified: str | None = None
    digest: str | None = None
    """A hash of the main content: its text and the media it shows."""


def read_page_html(source: str | bytes | Path, page_url: str) -> HtmlFacts:
    """Facts of one page; relative URLs are resolved against ``page_url``."""
    data = source.read_bytes() if isinstance(source, Path) else source
    if not data or not data.strip():
        return HtmlFacts()
    try:
        root = html.document_fromstring(data)
    except (etree.ParserError, ValueError):
        return HtmlFacts()

    noindex = False
    canonical = None
    alternates: list[tuple[str, str]] = []
    published = modified = None
    for element in root.iter("meta", "link"):
        if element.tag == "meta":
            name = (element.get("name") or element.get("property") or "").lower()
            content = element.get("content") or ""
            if name in ("robots", "googlebot"):
                directives = {d.strip().lower() for d in content.split(",")}
                noindex = noindex or bool(directives & {"noindex", "none"})
            elif name == "article:published_time":
                published = content.strip() or None
            elif name in ("article:modified_time", "og:updated_time"):
                modified = modified or content.strip() or None
            continue
        rels = (element.get("rel") or "").lower().split()
        href = element.get("href")
        if not href:
            continue
        if "canonical" in rels and canonical is None:
            canonical = urljoin(page_url, href.strip())
        elif "alternate" in rels and element.get("hreflang"):
            alternates.append((element.get("hreflang").strip(), urljoin(page_url, href.strip())))

    main = _main_content(root)
    images, videos, digest = _content(main, page_url) if main is not None else ((), (), None)
    title_element = root.find(".//title")
    title = _text(title_element) if title_element is not None else None
    return HtmlFacts(
        noindex=noindex,
        canonical=canonical,
        alternates=tuple(alternates),
        images=images,
        videos=videos,
        title=title or None,
        lang=(root.get("lang") or "").strip() or None,
        published=published,
        modified=modified,
        digest=digest,
    )


def _main_content(root):
    """The page's own content, not the theme around it: ``<main>`` or ``role=main``, else
    the one ``<article>``, else ``<body>``."""
    found = _MAIN(root)
    if found:
        return found[0]
    articles = _ARTICLES(root)
    if len(articles) == 1:
        return articles[0]
    return root.find("body")


def _content(main, page_url: str):
    images: list[str] = []
    videos: list[dict[str, str]] = []
    hasher = hashlib.blake2b(digest_size=16)
    for element in main.iter("img", "video"):
        if element.tag == "img":
            src = (element.get("src") or "").strip()
            if src and not src.startswith("data:"):
                images.append(urljoin(page_url, src))
        else:
            video = _video(element, page_url)
            if video:
                videos.append(video)
    etree.strip_elements(main, etree.Comment, *_NOT_CONTENT, with_tail=False)
    text = " ".join(main.itertext())
    hasher.update(_SPACES.sub(" ", text).strip().encode("utf-8"))
    for url in images:
        hasher.update(b"\0" + url.encode("utf-8"))
    for video in videos:
        hasher.update(b"\1" + repr(sorted(video.items())).encode("utf-8"))
    return tuple(dict.fromkeys(images)), tuple(videos), hasher.hexdigest()


def _video(element, page_url: str) -> dict[str, str]:
    """A ``<video>`` as sitemap fields: ``poster`` is the thumbnail, ``src`` (or the first
    ``<source>``) the content, ``title`` (or ``aria-label``) the title and
    ``data-description`` the description. Missing ones are left for the rules to report."""
    src = element.get("src") or next(
        (s.get("src") for s in element.iter("source") if s.get("src")), None
    )
    fields = {
        "thumbnail_loc": element.get("poster"),
        "title": element.get("title") or element.get("aria-label"),
        "description": element.get("data-description"),
        "content_loc": src,
    }
    for key in ("thumbnail_loc", "content_loc"):
        if fields[key]:
            fields[key] = urljoin(page_url, fields[key].strip())
    return {key: value.strip() for key, value in fields.items() if value and value.strip()}


def _text(element) -> str:
    return _SPACES.sub(" ", element.text_content()).strip()
