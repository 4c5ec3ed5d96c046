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

import codecs
import functools
import html
import os
import re
import zlib
from collections.abc import Iterator
from typing import NamedTuple
from urllib.parse import urlsplit

from sitemapkit.urls import resolve
from sitemapkit.site.files import BLOCK, open_regular
from sitemapkit.listing.images import decorative

# A start tag's attributes and its end; quoted values may hold ">". Written as runs of plain
# characters between quoted values, which the regex engine takes far faster than one
# character at a time.
_ATTRIBUTES = rb"""([^>"']*(?:(?:"[^"]*"|'[^']*')[^>"']*)*)>"""
# Patterns that run over a page's lower-cased copy (same offsets, and no IGNORECASE, which
# costs more than the lowering once a page carries a big navigation tree).
_HEAD_TAG = re.compile(rb"<(meta|link)\b" + _ATTRIBUTES)
_HEAD_TAG_NAME = re.compile(rb"<(?:meta|link)\b")
_HTML_TAG = re.compile(rb"<(html)\b" + _ATTRIBUTES)
_CONTENT_NAME = re.compile(rb"<(img|video|source|/video)\b")
_CONTENT_TAG = re.compile(rb"<(img|video|source|/video)\b" + _ATTRIBUTES)
_CONTENT_START = re.compile(rb"<(?:img|video)\b")
_LINK_TAG = re.compile(rb"<a\b" + _ATTRIBUTES)
_LINK_END = re.compile(rb"</a\s*>")
_LINK_OPEN = re.compile(rb"<a[\s>]")
# Whatever makes a content region more than text to checksum, any case: one quick look.
_NOTABLE = re.compile(rb"<(?:!--|script|style|template|img|video)", re.IGNORECASE)
_ATTRIBUTE = re.compile(rb"""([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?""")
_HEAD_WORDS = (b"robots", b"googlebot", b"article:", b"og:updated", b"canonical", b"hreflang")
_HIDING = re.compile(rb"<(?:!--|script|style|template)")
_TITLE = re.compile(rb"(?s)<title\b[^>]*>(.*?)</title\s*>")
# Where a comment or a script, style or template body starts, and what ends each; found with
# plain searches, each byte looked at a bounded number of times (see ``_hidden``).
_HIDDEN_START = re.compile(rb"<(?:!--|(script|style|template)\b)")
_HIDDEN_END = {name: re.compile(rb"</" + name + rb"\s*>") for name in (b"script", b"style", b"template")}
_MAIN_START = re.compile(rb"<main[\s>]")
_ROLE_MAIN = re.compile(rb"""role\s*=\s*["']?main\b""")
_SPACE = (b" ", b"\t", b"\n", b"\r", b"\f")
_ARTICLE_START = re.compile(rb"<article[\s>]")
_BODY = re.compile(rb"<body\b[^>]*>")
# Runs over the raw page, and stops within its first kilobytes.
_HEAD_END = re.compile(rb"</head|<body", re.IGNORECASE)
_HEAD_BYTES = 4096
_TAG_NAME = re.compile(rb"<([A-Za-z][\w-]*)")
_ELEMENT_NAME = re.compile(rb"<(\w+)")
_ANY_TAG = re.compile(rb"<[^>]*>")
_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?([A-Za-z0-9_.:-]+)""", re.IGNORECASE)



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

    @property
    def title(self) -> str | None:
        found = self._in_head(_TITLE, 1)
        return _text(*found) if found else None

    @property
    def lang(self) -> str | None:
        found = self._in_head(_HTML_TAG, 2)
        return (_attributes(*found).get("lang", "").strip() or None) if found else None

    def _in_head(self, pattern: re.Pattern[bytes], group: int) -> tuple[bytes, str] | None:
        """``group`` of the first match of ``pattern`` in the head (comments and scripts
        aside), raw, with the encoding the page declares."""
        head, lowered = _without_comments(self.head, self.head.lower())
        found = pattern.search(lowered)
        return (head[found.start(group) : found.end(group)], _declared_encoding(head)) if found else None


def read_page_html(markup: str | bytes, page_url: str, *, content: str | None = None) -> HtmlFacts:
    """Facts of one page; relative URLs are resolved against ``page_url``.

    When the adapter has the page's own rendered ``content`` (an article's body), images,
    videos and the fingerprint come from that, and ``markup`` serves only for its head
    (robots, canonical, hreflang).
    """
    data = markup.encode("utf-8") if isinstance(markup, str) else markup
    long_values: list[tuple[str, int]] = []
    if len(data) > LONG_VALUE:
        data = _squeeze((data[i : i + BLOCK] for i in range(0, len(data), BLOCK)), long_values)
    return _read_html(data, page_url, content, long_values)


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
    found = _HEAD_END.search(data)
    head = data[: found.start()] if found else data
    noindex, canonical, alternates, published, modified = _head_facts(head, head.lower(), page_url)
    return HtmlFacts(noindex, canonical, alternates, published=published, modified=modified, head=head)


_HEAD_END_TEXT = re.compile(r"</head|<body", re.IGNORECASE)


def head_of(markup: str) -> str:
    """``markup`` through the start of its body (all of it when it has no head): as much
    of a page as ``read_page_html`` reads when it is given the page's ``content`` too. An
    adapter holding each rendered page in memory keeps this instead of the whole page."""
    found = _HEAD_END_TEXT.search(markup)
    return markup[: found.end()] if found else markup


def read_page_file(path: str | os.PathLike[str], page_url: str, *, content: str | None = None) -> HtmlFacts:
    """``read_page_html`` of a written page; a missing file has no facts. With ``content``,
    only the head of the file is read.

    Only a regular file is opened (``files.NotRegularFile``, an ``OSError``, for a pipe,
    socket or device, which would hang or never end); an attribute value longer than
    ``LONG_VALUE`` bytes is not kept in memory (see ``_squeeze``)."""
    long_values: list[tuple[str, int]] = []
    try:
        fd = open_regular(path)
    except (FileNotFoundError, IsADirectoryError):
        return read_page_html(b"", page_url, content=content)
    try:
        if content is not None:
            data = _read_head(fd, long_values)
        elif os.fstat(fd).st_size <= LONG_VALUE:  # no value can be too long: most pages
            data = b"".join(_chunks(fd))
        else:
            data = _squeeze(_chunks(fd), long_values)
    finally:
        os.close(fd)
    return _read_html(data, page_url, content, long_values)


def _chunks(fd: int, first: bytes = b"") -> Iterator[bytes]:
    if first:
        yield first
    while chunk := os.read(fd, BLOCK):
        yield chunk


def _read_head(fd: int, long_values: list[tuple[str, int]]) -> bytes:
    """The start of the file, through ``</head>``: one page of the file for most themes, the
    whole file when there is no head. Plain ``os`` calls: this runs once per page."""
    data = os.read(fd, _HEAD_BYTES)
    if len(data) == _HEAD_BYTES and _HEAD_END.search(data) is None:
        data = _squeeze(_chunks(fd, data), long_values)
    return data


LONG_VALUE = 1 << 16
"""Attribute values longer than this many bytes are not read: no URL is that long."""
# A quoted value's start. The name starts only where a name can (the lookbehind): without it,
# a search over a long run of name characters with no "=" retried from every byte of the run,
# which made a page of long words in comments quadratic (64 KiB: 30 s).
_VALUE_START = re.compile(rb"""(?<![^\s"'<>/=])([^\s"'<>/=]+)[ \t\r\n\f]*=[ \t\r\n\f]*(["'])""")
_URL_ATTRIBUTES = (b"src", b"href", b"poster")


def _squeeze(chunks: Iterator[bytes], long_values: list[tuple[str, int]]) -> bytes:
    """The bytes of ``chunks`` with every quoted attribute value longer than ``LONG_VALUE``
    emptied, so that memory is bounded by the page's markup, not by the size of a value.

    A checksum and the length of what was cut stay beside it (``data-sitemapkit-long``), so
    the content fingerprint still notices an edit; a ``data:`` value stays a ``data:`` value.
    Each cut URL attribute (``src``, ``href``, ``poster``) is added to ``long_values``."""
    out: list[bytes] = []
    buffer = b""
    for chunk in chunks:
        buffer += chunk
        at = 0  # bytes of ``buffer`` before ``at`` are read: kept, not copied again per value
        while True:
            found = _VALUE_START.search(buffer, at)
            if found is None:
                cut = max(at, len(buffer) - 256)  # an "=" and its quote may still come
                out.append(buffer[:cut])
                buffer = buffer[cut:]
                break
            quote, start = found.group(2), found.end()
            end = buffer.find(quote, start, start + LONG_VALUE + 1)
            if end >= 0:
                at = end + 1
                continue
            if len(buffer) - start <= LONG_VALUE:  # the value may end in the next chunk
                out.append(buffer[: found.start()])
                buffer = buffer[found.start() :]
                break
            buffer = _skip_value(buffer, found, chunks, out, long_values)
            at = 0
    out.append(buffer)
    return b"".join(out)


def _skip_value(buffer: bytes, found: re.Match[bytes], chunks: Iterator[bytes], out: list[bytes],
                long_values: list[tuple[str, int]]) -> bytes:
    """Cut the long value ``found`` starts, reading on until its closing quote; what follows."""
    quote, start = found.group(2), found.end()
    name = found.group(1).lower()
    prefix = b"data:," if buffer[start : start + 5].lower() == b"data:" else b""
    out.append(buffer[:start] + prefix + quote + b" data-sitemapkit-long=" + quote)
    rest, crc, length = buffer[start:], 0, 0
    while True:
        end = rest.find(quote)
        if end >= 0:
            crc, length = zlib.crc32(rest[:end], crc), length + end
            break
        crc, length = zlib.crc32(rest, crc), length + len(rest)
        rest = next(chunks, b"")
        if not rest:
            end = 0
            break
    out.append(b"%d-%08x" % (length, crc))
    if name in _URL_ATTRIBUTES and not prefix:
        tag = _TAG_NAME.match(buffer[buffer.rfind(b"<", 0, found.start()) :])
        label = (tag.group(1).lower() + b" " if tag else b"") + name
        long_values.append((label.decode("ascii", "replace"), length))
    return rest[end:] if rest else quote


def _facts(data: bytes, page_url: str, own: bytes | None) -> HtmlFacts:
    """``own``: the page's own content, when the adapter gave it; else the main region of ``data``."""
    head_end = _HEAD_END.search(data)
    offset = head_end.start() if head_end else 0
    head = data[:offset]
    if own is not None:
        found = _head_facts(head, head.lower(), page_url)
        images, videos, digest = _content(own, None, page_url, "utf-8")
    else:
        lowered = data.lower()
        found = _head_facts(head, lowered[:offset], page_url)
        start, end = _main_content(lowered, offset)
        encoding = _declared_encoding(data)
        images, videos, digest = _content(data[start:end], lowered[start:end], page_url, encoding)
    noindex, canonical, alternates, published, modified = found
    return HtmlFacts(noindex, canonical, alternates, images, videos, published, modified, digest, head)


