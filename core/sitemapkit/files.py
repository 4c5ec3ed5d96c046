"""Where bytes land: a file written under a temporary name in its own folder and renamed
into place, with an optional gzip twin that is the same from build to build.

Every file a build writes or removes goes through ``open_target``, ``remove`` and
``make_dir``. They act on the active sink: the disk, or, inside ``dry_run()``, a ``Tally``
that only counts the bytes each file would have and touches nothing.
"""

from __future__ import annotations

import gzip
import os
import secrets
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import BinaryIO

BLOCK = 1 << 20
GZIP_LEVEL = 6


def temporary_name(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")


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
        self._fd = self._create(path)
        self._gzip: gzip.GzipFile | None = None
        self._gzip_raw: BinaryIO | None = None
        if gzip_twin:
            twin = path.with_name(path.name + ".gz")
            self._gzip_raw = open(self._create(twin), "wb", buffering=BLOCK)  # noqa: SIM115
            self._gzip = gzip.GzipFile(
                filename="", mode="wb", fileobj=self._gzip_raw, compresslevel=GZIP_LEVEL, mtime=0
            )

    def _create(self, path: Path) -> int:
        temp = temporary_name(path)
        fd = create_new(temp)
        self._temps.append((temp, path))
        return fd

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(self._fd, view) :]
        if self._gzip is not None:
            self._gzip.write(data)

    def copy_from(self, source: BinaryIO) -> None:
        """Append all of ``source`` (a flushed file) without holding it in memory."""
        source.seek(0)
        if self._gzip is None and _copy_in_kernel(source.fileno(), self._fd):
            return
        source.seek(0)
        while block := source.read(BLOCK):
            self.write(block)

    def commit(self) -> list[Path]:
        """Close and rename into place; the paths written, plain file first."""
        self._close()
        for temp, final in self._temps:
            os.replace(temp, final)
        done = [final for _, final in self._temps]
        self._temps = []
        return done

    def abort(self) -> None:
        self._close()
        for temp, _ in self._temps:
            temp.unlink(missing_ok=True)
        self._temps = []

    def _close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1
        if self._gzip is not None and self._gzip_raw is not None:
            self._gzip.close()
            self._gzip_raw.close()
            self._gzip = self._gzip_raw = None


class Tally:
    """The dry-run sink: the size each file would have, and the files that would be
    removed. Nothing reaches the disk."""

    def __init__(self) -> None:
        self.sizes: dict[Path, int] = {}
        self.removed: list[Path] = []


_TALLY: ContextVar[Tally | None] = ContextVar("sitemapkit_tally", default=None)


@contextmanager
def dry_run() -> Iterator[Tally]:
    """Inside, every write and removal of this module is counted instead of done."""
    tally = Tally()
    token = _TALLY.set(tally)
    try:
        yield tally
    finally:
        _TALLY.reset(token)


class _Count:
    """A write-only file that keeps only its length."""

    def __init__(self) -> None:
        self.size = 0

    def write(self, data: bytes) -> int:
        self.size += len(data)
        return len(data)

    def flush(self) -> None:
        pass


class _TallyTarget:
    """A ``Target`` for a dry run: the same calls, bytes counted (gzip twins compressed to
    count them exactly), sizes handed to the tally on ``commit``."""

    def __init__(self, tally: Tally, path: Path, *, gzip_twin: bool = False) -> None:
        self.path, self._tally, self._plain = path, tally, _Count()
        self._twin = _Count() if gzip_twin else None
        self._gzip = (
            gzip.GzipFile(filename="", mode="wb", fileobj=self._twin, compresslevel=GZIP_LEVEL, mtime=0)
            if self._twin is not None else None
        )

    def write(self, data: bytes) -> None:
        self._plain.write(data)
        if self._gzip is not None:
            self._gzip.write(data)

    def copy_from(self, source: BinaryIO) -> None:
        source.seek(0)
        while block := source.read(BLOCK):
            self.write(block)

    def commit(self) -> list[Path]:
        done = [self.path]
        self._tally.sizes[self.path] = self._plain.size
        if self._gzip is not None and self._twin is not None:
            self._gzip.close()
            twin = self.path.with_name(self.path.name + ".gz")
            self._tally.sizes[twin] = self._twin.size
            done.append(twin)
        return done

    def abort(self) -> None:
        pass


def open_target(path: Path, *, gzip_twin: bool = False) -> Target | _TallyTarget:
    """A ``Target`` on the active sink."""
    tally = _TALLY.get()
    return Target(path, gzip_twin=gzip_twin) if tally is None else _TallyTarget(tally, path, gzip_twin=gzip_twin)


def scratch(folder: Path) -> BinaryIO:
    """An anonymous temporary file for a body being assembled: in ``folder`` (the output's
    file system, so the final copy stays in the kernel) or, in a dry run, in memory-backed
    spooled storage that never touches ``folder``."""
    if _TALLY.get() is None:
        return tempfile.TemporaryFile(dir=folder)
    return tempfile.SpooledTemporaryFile(max_size=BLOCK)


def remove(path: Path) -> None:
    tally = _TALLY.get()
    if tally is None:
        path.unlink()
    else:
        tally.removed.append(path)


def make_dir(path: Path) -> None:
    if _TALLY.get() is None:
        path.mkdir(parents=True, exist_ok=True)


def write_file(path: Path, data: bytes, *, gzip_twin: bool = False) -> list[Path]:
    """Write ``data`` to ``path`` (and its gzip twin) atomically; the paths written."""
    target = open_target(path, gzip_twin=gzip_twin)
    try:
        target.write(data)
    except BaseException:
        target.abort()
        raise
    return target.commit()


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
