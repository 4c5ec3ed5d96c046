"""Which files in an output folder are sitemapkit's own: the record a build leaves there.

A build replaces a file only when an earlier build recorded it (and it has not changed
since), or when it is a sitemap already (a ``<urlset>`` or ``<sitemapindex>``, such as the
one MkDocs or sphinx-sitemap wrote, or a text sitemap of the same site); anything else under
an output name is an error before a byte is written. Stale files are removed only when the
record lists them and they are still as the build that recorded them left them.

The record is an input: anyone who can put a file in the output folder (a copied build, a
theme's ``static/`` folder, a shared deploy folder) can write one, with the size and digest
of any file they have a copy of. So a recorded name counts only when the current settings
make it (``AllowedNames``: ``output.names.own_names`` makes them, the caller gives them); any
other name is ignored with a warning (``record-altered``). A name of the sitemap family that
an option now off made is kept in the record as ``dormant`` (said once, with the note
``record-option-off``): the file is left in place, never replaced nor removed while the option
is off, and a build that turns the option on again replaces it when it is still as recorded.
No record can make a build touch a file of another name.

The record's word alone is no proof, so it is signed: a per-project key (``RecordKey``, 32
random bytes made by the first build) kept beside the manifest, outside the output folder,
HMAC-signs it, and a record this project's key did not sign is ignored with a warning
(``record-unsigned``): every file there is then the user's, as without a record (a note,
``record-unsigned-moot``, when the only files it names that are there are ones the build
writes again: ignoring it leaves nothing undone). A build
that cannot keep a key writes its record unsigned, and so trusts no record.

The record is ``.sitemapkit-files.json`` in the output folder (it travels with the files it
describes, as Sphinx's ``.buildinfo`` does): per file name, the size and SHA-256 of each
version a build wrote, so the same site gives the same record. It is written atomically,
before any file it names is put in place, and again once stale files are gone, so a build
killed at any point leaves a record that covers every file of ours on disk. An unreadable or
hostile record counts as empty: nothing is deleted on its word. A dry run (``Owned(...,
dry_run=True)``) reads the record and checks names as a build would, but leaves the record
as it is.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import io
import json
import os
import stat
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple, Protocol

from sitemapkit.report import Report
from sitemapkit.site.files import BLOCK, OutputError, faults_named, kind_of, read_regular, write_file
from sitemapkit.urls import URLError, same_origin, site_loc


class AllowedNames(Protocol):
    """The names the current settings make, as the record is checked against them (made by
    ``output.names.own_names``, given by the caller: this layer knows no settings)."""

    def allows(self, name: str) -> bool:
        """Whether a file named ``name`` may be replaced or removed on the record's word."""
        ...

    def in_family(self, name: str) -> bool:
        """Whether ``name`` is one of the sitemap family under any settings."""
        ...


RECORD = ".sitemapkit-files.json"
VERSION = 1
_MAX_RECORD_BYTES = 16 << 20  # llms_txt records a mirror a page: about 110 bytes each
_PEEK = 4096
_SITEMAP_NS = b"http://www.sitemaps.org/schemas/sitemap/0.9"

Identity = tuple[int, str]
"""``(size, SHA-256 hex)`` of a file as a build left it."""


KEY_NAME = "record.key"
"""The key's file, in the folder of ``state_file`` (Sphinx: the doctrees' ``sitemapkit/``)."""
_KEY_BYTES = 32


class RecordKey(NamedTuple):
    """This project's key, which signs the record of its own files (HMAC-SHA256); ``secret``
    None when there is none (``why`` says why). Handed along once a build: a named tuple."""

    path: Path
    secret: bytes | None
    why: str = ""

    def sign(self, data: dict[str, object]) -> str | None:
        if self.secret is None:
            return None
        return hmac.new(self.secret, _signed_bytes(data), hashlib.sha256).hexdigest()

    def signs(self, data: dict[str, object]) -> bool:
        """Whether ``data`` (a record as read) carries this key's signature of the rest of it."""
        given = data.get("signature")
        made = self.sign({name: value for name, value in data.items() if name != "signature"})
        return isinstance(given, str) and made is not None and hmac.compare_digest(given, made)


