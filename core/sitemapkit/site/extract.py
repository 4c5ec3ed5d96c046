"""What a rendered page says about itself.

Everything here comes from markup any generator writes: the robots meta, the canonical and
hreflang links, Open Graph article dates, ``<img>`` and ``<video>`` in the main content, and
a fingerprint of that content (so lastmod can move only when the content does). The head is
read here; the main content in ``site.content``, with the scans of ``site.markup``; attribute
values too long to be URLs are cut as the page is read (``site.long_values``).

This runs once per page of every build, so it must cost little next to the generator's own
rendering: it scans the bytes for the few tags it needs instead of building a tree. A tag
is matched with its quoted attribute values whole, comments and ``<script>``/``<style>``
bodies are cut out before scanning, and attribute values are unescaped as HTML, so
generator output (which is well-formed) reads the same as a full parser would read it.
"""

import html
import os
import re
from collections.abc import Iterator
from typing import NamedTuple

from sitemapkit.patterns import lazy_pattern
from sitemapkit.protocol import PAGE_READ_BYTES
from sitemapkit.site.content import digest_of, main_region, read_content
from sitemapkit.site.files import BLOCK, open_regular
from sitemapkit.site.long_values import LONG_VALUE, squeeze
from sitemapkit.site.markup import (
    ATTRIBUTES,
    HEAD_CLOSE,
    attributes,
    declared_encoding,
    head_end,
    head_end_mark,
    head_end_text,
    hiding,
    without_comments,
)
from sitemapkit.site.pages import not_a_page
from sitemapkit.urls import resolve

# Patterns that run over a page's lower-cased copy (same offsets, and no IGNORECASE, which
# costs more than the lowering once a page carries a big navigation tree).
_head_tag = lazy_pattern(rb"<(meta|link)\b" + ATTRIBUTES)


_head_tag_name = lazy_pattern(rb"<(?:meta|link)\b")


_html_tag = lazy_pattern(rb"<(html)\b" + ATTRIBUTES)


# What the tags ``_head_facts`` reads hold, one word each (``bot``: robots, googlebot; ``_time``:
# article:published_time, article:modified_time, og:updated_time). Performance: four finds, not
# six (measured: 2.6 k instructions less a Pelican head); a tag a word finds that holds none of
# the names is read and passed over.
_HEAD_WORDS = (b"bot", b"_time", b"canonical", b"hreflang")


_title_element = lazy_pattern(rb"(?s)<title\b[^>]*>(.*?)</title\s*>")


_HEAD_BYTES = 4096


_any_tag = lazy_pattern(rb"<[^>]*>")


class HtmlFacts(NamedTuple):
    noindex: bool = False
    canonical: str | None = None
    alternates: tuple[tuple[str, str], ...] = ()
    """``(hreflang, absolute href)`` from ``<link rel="alternate" hreflang>``."""
    images: tuple[str, ...] = ()
    videos: tuple[dict[str, str], ...] = ()
    published: str | None = None
    modified: str | None = None
    digest: str | None = None
    """A hash of the main content: its markup without comments and scripts."""
    head: bytes = b""
    """The page up to its body, raw: ``title`` and ``lang`` are read from it only when asked
    for, as most adapters know both already."""
    long_values: tuple[tuple[str, int], ...] = ()
    """``("img src", size)`` for each URL attribute too long to be a URL, left unread."""
    cut: int = 0
    """The size of a page larger than ``PAGE_READ_BYTES``, read from its start only (its
    digest covers all of it); 0 for a page read whole."""
    not_page: str | None = None
    """Why its head says it is no page (``pages.not_a_page``: a redirect, a fragment), None for
    a page: asked as the page is read, of the lower-cased copy the read makes anyway (facts
    made otherwise, not read from a page's markup, say None)."""

    @property
    def title(self) -> str | None:
        found = self._in_head(_title_element(), 1)
        return _text(*found) if found else None

    @property
    def lang(self) -> str | None:
        found = self._in_head(_html_tag(), 2)
        return (attributes(*found).get("lang", "").strip() or None) if found else None

    def _in_head(self, pattern: re.Pattern[bytes], group: int) -> tuple[bytes, str] | None:
        """``group`` of the first match of ``pattern`` in the head (comments and scripts
        aside), raw, with the encoding the page declares."""
        head, lowered = without_comments(self.head, self.head.lower())
        found = pattern.search(lowered)
        return (head[found.start(group) : found.end(group)], declared_encoding(head)) if found else None