_NO_HEAD_FACTS = (False, None, (), None, None)


def _head_facts(head: bytes, lowered: bytes, page_url: str):
    """``(noindex, canonical, alternates, published, modified)`` from the head's tags."""
    tags = _head_tags(lowered)
    if not tags:  # most heads: nothing to read
        return _NO_HEAD_FACTS
    # Comments and scripts are cut out only when one starts before a tag ends; a theme's
    # scripts mostly come after the links and metas read here, which then stay the same.
    hiding = _HIDING.search(lowered, 0, tags[-1].end())
    if hiding is not None:
        head, lowered = _without_comments(head, lowered)
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
            attrs = _attributes(raw, "ascii")
        else:
            encoding = encoding or _declared_encoding(head)
            attrs = _attributes(raw, encoding)
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
        tag = _HEAD_TAG.match(head, start)
        if tag is not None:
            tags.append(tag)
            end = tag.end()
        elif _HEAD_TAG_NAME.match(head, start):
            break  # a <meta> or <link> that never ends: the rest of the head is inside it
    return tags


def _declared_encoding(data: bytes) -> str:
    """The charset a page declares in its first 2 KiB; generators write UTF-8 otherwise."""
    declared = _CHARSET.search(data, 0, 2048)
    return _encoding(declared.group(1).decode("ascii")) if declared else "utf-8"