def _signed_bytes(data: dict[str, object]) -> bytes:
    return b"sitemapkit-files\0" + json.dumps(data, sort_keys=True, separators=(",", ":")).encode()


def record_key(state_file: Path, *, create: bool = True) -> RecordKey:
    """The key kept beside ``state_file`` (the manifest), made when there is none and
    ``create`` (a dry run makes nothing). Made under a temporary name and linked into place,
    so two builds at once agree on one key and none reads half of it."""
    path = state_file.parent / KEY_NAME
    if not state_file.name or state_file.name == "..":  # names a folder (the manifest says so)
        return RecordKey(path, None, f"state_file '{state_file}' names no file")
    try:
        return RecordKey(path, _read_key(path))
    except FileNotFoundError:
        if not create:
            return RecordKey(path, None, "there is none yet")
    except (OSError, ValueError) as error:
        return RecordKey(path, None, f"{path} cannot be read: {error}")
    import secrets  # (loaded by the one build that makes the key, not by every import)

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{KEY_NAME}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(fd, secrets.token_hex(_KEY_BYTES).encode() + b"\n")
        finally:
            os.close(fd)
        try:
            os.link(temporary, path)
        except FileExistsError:
            pass  # another build made it first: that one is the key
        finally:
            temporary.unlink()
        return RecordKey(path, _read_key(path))
    except (OSError, ValueError) as error:
        return RecordKey(path, None, f"{path} cannot be made: {getattr(error, 'strerror', None) or error}")


def branch_key(ref: str) -> RecordKey:
    """The key of the root step on a git branch (``build --branch``): named after the branch,
    the same on every machine, so that no key need be kept between CI runs. It proves no more
    than the branch does, and needs to: only commits write a branch, and whoever can push one
    can change any file of it. A record in an output folder is never read with it."""
    secret = hashlib.sha256(b"sitemapkit-branch\0" + ref.encode("utf-8")).digest()
    return RecordKey(Path(f"the branch {ref}"), secret)


def _read_key(path: Path) -> bytes:
    text = read_regular(path, 4 * _KEY_BYTES).decode("ascii", "replace").strip()
    if len(text) != 2 * _KEY_BYTES:
        raise ValueError("not a key sitemapkit made")
    return bytes.fromhex(text)


class ForeignFileError(OutputError):
    """An output name taken by a file sitemapkit did not write."""


def url_key(loc: str) -> str:
    """How the record names a page left out on purpose: a digest, so the deployed record
    gives away no URL that the sitemap does not."""
    return hashlib.sha256(loc.encode("utf-8")).hexdigest()[:16]


def chosen_out(folder: Path) -> set[str] | None:
    """The keys of the pages the last build in ``folder`` left out on purpose; ``None`` when
    there is no readable record (no build of sitemapkit's wrote that folder)."""
    return _recorded_keys(folder, "left_out")


def served_elsewhere(folder: Path) -> set[str]:
    """The keys of the URLs the last build in ``folder`` listed from ``extra_urls``: pages
    served by something else, so no built file is expected for them."""
    return _recorded_keys(folder, "served_elsewhere") or set()


def elsewhere_keys(base_url: str, urls: Iterable[str]) -> list[str]:
    """The record's keys of ``extra_urls`` (as given: absolute, or below the site root)."""
    keys = []
    for url in urls:
        with contextlib.suppress(URLError):
            keys.append(url_key(site_loc(base_url, url)))
    return sorted(set(keys))


