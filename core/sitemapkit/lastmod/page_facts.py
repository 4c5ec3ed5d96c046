"""The facts of each written page kept between builds, beside the manifest (issue 36).

A page the generator did not write again this build (Sphinx's incremental builds, MkDocs'
``--dirty``, an unchanged file for ``sitemapkit build``) is not read again: its facts
(``HtmlFacts``: head facts, images, videos, content digest) come from the last build's,
keyed by the file's path and checked as git's index checks a file, by its size, modification
time and inode. A file modified in the second before its facts were read is in doubt (the
clock may not have ticked between a change and the read: git's "racily clean" entries) and
is read again, as is any file whose URL, size, time or inode differ. Facts a generator handed
over from memory (MkDocs' rendered pages, ``keep``) were read from no file, so no read can
have raced a change: they hold while the file's size, time and inode do. The sitemap is the
same, byte for byte, as a build that read every page.

A generator that renders every page again each build (MkDocs) hands each over from memory,
its head and its content: the written file is new every build, so no file's status can key
its facts. They are kept instead by the page's path, its URL, and its head and content as
the generator handed them, compared whole (``rendered``): no digest, whose cost grows with
the page as a read's does (a hash of a small page's head and content costs a third of reading
them) and which a kept row could share with another page's HTML. The row holds that HTML
(as the search index a theme writes holds a site's text), so a page costs a comparison of its
bytes instead of a read of them.

The same file keeps each page's Markdown mirror (``llms_txt``), compressed, with the
fingerprint of the content and converter it was made from (``mirror``, ``note_mirror``): a
page whose content has that fingerprint is not converted again (the converter costs far more
than reading the page, and MkDocs empties its output folder before each build).

The facts live in an SQLite file named after the manifest (``state-<key>.facts.sqlite``):
one row a page, looked up by path, so memory stays flat however many pages there are and a
build writes only the rows of the pages it read, a batch at a time, in one transaction
committed by ``save`` (a build that fails leaves the last build's file as it was). A file
another version of sitemapkit wrote is started again, with a note (``state-facts-rebuilt``:
an upgrade is no fault); one that cannot be read as this one's (a corrupt file) too, with
the manifest's warning.
"""

from __future__ import annotations

import json
import os
import stat
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from sitemapkit.lastmod.ordered import InOrder
from sitemapkit.report import Report
from sitemapkit.site.extract import HtmlFacts, read_page_file, read_page_html
from sitemapkit.site.long_values import LONG_VALUE

if TYPE_CHECKING:
    import sqlite3

T = TypeVar("T")

