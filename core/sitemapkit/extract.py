"""What a rendered page says about itself, read in one pass over its HTML.

Everything here comes from markup any generator writes: the robots meta, the canonical and
hreflang links, Open Graph article dates, ``<img>`` and ``<video>`` in the main content, and
a fingerprint of that content (so lastmod can move only when the content does).
"""

from __future__ import annotations

import codecs
import functools
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urljoin

from lxml import etree

_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?([A-Za-z0-9_.:-]+)""", re.IGNORECASE)
_HEAD_END = re.compile(rb"</head\s*>|<body[\s>]", re.IGNORECASE)
_MAIN_START = re.compile(rb"<main[\s>]", re.IGNORECASE)
_ROLE_MAIN = re.compile(rb"""\srole\s*=\s*["']?main\b""", re.IGNORECASE)
_ARTICLE_START = re.compile(rb"<article[\s>]", re.IGNORECASE)
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
    """Facts of one page; relative URLs are resolved against ``page_url``.

    Only two slices of the page are parsed: the head, and the main content. Theme navigation,
    often most of a documentation page's bytes, is never parsed: this runs once per page of
    every build, so it has to cost little next to the generator's own rendering.
    """
    data = source.read_bytes() if isinstance(source, Path) else source
    if isinstance(data, str):
        data = data.encode("utf-8")
    if not data or not data.strip():
        return HtmlFacts()
    head_end = _HEAD_END.search(data)
    offset = head_end.start() if head_end else 0
    declared = _CHARSET.search(data, 0, 2048)
    parser = _parser(declared.group(1).decode("ascii").lower() if declared else "utf-8")
    head = _parse(data[:offset], parser) if head_end else None

    noindex = False
    canonical = title = lang = published = modified = None
    alternates: list[tuple[str, str]] = []
    if head is not None:
        lang = (head.get("lang") or "").strip() or None
        title_element = head.find("head/title")
        title = _text(title_element) if title_element is not None else None
        for element in head.iter("meta", "link"):
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
            href = (element.get("href") or "").strip()
            if href and "canonical" in rels and canonical is None:
                canonical = urljoin(page_url, href)
            elif href and "alternate" in rels and element.get("hreflang"):
                alternates.append((element.get("hreflang").strip(), urljoin(page_url, href)))

    main = _main_content(data, offset, parser)
    images, videos, digest = _content(main, page_url) if main is not None else ((), (), None)
    return HtmlFacts(
        noindex=noindex,
        canonical=canonical,
        alternates=tuple(alternates),
        images=images,
        videos=videos,
        title=title or None,
        lang=lang,
        published=published,
        modified=modified,
        digest=digest,
    )


@functools.cache
def _parser(encoding: str) -> etree.HTMLParser:
    """Slices of a page carry no ``<meta charset>`` of their own: tell the parser. Generators
    write UTF-8 unless the page says otherwise."""
    try:
        codecs.lookup(encoding)
    except LookupError:
        encoding = "utf-8"
    return etree.HTMLParser(encoding=encoding, remove_comments=True, remove_pis=True, no_network=True)


def _parse(data: bytes, parser: etree.HTMLParser):
    try:
        return etree.fromstring(data, parser)
    except (etree.ParserError, etree.XMLSyntaxError, ValueError, LookupError):
        return None


def _main_content(data: bytes, offset: int, parser: etree.HTMLParser):
    """The page's own content, not the theme around it: ``<main>`` or ``role=main``, else
    the one ``<article>``, else ``<body>``. Found in the bytes first, then parsed alone."""
    end = len(data)
    found = _MAIN_START.search(data, offset)
    if found:
        start = found.start()
        close = data.rfind(b"</main>")
        end = close + 7 if close > start else end
    elif (found := _ROLE_MAIN.search(data, offset)) is not None:
        start = data.rfind(b"<", offset, found.start())
    else:
        articles = _ARTICLE_START.findall(data, offset)
        start = data.find(articles[0], offset) if len(articles) == 1 else offset
        close = data.rfind(b"</article>") if len(articles) == 1 else -1
        end = close + 10 if close > start else end
    root = _parse(data[max(start, 0):end], parser)
    if root is None:
        return None
    body = root.find("body")
    if body is None:
        return None
    if start > offset and len(body):
        return body[0]
    return body


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
    etree.strip_elements(main, *_NOT_CONTENT, with_tail=False)
    hasher.update(etree.tostring(main, encoding="utf-8", with_tail=False))
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
    return " ".join("".join(element.itertext()).split())