def _recorded_keys(folder: Path, name: str) -> set[str] | None:
    """The keys the record in ``folder`` lists under ``name``; None without a readable record."""
    try:
        data = json.loads(read_regular(folder / RECORD, _MAX_RECORD_BYTES + 1))
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or data.get("sitemapkit_files") != VERSION:
        return None
    keys = data.get(name)
    return {key for key in keys if isinstance(key, str)} if isinstance(keys, list) else set()


def named_extras(folder: Path, base_url: str, key: RecordKey | None) -> list[str]:
    """The ``extra_sitemaps`` the last build in ``folder`` named in robots.txt, so that one
    dropped from the option is taken out again. The record is an input: only a record ``key``
    signed counts (``None``: any record, for ``validate``, which reports and changes nothing),
    and only http(s) URLs on the site's own host are taken, so no record can make a build
    touch another site's line."""
    try:
        data = json.loads(read_regular(folder / RECORD, _MAX_RECORD_BYTES + 1))
    except (OSError, ValueError, RecursionError):
        return []
    urls = data.get("extra_sitemaps") if isinstance(data, dict) and (key is None or key.signs(data)) else None
    if not isinstance(urls, list):
        return []
    return [url for url in urls if isinstance(url, str) and url.startswith(("http://", "https://"))
            and url.isprintable() and " " not in url and same_origin(url, base_url)]


def left_by_us(folder: Path, names: AllowedNames) -> set[str]:
    """The names of the sitemap family the record in ``folder`` lists whose file is still as
    the build that recorded it left it: read before a build settles the record, so that a file
    of an option now off (``record-option-off``), or the sitemap a build whose key is gone wrote
    (``record-unsigned-moot``), is not taken for another tool's (``cli.others``). Signed or not:
    nothing is replaced or removed on this word, only a warning rests on it."""
    try:
        data = json.loads(read_regular(folder / RECORD, _MAX_RECORD_BYTES + 1))
    except (OSError, ValueError, RecursionError):
        return set()
    if not isinstance(data, dict):
        return set()
    recorded = [body for body in (data.get("files"), data.get("dormant")) if isinstance(body, dict)]
    return {name for body in recorded for name, ids in body.items()
            if _plain(name) and names.in_family(name) and isinstance(ids, list)
            and (found := identity(folder / name)) is not None and list(found) in ids}