FORMAT = "sitemapkit page facts 7"
"""Written in the file with sitemapkit's version (``_format``): facts another version read are
read again."""
MAX_MIRROR_BYTES = 16 << 20
"""A kept mirror larger than this is not one sitemapkit made (its pages are at most 4 MiB)."""
_DOUBT_NS = 1_000_000_000
"""A file modified this close before its facts were read is read again (file systems keep
times to a second at worst)."""
_BATCH = 1000
"""Rows of pages read that are written at a time: a first build of a big site never holds
them all (each carries the page's head)."""
_SEEN_IN_MEMORY = 20_000
"""Paths of the pages seen this build held in a set up to this many; past it, in a
temporary table of the file's connection."""
_TABLES = (
    "CREATE TABLE IF NOT EXISTS about(key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS facts(path TEXT PRIMARY KEY, loc TEXT, size INT, mtime INT,"
    " inode INT, read INT, facts TEXT, head BLOB, entry TEXT, digest TEXT) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS mirrors(name TEXT PRIMARY KEY, source TEXT, text BLOB) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS rendered(path TEXT PRIMARY KEY, loc TEXT, html BLOB, content BLOB, facts TEXT,"
    " digest TEXT, head_end INT);"
    "CREATE TABLE IF NOT EXISTS folders(run TEXT PRIMARY KEY, key TEXT, made INT, files TEXT, entries TEXT);"
)
"""The file's tables; ``facts.entry``: the entry made from a page's facts, to replay
(``replayed``), or null; ``facts.digest``: the digest of the page's content that entry dates
the page by, kept beside it, so that the entries of pages that differ by their digest alone
are one text (``EntryMaker`` reads each text once a build); ``rendered``: the facts of a page
rendered from memory (``rendered``), by its path, URL, head (``html``) and content as the
generator gave them, with where its head ends in those bytes (``head_end``); ``facts`` is null
for what most pages say (``_own_name_only``), so that most rows cost no decoding. A table with
row ids, its path in an index: a row of a small page then fits in one page of the file, where
one without them spills into an overflow page (measured on 1,000 small MkDocs pages: 17 k
instructions a page less to write a first build's rows, 0.4 k less to read them); ``folders``:
the entries of a run of pages of one folder, keyed by its first page's file (``run``), as
``note_folder`` keeps them with each page's file (path, size, time, inode: ``_run_files``,
one text, so that a run's files are checked by one comparison and no decoding)."""
_RENDERED = "path, loc, html, content, facts, digest, head_end"
"""The columns of ``rendered``, as ``rendered`` reads and writes them."""
_KEPT = "loc, size, mtime, inode, read, entry, path, digest"
"""What ``kept`` reads of each row: the key of its file (first, as ``_unchanged`` takes
it), its entry, its path and the entry's digest."""
_SEEN_TABLE = "CREATE TEMP TABLE IF NOT EXISTS seen(path TEXT PRIMARY KEY) WITHOUT ROWID"
_FOLDERS_SEEN = "CREATE TEMP TABLE IF NOT EXISTS seen_folders(run TEXT PRIMARY KEY) WITHOUT ROWID"


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
        self._kept = False
        """Whether the last build's file was opened (and is still trusted)."""
        self._warned = False
        self._read: list[list[Any]] = []
        """This build's rows for the pages read, not yet written (at most ``_BATCH``)."""
        self._entries: list[tuple[str, str | None, str]] = []
        """``(entry, digest, path)`` of the entries made this build of pages whose facts were kept, not
        yet written (a page read has its entry in its row of ``_read``)."""
        self._kept_rows: InOrder | None = None
        """The kept rows, looked up in path order (``_in_order``)."""
        self._heads: list[tuple[Any, ...]] = []
        """This build's ``rendered`` rows of the pages read, not yet written (at most ``_BATCH``)."""
        self._kept_heads: InOrder | None = None
        """The kept ``rendered`` rows, looked up in path order (``_kept_head``)."""
        self._seen: set[str] | None = set()
        """The pages seen this build, while they are few (None: in the ``seen`` table)."""
        self._unseen_batch: list[tuple[str]] = []
        """Pages seen and not yet in the ``seen`` table."""
        self._prune = write
        """Whether ``save`` forgets the rows of pages not seen (not in a file started again
        this build: it holds only pages seen)."""
        self._looked = False
        """Whether this build asked for any page's facts (only then are the others forgotten)."""
        self._together = 0
        """Pages replayed together with their run this build (``kept_folder``): seen, not in ``seen``."""
        self._folders_looked = False
        """Whether this build kept or replayed a folder's entries (only then are the others forgotten)."""
        self._mirrors: set[str] | None = None
        """The mirrors this build listed; None: no mirror step ran, and the last build's are
        kept as they are."""

    def facts(self, output: str | os.PathLike[str], loc: str,
              fingerprinted: Callable[[], str | None] | None = None) -> HtmlFacts:
        """The facts of the page written at ``output`` with the URL ``loc``: kept ones when
        the file is the one they were read from, else read (``read_page_file``).
        ``fingerprinted``: the page was not rendered again since the build that fingerprinted
        its content (MkDocs' ``--dirty``): read, it keeps that digest (what this returns), not
        its written file's."""
        name = os.fspath(output)
        self._looked = True
        if len(self._read) >= _BATCH:  # (flushed before, not after: ``note_entry`` adds to the last row)
            self._flush()
        try:
            status = os.stat(name)
        except OSError:
            return read_page_file(output, loc)  # its way of saying what is wrong
        if not stat.S_ISREG(status.st_mode):
            return read_page_file(output, loc)
        if self._prune:
            self._saw(name)
        db = self._open()
        row = None if db is None else db.execute(
            "SELECT loc, size, mtime, inode, read, facts, head FROM facts WHERE path = ?", (name,)).fetchone()
        if row is not None and _unchanged(row, loc, status):
            kept = _decoded(row[5], row[6])
            if kept is not None:
                self.report.pages_kept += 1
                return kept
            self._corrupt("a page's facts have the wrong shape")
        read_at = time.time_ns()
        found = read_page_file(output, loc)
        if fingerprinted is not None:
            found = found._replace(digest=fingerprinted())
        self.report.pages_read += 1
        if self.write:
            self._read.append([name, loc, status.st_size, status.st_mtime_ns, status.st_ino, read_at,
                               _encoded(found), found.head, None, None])
        return found

    def replayed(self, output: str | os.PathLike[str], loc: str, decode: Callable[[str, Any], T | None]) -> T | None:
        """The entry an earlier build made of the page written at ``output`` (URL ``loc``), as
        ``note_entry`` kept it and ``decode`` reads it (given its text and its digest, as
        kept: a hostile file may hold anything there), when the file is the one it was made
        from (as ``facts`` checks it); None when there is none, or ``decode`` says it is not
        for this build (None). One ``decode`` finds in no shape it writes (``ValueError``) is
        warned of, as facts of the wrong shape are, and the file started again."""
        db = self._open()
        if db is None:  # a first build: nothing kept, no file asked
            return None
        name = os.fspath(output)
        try:
            status = os.stat(name)
        except OSError:
            return None
        row = self._in_order(db, name) if stat.S_ISREG(status.st_mode) else None
        if row is None or row[5] is None or not _unchanged(row, loc, status):
            return None
        try:
            entry = decode(row[5], row[7])
        except ValueError:
            self._corrupt("a page's entry has the wrong shape")
            return None
        if entry is None:
            return None
        self._looked = True
        if self._prune:
            self._saw(name)
        self.report.pages_kept += 1
        return entry

    def note_entry(self, output: str | os.PathLike[str], entry: str, digest: str | None) -> None:
        """Keep ``entry``, made this build from the facts of the page written at ``output`` (just
        asked of ``facts``), with the ``digest`` of the content it dates the page by, for
        ``replayed``; a page read again without one has none."""
        if self.write:
            name = os.fspath(output)
            if self._read and self._read[-1][0] == name:  # read this build: its row is not written yet
                self._read[-1][8:] = [entry, digest]
                return
            self._entries.append((entry, digest, name))
            if len(self._entries) >= _BATCH:
                self._flush()

    def folder(self, folder: str, outputs: list[str], decode: Callable[[str, str], list[T] | None]
               ) -> list[T] | None:
        """What an earlier build kept of the run of pages written at ``outputs`` (``folder``: the
        run's key, ``note_folder``), as ``decode`` reads it from the key it was kept under and its
        text (None: another key), one item a page, when each file is the one it was made from (its
        path, size, time and inode, not modified in the second before the run was made: see
        the module's note); None when there is none. A row in no shape ``note_folder``
        writes (``ValueError``) is warned of, as facts of the wrong shape are. Nothing is
        counted: ``kept_folder`` does, once the run is replayed."""
        db = self._open()
        if db is None:
            return None
        self._folders_looked = True
        import sqlite3

        try:
            row = db.execute("SELECT key, made, files, entries FROM folders WHERE run = ?", (folder,)).fetchone()
        except sqlite3.Error as error:
            self._corrupt(str(error))
            return None
        if row is None:
            return None
        key, made, files, text = row
        try:
            if type(key) is not str or type(made) is not int or type(files) is not str or type(text) is not str:
                raise ValueError("a value of the wrong type")
            entries = decode(key, text)
        except ValueError:
            self._corrupt("a folder's entries have the wrong shape")
            return None
        if entries is None or _run_files(outputs, made - _DOUBT_NS) != files:
            return None
        if len(entries) != len(outputs):
            self._corrupt("a folder's entries are not one a file")
            return None
        return entries

    def kept_folder(self, folder: str, outputs: list[str]) -> None:
        """Count the pages written at ``outputs`` in ``folder``, replayed from what ``folder``
        gave, and keep its row and theirs (a later build that finds one of them changed makes
        the others from their own rows: only the changed page is read)."""
        self.report.pages_kept += len(outputs)
        self.report.folders_kept += 1
        self._saw_folder(folder)
        self._together += len(outputs)

    def note_folder(self, folder: str, outputs: list[str], key: str, made: int, entries: str) -> None:
        """Keep ``entries``, made this build under ``key`` of the run of pages written at
        ``outputs`` in ``folder``, the first of them begun at ``made`` (``time.time_ns``), for
        ``folder``: with each file's path, size, time and inode as they are now; none when a
        file is in doubt (modified in the second before ``made``) or not a regular file."""
        if not self.write:
            return
        files = _run_files(outputs, made - _DOUBT_NS)
        if files is None:
            return
        db = self._writer()
        if db is None:
            return
        import sqlite3

        try:
            db.execute("INSERT OR REPLACE INTO folders VALUES (?, ?, ?, ?, ?)", (folder, key, made, files, entries))
        except sqlite3.Error as error:
            self._not_saved(error)
            return
        self._saw_folder(folder)

    def _saw_folder(self, folder: str) -> None:
        """Keep ``folder``'s row past ``save`` (the rows of folders this build neither kept nor
        replayed go)."""
        if not self.write:
            return
        self._folders_looked = True
        import sqlite3

        db = self._writer()
        if db is None:
            return
        try:
            db.execute(_FOLDERS_SEEN)
            db.execute("INSERT OR IGNORE INTO seen_folders VALUES (?)", (folder,))
        except sqlite3.Error as error:
            self._not_saved(error)

    def _end_rows(self) -> None:
        """Stop reading the kept rows in order (before the file is committed or closed)."""
        if self._kept_rows is not None:
            self._kept_rows.close()
            self._kept_rows = None
        if self._kept_heads is not None:
            self._kept_heads.close()
            self._kept_heads = None

    def _in_order(self, db: sqlite3.Connection, name: str) -> tuple[Any, ...] | None:
        """The row kept for the file ``name`` (``_KEPT``: loc, size, mtime, inode, read time,
        entry, path). Performance: the pages come in about path order (a folder's files by
        name), and so are the rows read (``ordered``): most pages cost a step of one query."""
        if self._kept_rows is None:
            self._kept_rows = InOrder(db, _KEPT, "facts", "path", 6)
        return self._kept_rows.get(name)

    def rendered(self, output: str | os.PathLike[str], loc: str, html: str, content: str) -> HtmlFacts:
        """The facts of the page the generator rendered this build (``Page.html``: its head,
        ``Page.content``: its content) and wrote at ``output``, with the URL ``loc``: the last
        build's when it was handed the same URL, head and content for that path, else read
        (``read_page_html``). See the module's note."""
        name = os.fspath(output)
        self._looked = True
        if self._prune:
            self._saw(name)
        db = self._open()
        row = self._kept_head(db, name) if db is not None else None
        data, own = html.encode("utf-8"), content.encode("utf-8")
        if row is not None and row[1] == loc and row[2] == data and row[3] == own:
            kept = _rendered_decoded(row, data)
            if kept is not None:
                self.report.pages_kept += 1
                return kept
            self._corrupt("a page's facts have the wrong shape")
        facts = read_page_html(data, loc, content=content)
        self.report.pages_read += 1
        if self.write and len(data) <= LONG_VALUE:  # (a longer one, with values too long to keep, is read each build)
            noindex, canonical, alternates, images, videos, published, modified, digest, head, _, _, not_page = facts
            said = [noindex, canonical, alternates, published, modified, images, videos, not_page]
            self._heads.append((name, loc, data, own, None if said == _own_name_only(loc) else
                                json.dumps(said), digest, len(head)))
            if len(self._heads) >= _BATCH:
                self._flush()
        return facts

    def _kept_head(self, db: sqlite3.Connection, name: str) -> tuple[Any, ...] | None:
        """The ``rendered`` row kept for the file ``name`` (``_RENDERED``), looked up in path
        order as ``_in_order`` looks up the rows of ``facts``."""
        if self._kept_heads is None:
            self._kept_heads = InOrder(db, _RENDERED, "rendered", "path", 0)
        return self._kept_heads.get(name)

    def keep(self, output: str | os.PathLike[str], loc: str, facts: HtmlFacts) -> None:
        """Keep ``facts``, which the generator handed over from memory, for the page it wrote
        at ``output`` (no read time: see the module's note)."""
        name = os.fspath(output)
        try:
            status = os.stat(name)
        except OSError:
            return  # not written: nothing to key them by
        self._looked = True
        if self._prune:
            self._saw(name)
        if self.write:
            self._read.append([name, loc, status.st_size, status.st_mtime_ns, status.st_ino, None,
                               _encoded(facts), facts.head, None, None])
            if len(self._read) >= _BATCH:
                self._flush()

    def mirror(self, name: str, source: str) -> bytes | None:
        """The Markdown mirror ``name`` (its path below the output folder) as the last build
        made it from the content whose fingerprint is ``source``; None when it made it from
        other content, or none (or what is kept is not a mirror's: too large, not UTF-8)."""
        db = self._open()
        if db is None:
            return None
        import sqlite3

        try:
            row = db.execute("SELECT source, text FROM mirrors WHERE name = ?", (name,)).fetchone()
        except sqlite3.Error as error:
            self._corrupt(str(error))
            return None
        if row is None or row[0] != source or type(row[1]) is not bytes:
            return None
        try:
            unpacked = zlib.decompressobj()
            data = unpacked.decompress(row[1], MAX_MIRROR_BYTES + 1)
            data.decode("utf-8")
        except (zlib.error, UnicodeDecodeError):
            return None
        return data if len(data) <= MAX_MIRROR_BYTES and unpacked.eof else None

    def note_mirror(self, name: str, source: str, data: bytes | None) -> None:
        """Keep the mirror ``name`` for the next build, made from the content whose
        fingerprint is ``source``: ``data``, its bytes, when this build made it (None: it is
        the one ``mirror`` gave, kept as it is). Mirrors no build notes are forgotten by ``save``."""
        if self._mirrors is None:
            self._mirrors = set()
        self._mirrors.add(name)
        if data is None:
            return
        import sqlite3

        db = self._writer()
        if db is None:
            return
        try:
            db.execute("INSERT OR REPLACE INTO mirrors VALUES (?, ?, ?)", (name, source, zlib.compress(data, 1)))
        except sqlite3.Error as error:
            self._not_saved(error)

    def _saw(self, name: str) -> None:
        seen = self._seen
        if seen is not None:
            seen.add(name)
            if len(seen) <= _SEEN_IN_MEMORY:
                return
            self._seen, self._unseen_batch = None, [(path,) for path in seen]
        else:
            self._unseen_batch.append((name,))
        if len(self._unseen_batch) >= _BATCH:
            self._flush()

    def _writer(self) -> sqlite3.Connection | None:
        """The file, in the one transaction this build writes in (None: nothing is written)."""
        if not self.write:
            return None
        if self._db is None:
            self._opened = True
            self._db = self._connect(warn=False)
            if self._db is None:
                self.write = False
                return None
        if not self._db.in_transaction:
            self._db.execute("BEGIN")
        return self._db

    def _flush(self) -> None:
        """Write the rows read and the paths seen so far."""
        import sqlite3

        rows, seen, self._read, self._unseen_batch = self._read, self._unseen_batch, [], []
        entries, self._entries = self._entries, []
        heads, self._heads = self._heads, []
        db = self._writer()
        if db is None:
            return
        try:
            db.executemany("INSERT OR REPLACE INTO facts VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
            db.executemany("UPDATE facts SET entry = ?, digest = ? WHERE path = ?", entries)  # after their rows
            if heads:
                db.executemany(f"INSERT OR REPLACE INTO rendered({_RENDERED}) VALUES (?, ?, ?, ?, ?, ?, ?)", heads)
            if seen:
                db.execute(_SEEN_TABLE)
                db.executemany("INSERT OR IGNORE INTO seen VALUES (?)", seen)
        except (sqlite3.Error, OSError) as error:
            self._not_saved(error)

    def _not_saved(self, error: Exception) -> None:
        self.report.warn(str(self.path), "state_file", "state-write",
                         f"page facts not saved ({error}); the next build reads every page")
        self.write = self._prune = False
        self.close()

    def _open(self) -> sqlite3.Connection | None:
        """The last build's facts (None: there are none, or they cannot be read; a file this
        build made is written to, not asked)."""
        if self._opened:
            return self._db if self._kept else None
        self._opened = True
        if not os.path.lexists(self.path):
            return None
        self._db = self._connect(warn=True)
        self._kept = self._db is not None
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
            db.executescript("PRAGMA synchronous=OFF;" + _TABLES)
            made_by = _format()
            found = dict(db.execute("SELECT key, value FROM about")).get("format")
            if found != made_by:
                if warn and found is not None:  # an upgrade is no fault: told, never a warning
                    self.report.info(str(self.path), "state_file", "state-facts-rebuilt",
                                     "kept page facts are another version of sitemapkit's: every page is read again")
                db.executescript("DROP TABLE facts; DROP TABLE mirrors; DROP TABLE rendered;"
                                 "DROP TABLE IF EXISTS folders; DELETE FROM about;" + _TABLES)
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
        self.close()
        self._kept = False
        self._read, self._entries, self._unseen_batch, self._seen, self._prune = [], [], [], set(), False
        self._heads = []
        try:
            self.path.unlink(missing_ok=True)
        except OSError:
            self.write = False  # (a folder in the way: the next build says so again)

    def save(self) -> None:
        """Keep the facts read this build; forget the pages this build did not list."""
        if not self.write or not (self._opened or self._read or self._entries or self._heads):
            return
        import sqlite3

        self._end_rows()
        self._flush()
        db = self._writer()
        if db is None:
            return
        try:
            if self._prune and self._looked and self._some_unseen(db):
                db.execute("DELETE FROM facts WHERE path NOT IN (SELECT path FROM seen)")
            if self._prune and self._looked and self._some_unseen(db, "rendered"):
                db.execute("DELETE FROM rendered WHERE path NOT IN (SELECT path FROM seen)")
            if self._prune and self._folders_looked:
                db.execute(_FOLDERS_SEEN)
                db.execute("DELETE FROM folders WHERE run NOT IN (SELECT run FROM seen_folders)")
            if self._mirrors is not None:  # the mirrors of pages no longer listed are forgotten
                db.execute("CREATE TEMP TABLE IF NOT EXISTS listed(name TEXT PRIMARY KEY) WITHOUT ROWID")
                db.execute("DELETE FROM listed")
                db.executemany("INSERT OR IGNORE INTO listed VALUES (?)", ((name,) for name in self._mirrors))
                db.execute("DELETE FROM mirrors WHERE name NOT IN (SELECT name FROM listed)")
            db.execute("COMMIT")
        except (sqlite3.Error, OSError) as error:
            self._not_saved(error)
        self._looked = False
        self._mirrors = None

    def _some_unseen(self, db: sqlite3.Connection, table: str = "facts") -> bool:
        """Whether the file's ``table`` holds rows of pages this build did not see; if so, every
        path seen is in the ``seen`` table by now, those of the pages replayed together with
        their run included (``_saw_runs``: only in a build that forgets rows)."""
        rows = db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
        together = self._together if table == "facts" else 0
        seen = len(self._seen) if self._seen is not None else db.execute("SELECT count(*) FROM seen").fetchone()[0]
        if rows <= seen + together:  # (every row is one of a page seen)
            return False
        db.execute(_SEEN_TABLE)
        if self._seen is not None:
            db.executemany("INSERT OR IGNORE INTO seen VALUES (?)", ((name,) for name in self._seen))
        if together:
            self._saw_runs(db)
        return True

    def _saw_runs(self, db: sqlite3.Connection) -> None:
        """Put the files of the runs this build kept or replayed together in ``seen``, from their rows."""
        db.execute(_FOLDERS_SEEN)
        for (files,) in db.execute("SELECT files FROM folders WHERE run IN (SELECT run FROM seen_folders)"):
            if type(files) is str:
                db.executemany("INSERT OR IGNORE INTO seen VALUES (?)", ((path,) for path in files.split("\0")[::2]))

    def close(self) -> None:
        self._end_rows()
        if self._db is not None:
            self._db.close()
            self._db = None


def _unchanged(row: tuple[Any, ...], loc: str, status: os.stat_result) -> bool:
    """Whether ``row`` (loc, size, mtime, inode, read time, ...) was kept for the file whose
    status is ``status``, at the URL ``loc``: the same URL, size, time and inode, and not
    modified in the second before it was read (see the module's note)."""
    return (row[0] == loc and row[1] == status.st_size and row[2] == status.st_mtime_ns and row[3] == status.st_ino
            and (row[4] is None or status.st_mtime_ns < row[4] - _DOUBT_NS))


def _format() -> str:
    """Whose facts a file holds: sitemapkit's version, and the size and time of the modules
    that read them (an editable install's edits change what is read, not the version)."""
    from sitemapkit import __version__, urls
    from sitemapkit.site import content, extract, long_values, markup

    readers = (os.stat(module.__file__) for module in (extract, content, markup, long_values, urls))
    return f"{FORMAT}, sitemapkit {__version__}, " + " ".join(f"{s.st_size}:{s.st_mtime_ns}" for s in readers)


def _encoded(facts: HtmlFacts) -> str:
    noindex, canonical, alternates, images, videos, published, modified, digest, _, long_values, cut, not_page = facts
    # Performance: json's default encoder, made once (another's is made for each call: 15 µs a page, not 3)
    return json.dumps([noindex, canonical, alternates, images, videos, published, modified, digest, long_values, cut,
                       not_page])


def _decoded(text: Any, head: Any) -> HtmlFacts | None:
    """The facts ``_encoded`` wrote, or None when they are not in its shape."""
    try:
        values = json.loads(text)
        noindex, canonical, alternates, images, videos, published, modified, digest, long_values, cut, not_page = values
    except (TypeError, ValueError, RecursionError):
        return None
    # Performance: most pages have no alternates, videos nor long values: empty lists are let
    # through without a generator each; the types of the texts and images are checked as sets.
    if (type(noindex) is not bool or type(head) is not bytes or type(cut) is not int
            or not {type(canonical), type(published), type(modified), type(digest), type(not_page)} <= _TEXT_OR_NONE
            or type(images) is not list or not set(map(type, images)) <= _TEXT
            or (alternates != [] and not _pairs(alternates, str))
            or (long_values != [] and not _pairs(long_values, int))
            or (videos != [] and not (type(videos) is list and all(_fields(video) for video in videos)))):
        return None
    return HtmlFacts(noindex, canonical, tuple(map(tuple, alternates)), tuple(images), tuple(videos), published,
                     modified, digest, head, tuple(map(tuple, long_values)), cut, not_page)


_TEXT_OR_NONE = frozenset({str, type(None)})
_TEXT = frozenset({str})


def _run_files(outputs: list[str], doubt: int) -> str | None:
    """The files at ``outputs`` as a folder's row keeps them (``files``): each path with its
    size, time and inode, in one text compared whole (never parsed: a row is hostile input);
    None when one is not a regular file (a symbolic link is none: a run's pages are files of
    the folder walked), or was modified at ``doubt`` or later (see the module's note)."""
    files = []
    for output in outputs:
        try:
            status = os.lstat(output)
        except OSError:
            return None
        if not stat.S_ISREG(status.st_mode) or status.st_mtime_ns >= doubt:
            return None
        files.append(f"{output}\0{status.st_size}:{status.st_mtime_ns}:{status.st_ino}")
    return "\0".join(files)


def _own_name_only(loc: str) -> list[Any]:
    """What most pages at ``loc`` say (``[noindex, canonical, alternates, published, modified,
    images, videos, not_page]``): nothing but a canonical link naming their own URL. Kept as a
    null ``facts``."""
    return [False, loc, (), None, None, (), (), None]


def _rendered_decoded(row: tuple[Any, ...], data: bytes) -> HtmlFacts | None:
    """The facts a ``rendered`` row keeps (``_RENDERED``) of the page whose head is in ``data``,
    or None when they are not in the shape ``rendered`` writes."""
    loc, said, digest, end = row[1], row[4], row[5], row[6]
    if type(end) is not int or end < 0 or type(digest) not in _TEXT_OR_NONE:
        return None
    if said is None:
        return HtmlFacts(False, loc, (), (), (), None, None, digest, data[:end])
    try:
        noindex, canonical, alternates, published, modified, images, videos, not_page = json.loads(said)
    except (TypeError, ValueError, RecursionError):
        return None
    if (type(noindex) is not bool
            or not {type(canonical), type(published), type(modified), type(not_page)} <= _TEXT_OR_NONE
            or type(images) is not list or not set(map(type, images)) <= _TEXT
            or (alternates != [] and not _pairs(alternates, str))
            or (videos != [] and not (type(videos) is list and all(_fields(video) for video in videos)))):
        return None
    return HtmlFacts(noindex, canonical, tuple(map(tuple, alternates)), tuple(images), tuple(videos), published,
                     modified, digest, data[:end], (), 0, not_page)


def _pairs(value: object, second: type) -> bool:
    return type(value) is list and all(type(pair) is list and len(pair) == 2 and type(pair[0]) is str
                                       and type(pair[1]) is second for pair in value)


def _fields(value: object) -> bool:
    return type(value) is dict and all(type(key) is str and type(text) is str for key, text in value.items())
