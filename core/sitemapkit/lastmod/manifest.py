"""The manifest between builds: what each page's content was, since when, and what changed.

A build reads the last manifest (``state.py`` holds its file format), records every page it
lists with the digest of its main content, and at the end writes the new manifest and says
which URLs were added, changed or removed (for IndexNow and the change feed).

A small site's manifest (``_IN_MEMORY`` records, last build's and this build's together)
stays in a dict and a list. A larger one's lives in SQLite, not in dicts: a million URLs cost
SQLite's page cache (a few MB), not a few hundred MB of strings. This build's records go to a
temporary table; the last build's are kept for the next build in a file beside the manifest
(``records_file``), with the identity of the JSON file they are the records of (its size,
modification time and inode, as git's index tells a file): a build whose manifest is that very
file takes them as they are, reading only the manifest's head, and ``finish`` writes into them
only what changed. Any other manifest is read whole into them. The file on disk stays the JSON
manifest, written in URL order, so a rebuild that changes nothing writes the same bytes (and
leaves it as it is).

Each site has its own manifest: ``site_manifest`` puts a key of the site (its base URL and
output folder) in the file's name, so sites or configs sharing a project folder (one config
per language, mike's versions, sibling site folders) never read or replace each other's
records, and a page's first-seen time comes only from an earlier build of the same site.

The manifest is started by the first build that uses it (a page dated by its fingerprint,
IndexNow, the change feed), with nothing known to have changed, and kept current by every
build after. A site whose pages all carry dates and that asks for neither never has one.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import os
import stat
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sitemapkit.dates import format_moment
from sitemapkit.lastmod.state import Record, StateError, StatePathError, read_state, valid_moment, write_state
from sitemapkit.report import Report
from sitemapkit.settings import Settings
from sitemapkit.site.extract import HtmlFacts, read_page_file, read_page_html
from sitemapkit.site.files import Sink

if TYPE_CHECKING:
    import sqlite3

    from sitemapkit.lastmod.ordered import InOrder
    from sitemapkit.lastmod.page_facts import PageFacts, T

_BATCH = 4096
"""This build's records go to SQLite in batches: one ``executemany`` per batch."""
_CACHE_KIB = 8192
"""SQLite's page cache: what the store may hold in memory before it reads from its file."""
_KEY = 12
"""Hex digits of a site's key in its manifest's name (``state-0123456789ab.json``)."""
_PREVIOUS = ("CREATE TABLE IF NOT EXISTS previous(loc TEXT PRIMARY KEY, digest, first_seen, title, lastmod)"
             " WITHOUT ROWID")
"""The last build's records. The last manifest comes in URL order: its key appends at the end of the tree."""
_STORE_FORMAT = "sitemapkit manifest records 1"
_FIRST_SEEN = 4096
"""First-seen times the kept records may hold, each checked when they are read (one per build
that changed pages: past that, the manifest is read instead)."""
_SAME_AT_ONCE = 400
"""Rows of ``same`` put in by one statement (two values each: under the 999 an SQLite older
than 3.32 takes). Performance: measured, 4.8 k instructions a row, where ``executemany``'s
statement a row costs 9.7 k."""
_IN_MEMORY = 20_000
"""Up to this many records the manifest stays in Python (a few MB at most); beyond, it moves
to SQLite. Performance: a dict lookup per page and one sort, instead of SQLite inserts, a
query per page and a join (measured on 1,000 small MkDocs pages: generate() 34 µs a page
instead of 42)."""


def site_manifest(state_file: Path, base_url: str, site_dir: Path | str | None, project_dir: Path | str) -> Path:
    """The manifest of the site at ``base_url`` built into ``site_dir``: ``state_file`` with the
    site's key in its name (``.cache/sitemapkit/state-0123456789ab.json``). The key takes
    ``site_dir`` relative to ``project_dir`` when it lies inside it or beside it (Sphinx's
    ``source/`` and ``build/html``), so a fresh clone in another folder (a CI machine) finds
    the manifest its cache restored; an output elsewhere counts by its absolute path. A
    ``state_file`` that exists and is not a regular file (a folder, a pipe), or that has no
    name, is returned as it is, for the reader to report."""
    try:
        mode = state_file.stat().st_mode
    except OSError:
        mode = stat.S_IFREG
    if not state_file.name or state_file.name == ".." or not stat.S_ISREG(mode):
        return state_file
    folder = ""
    if site_dir is not None:
        out = os.path.abspath(site_dir)
        try:
            folder = os.path.relpath(out, os.path.abspath(project_dir)).replace(os.sep, "/")
        except ValueError:  # another drive
            folder = ".."
        if folder == ".." or folder.startswith("../.."):  # neither inside nor beside the project
            folder = out.replace(os.sep, "/")
    key = hashlib.sha256(f"{base_url}\n{folder}".encode("utf-8", "surrogatepass")).hexdigest()[:_KEY]
    return state_file.with_name(f"{state_file.stem}-{key}{state_file.suffix}")


