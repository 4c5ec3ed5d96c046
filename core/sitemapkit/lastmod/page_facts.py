"""The facts of each written page kept between builds, beside the manifest (issue 36).

A page the generator did not write again this build (Sphinx's incremental builds, an
unchanged file for ``sitemapkit build``) is not read again: its facts (``HtmlFacts``: head
facts, images, videos, content digest) come from the last build's, keyed by the file's path
and checked as git's index checks a file, by its size, modification time and inode. A file
modified in the second before its facts were read is in doubt (the clock may not have
ticked between a change and the read: git's "racily clean" entries) and is read again, as is
any file whose URL, size, time or inode differ. The sitemap is the same, byte for byte, as a
build that read every page.

The facts live in an SQLite file named after the manifest (``state-<key>.facts.sqlite``):
one row a page, looked up by path, so memory stays flat however many pages there are and a
build writes only the rows of the pages it read. A file another version of sitemapkit
wrote is started again; one that cannot be read as this one's (a corrupt file) too, with
the manifest's warning.
"""

from __future__ import annotations

import json
import os
import stat
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sitemapkit.report import Report
from sitemapkit.site.extract import HtmlFacts, read_page_file

if TYPE_CHECKING:
    import sqlite3

FORMAT = "sitemapkit page facts 1"
"""Written in the file with sitemapkit's version (``_format``): facts another version read are
read again."""
_TEXT_OR_NONE = frozenset({str, type(None)})
"""The types a kept text (canonical, dates, digest) may have."""
_DOUBT_NS = 1_000_000_000
"""A file modified this close before its facts were read is read again (file systems keep
times to a second at worst)."""


class PageFacts:
    """The facts of written pages: kept ones for files unchanged since the last build, read
    ones for the rest (kept for the next build by ``save``)."""

    def __init__(self, path: Path, report: Report, *, write: bool = True) -> None:
        """``path``: the SQLite file; ``write``: False for a dry run (nothing saved)."""
        self.path = path
        self.report = report
        self.write = write
        self._db: sqlite3.Connection | None = None
        self._opened = False
        self._warned = False
        self._read: list[tuple[Any, ...]] = []
        """This build's rows for the pages read: saved by ``save``."""
        self._seen: set[str] = set()
        self._now = time.time_ns()

    def facts(self, output: str | os.PathLike[str], loc: str) -> HtmlFacts:
        """The facts of the page written at ``output`` with the URL ``loc``: kept ones when
        the file is the one they were read from, else read (``read_page_file``)."""
        name = os.fspath(output)
        try:
            status = os.stat(name)
        except OSError:
            return read_page_file(output, loc)  # its way of saying what is wrong
        if not stat.S_ISREG(status.st_mode):
            return read_page_file(output, loc)
        self._seen.add(name)
        db = self._open()
        if db is not None:
            row = db.execute("SELECT loc, size, mtime, inode, read, facts, head FROM facts WHERE path = ?",
                             (name,)).fetchone()
            if (row is not None and row[0] == loc and row[1] == status.st_size and row[2] == status.st_mtime_ns
                    and row[3] == status.st_ino and status.st_mtime_ns < row[4] - _DOUBT_NS):
                kept = _decoded(row[5], row[6])
                if kept is not None:
                    return kept
                self._corrupt("a page's facts have the wrong shape")
        read_at = time.time_ns()
        found = read_page_file(output, loc)
        self._read.append((name, loc, status.st_size, status.st_mtime_ns, status.st_ino, read_at,
                           _encoded(found), found.head))
        return found

    def _open(self) -> sqlite3.Connection | None:
        """The last build's facts (None: there are none, or they cannot be read)."""
        if self._opened:
            return self._db
        self._opened = True
        if not os.path.lexists(self.path):
            return None
        self._db = self._connect(warn=True)
        return self._db

    def _connect(self, *, warn: bool) -> sqlite3.Connection | None:
        """The file, made when there is none; one of another version is started again. One
        that cannot be read is removed, with a warning when ``warn`` (a file that cannot be
        made is the manifest's own ``state-write`` warning)."""
        import sqlite3  # Performance: only a build with written pages to read pays for it

        try:
            if os.path.lexists(self.path) and not self.path.is_file():  # a folder, a pipe
                raise OSError("it is not a regular file")
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, isolation_level=None)
            db.executescript(
                "PRAGMA synchronous=OFF;"
                "CREATE TABLE IF NOT EXISTS about(key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;"
                "CREATE TABLE IF NOT EXISTS facts(path TEXT PRIMARY KEY, loc TEXT, size INT, mtime INT,"
                " inode INT, read INT, facts TEXT, head BLOB) WITHOUT ROWID;"
            )
            made_by = _format()
            if dict(db.execute("SELECT key, value FROM about")).get("format") != made_by:
                db.executescript("DELETE FROM facts; DELETE FROM about;")
                db.execute("INSERT INTO about VALUES ('format', ?)", (made_by,))
        except (sqlite3.Error, OSError) as error:
            if warn:
                self._corrupt(str(error))
            return None
        return db

    def _corrupt(self, why: str) -> None:
        """Facts that cannot be read as this version's: warned of (as the manifest's own),
        the file started again, every page read."""
        if not self._warned:
            self._warned = True
            self.report.warn(str(self.path), "state_file", "state-corrupt",
                             f"kept page facts ignored and rebuilt: {why}; every page is read again")
        if self._db is not None:
            self._db.close()
            self._db = None
        try:
            self.path.unlink(missing_ok=True)
        except OSError:
            self.write = False  # (a folder in the way: the next build says so again)

    def save(self) -> None:
        """Keep the facts read this build; forget the pages this build did not list."""
        if not self.write or not self._opened:
            return
        import sqlite3

        db = self._db if self._db is not None else self._connect(warn=False)
        if db is None:
            return
        self._db = db
        try:
            db.execute("BEGIN")
            db.executemany("INSERT OR REPLACE INTO facts VALUES (?, ?, ?, ?, ?, ?, ?, ?)", self._read)
            if db.execute("SELECT count(*) FROM facts").fetchone()[0] > len(self._seen):
                db.execute("CREATE TEMP TABLE seen(path TEXT PRIMARY KEY) WITHOUT ROWID")
                db.executemany("INSERT OR IGNORE INTO seen VALUES (?)", ((name,) for name in self._seen))
                db.execute("DELETE FROM facts WHERE path NOT IN (SELECT path FROM seen)")
            db.execute("COMMIT")
        except (sqlite3.Error, OSError) as error:
            self.report.warn(str(self.path), "state_file", "state-write",
                             f"page facts not saved ({error}); the next build reads every page")
        self._read = []

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None


