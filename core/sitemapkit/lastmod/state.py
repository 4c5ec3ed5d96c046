"""The manifest kept between builds (``state_file``): per URL, a digest of the page's main
content, when that digest was first seen, the page title and the lastmod last written.

It is JSON, one page per line in URL order, so it diffs well and a rebuild that changes
nothing rewrites the same bytes. It is written to a temporary name and renamed, and read by
one reader (``read_state``), a block of lines at a time, whatever its size.
"""

import itertools
import json
import os
import stat
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple

from sitemapkit.dates import DateError, parse_moment
from sitemapkit.site.files import BLOCK, Sink

VERSION = 1
_HEADER = f'{{"sitemapkit_state": {VERSION},'
MAX_LINE = 16 << 20
"""Longest line read from a manifest: a page line is far shorter; the unsent URLs' line
holds thousands of URLs."""
_JSON = json.JSONEncoder(ensure_ascii=False)
# Performance: each record's strings are quoted by the encoder's string function itself, as
# _JSON would write them: 0.11 µs a URL against 0.24 µs through _JSON.encode and 0.70 µs
# through json.dumps(ensure_ascii=False), which makes an encoder a call (four strings a
# record: about 0.5 s per million pages).
_quoted = json.encoder.encode_basestring
_WRITE_BLOCK = 1024


class Record(NamedTuple):
    digest: str | None
    first_seen: str
    """When this digest was first seen (W3C datetime text)."""
    title: str | None
    lastmod: str | None
    """The lastmod the sitemap got last time, from whichever source answered."""


class StateError(ValueError):
    """A manifest that cannot be read; the message says what is wrong with it."""


class StatePathError(StateError):
    """``state_file`` names something that cannot hold a manifest (a folder, a pipe)."""


class State(NamedTuple):
    pages: dict[str, Record]
    unsent: list[str]
    """URLs an earlier build could not submit to IndexNow."""


class _Text:
    """``write(str)`` in front of a ``Target``, in blocks."""

    def __init__(self, target: Any) -> None:
        self.target, self.parts, self.size = target, [], 0

    def write(self, text: str) -> None:
        self.parts.append(text)
        self.size += len(text)
        if self.size >= BLOCK:
            self.flush()

    def flush(self) -> None:
        self.target.write("".join(self.parts).encode("utf-8", "replace"))
        self.parts, self.size = [], 0


@contextmanager
def atomic_text(path: Path, sink: Sink | None = None) -> Iterator[_Text]:
    """Write ``path`` as UTF-8 under a temporary name in its folder, renamed on success
    (``sink``: the disk by default; a dry run's only counts the bytes)."""
    sink = sink if sink is not None else Sink()
    sink.make_dir(path.parent)
    target = sink.open_target(path)
    try:
        out = _Text(target)
        yield out
        out.flush()
        target.commit()
    except BaseException:
        target.abort()  # a failed rename too (a folder in the way): no .tmp left
        raise


def load_state(path: Path) -> State | None:
    """The manifest at ``path`` in memory; None when there is none (a first build). A build
    streams it instead (``read_state``); this is for small manifests and tests."""
    records: dict[str, Record] = {}
    unsent = read_state(path, records.update)
    return None if unsent is None else State(records, unsent)