def identity(path: Path) -> Identity | None:
    """The identity of the regular file at ``path`` (never followed through a link), or None."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        digest, size = hashlib.sha256(), 0
        while chunk := os.read(fd, BLOCK):
            digest.update(chunk)
            size += len(chunk)
        return size, digest.hexdigest()
    except OSError:
        return None
    finally:
        os.close(fd)


class Owned:
    """The record of one output folder, as read at the start of a build."""

    def __init__(self, folder: Path, report: Report, base_url: str, names: AllowedNames, key: RecordKey, *,
                 dry_run: bool = False) -> None:
        self.folder, self.base_url = folder, base_url
        self.dry_run = dry_run
        """A dry run's: the record is read and names are checked, but it is never written."""
        self.key = key
        """What signs the record this build writes, and checks the one it reads."""
        self.path = folder / RECORD
        info = _lstat(self.path)
        if info is not None and not stat.S_ISREG(info.st_mode):  # never replaced or removed
            why = "a symbolic link" if stat.S_ISLNK(info.st_mode) else kind_of(info.st_mode)
            raise ForeignFileError(f"{self.path} is {why}, not the record sitemapkit keeps of its own "
                                   "files: move it away")
        self.files, self.dormant, self.unsigned = _load(self.path, report, names, key)
        """The recorded files whose names ``names`` allows: the only ones ever replaced or
        removed on the record's word; and those of an option now off (``dormant``), carried
        into the next record unread, for a build that turns the option on again. A record
        this project's key did not sign gives none: ``unsigned`` says what it named, told
        once the build knows what it writes (``stale``), or stops (``check``)."""
        self.report = report
        self.pending: dict[str, set[Identity]] = {}
        """Files this build is putting in place, with their identity."""
        self.confirmed: set[str] = set()
        """Recorded files found unchanged by this build: each is read once a build."""
        if key.secret is None and not dry_run:  # an info: the manifest's own warning names the cause
            report.info(str(key.path), "state_file", "record-key",
                        f"no key to sign the record of sitemapkit's own files ({key.why}): it is written "
                        "unsigned, and no build trusts it (no stale file is removed); keep state_file's "
                        "folder writable")

    def mine(self, name: str) -> bool:
        """Whether ``name`` is a file an earlier build recorded and nobody changed since."""
        if name in self.confirmed:
            return True
        known = self.files.get(name)
        if not known:
            return False
        info = _lstat(self.folder / name)
        if info is None or not stat.S_ISREG(info.st_mode):
            return False
        if any(size == info.st_size for size, _ in known) and identity(self.folder / name) in known:
            self.confirmed.add(name)
            return True
        return False

    def name_of(self, path: Path) -> str:
        """How the record names the file at ``path`` (in the folder, or below it, as
        ``llms_txt``'s mirrors): its path below the folder."""
        text, folder = str(path), str(self.folder)
        if not text.startswith(folder) or text[len(folder):len(folder) + 1] != os.sep:
            return path.name
        return text[len(folder) + 1:].replace(os.sep, "/")

    def check(self, names: Iterable[str]) -> None:
        """Raise ``ForeignFileError`` for the first of ``names`` held by a file that is not
        ours to replace."""
        for name in names:
            path = self.folder / name
            info = _lstat(path)
            if info is None:
                continue
            if stat.S_ISLNK(info.st_mode):
                why = "is a symbolic link"
            elif not stat.S_ISREG(info.st_mode):
                why = f"is {kind_of(info.st_mode)}"
            # A sitemap is replaced whoever wrote it: asked first, of its first kilobytes, so a
            # rebuild does not read its own sitemaps whole to tell they are its own.
            elif is_sitemap(path, self.base_url) or self.mine(name):
                continue
            else:
                why = "is not a file sitemapkit wrote"
            self._tell_unsigned(set())  # the build stops: it writes nothing again
            raise ForeignFileError(
                f"{path} {why}; sitemapkit writes and replaces only its own files: choose "
                "another filename, or move that file away"
            )

    def expect(self, written: Iterable[tuple[Path, Path | None]]) -> None:
        """Record the files about to be put in place, given as ``(final, temporary)`` paths,
        before they are: a build killed at any moment leaves them covered by the record. (A
        file whose writer renames it itself, the change feed, is recorded just after: a kill
        in between leaves it unrecorded, which only keeps it from being removed.)"""
        if self.dry_run:
            return
        for final, temp in set(written):  # each file read once, however often it is named
            found = identity(temp) if temp is not None else None
            if found is not None:
                self.pending.setdefault(self.name_of(final), set()).add(found)
        merged = {name: set(ids) for name, ids in self.files.items()}
        for name, ids in self.pending.items():
            merged.setdefault(name, set()).update(ids)
        self._save(merged)

    def holds(self, path: Path, data: bytes) -> bool:
        """Whether the file at ``path`` is one an earlier build recorded and holds ``data``
        already: then it is left as it is (one read, no write), and counted as written."""
        name = self.name_of(path)
        found = (len(data), hashlib.sha256(data).hexdigest())
        if found not in self.files.get(name, ()) or identity(path) != found:
            return False
        self.confirmed.add(name)
        if not self.dry_run:
            self.pending.setdefault(name, set()).add(found)
        return True

    def stale(self, keep: set[str]) -> list[Path]:
        """Files of an earlier build that this one did not write (``keep``: the names it writes),
        still as that build left them. An unsigned record is told here, where its cost is known."""
        self._tell_unsigned(keep)
        return [self.folder / name for name in sorted(self.files) if name not in keep and self.mine(name)]

    def _tell_unsigned(self, keep: set[str]) -> None:
        """Tell, once, that the record was not signed with this project's key and is ignored: a
        warning (``record-unsigned``) when that leaves something undone (a file it names is there
        and this build does not write it again: a signed record's word would have removed it or
        kept it as the build's; or a robots.txt line it names), else a note
        (``record-unsigned-moot``): the generator emptied the folder (MkDocs keeps dot files), or
        kept it and only this build's own files are there (Pelican), so nothing is at stake."""
        if self.unsigned is None:
            return
        unsigned, self.unsigned = self.unsigned, None
        told = (f"the record of sitemapkit's own files is not signed with this project's key ({unsigned.why}: "
                "it was copied, altered, or made by a build with another state_file folder); ignored: ")
        if unsigned.lines or not unsigned.there <= keep:
            self.report.warn(str(self.path), "record", "record-unsigned",
                             told + "no file is replaced or removed on its word, and a fresh record is written")
        elif unsigned.there:
            self.report.info(str(self.path), "record", "record-unsigned-moot",
                             told + "the only files it names that are there are written again by this build, so "
                             "nothing is at stake; a fresh record is written")
        else:
            self.report.info(str(self.path), "record", "record-unsigned-moot",
                             told + "no file it names is there any more, so nothing is at stake; a fresh record "
                             "is written")

    def settle(self, written: Iterable[Path], removed: Iterable[Path], chosen_out: Iterable[str] = (),
               extras: Iterable[str] = (), elsewhere: Iterable[str] = ()) -> None:
        """The record of a finished build: what it wrote, as it now is on disk; what was
        recorded but could not be removed stays recorded. ``chosen_out``: the keys of the
        pages the site's own settings left out (see ``chosen_out``, the listing step's
        ``Listed``); ``extras``: the ``extra_sitemaps`` robots.txt names (see
        ``named_extras``); ``elsewhere``: the keys of ``extra_urls`` (see
        ``served_elsewhere``)."""
        if self.dry_run:
            return
        written = list(written)
        gone = {self.name_of(path) for path in removed}
        replaced = {self.name_of(path) for path in written}
        final: dict[str, set[Identity]] = {
            name: ids for name, ids in self.files.items()
            if name not in gone and name not in replaced and self.mine(name)
        }
        for path in written:
            # A file put in place from the temporary file ``expect`` read holds the bytes read
            # there: it is not read again.
            expected = self.pending.get(self.name_of(path), ())
            found = next(iter(expected)) if len(expected) == 1 else identity(path)
            if found is not None:
                final[self.name_of(path)] = {found}
        self._save(final, sorted(chosen_out), list(extras), list(elsewhere))

    def _save(self, files: dict[str, set[Identity]], chosen_out: list[str] | None = None,
              extras: list[str] | None = None, elsewhere: list[str] | None = None) -> None:
        if not files and not self.dormant:  # nothing of ours left: no record either
            with faults_named(self.path, "remove"), contextlib.suppress(FileNotFoundError):
                self.path.unlink()
            return
        body = {name: sorted(list(i) for i in ids) for name, ids in sorted(files.items())}
        data: dict[str, object] = {"sitemapkit_files": VERSION, "files": body}
        if self.dormant:
            data["dormant"] = {name: sorted(list(i) for i in ids) for name, ids in sorted(self.dormant.items())}
        if chosen_out:
            data["left_out"] = chosen_out
        if extras:
            data["extra_sitemaps"] = extras
        if elsewhere:
            data["served_elsewhere"] = elsewhere
        signature = self.key.sign(data)
        if signature is not None:
            data["signature"] = signature
        write_file(self.path, (json.dumps(data, indent=0, sort_keys=True) + "\n").encode())