def _format() -> str:
    """Whose facts a file holds: sitemapkit's version, and the size and time of the modules
    that read them (an editable install's edits change what is read, not the version)."""
    from sitemapkit import __version__, urls
    from sitemapkit.site import content, extract, long_values, markup

    readers = (os.stat(module.__file__) for module in (extract, content, markup, long_values, urls))
    return f"{FORMAT}, sitemapkit {__version__}, " + " ".join(f"{s.st_size}:{s.st_mtime_ns}" for s in readers)


def _encoded(facts: HtmlFacts) -> str:
    noindex, canonical, alternates, images, videos, published, modified, digest, _, long_values, cut = facts
    return json.dumps([noindex, canonical, alternates, images, videos, published, modified, digest, long_values, cut],
                      ensure_ascii=False, separators=(",", ":"))


def _decoded(text: Any, head: Any) -> HtmlFacts | None:
    """The facts ``_encoded`` wrote, or None when they are not in its shape."""
    try:
        values = json.loads(text)
        noindex, canonical, alternates, images, videos, published, modified, digest, long_values, cut = values
    except (TypeError, ValueError, RecursionError):
        return None
    # Performance: most pages have no alternates, videos nor long values: empty lists are let
    # through without a generator each; the four texts checked by their types in one set.
    if (type(noindex) is not bool or type(head) is not bytes or type(cut) is not int
            or not {type(canonical), type(published), type(modified), type(digest)} <= _TEXT_OR_NONE
            or type(images) is not list or (images and not all(type(image) is str for image in images))
            or (alternates != [] and not _pairs(alternates, str))
            or (long_values != [] and not _pairs(long_values, int))
            or (videos != [] and not (type(videos) is list and all(_fields(video) for video in videos)))):
        return None
    return HtmlFacts(noindex, canonical, tuple(map(tuple, alternates)), tuple(images), tuple(videos), published,
                     modified, digest, head, tuple(map(tuple, long_values)), cut)


def _pairs(value: object, second: type) -> bool:
    return type(value) is list and all(type(pair) is list and len(pair) == 2 and type(pair[0]) is str
                                       and type(pair[1]) is second for pair in value)


def _fields(value: object) -> bool:
    return type(value) is dict and all(type(key) is str and type(text) is str for key, text in value.items())