def records_file(manifest: Path) -> Path:
    """The records of a large ``manifest`` kept in SQLite beside it (``Manifest``)."""
    return manifest.with_name(manifest.stem + ".records.sqlite")


def _identity(path: Path) -> str | None:
    """What tells a file from another, or from itself edited: its size, modification time (to
    the nanosecond) and inode, as git's index tells a file."""
    try:
        status = path.stat()
    except OSError:
        return None
    return f"{status.st_size}:{status.st_mtime_ns}:{status.st_ino}"


def facts_file(manifest: Path) -> Path:
    """The file of the pages' kept facts beside ``manifest`` (``page_facts``)."""
    return manifest.with_name(manifest.stem + ".facts.sqlite")


class Changes:
    """What changed since the last build, from the manifest."""

    __slots__ = ("added", "changed", "first_build", "removed", "state_file", "unsent")

    def __init__(self, added: list[str] | None = None, changed: list[str] | None = None,
                 removed: list[str] | None = None, first_build: bool = False, unsent: list[str] | None = None,
                 state_file: Path | None = None) -> None:
        self.added = added if added is not None else []
        self.changed = changed if changed is not None else []
        """URLs whose content digest changed."""
        self.removed = removed if removed is not None else []
        """URLs in the last build's manifest that this build did not list."""
        self.first_build = first_build
        """No usable manifest from an earlier build: nothing is known to have changed."""
        self.unsent = unsent if unsent is not None else []
        """URLs an earlier build failed to submit to IndexNow."""
        self.state_file = state_file

    @property
    def urls(self) -> list[str]:
        """Every URL to tell search engines about, sorted, each once."""
        return sorted({*self.added, *self.changed, *self.removed, *self.unsent})


def believed(old: Record | None, now: str) -> Record | None:
    """``old``, unless it was first seen after ``now`` (an altered manifest, or a clock set
    back): then there is no record to believe, and the page is seen for the first time now."""
    return None if old is not None and old.first_seen > now else old


def as_it_was(old: Record, digest: str | None, title: str | None, lastmod: str | None) -> bool:
    """Whether a page noted with ``digest``, ``title`` and ``lastmod`` keeps the last build's
    record ``old`` (believed) as it is: ``reconcile``'s first branch, with nothing changed."""
    return (digest is None or digest == old.digest) and lastmod == old.lastmod and (not title or title == old.title)


def reconcile(old: Record | None, digest: str | None, title: str | None, lastmod: str | None,
              known: bool, now: str) -> tuple[Record, str | None]:
    """A page of this build against the last build's record of its URL (``old``): its new
    record and what happened to it (``"added"``, ``"changed"`` or None). A digest seen before
    (or none now: no content was read, so the last fingerprint still holds) keeps the time it
    was first seen, and the last title when this build has none; a page whose content was not
    read changed when its lastmod did. Nothing is added or changed on a first build
    (``known`` False): nothing is known to have changed. ``old`` itself is returned when
    nothing about it changed."""
    old = believed(old, now)
    if old is not None and (digest is None or digest == old.digest):
        if as_it_was(old, digest, title, lastmod):
            return old, None
        kind = "changed" if digest is None and old.lastmod is not None and lastmod != old.lastmod else None
        return Record(old.digest, old.first_seen, title or old.title, lastmod), kind
    return Record(digest, now, title, lastmod), ("added" if old is None else "changed") if known else None


_GONE = "loc NOT IN (SELECT loc FROM current) AND loc NOT IN (SELECT loc FROM same)"
"""The last build's records of URLs this build did not list (``finish``)."""
_AS_IT_WAS = ("coalesce(p.loc IS NOT NULL AND p.first_seen <= :now AND (c.digest IS NULL OR c.digest IS p.digest)"
              " AND c.lastmod IS p.lastmod AND (c.title IS NULL OR c.title = '' OR c.title IS p.title), 0)")