def read_page_html(markup: str | bytes, page_url: str, *, content: str | None = None) -> HtmlFacts:
    """Facts of one page; relative URLs are resolved against ``page_url``.

    When the adapter has the page's own rendered ``content`` (an article's body), images,
    videos and the fingerprint come from that, and ``markup`` serves only for its head
    (robots, canonical, hreflang).
    """
    data = markup.encode("utf-8") if isinstance(markup, str) else markup
    long_values: list[tuple[str, int]] = []
    size, whole = len(data), None
    if size > LONG_VALUE:
        blocks = (data[i : i + BLOCK] for i in range(0, size, BLOCK))
        data = squeeze(blocks, long_values, PAGE_READ_BYTES)
        if next(blocks, None) is not None and content is None:  # read from its start only
            whole = digest_of((markup.encode("utf-8") if isinstance(markup, str) else markup,))
    facts = _read_html(data, page_url, content, long_values)
    return facts._replace(digest=whole, cut=size) if whole is not None else facts


def _read_html(data: bytes, page_url: str, content: str | None, long_values: list[tuple[str, int]]) -> HtmlFacts:
    if content is not None:
        facts = _facts(data, page_url, content.encode("utf-8"))
    elif not data or not data.strip():
        facts = HtmlFacts()
    else:
        facts = _facts(data, page_url, None)
    return facts._replace(long_values=tuple(long_values)) if long_values else facts


def read_head_html(data: bytes, page_url: str) -> HtmlFacts:
    """The head's facts (robots, canonical, hreflang, dates) of a page's first bytes, as a
    crawler that read only that far has them: the head ends at ``</head>`` or ``<body>``, or
    with ``data`` when neither is in it. Linear in ``len(data)``."""
    found = head_end_mark().search(data)
    head = data[: found.start()] if found else data
    noindex, canonical, alternates, published, modified = _head_facts(head, head.lower(), page_url)
    return HtmlFacts(noindex, canonical, alternates, published=published, modified=modified, head=head)


def head_of(markup: str) -> str:
    """``markup`` through the start of its body (all of it when it has no head): as much
    of a page as ``read_page_html`` reads when it is given the page's ``content`` too. An
    adapter holding each rendered page in memory keeps this instead of the whole page.

    Performance: the ``</head`` most pages write is found with a plain find (measured: 2.7 k
    instructions a Pelican page, against 7.4 k for the case-insensitive search). What it keeps
    may run past an earlier end written otherwise (``<BODY>``, ``<body>`` with no ``</head>``
    before it): ``read_page_html`` finds that end in what it is given, and reads the same."""
    end = markup.find(HEAD_CLOSE)
    if end >= 0:
        return markup[: end + len(HEAD_CLOSE)]
    found = head_end_text().search(markup)
    return markup[: found.end()] if found else markup


def read_page_file(path: str | os.PathLike[str], page_url: str, *, content: str | None = None) -> HtmlFacts:
    """``read_page_html`` of a written page; a missing file has no facts. With ``content``,
    only the head of the file is read.

    Only a regular file is opened (``files.NotRegularFile``, an ``OSError``, for a pipe,
    socket or device, which would hang or never end); an attribute value longer than
    ``LONG_VALUE`` bytes is not kept in memory (see ``squeeze``)."""
    long_values: list[tuple[str, int]] = []
    try:
        fd = open_regular(path)
    except (FileNotFoundError, IsADirectoryError):
        return read_page_html(b"", page_url, content=content)
    whole = None
    try:
        size = os.fstat(fd).st_size
        if content is not None:
            data = _read_head(fd, long_values)
        elif size <= LONG_VALUE:  # no value can be too long: most pages
            data = b"".join(_chunks(fd))
        else:
            data = squeeze(_chunks(fd), long_values, PAGE_READ_BYTES)
            if os.read(fd, 1):  # read from its start only: the digest covers the rest too
                os.lseek(fd, 0, os.SEEK_SET)
                whole = digest_of(iter(lambda: os.read(fd, BLOCK), b""))
    finally:
        os.close(fd)
    facts = _read_html(data, page_url, content, long_values)
    return facts._replace(digest=whole, cut=size) if whole is not None else facts


def _chunks(fd: int, first: bytes = b"") -> Iterator[bytes]:
    if first:
        yield first
    while chunk := os.read(fd, BLOCK):
        yield chunk


