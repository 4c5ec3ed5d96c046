"""One reader of the manifest format, a block of lines at a time, and the rules that match a
page against its last record written once (``manifest.reconcile``), for a manifest held in
memory and one in SQLite alike."""

from __future__ import annotations

import pytest

from sitemapkit.lastmod.manifest import reconcile
from sitemapkit.lastmod.state import Record, StateError, load_state, read_state, save_state

NOW = "2026-01-02T00:00:00Z"
OLD = Record("d1", "2025-01-01T00:00:00Z", "Title", "2025-06-01")


def test_a_manifest_of_many_blocks_reads_back_as_written(tmp_path):
    pages = {f"https://example.com/p{n:05}/": Record(f"{n:x}", "2025-01-01T00:00:00Z", f"Páge \"{n}\"\\",
                                                     None if n % 3 else "2025-02-01")
             for n in range(5_000)}  # past 1 MiB and past a block's 1,024 lines
    path = tmp_path / "state.json"
    save_state(path, pages, ["https://example.com/unsent"])
    assert path.stat().st_size > 1 << 18
    state = load_state(path)
    assert state.pages == pages and state.unsent == ["https://example.com/unsent"]


def _in_pages(old: bytes, new: bytes):
    def change(text: bytes) -> bytes:
        head, pages = text.split(b'"pages": {', 1)
        return head + b'"pages": {' + pages.replace(old, new, 1)
    return change


@pytest.mark.parametrize("change", [
    _in_pages(b"],\n", b"]\n"),  # two record lines without their comma
    _in_pages(b"],\n", b"], "),  # two records on one line
    lambda text: text.replace(b', "2025-01-01T00:00:00Z", ', b',\n"2025-01-01T00:00:00Z", ', 1),  # one on two
    lambda text: text.replace(b"2025-01-01T00:00:00Z", b"yesterday", 1),
])
def test_a_record_not_as_written_makes_the_manifest_unreadable(tmp_path, change):
    path = tmp_path / "state.json"
    save_state(path, {f"https://example.com/{n}": OLD._replace(digest=str(n)) for n in range(3)}, [])
    path.write_bytes(change(path.read_bytes()))
    with pytest.raises(StateError):
        read_state(path, list)


@pytest.mark.parametrize(("old", "page", "known", "expected"), [
    (None, ("d1", "T", None), True, (Record("d1", NOW, "T", None), "added")),
    (None, ("d1", "T", None), False, (Record("d1", NOW, "T", None), None)),  # a first build: nothing new
    (OLD, ("d2", "Title", "2025-06-01"), True, (Record("d2", NOW, "Title", "2025-06-01"), "changed")),
    (OLD, ("d1", "Title", "2025-06-01"), True, (OLD, None)),  # as it was
    (OLD, ("d1", None, "2025-07-01"), True, (OLD._replace(lastmod="2025-07-01"), None)),  # last title kept
    (OLD, (None, "", "2025-07-01"), True, (OLD._replace(lastmod="2025-07-01"), "changed")),  # content unread
    (OLD, (None, "", "2025-06-01"), True, (OLD, None)),
])
def test_reconcile(old, page, known, expected):
    record, kind = reconcile(old, *page, known, NOW)
    assert (record, kind) == expected
    if expected[0] is OLD:
        assert record is OLD  # unchanged: the record itself, which tells a rebuild that changed nothing
