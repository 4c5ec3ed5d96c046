"""Scanning a page's bytes without building a tree: a start tag's attributes, where
comments and script, style and template bodies are (to cut them out), and the charset a page
declares. Used by ``site.extract`` (page heads) and ``site.content`` (images, videos)."""

import codecs
import html
import re
from collections.abc import Iterator

from sitemapkit.patterns import lazy_pattern

# A start tag's attributes and its end; quoted values may hold ">". Written as runs of plain
# characters between quoted values, which the regex engine takes far faster than one
# character at a time.
ATTRIBUTES = rb"""([^>"']*(?:(?:"[^"]*"|'[^']*')[^>"']*)*)>"""
_attribute = lazy_pattern(rb"""([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?""")
hiding = lazy_pattern(rb"<(?:!--|script|style|template)")
# Where a comment or a script, style or template body starts, and what ends each; found with
# plain searches, each byte looked at a bounded number of times (see ``_hidden``).
_hidden_start = lazy_pattern(rb"<(?:!--|(script|style|template)\b)")
_hidden_end = {name: lazy_pattern(rb"</" + name + rb"\s*>") for name in (b"script", b"style", b"template")}
# Where a page's head ends: runs over the raw page (bytes; as text for ``extract.head_of``),
# and stops within its first kilobytes.
HEAD_CLOSE, _BODY_START = "</head", "<body"  # (HEAD_CLOSE: as most pages write it, found first by a plain find)
_HEAD_END = f"{HEAD_CLOSE}|{_BODY_START}"
head_end_mark = lazy_pattern(_HEAD_END.encode("ascii"), re.IGNORECASE)
head_end_text = lazy_pattern(_HEAD_END, re.IGNORECASE)
_HEAD_CLOSE_BYTES, _BODY_START_BYTES = HEAD_CLOSE.encode("ascii"), _BODY_START.encode("ascii")
"""``head_end_mark()``'s two marks, for a lower-cased page (``head_end``)."""


_start_tag = lazy_pattern(rb"<([a-z][a-z0-9-]*)")


_HEAD_ONLY = frozenset({b"html", b"head", b"meta", b"link", b"base", b"title", b"noscript"})
"""Start tags a head holds (script, style and template bodies are skipped as hidden)."""
_charset = lazy_pattern(rb"""<meta[^>]+charset\s*=\s*["']?([A-Za-z0-9_.:-]+)""", re.IGNORECASE)


def declared_encoding(data: bytes) -> str:
    """The charset a page declares in its first 2 KiB; generators write UTF-8 otherwise."""
    declared = _charset().search(data, 0, 2048)
    return _encoding(declared.group(1).decode("ascii")) if declared else "utf-8"


def _encoding(name: str) -> str:
    """Generators write UTF-8 unless the page says otherwise."""
    try:
        return codecs.lookup(name).name
    except LookupError:
        return "utf-8"


def without_comments(data: bytes, lowered: bytes) -> tuple[bytes, bytes]:
    """``data`` and its lower-cased copy without comments and script, style, template bodies."""
    if hiding().search(lowered) is None:
        return data, lowered
    kept, last = [], 0
    for start, end in _hidden(lowered):
        kept.append((last, start))
        last = end
    if not kept:
        return data, lowered
    kept.append((last, len(data)))
    return b"".join(data[a:b] for a, b in kept), b"".join(lowered[a:b] for a, b in kept)


def head_end(lowered: bytes) -> int:
    """Where the head of a lower-cased page ends: at ``</head>`` or ``<body>``; in a page that
    leaves both out, as HTML lets it (html-minifier's ``removeOptionalTags``, CodeMirror's
    demo pages), at the first start tag no head holds, outside comments and script, style and
    template bodies (the end when there is none). A fragment, which starts with such a tag
    (a theme partial's ``<div>``), has no head: 0."""
    # Performance: in a lower-cased page the head's end is two plain finds, ``<body`` looked for
    # only before ``</head`` (measured: 2.6 k instructions less a small MkDocs head).
    end = lowered.find(_HEAD_CLOSE_BYTES)
    body = lowered.find(_BODY_START_BYTES, 0, end if end >= 0 else len(lowered))
    if body >= 0 or end >= 0:
        return body if body >= 0 else end
    hidden, at = _hidden(lowered), 0
    skip = next(hidden, None)
    while (tag := _start_tag().search(lowered, at)) is not None:
        while skip is not None and skip[1] <= tag.start():
            skip = next(hidden, None)
        if skip is not None and skip[0] <= tag.start():
            at = skip[1]
            continue
        if tag.group(1) not in _HEAD_ONLY:
            return tag.start()
        at = tag.end()
    return len(lowered)


def _hidden(lowered: bytes) -> Iterator[tuple[int, int]]:
    """``(start, end)`` of each comment and script, style or template element of ``lowered``,
    in order: the first ``-->`` (or ``</script>``...) after each start ends it. Linear in the
    size: once one start finds no end, no later start of its kind can, so none looks again."""
    at, unclosed = 0, set()
    while (found := _hidden_start().search(lowered, at)) is not None:
        name = found.group(1)
        end = -1
        if name not in unclosed:
            if name is None:
                end = lowered.find(b"-->", found.end())
                end = end + 3 if end >= 0 else -1
            else:
                close = _hidden_end[name]().search(lowered, found.end())
                end = close.end() if close is not None else -1
        if end < 0:
            unclosed.add(name)
            at = found.start() + 1
            continue
        yield found.start(), end
        at = end


def attributes(raw: bytes, encoding: str) -> dict[str, str]:
    attrs: dict[str, str] = {}
    for name, double, single, bare in _attribute().findall(raw):
        key = name.decode("ascii", "replace").lower()
        if key not in attrs:
            value = double or single or bare
            text = value.decode(encoding, "replace") if value else ""
            attrs[key] = html.unescape(text) if "&" in text else text
    return attrs