"""Where ``reconcile`` gives the last record ``p`` itself for this build's note ``c`` (its first
branch, the record ``believed``, its lastmod and title as they were), as SQL, 1 or 0: most
records of a rebuild, counted in ``finish`` and never made into Python objects. Never 1 where
``reconcile`` gives another record (``test_manifest_store`` compares them)."""


class Manifest:
    """One build's view of the manifest at ``path``: the last build's records (read when first
    asked), this build's (``note``), and ``finish`` that writes the new one."""

    def __init__(
        self, path: Path, report: Report, now: datetime, *, wanted: bool = True, read: bool = True,
        sink: Sink | None = None, keep_facts: bool = False, last: Path | None = None, keep_rendered: bool = False,
    ) -> None:
        """``wanted``: this build starts a manifest (IndexNow or the change feed need one).
        ``read``: it may ask the last one (a fingerprint source). With neither and no manifest
        on disk, nothing is recorded and none is written. ``sink``: where it is written (the
        disk by default; a dry run's counts its size). ``keep_facts``: the facts of pages handed
        over with their HTML are kept too (``keep``), for a build that hands them without it.
        ``keep_rendered``: the facts of the heads of pages handed over with their HTML and
        content are kept by that HTML, for a build that hands over the same (``rendered_facts``).
        ``last``: where the last build's manifest (and its kept facts) is read, when not at
        ``path``: a dry run's, whose real build would first move it to ``path``."""
        self.path = path
        self.last = last if last is not None else path
        self.sink = sink if sink is not None else Sink()
        self.report = report
        self.now_text = format_moment(now)
        self.wanted = wanted
        self.kept = wanted or read or self.last.exists()
        self._db: sqlite3.Connection | None = None
        self._previous: dict[str, Record] | None = {}
        """The last build's records while they are few; None once they live in SQLite."""
        self._pending: list[tuple[str, str | None, str | None, str | None] | tuple[str]] = []
        """This build's notes not yet in SQLite (all of them while the records are in memory): a
        note, or the URL alone of one that keeps its record as it was (``note``'s ``old``)."""
        self._flushed = 0
        """Notes put in SQLite so far: the place of the next (``seq``)."""
        self._some_same = False
        """Whether any note went to SQLite's ``same``: only then does ``finish`` look for URLs
        noted both ways (the check reads every row of ``current``: 0.3 s at 300,000 rows)."""
        self._records: dict[str, tuple[Record, str | None]] | None = None
        """``finish``'s result in memory: loc -> (record, added/changed/None), in the order noted."""
        self._loaded = False
        self._known = False  # a usable manifest from an earlier build was read
        self._unusable = False  # state_file names something that cannot hold one
        self._unsent: list[str] = []
        self._finished = False
        self._page_facts: PageFacts | None = None
        self.keeps_facts = keep_facts
        self.keeps_rendered = keep_rendered
        self._on_disk: bool | None = None  # whether a manifest was on disk, when first asked
        self._in_order: InOrder | None = None
        """The last build's records in SQLite, looked up in about URL order (``ordered``)."""
        self._store = records_file(self.path) if (
            not self.sink.dry_run and self.last == self.path and self.path.name not in ("", "..")) else None
        """Where the records of a manifest too large for memory are kept for the next build (None:
        nowhere, a dry run's are in a temporary database)."""

    @classmethod
    def for_settings(
        cls, settings: Settings, project_dir: Path, report: Report, now: datetime, site_dir: Path | str | None = None,
        sink: Sink | None = None, keep_facts: bool = False, state_from: Path | None = None,
        keep_rendered: bool = False,
    ) -> Manifest:
        """The manifest of the site ``settings.base_url`` built into ``site_dir``, named after
        ``settings.state_file`` (relative to ``project_dir``): see ``site_manifest``. The last
        one is read relative to ``state_from`` when given (see ``generate``)."""
        wanted = bool(settings.indexnow) or bool(settings.changes_feed)
        read = "fingerprint" in settings.lastmod
        path = site_manifest(Path(project_dir) / settings.state_file, settings.base_url or "", site_dir, project_dir)
        last = None if state_from is None else site_manifest(
            state_from / settings.state_file, settings.base_url or "", site_dir, state_from)
        return cls(path, report, now, wanted=wanted, read=read, sink=sink, keep_facts=keep_facts, last=last,
                   keep_rendered=keep_rendered)

    # ------------------------------------------------------------------ the last build

    @property
    def db(self) -> sqlite3.Connection:
        if self._db is None:
            import sqlite3  # Performance: only a build that keeps a manifest pays for it (1-4 ms)

            kept = self._kept_store(sqlite3)
            self._db = kept or sqlite3.connect("", isolation_level=None)
            self._db.executescript(
                # (the kept file has its own journal: a build that fails midway leaves the last records whole)
                ("" if kept else "PRAGMA journal_mode=OFF;")
                + f"PRAGMA synchronous=OFF; PRAGMA cache_size=-{_CACHE_KIB}; {_PREVIOUS};"
                # This build's pages come in any order: appended, sorted once in ``finish``,
                # which puts the records that changed in ``updates`` before it writes them.
                "CREATE TEMP TABLE current(loc TEXT, digest, title, lastmod, seq INT);"
                # The pages noted with the last build's record as it was (``note``'s ``old``): a
                # URL each, the last note's place in the order of notes (``seq``).
                "CREATE TEMP TABLE same(loc TEXT PRIMARY KEY, seq INT) WITHOUT ROWID;"
                "CREATE TEMP TABLE updates(loc TEXT, digest, first_seen, title, lastmod);"
                "BEGIN;"
            )
        return self._db

    def _kept_store(self, sqlite3: Any) -> sqlite3.Connection | None:
        """The last build's records kept in SQLite beside the manifest (``records_file``),
        where this build may write it; None: a temporary database instead (a dry run, a file
        that cannot be opened as one of this version's, which is removed)."""
        if self._store is None or (os.path.lexists(self.path) and not self.path.is_file()):
            return None  # (no file beside a ``state_file`` that cannot be one: ``_load`` tells)
        try:
            if os.path.lexists(self._store) and not self._store.is_file():  # a folder, a pipe
                raise OSError("it is not a regular file")
            db = sqlite3.connect(self._store, isolation_level=None)
            db.executescript(f"CREATE TABLE IF NOT EXISTS about(key TEXT PRIMARY KEY, value) WITHOUT ROWID;"
                             f"{_PREVIOUS};")
            if dict(db.execute("SELECT key, value FROM about")).get("format") != _STORE_FORMAT:
                db.executescript("DELETE FROM about; DELETE FROM previous;")
                db.execute("INSERT INTO about VALUES ('format', ?)", (_STORE_FORMAT,))
            return db
        except (sqlite3.Error, OSError):
            with contextlib.suppress(OSError):
                if self._store.is_file():
                    self._store.unlink()
            self._store = None
            return None

    def _store_holds_last(self) -> bool:
        """Whether the kept records are the last manifest's: its file is the very one (size,
        modification time to the nanosecond, inode) they were kept with, and every row is in
        the shape the manifest's reader checks. Otherwise they are dropped, and the manifest is
        read (then kept again). The records are derived data: nothing is told of them."""
        if self._store is None or not self._store.is_file():
            return False
        db = self.db
        if self._store is None:  # it could not be opened
            return False
        held = db.execute("SELECT value FROM about WHERE key = 'manifest'").fetchone()
        if held is not None and held[0] is not None and held[0] == _identity(self.last) and self._store_shaped(db):
            return True
        db.execute("DELETE FROM previous")
        db.execute("DELETE FROM about WHERE key = 'manifest'")
        return False

    @staticmethod
    def _store_shaped(db: sqlite3.Connection) -> bool:
        """Whether the kept records are each text or null where the manifest's are, with
        first-seen times that are times (at most ``_FIRST_SEEN`` of them; one per build that
        changed pages)."""
        odd = db.execute(
            "SELECT 1 FROM previous WHERE typeof(loc) != 'text' OR typeof(first_seen) != 'text'"
            " OR typeof(digest) NOT IN ('text', 'null') OR typeof(title) NOT IN ('text', 'null')"
            " OR typeof(lastmod) NOT IN ('text', 'null') LIMIT 1").fetchone()
        if odd is not None:
            return False
        times = [text for (text,) in db.execute(f"SELECT DISTINCT first_seen FROM previous LIMIT {_FIRST_SEEN + 1}")]
        return len(times) <= _FIRST_SEEN and all(map(valid_moment, times))

    def known(self) -> bool:
        """Whether the last build left a usable manifest (read on the first call)."""
        if not self._loaded:
            self._loaded = True
            self._load()
        return self._known

    def _load(self) -> None:
        try:
            if self._store_holds_last():  # only its unsent URLs are read
                self._previous = None
                unsent = read_state(self.last, None)
            else:
                unsent = read_state(self.last, self._take)
        except StatePathError as error:
            self._unusable = True
            self.report.warn(
                str(self.last), "state_file", "state-path",
                f"no manifest kept: {error}; set state_file to the path of a file "
                "(by default .cache/sitemapkit/state.json)",
            )
            unsent = None
        except StateError as error:
            if self._previous is not None:
                self._previous.clear()
            else:
                self.db.execute("DELETE FROM previous")
            self.report.warn(
                str(self.last), "state_file", "state-corrupt",
                f"manifest ignored and rebuilt: {error}; lastmods from fingerprints "
                "restart from this build",
            )
            unsent = None
        self._known = unsent is not None
        self._unsent = unsent or []

    def _take(self, records: Iterator[tuple[str, Record]]) -> None:
        """The last manifest's records, in memory while they are few, then in SQLite."""
        previous = self._previous
        if previous is None:  # this build's records outgrew memory before the last ones were read
            self._insert_previous(records)
            return
        # Performance: taken into the dict by ``update`` (no Python step a record), at most as
        # many at a time as keep it within _IN_MEMORY until the one that passes it.
        while taken := list(itertools.islice(records, _IN_MEMORY + 1 - len(previous))):
            previous.update(taken)
            if len(previous) > _IN_MEMORY:
                self._spill()
                self._insert_previous(records)
                return

    def _insert_previous(self, records: Iterable[tuple[str, Record]]) -> None:
        self.db.executemany("INSERT OR REPLACE INTO previous VALUES (?, ?, ?, ?, ?)",
                            ((loc, *record) for loc, record in records))

    def _spill(self) -> None:
        """Move the records held in memory into SQLite: there are too many for a dict."""
        previous, self._previous = self._previous, None
        if previous:
            self._insert_previous(previous.items())
        self._flush()

    def previous(self, loc: str) -> Record | None:
        """The last build's record of ``loc`` (None on a first build, or for a new page)."""
        if not self.known():
            return None
        if self._previous is not None:
            return believed(self._previous.get(loc), self.now_text)
        if self._in_order is None:
            # (loaded by the builds whose manifest is too big for memory: measured, 0.4 M instructions
            # of every other build's import)
            from sitemapkit.lastmod.ordered import InOrder

            self._in_order = InOrder(self.db, "digest, first_seen, title, lastmod, loc", "previous", "loc", 4)
        row = self._in_order.get(loc)
        return believed(Record(*row[:4]), self.now_text) if row is not None else None

    def recorded(self, loc: str) -> Record | None:
        """``previous(loc)`` where an earlier build left a manifest, without starting one
        where none is (a site whose pages all have dates never gets one)."""
        if not self._loaded:
            if self._on_disk is None:
                self._on_disk = self.kept and self.last.exists()
            if not self._on_disk:
                return None
        return self.previous(loc)

    def page_facts(self, output: str | os.PathLike[str], loc: str) -> HtmlFacts:
        """The facts of the page written at ``output`` (URL ``loc``), kept from the last build
        when the file is unchanged (``page_facts``), else read. A build that keeps no manifest
        reads every page."""
        facts = self.kept_facts()
        return facts.facts(output, loc) if facts is not None else read_page_file(output, loc)

    def unrendered_facts(self, output: str | os.PathLike[str], loc: str) -> HtmlFacts:
        """``page_facts`` of a page the generator did not render again this build (MkDocs'
        ``--dirty``): its content is the one the last build fingerprinted, so a page whose
        facts were not kept (a full build keeps none) is read with that digest."""
        def fingerprinted() -> str | None:
            old = self.recorded(loc)
            return old.digest if old is not None else None

        facts = self.kept_facts()
        if facts is not None:
            return facts.facts(output, loc, fingerprinted)
        return read_page_file(output, loc)._replace(digest=fingerprinted())

    def keep(self, output: str | os.PathLike[str], loc: str, facts: HtmlFacts) -> None:
        """Keep the ``facts`` of the page written at ``output`` (URL ``loc``), handed over
        from memory, for a build that hands the page without them (``keeps_facts``)."""
        kept = self.kept_facts()
        if kept is not None:
            kept.keep(output, loc, facts)

    def rendered_facts(self, output: str | os.PathLike[str], loc: str, html: str, content: str) -> HtmlFacts:
        """The facts of the page written at ``output`` (URL ``loc``) that the generator handed
        over with its head ``html`` and its ``content``: its head's kept from the last build when
        that build was handed the same (``PageFacts.rendered``), else read. A build that keeps
        no manifest reads every page."""
        kept = self.kept_facts()
        return kept.rendered(output, loc, html, content) if kept is not None else read_page_html(html, loc,
                                                                                                 content=content)

    def replayed(self, output: str | os.PathLike[str], loc: str, decode: Callable[[str, Any], T | None]) -> T | None:
        """The entry an earlier build made of the page written at ``output`` (URL ``loc``) from
        the same file, read by ``decode`` from its text and digest (``PageFacts.replayed``);
        None when none is kept."""
        kept = self.kept_facts()
        return kept.replayed(output, loc, decode) if kept is not None else None

    def note_entry(self, output: str | os.PathLike[str], entry: str, digest: str | None) -> None:
        """Keep ``entry``, made this build from the page written at ``output`` with the content
        ``digest`` it dates the page by, for ``replayed``."""
        kept = self.kept_facts()
        if kept is not None:
            kept.note_entry(output, entry, digest)

    def folder(self, folder: str, outputs: list[str], decode: Callable[[str, str], list[T] | None]
               ) -> list[T] | None:
        """What an earlier build kept of the run of pages written at ``outputs`` in ``folder``
        from the same files, read by ``decode`` (``PageFacts.folder``); None when none is kept."""
        kept = self.kept_facts()
        return kept.folder(folder, outputs, decode) if kept is not None else None

    def kept_folder(self, folder: str, outputs: list[str]) -> None:
        """Count the pages written at ``outputs`` in ``folder``, replayed from what ``folder``
        gave (``PageFacts.kept_folder``)."""
        kept = self.kept_facts()
        if kept is not None:
            kept.kept_folder(folder, outputs)

    def note_folder(self, folder: str, outputs: list[str], key: str, made: int, entries: str) -> None:
        """Keep ``entries``, made this build of the run of pages at ``outputs`` (``PageFacts.note_folder``)."""
        kept = self.kept_facts()
        if kept is not None:
            kept.note_folder(folder, outputs, key, made, entries)

    def kept_facts(self) -> PageFacts | None:
        """The facts kept beside the manifest (the pages', their mirrors' sources), or None for
        a build that keeps no manifest."""
        if self._page_facts is None:
            if not (self.kept and (self.known() or not self._unusable)):
                return None
            # Performance: loaded by the builds that keep pages' facts, not by every import (a
            # Pelican build, handed each page's head and content, keeps none unless it writes
            # llms.txt; measured: 1.2 M instructions of its import)
            from sitemapkit.lastmod.page_facts import PageFacts

            self._page_facts = PageFacts(facts_file(self.last), self.report,
                                         write=not self.sink.dry_run)
        return self._page_facts

    # ------------------------------------------------------------------ this build

    def note(self, loc: str, digest: str | None, title: str | None, lastmod: str | None,
             old: Record | None = None) -> None:
        """Record a page of this build: its content digest (None when no content was read),
        the title the change feed shows, the lastmod text the sitemap got. ``old``: the last
        build's record of ``loc`` as ``previous`` gave it this build, where the caller has it
        (a page replayed with its folder's, never one a ``transform`` renotes): a note that keeps
        it as it was costs a URL, not a row to compare (``finish``)."""
        if not self.kept:
            return
        if old is not None and self._previous is None and as_it_was(old, digest, title, lastmod):
            self._pending.append((loc,))
        else:
            self._pending.append((loc, digest, title, lastmod))
        if self._previous is not None:
            if len(self._pending) + len(self._previous) > _IN_MEMORY:
                self._spill()
        elif len(self._pending) >= _BATCH:
            self._flush()

    def renote(self, loc: str, new_loc: str | None, lastmod: str | None) -> None:
        """Move the record ``note`` made last for ``loc`` (this build's page just noted) to
        ``new_loc`` with the lastmod written for it, or drop it (``new_loc`` None): a
        ``transform`` changed the entry's URL or date, or left the page out, and the manifest
        (IndexNow, the change feed) must hold what the sitemap lists."""
        if not self.kept:
            return
        record = None
        if self._pending and self._pending[-1][0] == loc:
            record = self._pending.pop()
            if len(record) == 1:  # kept as it was (``note``'s ``old``): the last record's digest
                old = self.previous(loc)
                record = (loc, old.digest if old is not None else None, None, None)
        elif self._previous is None:  # flushed into SQLite with its batch
            row = self.db.execute("SELECT rowid, digest, title FROM current WHERE loc = ? "
                                  "ORDER BY seq DESC LIMIT 1", (loc,)).fetchone()
            if row is not None:
                self.db.execute("DELETE FROM current WHERE rowid = ?", (row[0],))
                record = (loc, row[1], row[2], None)
        if record is not None and new_loc is not None:
            self.note(new_loc, record[1], record[2], lastmod)

    def _flush(self) -> None:
        if self._pending and self._previous is None:
            start, notes, self._pending = self._flushed, self._pending, []
            self._flushed += len(notes)
            same = [(note[0], start + place) for place, note in enumerate(notes) if len(note) == 1]
            self.db.executemany("INSERT INTO current VALUES (?, ?, ?, ?, ?)",
                                ((*note, start + place) for place, note in enumerate(notes) if len(note) == 4))
            for first in range(0, len(same), _SAME_AT_ONCE):
                rows = same[first:first + _SAME_AT_ONCE]
                self.db.execute("INSERT OR REPLACE INTO same VALUES " + ",".join(["(?, ?)"] * len(rows)),
                                [value for row in rows for value in row])
            self._some_same = self._some_same or bool(same)

    def finish(self) -> Changes:
        """This build's records against the last manifest: a digest seen before keeps the
        time it was first seen. Write the new manifest; say what changed."""
        if self._page_facts is not None:
            self._page_facts.save()
        if not self.kept or not (self._loaded or self.wanted or self.last.exists()):
            return Changes(state_file=self.path, first_build=True)  # never started, nor asked
        known = self.known()
        if self._previous is not None:
            return self._finish_in_memory(known)
        if self._in_order is not None:
            self._in_order.close()
        self._flush()
        db = self.db
        same = self._same_alone(db)
        kept = listed = matched = same  # records as they were; URLs listed; of those, in the last manifest
        added: list[str] = []
        changed: list[str] = []
        updates: list[tuple[str, str | None, str, str | None, str | None]] = []
        for loc, digest, title, lastmod, unchanged, old_loc, *last in self._joined():
            listed += 1
            matched += old_loc is not None
            if unchanged:
                kept += 1
                continue
            old = None if old_loc is None else Record(*last)
            record, kind = reconcile(old, digest, title, lastmod, known, self.now_text)
            if record == old:  # (one ``_AS_IT_WAS`` does not tell)
                kept += 1
                continue
            updates.append((loc, *record))
            if len(updates) >= _BATCH:  # (into a table of their own: the join still reads ``previous``)
                db.executemany("INSERT INTO updates VALUES (?, ?, ?, ?, ?)", updates)
                updates = []
            if kind == "added":
                added.append(loc)
            elif kind == "changed":
                changed.append(loc)
        db.executemany("INSERT INTO updates VALUES (?, ?, ?, ?, ?)", updates)
        last = db.execute("SELECT count(*) FROM previous").fetchone()[0]
        removed = matched < last  # (the query only when the counts say some URL is gone)
        changes = Changes(state_file=self.path, first_build=not known)
        if known:
            changes.added, changes.changed, changes.unsent = added, changed, sorted(self._unsent)
            if removed:
                changes.removed = [loc for (loc,) in db.execute(f"SELECT loc FROM previous WHERE {_GONE} ORDER BY loc")]
        # ``previous`` becomes this build's records (``records``): those that changed put in, those
        # of URLs gone taken out.
        if kept != listed:
            db.execute("INSERT OR REPLACE INTO previous SELECT * FROM updates")
        if removed:
            db.execute(f"DELETE FROM previous WHERE {_GONE}")
        self._finished = True
        if self._unusable:
            return Changes(state_file=None, first_build=True)
        # As in memory: a rebuild that changed nothing leaves the manifest as it is.
        saved = True
        if self.sink.dry_run or not (known and not self._unsent and kept == listed == last):
            saved = self._save()
        if self._store is not None:  # kept with the file they are now the records of, for the next build
            held = _identity(self.path) if saved else None
            db.execute("DELETE FROM about WHERE key = 'manifest'")
            if held is not None:
                db.execute("INSERT INTO about VALUES ('manifest', ?)", (held,))
            db.execute("COMMIT")
        return changes

    def _same_alone(self, db: sqlite3.Connection) -> int:
        """How many URLs this build noted with their records as they were (``same``), each
        noted that way alone: a URL also noted otherwise (twice) has its last note in
        ``current``, as the record it stands for where it is that (``as_it_was``)."""
        if not self._some_same:
            return 0
        if db.execute("SELECT 1 FROM same WHERE loc IN (SELECT loc FROM current) LIMIT 1").fetchone() is not None:
            db.execute("INSERT INTO current SELECT s.loc, p.digest, NULL, p.lastmod, s.seq FROM same s"
                       " JOIN previous p ON p.loc = s.loc WHERE s.loc IN (SELECT loc FROM current)")
            db.execute("DELETE FROM same WHERE loc IN (SELECT loc FROM current)")
        return db.execute("SELECT count(*) FROM same").fetchone()[0]

    def _joined(self) -> Iterator[tuple[Any, ...]]:
        """This build's records in URL order, each with whether it is the last build's as it was
        (``_AS_IT_WAS``) and the last build's record of its URL (its ``loc`` None: none): ``(loc,
        digest, title, lastmod, as it was, loc, digest, first_seen, title, lastmod)``; a URL
        noted twice as its last note. Performance: streamed from the join, not written into a
        table: a rebuild that changed nothing writes none of it."""
        rows = self.db.execute(
            f"SELECT c.loc, c.digest, c.title, c.lastmod, {_AS_IT_WAS}, p.loc, p.digest, p.first_seen, p.title,"
            " p.lastmod FROM current c LEFT JOIN previous p ON p.loc = c.loc ORDER BY c.loc, c.seq",
            {"now": self.now_text})
        row = None
        while batch := rows.fetchmany(_BATCH):
            for after in batch:
                if row is not None and row[0] != after[0]:
                    yield row
                row = after
        if row is not None:
            yield row

    def _save(self) -> bool:
        """Write the manifest; whether it was written."""
        try:
            write_state(self.path, self.records(), [], self.sink)
        except OSError as error:
            self.report.warn(
                str(self.path), "state_file", "state-write",
                f"manifest not saved ({error.strerror or error}); the next build cannot tell "
                "what changed",
            )
            return False
        return True

    def _finish_in_memory(self, known: bool) -> Changes:
        """``finish`` for the records held in memory (``reconcile``, as for those in SQLite)."""
        previous = self._previous
        assert previous is not None
        rows: dict[str, tuple[Record, str | None]] = {}
        kept = 0
        for loc, digest, title, lastmod in self._pending:  # a URL noted twice: the last wins
            old = previous.get(loc)
            rows[loc] = reconcile(old, digest, title, lastmod, known, self.now_text)
            kept += rows[loc][0] is old  # most pages of a rebuild: the record as it was
        self._pending = []
        self._records = rows  # put in URL order only when they are read (a rebuild that changed nothing: never)
        self._finished = True
        if self._unusable:
            return Changes(state_file=None, first_build=True)
        changes = Changes(state_file=self.path, first_build=not known)
        if known:
            changes.added = sorted(loc for loc, (_, kind) in rows.items() if kind == "added")
            changes.changed = sorted(loc for loc, (_, kind) in rows.items() if kind == "changed")
            changes.removed = sorted(loc for loc in previous if loc not in rows)
            changes.unsent = sorted(self._unsent)
        # A rebuild that changed nothing leaves the manifest as it is: it holds these very
        # records (measured: 1 µs a page of generate() on small pages, and no file written).
        # A dry run counts it all the same: it says what a build would write.
        if self.sink.dry_run or not (known and kept == len(rows) == len(previous) and not self._unsent):
            self._save()
        return changes

    def records(self) -> Iterator[tuple[str, Record]]:
        """This build's records in URL order (once ``finish`` has run; none before)."""
        if not self._finished:
            return
        if self._records is not None:
            records = self._records
            for loc in sorted(records):
                yield loc, records[loc][0]
            return
        for loc, *record in self.db.execute(
            "SELECT loc, digest, first_seen, title, lastmod FROM previous ORDER BY loc"
        ):
            yield loc, Record(*record)

    def close(self) -> None:
        if self._page_facts is not None:
            self._page_facts.close()
        if self._in_order is not None:
            self._in_order.close()
        if self._db is not None:
            self._db.close()
            self._db = None

