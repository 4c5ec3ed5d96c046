"""Attribute values too long to be URLs, cut out as a page is read, so that memory is
bounded by the page's markup, not by the size of one value (``squeeze``)."""

import re
import zlib
from collections.abc import Iterator

from sitemapkit.patterns import lazy_pattern

_tag_name = lazy_pattern(rb"<([A-Za-z][\w-]*)")


LONG_VALUE = 1 << 16
"""Attribute values longer than this many bytes are not read: no URL is that long."""
# A quoted value's start. The name starts only where a name can (the lookbehind): without it,
# a search over a long run of name characters with no "=" retried from every byte of the run,
# which made a page of long words in comments quadratic (64 KiB: 30 s).
_value_start = lazy_pattern(rb"""(?<![^\s"'<>/=])([^\s"'<>/=]+)[ \t\r\n\f]*=[ \t\r\n\f]*(["'])""")


_URL_ATTRIBUTES = (b"src", b"href", b"poster")


def squeeze(chunks: Iterator[bytes], long_values: list[tuple[str, int]], limit: int | None = None) -> bytes:
    """The bytes of ``chunks`` with every quoted attribute value longer than ``LONG_VALUE``
    emptied, so that memory is bounded by the page's markup, not by the size of a value;
    with ``limit``, no more chunks are taken once that many bytes are kept (the rest of
    ``chunks`` is left unread).

    A checksum and the length of what was cut stay beside it (``data-sitemapkit-long``), so
    the content fingerprint still notices an edit; a ``data:`` value stays a ``data:`` value.
    Each cut URL attribute (``src``, ``href``, ``poster``) is added to ``long_values``."""
    out: list[bytes] = []
    buffer = b""
    kept = counted = 0  # bytes in ``out``, summed up to ``out[counted]``
    while True:
        if limit is not None:
            kept, counted = kept + sum(map(len, out[counted:])), len(out)
            if kept >= limit:
                break
        chunk = next(chunks, None)
        if chunk is None:
            break
        buffer += chunk
        at = 0  # bytes of ``buffer`` before ``at`` are read: kept, not copied again per value
        while True:
            found = _value_start().search(buffer, at)
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
        tag = _tag_name().match(buffer[buffer.rfind(b"<", 0, found.start()) :])
        label = (tag.group(1).lower() + b" " if tag else b"") + name
        long_values.append((label.decode("ascii", "replace"), length))
    return rest[end:] if rest else quote
