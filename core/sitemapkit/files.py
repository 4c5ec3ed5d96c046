"""Where bytes land: a file written under a temporary name in its own folder and renamed
into place, with an optional gzip twin that is the same from build to build."""

from __future__ import annotations

import gzip
import os
import secrets
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


def write_file(path: Path, data: bytes, *, gzip_twin: bool = False) -> list[Path]:
    """Write ``data`` to ``path`` (and its gzip twin) atomically; the paths written."""
    target = Target(path, gzip_twin=gzip_twin)
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
