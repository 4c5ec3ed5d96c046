"""Rows of an SQLite table looked up by key, for keys asked in about the table's order.

A site's pages come a folder at a time, each folder's files by name, and the kept rows of the
last build (the manifest's records, the pages' facts) are ordered by a key that follows them
(a URL, a path): most pages are the next row of one cursor, a step (``fetchone``) instead of a
query of their own. Where the two orders part (a folder's files come before its subfolders,
which the key sorts among them), a key behind the cursor, or far ahead of it, starts a new
cursor at that key: it costs what a query of its own costs, and the pages after it are steps
again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import sqlite3

_STEPS = 32
"""Rows stepped over to reach a key before a new cursor is started at it instead (the pages
of a folder the last build had and this one has not, a subfolder the walk comes to later)."""


class InOrder:
    """The rows of ``table`` by their ``key`` column, which ``columns`` names at ``index``."""

    def __init__(self, db: sqlite3.Connection, columns: str, table: str, key: str, index: int) -> None:
        self._db = db
        # (only text keys: a kept file is hostile input, and a key of another type must not
        # reach the comparisons below)
        self._query = f"SELECT {columns} FROM {table} WHERE {key} >= ? AND typeof({key}) = 'text' ORDER BY {key}"
        self._index = index
        self._rows: sqlite3.Cursor | None = None
        self._row: tuple[Any, ...] | None = None
        self._asked = ""

    def get(self, key: str) -> tuple[Any, ...] | None:
        """The row whose key is ``key``, or None."""
        index = self._index
        if self._rows is None or key < self._asked:
            self._seek(key)
        self._asked = key
        row, steps = self._row, 0
        while row is not None and row[index] < key:
            steps += 1
            if steps > _STEPS:
                self._seek(key)
                row = self._row
                break
            row = self._row = self._rows.fetchone()  # type: ignore[union-attr]
        return row if row is not None and row[index] == key else None

    def _seek(self, key: str) -> None:
        self.close()
        self._rows = self._db.execute(self._query, (key,))
        self._row = self._rows.fetchone()

    def close(self) -> None:
        """Stop reading (before the table's file is committed or closed)."""
        if self._rows is not None:
            self._rows.close()
        self._rows = self._row = None