def _encoding(name: str) -> str:
    """Generators write UTF-8 unless the page says otherwise."""
    try:
        return codecs.lookup(name).name
    except LookupError:
        return "utf-8"


def _without_comments(data: bytes, lowered: bytes) -> tuple[bytes, bytes]:
    """``data`` and its lower-cased copy without comments and script, style, template bodies."""
    if _HIDING.search(lowered) is None:
        return data, lowered
    kept, last = [], 0
    for start, end in _hidden(lowered):
        kept.append((last, start))
        last = end
    if not kept:
        return data, lowered
    kept.append((last, len(data)))
    return b"".join(data[a:b] for a, b in kept), b"".join(lowered[a:b] for a, b in kept)


def _hidden(lowered: bytes) -> Iterator[tuple[int, int]]:
    """``(start, end)`` of each comment and script, style or template element of ``lowered``,
    in order: the first ``-->`` (or ``</script>``...) after each start ends it. Linear in the
    size: once one start finds no end, no later start of its kind can, so none looks again."""
    at, unclosed = 0, set()
    while (found := _HIDDEN_START.search(lowered, at)) is not None:
        name = found.group(1)
        end = -1
        if name not in unclosed:
            if name is None:
                end = lowered.find(b"-->", found.end())
                end = end + 3 if end >= 0 else -1
            else:
                close = _HIDDEN_END[name].search(lowered, found.end())
                end = close.end() if close is not None else -1
        if end < 0:
            unclosed.add(name)
            at = found.start() + 1
            continue
        yield found.start(), end
        at = end


