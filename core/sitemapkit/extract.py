"""What a rendered page says about itself.

Everything here comes from markup any generator writes: the robots meta, the canonical and
hreflang links, Open Graph article dates, ``<img>`` and ``<video>`` in the main content, and
a fingerprint of that content (so lastmod can move only when the content does).

This runs once per page of every build, so it must cost little next to the generator's own
rendering: it scans the bytes for the few tags it needs instead of building a tree. A tag
is matched with its quoted attribute values whole, comments and ``<script>``/``<style>``
bodies are cut out before scanning, and attribute values are unescaped as HTML, so
generator output (which is well-formed) reads the same as a full parser would read it.
"""

from __future__ import annotations

import codecs
import functools
import html
import re
import zlib
from dataclasses import dataclass
from pathlib import Path

from .urls import resolve

# A start tag and its attributes; quoted values may hold ">".
_ATTRIBUTES = rb"""((?:[^>"']|"[^"]*"|'[^']*')*)>"""
_HEAD_TAG = re.compile(rb"<(meta|link|html)\b" + _ATTRIBUTES, re.IGNORECASE)
_CONTENT_TAG = re.compile(rb"<(img|video|source|/video)\b" + _ATTRIBUTES, re.IGNORECASE)
_ATTRIBUTE = re.compile(rb"""([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?""")
_HEAD_WORDS = re.compile(rb"robots|googlebot|article:|og:updated|canonical|hreflang", re.IGNORECASE)
_TITLE = re.compile(rb"<title\b[^>]*>(.*?)</title\s*>", re.IGNORECASE | re.DOTALL)
_NOT_CONTENT = re.compile(
    rb"<!--.*?-->|<(script|style|template)\b.*?</\1\s*>", re.IGNORECASE | re.DOTALL
)
_HEAD_END = re.compile(rb"</head\s*>|<body[\s>]", re.IGNORECASE)
_MAIN_START = re.compile(rb"<main[\s>]", re.IGNORECASE)
_ROLE_MAIN = re.compile(rb"""<(\w+)\b[^>]*?\srole\s*=\s*["']?main\b""", re.IGNORECASE)
_ARTICLE_START = re.compile(rb"<article[\s>]", re.IGNORECASE)
_BODY = re.compile(rb"<body\b[^>]*>", re.IGNORECASE)
_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?([A-Za-z0-9_.:-]+)""", re.IGNORECASE)


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
    """A hash of the main content: its markup without comments and scripts."""


def read_page_html(source: str | bytes | Path, page_url: str) -> HtmlFacts:
    """Facts of one page; relative URLs are resolved against ``page_url``."""
    data = source.read_bytes() if isinstance(source, Path) else source
    if isinstance(data, str):
        data = data.encode("utf-8")
    if not data or not data.strip():
        return HtmlFacts()
    declared = _CHARSET.search(data, 0, 2048)
    encoding = _encoding(declared.group(1).decode("ascii") if declared else "utf-8")
    head_end = _HEAD_END.search(data)
    offset = head_end.start() if head_end else 0
    head = _without_comments(data[:offset])

    noindex = False
    canonical = lang = published = modified = None
    alternates: list[tuple[str, str]] = []
    for found in _HEAD_TAG.finditer(head):
        tag = found.group(1).lower()
        if tag != b"html" and not _HEAD_WORDS.search(found.group(2)):
            continue  # a stylesheet, a feed, a viewport: nothing for a sitemap
        attrs = _attributes(found.group(2), encoding)
        if tag == b"html":
            lang = attrs.get("lang", "").strip() or None
        elif tag == b"meta":
            name = (attrs.get("name") or attrs.get("property") or "").lower()
            content = attrs.get("content", "").strip()
            if name in ("robots", "googlebot"):
                directives = {d.strip().lower() for d in content.split(",")}
                noindex = noindex or bool(directives & {"noindex", "none"})
            elif name == "article:published_time":
                published = content or None
            elif name in ("article:modified_time", "og:updated_time"):
                modified = modified or content or None
        else:
            rels = attrs.get("rel", "").lower().split()
            href = attrs.get("href", "").strip()
            if href and "canonical" in rels and canonical is None:
                canonical = resolve(page_url, href)
            elif href and "alternate" in rels and attrs.get("hreflang"):
                alternates.append((attrs["hreflang"].strip(), resolve(page_url, href)))
    title = _TITLE.search(head)

    images, videos, digest = _content(_main_content(data, offset), page_url, encoding)
    return HtmlFacts(
        noindex=noindex,
        canonical=canonical,
        alternates=tuple(alternates),
        images=images,
        videos=videos,
        title=_text(title.group(1), encoding) if title else None,
        lang=lang,
        published=published,
        modified=modified,
        digest=digest,
    )


def _encoding(name: str) -> str:
    """Generators write UTF-8 unless the page says otherwise."""
    try:
        return codecs.lookup(name).name
    except LookupError:
        return "utf-8"


def _without_comments(data: bytes) -> bytes:
    return _NOT_CONTENT.sub(b"", data)


def _attributes(raw: bytes, encoding: str) -> dict[str, str]:
    attrs: dict[str, str] = {}
    for name, double, single, bare in _ATTRIBUTE.findall(raw):
        key = name.decode("ascii", "replace").lower()
        if key not in attrs:
            value = double or single or bare
            attrs[key] = html.unescape(value.decode(encoding, "replace")) if value else ""
    return attrs


def _main_content(data: bytes, offset: int) -> bytes:
    """The page's own content, not the theme around it: ``<main>`` or the ``role="main"``
    element, else the one ``<article>``, else ``<body>``."""
    for pattern in (_MAIN_START, _ROLE_MAIN):
        found = pattern.search(data, offset)
        if found:
            return data[found.start() : _element_end(data, found.start())]
    articles = _ARTICLE_START.findall(data, offset)
    if len(articles) == 1:
        start = data.find(articles[0], offset)
        return data[start : _element_end(data, start)]
    body = _BODY.search(data, offset)
    return data[body.end() if body else offset :]


@functools.cache
def _open_and_close(name: bytes) -> re.Pattern[bytes]:
    return re.compile(rb"<(/?)" + re.escape(name) + rb"\b[^>]*>", re.IGNORECASE)


def _element_end(data: bytes, start: int) -> int:
    """Where the element starting at ``start`` ends: its matching close tag, nesting counted."""
    name = re.match(rb"<(\w+)", data[start : start + 64]).group(1).lower()
    depth = 0
    for tag in _open_and_close(name).finditer(data, start):
        depth += -1 if tag.group(1) else 1
        if depth == 0:
            return tag.end()
    return len(data)


def _content(region: bytes, page_url: str, encoding: str):
    region = _without_comments(region)
    if not region.strip():
        return (), (), None
    images: dict[str, None] = {}
    videos: list[dict[str, str]] = []
    video: dict[str, str] | None = None
    for found in _CONTENT_TAG.finditer(region):
        tag = found.group(1).lower()
        if tag == b"/video":
            if video is not None:
                videos.append(_video_fields(video, page_url))
            video = None
            continue
        attrs = _attributes(found.group(2), encoding)
        src = attrs.get("src", "").strip()
        if tag == b"img":
            if src and not src.startswith("data:"):
                images.setdefault(resolve(page_url, src), None)
        elif tag == b"video":
            video = attrs
        elif video is not None and src and not video.get("src"):  # the first <source>
            video["src"] = src
    # Two fast checksums and the length: plenty to notice an edit, at memory speed.
    digest = f"{zlib.crc32(region):08x}{zlib.adler32(region):08x}{len(region):x}"
    return tuple(images), tuple(v for v in videos if v), digest


def _video_fields(attrs: dict[str, str], page_url: str) -> dict[str, str]:
    """A ``<video>`` as sitemap fields: ``poster`` is the thumbnail, ``src`` (or the first
    ``<source>``) the content, ``title`` (or ``aria-label``) the title and
    ``data-description`` the description. Missing ones are left for the rules to report."""
    fields = {
        "thumbnail_loc": attrs.get("poster"),
        "title": attrs.get("title") or attrs.get("aria-label"),
        "description": attrs.get("data-description"),
        "content_loc": attrs.get("src"),
    }
    for key in ("thumbnail_loc", "content_loc"):
        if fields[key]:
            fields[key] = resolve(page_url, fields[key])
    return {key: value.strip() for key, value in fields.items() if value and value.strip()}


def _text(raw: bytes, encoding: str) -> str | None:
    text = " ".join(html.unescape(re.sub(rb"<[^>]*>", b"", raw).decode(encoding, "replace")).split())
    return text or None
