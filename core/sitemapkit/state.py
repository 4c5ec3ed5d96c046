"""The manifest kept between builds (``state_file``): per URL, a digest of the page's main
content, when that digest was first seen, the page title and the lastmod last written.

It is JSON, one page per line in URL order, so it diffs well and a rebuild that changes
nothing rewrites the same bytes. It is written to a temporary name and renamed.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

from .files import BLOCK, make_dir, open_target

VERSION = 1
_JSON = json.JSONEncoder(ensure_ascii=False)  # one encoder: json.dumps(ensure_ascii=False) makes one a call
_quoted = json.encoder.encode_basestring  # a JSON string as _JSON writes it, without its type checks


class Record(NamedTuple):
    digest: str | None
    first_seen: str
    """When this digest was first seen (W3C datetime text)."""
    title: str | None
    lastmod: str | None
    """The lastmod the sitemap got last time, from whichever source answered."""


class StateError(ValueError):
    """A manifest that cannot be read; the message says what is wrong with it."""


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
def atomic_text(path: Path) -> Iterator[_Text]:
    """Write ``path`` as UTF-8 under a temporary name in its folder, renamed on success."""
    make_dir(path.parent)
    target = open_target(path)
    try:
        out = _Text(target)
        yield out
        out.flush()
    except BaseException:
        target.abort()
        raise
    target.commit()


def load_state(path: Path) -> State | None:
    """The manifest at ``path``; None when there is none (a first build).

    Raises ``StateError`` when the file exists but is not a manifest this version wrote.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError):
        return None
    except (OSError, UnicodeDecodeError) as error:
        raise StateError(f"cannot read it ({error})") from None
    try:
        data = json.loads(text)
    except ValueError as error:
        raise StateError(f"it is not valid JSON ({error})") from None
    if not isinstance(data, dict) or data.get("sitemapkit_state") != VERSION:
        raise StateError(f"it is not a version {VERSION} sitemapkit manifest")
    pages, unsent = data.get("pages"), data.get("indexnow_unsent", [])
    if not isinstance(pages, dict) or not isinstance(unsent, list):
        raise StateError("its 'pages' or 'indexnow_unsent' has the wrong shape")
    records: dict[str, Record] = {}
    for loc, value in pages.items():
        if type(value) is not list or len(value) != 4 or type(value[1]) is not str:
            raise StateError(f"the record for {loc} has the wrong shape")
        digest, first_seen, title, lastmod = value
        if not (_text_or_none(digest) and _text_or_none(title) and _text_or_none(lastmod)):
            raise StateError(f"the record for {loc} has the wrong shape")
        records[loc] = Record(digest, first_seen, title, lastmod)
    return State(records, [u for u in unsent if isinstance(u, str)])


def _text_or_none(value: object) -> bool:
    return value is None or type(value) is str


def _record_json(record: Record) -> str:
    digest, first_seen, title, lastmod = record
    return f"[{_text(digest)}, {_text(first_seen)}, {_text(title)}, {_text(lastmod)}]"


def _text(value: str | None) -> str:
    return "null" if value is None else _quoted(value)


def save_state(path: Path, pages: Mapping[str, Record], unsent: list[str]) -> None:
    with atomic_text(path) as out:
        out.write(f'{{"sitemapkit_state": {VERSION},\n"indexnow_unsent": ')
        out.write(_JSON.encode(sorted(set(unsent))))
        out.write(',\n"pages": {')
        for number, loc in enumerate(sorted(pages)):
            separator = "," if number else ""
            out.write(f"{separator}\n{_quoted(loc)}: {_record_json(pages[loc])}")
        out.write("\n}}\n")


def save_unsent(path: Path, unsent: list[str]) -> None:
    """Replace the list of URLs still to submit to IndexNow, keeping the pages."""
    try:
        state = load_state(path)
    except StateError:
        state = None
    save_state(path, state.pages if state else {}, unsent)