def _attributes(raw: bytes, encoding: str) -> dict[str, str]:
    attrs: dict[str, str] = {}
    for name, double, single, bare in _ATTRIBUTE.findall(raw):
        key = name.decode("ascii", "replace").lower()
        if key not in attrs:
            value = double or single or bare
            text = value.decode(encoding, "replace") if value else ""
            attrs[key] = html.unescape(text) if "&" in text else text
    return attrs


def _main_content(lowered: bytes, offset: int) -> tuple[int, int]:
    """Where the page's own content is, not the theme around it: ``<main>`` or the
    ``role="main"`` element, else the one ``<article>``, else ``<body>``."""
    found = _MAIN_START.search(lowered, offset)
    if found:
        return found.start(), _element_end(lowered, found.start())
    role = lowered.find(b"role", offset)  # rare in a page, so found far faster than by a regex
    while role >= 0:
        if lowered[role - 1 : role] in _SPACE and _ROLE_MAIN.match(lowered, role):
            start = lowered.rfind(b"<", offset, role)
            return start, _element_end(lowered, start)
        role = lowered.find(b"role", role + 4)
    articles = _ARTICLE_START.findall(lowered, offset)
    if len(articles) == 1:
        start = lowered.find(articles[0], offset)
        return start, _element_end(lowered, start)
    body = _BODY.search(lowered, offset)
    return (body.end() if body else offset), len(lowered)


@functools.cache
def _open_and_close(name: bytes) -> re.Pattern[bytes]:
    return re.compile(rb"<(/?)" + re.escape(name) + rb"\b[^>]*>")


def _element_end(lowered: bytes, start: int) -> int:
    """Where the element starting at ``start`` ends: its matching close tag, nesting counted."""
    name = _ELEMENT_NAME.match(lowered[start : start + 64])
    if name is None:
        return len(lowered)
    depth = 0
    for tag in _open_and_close(name.group(1)).finditer(lowered, start):
        depth += -1 if tag.group(1) else 1
        if depth == 0:
            return tag.end()
    return len(lowered)


def _whole_tags(lowered: bytes, at: int) -> Iterator[re.Match[bytes]]:
    """The ``<img>``, ``<video>``, ``<source>`` and ``</video>`` tags from ``at`` on, as
    ``finditer`` finds them, but ending at the first that never ends (the rest of the page is
    inside it, as HTML reads it): a page of unclosed tags is scanned once, not once a tag."""
    name, tag = _CONTENT_NAME, _CONTENT_TAG
    while (start := name.search(lowered, at)) is not None:
        found = tag.match(lowered, start.start())
        if found is None:
            return
        yield found
        at = found.end()


def _content(region: bytes, lowered: bytes | None, page_url: str, encoding: str):
    """Images, videos and digest of the main content; ``lowered`` is its lower-cased copy,
    made here when needed and not given."""
    if not region or region.isspace():
        return (), (), None
    if _NOTABLE.search(region) is None:  # plain text and markup: only the digest to take
        return (), (), _digest(region)
    region, lowered = _without_comments(region, lowered if lowered is not None else region.lower())
    if not region or region.isspace():
        return (), (), None
    images: dict[str, None] = {}
    videos: list[dict[str, str]] = []
    video: dict[str, str] | None = None
    first = _CONTENT_START.search(lowered)
    around = _theme_parts(lowered) if first else ()
    home_link = _HomeLink(region, lowered, page_url, encoding)
    for found in _whole_tags(lowered, first.start()) if first else ():
        tag = found.group(1)
        if tag == b"/video":
            if video is not None:
                videos.append(_video_fields(video, page_url))
            video = None
            continue
        attrs = _attributes(region[found.start(2) : found.end(2)], encoding)
        src = attrs.get("src", "").strip()
        if tag == b"img":
            if src and not src.startswith("data:"):
                at = found.start()
                chrome = any(a <= at < b for a, b in around) or home_link.holds(at)
                if not decorative(src, attrs, chrome=chrome):
                    images.setdefault(resolve(page_url, src), None)
        elif tag == b"video":
            video = attrs
        elif video is not None and src and not video.get("src"):  # the first <source>
            video["src"] = src
    return tuple(images), tuple(v for v in videos if v), _digest(region)