def record_written(folder: Path, paths: list[Path], chosen_out: Iterable[str], base_url: str,
                   names: AllowedNames, key: RecordKey, extras: Iterable[str] = (), elsewhere: Iterable[str] = (), *,
                   dry_run: bool = False, removed: Iterable[Path] = (), owned: Owned | None = None) -> None:
    """Add files put in place after the writer settled the record (the change feed, written
    from the manifest once every entry is consumed) to the record of ``folder``, with the
    pages left out on purpose (``chosen_out``: see ``Owned.settle``). What is wrong with the
    record was said when the writer read it: it is not said twice. ``owned``: the record as a
    step of this build read it already (the files it put in place are then not read again)."""
    if owned is None:
        owned = Owned(folder, Report(), base_url, names, key, dry_run=dry_run)
    owned.settle(paths, removed, chosen_out, extras, elsewhere)


def record_signed_again(folder: Path, was: RecordKey, now: RecordKey) -> bool:
    """``folder``'s record, when ``was`` signed it, signed with ``now`` instead (the state that
    holds the key moved: ``cli.build.state_taken``), so that its files stay the build's own;
    whether it was."""
    path = folder / RECORD
    try:
        data = json.loads(read_regular(path, _MAX_RECORD_BYTES + 1))
    except (OSError, ValueError, RecursionError):
        return False
    if type(data) is not dict or now.secret is None or not was.signs(data):
        return False
    del data["signature"]
    data["signature"] = now.sign(data)
    write_file(path, (json.dumps(data, indent=0, sort_keys=True) + "\n").encode())
    return True