def _read_head(fd: int, long_values: list[tuple[str, int]]) -> bytes:
    """The start of the file, through ``</head>``: one page of the file for most themes, the
    first ``PAGE_READ_BYTES`` when there is no head. Plain ``os`` calls: this runs once per page."""
    data = os.read(fd, _HEAD_BYTES)
    if len(data) == _HEAD_BYTES and head_end_mark().search(data) is None:
        data = squeeze(_chunks(fd, data), long_values, PAGE_READ_BYTES)
    return data


def _facts(data: bytes, page_url: str, own: bytes | None) -> HtmlFacts:
    """``own``: the page's own content, when the adapter gave it; else the main region of ``data``."""
    lowered = data.lower()
    offset = head_end(lowered)  # a page without </head> and <body> has one too
    head, head_lowered = data[:offset], lowered[:offset]
    not_page = not_a_page(head, head_lowered)
    noindex, canonical, alternates, published, modified = _head_facts(head, head_lowered, page_url)
    if own is not None:
        images, videos, digest = read_content(own, None, page_url, "utf-8")
    else:
        start, end = main_region(lowered, offset)
        images, videos, digest = read_content(data[start:end], lowered[start:end], page_url, declared_encoding(data))
    return HtmlFacts(noindex, canonical, alternates, images, videos, published, modified, digest, head, (), 0, not_page)


_NO_HEAD_FACTS = (False, None, (), None, None)


def _head_facts(head: bytes, lowered: bytes, page_url: str):
    """``(noindex, canonical, alternates, published, modified)`` from the head's tags."""
    tags = _head_tags(lowered)
    if not tags:  # most heads: nothing to read
        return _NO_HEAD_FACTS
    # Comments and scripts are cut out only when one starts before a tag ends; a theme's
    # scripts mostly come after the links and metas read here, which then stay the same.
    hidden = hiding().search(lowered, 0, tags[-1].end())
    if hidden is not None:
        head, lowered = without_comments(head, lowered)
        tags = _head_tags(lowered)
    encoding = None
    noindex = False
    canonical = published = modified = None
    alternates: list[tuple[str, str]] = []
    for found in tags:
        raw = head[found.start(2) : found.end(2)]
        # Performance: the declared charset is looked for only when a tag holds more than
        # ASCII, which every charset a tag can be matched in reads the same (measured: 0.9 µs
        # a page).
        if raw.isascii():
            attrs = attributes(raw, "ascii")
        else:
            encoding = encoding or declared_encoding(head)
            attrs = attributes(raw, encoding)
        if found.group(1) == b"meta":
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
    return noindex, canonical, tuple(alternates), published, modified


def _head_tags(head: bytes) -> list[re.Match[bytes]]:
    """The ``<meta>``/``<link>`` tags that may matter to a sitemap, in document order.

    Found back from the words they must hold (robots, canonical...), of which most heads
    have few, rather than by reading every stylesheet, script and viewport tag; each word
    is looked for with ``bytes.find``, far faster than one regex of all of them.
    """
    starts = []
    for word in _HEAD_WORDS:
        at, before, start = head.find(word), 0, -1
        while at >= 0:
            # the "<" before this word: looked for back to the previous one only (so each byte
            # is looked at once per word), else it is the previous one's
            found = head.rfind(b"<", before, at)
            start = found if found >= 0 else start
            starts.append(start)
            before, at = at, head.find(word, at + len(word))
    tags: list[re.Match[bytes]] = []
    end = 0
    for start in sorted(set(starts)) if len(starts) > 1 else starts:
        if start < end:
            continue  # inside a tag already read (a value that holds "<meta"): not a tag
        tag = _head_tag().match(head, start)
        if tag is not None:
            tags.append(tag)
            end = tag.end()
        elif _head_tag_name().match(head, start):
            break  # a <meta> or <link> that never ends: the rest of the head is inside it
    return tags


def file_digest(path: str | os.PathLike[str]) -> str:
    """The digest of a whole file's bytes (a PDF listed by ``include``), read in blocks."""
    with open(open_regular(path), "rb") as handle:
        return digest_of(iter(lambda: handle.read(BLOCK), b""))


def _text(raw: bytes, encoding: str) -> str | None:
    text = " ".join(html.unescape(_any_tag().sub(b"", raw).decode(encoding, "replace")).split())
    return text or None