# Elements that hold the theme's parts, not the page's content (HTML's own meaning of them):
# a sidebar's logo, a footer's sponsors. A <header> inside <main> or an <article> is the page's.
_THEME_PART = re.compile(rb"<(nav|aside|footer|header|article|main)[\s>]")


class _HomeLink:
    """Whether a tag sits in a link to the host's home page (a logo's place), asked for tags in
    the order they stand: the links' starts and ends are each looked for once, so a page of
    many images and links is read in one pass, never once an image."""

    def __init__(self, region: bytes, lowered: bytes, page_url: str, encoding: str) -> None:
        self.region, self.lowered, self.page_url, self.encoding = region, lowered, page_url, encoding
        self.opens, self.closes = _LINK_OPEN.finditer(lowered), _LINK_END.finditer(lowered)
        self.next_open, self.next_close = next(self.opens, None), next(self.closes, None)
        self.open = self.close = -1
        self.home: dict[int, bool] = {}

    def holds(self, offset: int) -> bool:
        while self.next_open is not None and self.next_open.start() < offset:
            self.open, self.next_open = self.next_open.start(), next(self.opens, None)
        while self.next_close is not None and self.next_close.start() < offset:
            self.close, self.next_close = self.next_close.start(), next(self.closes, None)
        if self.open < 0 or self.close > self.open:
            return False
        if self.open not in self.home:
            self.home[self.open] = self._to_home(self.open, offset)
        return self.home[self.open]

    def _to_home(self, start: int, offset: int) -> bool:
        tag = _LINK_TAG.match(self.lowered, start, offset)  # a tag that never ends before ``offset`` holds it
        if tag is None:
            return False
        href = _attributes(self.region[tag.start(1) : tag.end(1)], self.encoding).get("href", "").strip()
        return bool(href) and urlsplit(resolve(self.page_url, href)).path in ("/", "/index.html")


def _theme_parts(lowered: bytes) -> tuple[tuple[int, int], ...]:
    """``(start, end)`` of each ``nav``, ``aside``, ``footer`` and (outside ``main`` and any
    article) ``header`` element of a content region; looked for only where it has images."""
    parts: list[tuple[int, int]] = []
    articles: list[tuple[int, int]] = []
    for found in _THEME_PART.finditer(lowered):
        name, start = found.group(1), found.start()
        if any(a <= start < b for a, b in parts):
            continue  # inside one already found
        end = _element_end(lowered, start)
        if name in (b"article", b"main"):
            articles.append((start, end))
        elif name != b"header" or not any(a <= start < b for a, b in articles):
            parts.append((start, end))
    return tuple(parts)


def file_digest(path: str | os.PathLike[str]) -> str:
    """The digest of a whole file's bytes (a PDF listed by ``include``), read in blocks."""
    crc, adler, size = 0, 1, 0
    with open(open_regular(path), "rb") as handle:
        while block := handle.read(1 << 20):
            crc, adler, size = zlib.crc32(block, crc), zlib.adler32(block, adler), size + len(block)
    return f"{crc:08x}{adler:08x}{size:x}"


def _digest(region: bytes) -> str:
    """Two fast checksums and the length: plenty to notice an edit, at memory speed."""
    return f"{zlib.crc32(region):08x}{zlib.adler32(region):08x}{len(region):x}"


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
    text = " ".join(html.unescape(_ANY_TAG.sub(b"", raw).decode(encoding, "replace")).split())
    return text or None


def main_content(data: bytes) -> bytes:
    """The page's own content (``<main>``, ``role="main"``, the one ``<article>``, else
    ``<body>``), without comments, scripts, styles and templates: what a listing page lists."""
    lowered = data.lower()
    data, lowered = _without_comments(data, lowered)
    head_end = _HEAD_END.search(lowered)
    start, end = _main_content(lowered, head_end.start() if head_end else 0)
    return data[start:end]
