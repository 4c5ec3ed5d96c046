"""Where bytes land: a file written under a temporary name in its own folder and renamed
into place, with an optional gzip twin that is the same from build to build; and the one
safe way to open a file a build reads (regular files only, never a pipe that would hang).

Every failure of the file system (disk full, a read-only folder, a file where a folder
should be) comes out as one ``OutputError`` naming the file and the cause, with the
temporary files removed.

Every file a build writes or removes goes through a ``Sink`` that ``generate`` makes and hands
to each step: ``Sink()`` writes to the disk (through ``Target``, ``write_file``, ``remove``,
``make_dir`` and ``scratch`` here), ``Sink(dry_run=True)`` only counts the bytes each file
would have and touches nothing.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from sitemapkit.report import SitemapError

if TYPE_CHECKING:
    import gzip

BLOCK = 1 << 20
GZIP_LEVEL = 6


class OutputError(SitemapError, OSError):
    """A file sitemapkit could not write, replace or remove: the message names the file and
    the cause. A ``SitemapError`` for adapters, an ``OSError`` for code that expects one."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class NotRegularFile(OSError):
    """A path a build would read that is a pipe, socket, device or folder."""


_KINDS = (
    (stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"), (stat.S_ISDIR, "a folder"),
)


def kind_of(mode: int) -> str:
    """What a non-regular file is, in words."""
    return next((name for check, name in _KINDS if check(mode)), "not a regular file")


def inside(path: str | os.PathLike[str] | None, folder: str | os.PathLike[str]) -> bool:
    """Whether the file at ``path`` lies in ``folder``, links resolved (None: no file)."""
    return path is not None and Path(path).resolve().is_relative_to(Path(folder).resolve())


def open_regular(path: str | os.PathLike[str]) -> int:
    """A read-only descriptor for ``path``, which must be a regular file: opened without
    blocking (a named pipe with no writer would otherwise wait forever) and checked before
    a byte is read. Raises ``NotRegularFile`` (or the ``OSError`` of the open)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError as error:
        if error.errno == errno.ENXIO:  # a socket
            raise NotRegularFile(errno.ENXIO, "is a socket, not a file", str(path)) from None
        raise
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise NotRegularFile(errno.EINVAL, f"is {kind_of(mode)}, not a file", str(path))
    # O_NONBLOCK stays: Linux and macOS ignore it for a regular file, and clearing it would
    # cost two system calls a page (measured: 3.6% of generate() on Pelican's small pages).
    return fd


def read_regular(path: str | os.PathLike[str], limit: int | None = None) -> bytes:
    """The bytes of a regular file (the first ``limit`` of them when given)."""
    fd = open_regular(path)
    try:
        parts, size = [], 0
        while limit is None or size < limit:
            chunk = os.read(fd, BLOCK if limit is None else min(BLOCK, limit - size))
            if not chunk:
                break
            parts.append(chunk)
            size += len(chunk)
        return b"".join(parts)
    finally:
        os.close(fd)


def fault(path: str | os.PathLike[str], error: OSError, doing: str = "write") -> OutputError:
    """One line for a failed file operation: the file, what was being done, the cause."""
    if isinstance(error, OutputError):
        return error
    cause = error.strerror or str(error)
    if error.errno == errno.EFBIG:
        cause = "file too large for the file system or the process's file-size limit"
    target = Path(error.filename) if getattr(error, "filename", None) else Path(path)
    if target.name.endswith(".tmp") and target.name.startswith("."):
        target = Path(path)  # name the file the user knows, not our temporary one
    made = OutputError(f"cannot {doing} {target}: {cause}")
    made.errno, made.strerror, made.filename = error.errno, cause, str(target)
    return made


@contextlib.contextmanager
def faults_named(path: str | os.PathLike[str], doing: str = "write") -> Iterator[None]:
    """Turn an ``OSError`` inside into ``OutputError`` naming ``path``."""
    try:
        yield
    except OSError as error:
        raise fault(path, error, doing) from None


def temporary_name(path: Path) -> Path:
    # os.urandom(4).hex() is what secrets.token_hex(4) returns; secrets (and hmac) are not
    # imported for it (measured: 0.2 ms of every adapter's import).
    return path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")


def create_new(path: Path) -> int:
    """A file descriptor for a new file, with the mode the umask gives any new file
    (``mkstemp`` would make it private, wrong for a file a web server must read)."""
    return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)


class Target:
    """One output file, and its ``.gz`` twin when ``gzip`` is set, written under temporary
    names and renamed on ``commit``: a crash leaves the old file whole.

    The twin's header has mtime 0 and no file name, so equal input gives equal bytes.
    """

    def __init__(self, path: Path, *, gzip_twin: bool = False) -> None:
        self.path = path
        self._temps: list[tuple[Path, Path]] = []
        self._fd = -1
        self._gzip: gzip.GzipFile | None = None
        self._gzip_raw: BinaryIO | None = None
        try:
            self._fd = self._create(path)
            if gzip_twin:
                import gzip  # (loaded by the builds that write .gz twins, not by every import)

                twin = path.with_name(path.name + ".gz")
                self._gzip_raw = open(self._create(twin), "wb", buffering=BLOCK)  # noqa: SIM115
                self._gzip = gzip.GzipFile(
                    filename="", mode="wb", fileobj=self._gzip_raw, compresslevel=GZIP_LEVEL, mtime=0
                )
        except OSError as error:
            self.abort()
            raise fault(path, error) from None

    @property
    def finals(self) -> list[Path]:
        """The paths ``commit`` puts in place, plain file first."""
        return [final for _, final in self._temps]

    def _create(self, path: Path) -> int:
        temp = temporary_name(path)
        fd = create_new(temp)
        self._temps.append((temp, path))
        return fd

    def write(self, data: bytes) -> None:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(self._fd, view) :]
            if self._gzip is not None:
                self._gzip.write(data)
        except OSError as error:
            raise fault(self.path, error) from None

    def copy_from(self, source: BinaryIO) -> None:
        """Append all of ``source`` (a flushed file) without holding it in memory."""
        try:
            source.seek(0)
            if self._gzip is None and _copy_in_kernel(source.fileno(), self._fd):
                return
            source.seek(0)
            while block := source.read(BLOCK):
                self.write(block)
        except OSError as error:
            raise fault(self.path, error) from None

    def close(self) -> list[tuple[Path, Path]]:
        """Finish writing, leaving the files under their temporary names: each final path
        with the temporary file that holds it until ``commit``."""
        try:
            self._close()
        except OSError as error:
            raise fault(self.path, error) from None
        return [(final, temp) for temp, final in self._temps]

    def commit(self) -> list[Path]:
        """Close and rename into place; the paths written, plain file first."""
        self.close()
        done = []
        for temp, final in self._temps:
            with faults_named(final, "replace"):
                os.replace(temp, final)
            done.append(final)
        self._temps = []
        return done

    def abort(self) -> None:
        with contextlib.suppress(OSError):
            self._close()
        for temp, _ in self._temps:
            with contextlib.suppress(OSError):
                temp.unlink(missing_ok=True)
        self._temps = []

    def _close(self) -> None:
        if self._fd >= 0:
            fd, self._fd = self._fd, -1
            os.close(fd)
        if self._gzip is not None and self._gzip_raw is not None:
            packer, raw = self._gzip, self._gzip_raw
            self._gzip = self._gzip_raw = None
            try:
                packer.close()
            finally:
                raw.close()


class _Count:
    """A write-only file that keeps only its length."""

    def __init__(self) -> None:
        self.size = 0

    def write(self, data: bytes) -> int:
        self.size += len(data)
        return len(data)

    def flush(self) -> None:
        pass


class TallyTarget:
    """A ``Target`` for a dry run: the same calls, bytes counted (gzip twins compressed to
    count them exactly), sizes put in ``sizes`` on ``commit``; no temporary file, so
    ``close`` pairs each final path with None."""

    def __init__(self, sizes: dict[Path, int], path: Path, *, gzip_twin: bool = False) -> None:
        self.path, self._sizes, self._plain = path, sizes, _Count()
        self._twin: _Count | None = None
        self._gzip: gzip.GzipFile | None = None
        if gzip_twin:
            import gzip  # (see ``Target``)

            self._twin = _Count()
            self._gzip = gzip.GzipFile(filename="", mode="wb", fileobj=self._twin, compresslevel=GZIP_LEVEL, mtime=0)
        self.finals = [path] + ([path.with_name(path.name + ".gz")] if gzip_twin else [])

    def write(self, data: bytes) -> None:
        self._plain.write(data)
        if self._gzip is not None:
            self._gzip.write(data)

    def copy_from(self, source: BinaryIO) -> None:
        source.seek(0)
        while block := source.read(BLOCK):
            self.write(block)

    def close(self) -> list[tuple[Path, Path | None]]:
        if self._gzip is not None:
            self._gzip.close()
            self._gzip = None
        return [(final, None) for final in self.finals]

    def commit(self) -> list[Path]:
        self.close()
        self._sizes[self.path] = self._plain.size
        if self._twin is not None:
            self._sizes[self.finals[1]] = self._twin.size
        return list(self.finals)

    def abort(self) -> None:
        pass


AnyTarget = Target | TallyTarget


def scratch(folder: Path) -> BinaryIO:
    """An anonymous temporary file for a body being assembled, in ``folder`` (the output's
    file system, so the final copy stays in the kernel)."""
    with faults_named(folder / "(a temporary file)"):
        return tempfile.TemporaryFile(dir=folder)


def remove(paths: Iterable[Path]) -> list[Path]:
    """Delete ``paths``; the ones that were deleted."""
    removed = []
    for path in paths:
        with faults_named(path, "remove"), contextlib.suppress(FileNotFoundError):
            path.unlink()
        removed.append(path)
    return removed


def make_dir(path: Path) -> None:
    with faults_named(path, "create the folder"):
        path.mkdir(parents=True, exist_ok=True)


def write_file(path: Path, data: bytes, *, gzip_twin: bool = False) -> list[Path]:
    """Write ``data`` to ``path`` (and its gzip twin) atomically; the paths written."""
    return _write(Target(path, gzip_twin=gzip_twin), data)


def _write(target: AnyTarget, data: bytes) -> list[Path]:
    try:
        target.write(data)
    except BaseException:
        target.abort()
        raise
    return target.commit()


class Sink:
    """Where one build's files go: the disk, or in a dry run (``dry_run``) nowhere. A dry run
    writes and removes nothing; it counts the bytes each file would have (``sizes``, gzip
    twins compressed to count them exactly) and takes a removal as done.

    ``generate`` makes one and hands it to every step that writes or removes a file: the
    writer, the manifest, the change feed, ``sitemap.html``, robots.txt and IndexNow's files.
    """

    def __init__(self, *, dry_run: bool = False) -> None:
        self.dry_run = dry_run
        self.sizes: dict[Path, int] = {}
        """In a dry run, the size of each file that would have been written."""

    def open_target(self, path: Path, *, gzip_twin: bool = False) -> AnyTarget:
        """A ``Target`` for ``path`` (and its gzip twin), committed into place or counted."""
        if self.dry_run:
            return TallyTarget(self.sizes, path, gzip_twin=gzip_twin)
        return Target(path, gzip_twin=gzip_twin)

    def write_file(self, path: Path, data: bytes, *, gzip_twin: bool = False) -> list[Path]:
        """Write ``data`` to ``path`` (and its gzip twin) atomically; the paths written."""
        return _write(self.open_target(path, gzip_twin=gzip_twin), data)

    def scratch(self, folder: Path) -> BinaryIO:
        """An anonymous temporary file for a body being assembled: in ``folder`` or, in a
        dry run, in memory-backed spooled storage that never touches ``folder``."""
        if self.dry_run:
            return tempfile.SpooledTemporaryFile(max_size=BLOCK)  # type: ignore[return-value]
        return scratch(folder)

    def remove(self, paths: Iterable[Path]) -> list[Path]:
        """Delete ``paths`` (in a dry run: none); the ones that were, or would be, deleted."""
        return list(paths) if self.dry_run else remove(paths)

    def make_dir(self, path: Path) -> None:
        if not self.dry_run:
            make_dir(path)


def _copy_in_kernel(source: int, target: int) -> bool:
    """``copy_file_range`` from the start of ``source`` to the position of ``target``;
    False when the platform or file system cannot (nothing copied then)."""
    copy = getattr(os, "copy_file_range", None)
    if copy is None:
        return False
    size = os.fstat(source).st_size
    offset = 0
    try:
        while offset < size:
            done = copy(source, target, size - offset, offset)
            if done == 0:
                break
            offset += done
    except OSError:
        if offset:
            raise
        return False
    return offset == size