def _lstat(path: Path) -> os.stat_result | None:
    try:
        return os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None


def _plain(name: object) -> bool:
    """A file name of the folder, or a path below it (``llms_txt``'s mirrors): no empty,
    ``.`` or ``..`` part, no backslash, no NUL."""
    return (
        isinstance(name, str) and 0 < len(name) <= 4096 and name != RECORD
        and "\\" not in name and "\x00" not in name
        and all(0 < len(part) <= 255 and part not in (".", "..") for part in name.split("/"))
    )


Recorded = dict[str, set[Identity]]


class Unsigned:
    """A record this project's key did not sign, as read: ignored, and told once the build
    knows what it writes (``Owned.stale``): whether ignoring it leaves anything undone. (A
    plain class: a NamedTuple's is made at every import, for the few builds that meet one.)"""

    __slots__ = ("lines", "there", "why")

    def __init__(self, why: str, there: frozenset[str], lines: bool) -> None:
        self.why = why
        """Why its signature is not this project's key's."""
        self.there = there
        """The names it gives whose file is in the folder (its word counts for nothing but
        which names to look at)."""
        self.lines = lines
        """Whether it names ``extra_sitemaps`` lines and robots.txt is there: a line an earlier
        build named and the option no longer has is taken out only on a signed record's word."""


def _unsigned(path: Path, data: dict[str, object], key: RecordKey) -> Unsigned:
    folder = path.parent
    named = [name for part in ("files", "dormant") if isinstance(kept := data.get(part), dict) for name in kept]
    why = f"there is no key ({key.why})" if key.secret is None else f"{key.path} did not sign it"
    return Unsigned(why, frozenset(name for name in named if _plain(name) and _lstat(folder / name) is not None),
                    bool(data.get("extra_sitemaps")) and _lstat(folder / "robots.txt") is not None)