def read_state(path: Path, into: Callable[[Iterator[tuple[str, Record]]], object] | None) -> list[str] | None:
    """Stream the manifest at ``path``: ``into`` gets an iterator of its ``(loc, Record)``
    pairs, in file order; returns the unsent URLs, or None when there is no manifest (a
    first build). With ``into`` None, only the unsent URLs are read (the records are
    kept elsewhere: ``manifest.records_file``).

    Raises ``StatePathError`` when ``path`` cannot hold a manifest (a folder, not a regular
    file, unreadable), ``StateError`` when the file is not a manifest this version wrote
    (possibly after ``into`` has taken some records). It is read a line at a time, each line
    bounded: a huge or hostile file costs no more memory than a line.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # a pipe must not hang us
    except (FileNotFoundError, NotADirectoryError):
        return None
    except IsADirectoryError:
        raise StatePathError("it is a folder") from None
    except OSError as error:
        raise StatePathError(f"cannot read it ({error.strerror})") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise StatePathError("it is a folder" if stat.S_ISDIR(mode) else "it is not a regular file")
    with os.fdopen(fd, "rb") as handle:
        try:
            lines = _lines(handle)
            unsent = _head(lines)
            if into is not None:
                into(_records(lines))
            return unsent
        except OSError as error:
            raise StateError(f"cannot read it ({error.strerror})") from None


def valid_moment(text: str) -> bool:
    try:
        parse_moment(text)
    except DateError:
        return False
    return True


def _head(lines: Iterator[bytes]) -> list[str]:
    """The manifest as ``save_state`` writes it: a header line, the unsent URLs on one line,
    then one ``"loc": [digest, first_seen, title, lastmod]`` line per page (``_records``)."""
    if next(lines, b"").strip() != _HEADER.strip().encode():
        raise StateError(f"it is not a version {VERSION} sitemapkit manifest")
    unsent = _member(next(lines, b""), "indexnow_unsent")
    if type(unsent) is not list or next(lines, b"").strip() != b'"pages": {':
        raise StateError("its 'pages' or 'indexnow_unsent' has the wrong shape")
    return [u for u in unsent if isinstance(u, str)]


_READ_LINES = 1024
"""Record lines parsed by one ``json.loads`` (fewer when they pass ``BLOCK`` bytes).
Performance: one C parse a block instead of one a line (measured on 1,000 records: 1.2 µs a
record instead of 2.8 µs), memory bounded by the block however big the manifest."""


def _records(lines: Iterator[bytes]) -> Iterator[tuple[str, Record]]:
    """The ``"loc": [digest, first_seen, title, lastmod]`` lines up to the closing ``}}``."""
    checked: set[str] = set()  # first-seen times found valid: a manifest holds few
    block: list[bytes] = []
    size = 0
    number = 3  # the line before the first record
    parsed_last = b","  # the last line of the block parsed before: a record follows it only after a comma
    for line in lines:
        if line.strip() == b"}}":
            yield from _block(block, number, checked)
            if any(extra.strip() for extra in lines):
                raise StateError("it goes on after its end")
            return
        if not block and not parsed_last.rstrip().endswith(b","):  # read whole, json.loads would say so
            raise StateError(f"its records are not valid JSON at line {number}")
        block.append(line)
        size += len(line)
        if len(block) == _READ_LINES or size >= BLOCK:
            yield from _block(block, number, checked)
            number += len(block)
            parsed_last, block, size = block[-1], [], 0
    raise StateError("it is cut short")


def _block(block: list[bytes], before: int, checked: set[str]) -> list[tuple[str, Record]]:
    """The records of consecutive lines (the one after line ``before`` first), each line one
    record as ``write_state`` writes it; ``StateError`` names the first that is not."""
    if not block:
        return []
    text = b"".join(block).rstrip()
    try:
        pairs = json.loads(b"{" + text.removesuffix(b",") + b"}", object_pairs_hook=list)
    except (ValueError, RecursionError) as error:
        at = f" at line {before + getattr(error, 'lineno', 1)}" if isinstance(error, ValueError) else ""
        raise StateError(f"its records are not valid JSON{at}") from None
    if len(pairs) != len(block):
        raise StateError(f"lines {before + 1}-{before + len(block)} do not hold one record each")
    values = [value for _, value in pairs]
    if set(map(type, values)) - {list} or set(map(len, values)) - {4} \
            or set(map(type, itertools.chain.from_iterable(values))) - {str, type(None)}:
        loc = next(loc for loc, value in pairs
                   if type(value) is not list or len(value) != 4 or not all(map(_text_or_none, value)))
        raise StateError(f"the record for {loc} has the wrong shape")
    for first_seen in {value[1] for value in values} - checked:
        if first_seen is None or not valid_moment(first_seen):
            loc = next(loc for loc, value in pairs if value[1] == first_seen)
            raise StateError(f"the record for {loc} has no valid first-seen time")
        if len(checked) < 4096:
            checked.add(first_seen)
    return list(zip([loc for loc, _ in pairs], itertools.starmap(Record, values), strict=True))


def _lines(handle: BinaryIO) -> Iterator[bytes]:
    number = 0
    while line := handle.readline(MAX_LINE + 1):
        number += 1
        if len(line) > MAX_LINE:
            raise StateError(f"line {number} is longer than {MAX_LINE // (1 << 20)} MiB")
        yield line


def _member(line: bytes, key: str) -> object:
    """The value of a one-member ``"key": value`` line (with or without its comma)."""
    text = line.strip().removesuffix(b",")
    try:
        data = json.loads(b"{" + text + b"}")
    except (ValueError, RecursionError) as error:
        cause = "nested too deeply" if isinstance(error, RecursionError) else "not valid JSON"
        raise StateError(f"a line is {cause}") from None
    if len(data) != 1 or key not in data:
        raise StateError("a line has the wrong shape")
    return data[key]


def _text_or_none(value: object) -> bool:
    return value is None or type(value) is str


def _lines_of(records: list[tuple[str, Record]]) -> str:
    """Records as manifest lines, each after its newline, joined by commas."""
    # Performance: one comprehension a block of records, the strings quoted inline (measured:
    # 0.9 µs a record instead of 1.6 µs through a call a record and a call a value).
    q = _quoted
    return ",".join([
        f"\n{q(loc)}: [{'null' if digest is None else q(digest)}, {q(first_seen)}, "
        f"{'null' if title is None else q(title)}, {'null' if lastmod is None else q(lastmod)}]"
        for loc, (digest, first_seen, title, lastmod) in records
    ])


def save_state(path: Path, pages: Mapping[str, Record], unsent: list[str]) -> None:
    write_state(path, ((loc, pages[loc]) for loc in sorted(pages)), unsent)


def write_state(path: Path, pages: Iterable[tuple[str, Record]], unsent: list[str],
                sink: Sink | None = None) -> None:
    """Write the manifest atomically; ``pages`` come in URL order (the file's order)."""
    with atomic_text(path, sink) as out:
        out.write(f'{_HEADER}\n"indexnow_unsent": ')
        out.write(_JSON.encode(sorted(set(unsent))))
        out.write(',\n"pages": {')
        separator, pages = "", iter(pages)
        while block := list(itertools.islice(pages, _WRITE_BLOCK)):
            out.write(separator + _lines_of(block))
            separator = ","
        out.write("\n}}\n")


def save_unsent(path: Path, unsent: list[str], sink: Sink | None = None) -> None:
    """Replace the list of URLs still to submit to IndexNow, keeping the pages. The pages are
    copied a line at a time from the old file, under a temporary name, then renamed."""
    def keep(records: Iterator[tuple[str, Record]]) -> None:
        write_state(path, records, unsent, sink)

    try:
        if read_state(path, keep) is not None:
            return
    except StateError:
        pass
    write_state(path, (), unsent, sink)