def _load(path: Path, report: Report, names: AllowedNames, key: RecordKey
          ) -> tuple[Recorded, Recorded, Unsigned | None]:
    """The record at ``path``: names to identities, for the names ``names`` allows, and for
    the names of the sitemap family it does not (``dormant``: an option now off made them; the
    note ``record-option-off`` says so when the option was on in the build that recorded
    them). Missing is empty; unreadable, too large or of the wrong shape is empty with a
    warning (then nothing is deleted or replaced on its word); not signed by ``key``, empty
    and ``Unsigned`` (told by ``Owned.stale``); any other name is left out, with a warning."""
    try:
        data = json.loads(read_regular(path, _MAX_RECORD_BYTES + 1))
    except FileNotFoundError:
        return {}, {}, None
    except (OSError, ValueError, RecursionError) as error:
        _unreadable(report, path, f"cannot be read ({error})")
        return {}, {}, None
    if not isinstance(data, dict) or data.get("sitemapkit_files") != VERSION:
        _unreadable(report, path, "is not a record this version of sitemapkit wrote")
        return {}, {}, None
    if not key.signs(data):
        return {}, {}, _unsigned(path, data, key)
    files: Recorded = {}
    dormant: Recorded = {}
    body, asleep = data.get("files"), data.get("dormant", {})
    if not isinstance(body, dict) or not isinstance(asleep, dict):
        _unreadable(report, path, "has the wrong shape")
        return {}, {}, None
    foreign, off = [], []
    for recorded, was_on in ((body, True), (asleep, False)):
        for name, ids in recorded.items():
            if not _plain(name) or not (names.allows(name) or names.in_family(name)):
                foreign.append(name)
                continue
            kept = files if names.allows(name) else dormant  # made by these settings, or an option off
            if isinstance(ids, list):
                kept.setdefault(name, set()).update(
                    (i[0], i[1]) for i in ids
                    if isinstance(i, list) and len(i) == 2 and type(i[0]) is int and type(i[1]) is str
                )
                if kept is dormant and was_on:
                    off.append(name)
    if foreign:
        report.warn(str(path), "record", "record-altered",
                    f"the record of sitemapkit's own files was altered: it names "
                    f"{_some(foreign)}, which sitemapkit never writes with these settings (or "
                    "filename was changed since); ignored: no file of that name is replaced or "
                    "removed")
    if off:
        report.info(str(path), "record", "record-option-off",
                    f"{_some(off)} {'was' if len(off) == 1 else 'were'} written by a build with other "
                    "settings (an option now off); left in place, and still recorded as sitemapkit's: "
                    "turning the option on again replaces "
                    f"{'it' if len(off) == 1 else 'them'}; delete {'it' if len(off) == 1 else 'them'} by hand "
                    f"if the site no longer needs {'it' if len(off) == 1 else 'them'}")
    return files, dormant, None


def _some(names: list[object], shown: int = 5) -> str:
    """Up to ``shown`` recorded names, quoted and escaped (they are input), and how many more."""
    quoted = ", ".join(ascii(str(name))[:80] for name in sorted(map(str, names))[:shown])
    return quoted + (f" and {len(names) - shown} more" if len(names) > shown else "")


def _unreadable(report: Report, path: Path, why: str) -> None:
    report.warn(str(path), "record", "record-unreadable",
                f"the record of sitemapkit's own files {why}; no stale file is removed this time "
                "and a fresh record is written")


def is_sitemap(path: Path, base_url: str) -> bool:
    """Whether the file at ``path`` is a sitemap already (so replacing it loses nothing the
    user made): an XML sitemap or index, plain or gzip, a text sitemap of this site, or a
    change feed sitemapkit wrote. Only its first few kilobytes are read."""
    try:
        start = read_regular(path, 1 << 16)
        if path.name.endswith(".gz"):
            import gzip  # (loaded by the builds that meet a .gz file, not by every import)

            with gzip.GzipFile(fileobj=io.BytesIO(start)) as packed:
                start = packed.read(_PEEK)
    except (OSError, EOFError, ValueError):
        return False
    start = start[:_PEEK]
    if path.name.endswith((".xml", ".xml.gz")) or start.lstrip().startswith(b"<?xml"):
        if _SITEMAP_NS in start and (b"<urlset" in start or b"<sitemapindex" in start):
            return True
        return b"<feed" in start and b"<generator>sitemapkit</generator>" in start
    lines = start.splitlines()[:-1] if len(start) == _PEEK else start.splitlines()
    return bool(lines) and all(line.decode("utf-8", "replace").startswith(base_url) for line in lines)
