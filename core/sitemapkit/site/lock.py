"""Builds into one output folder take turns; ``validate`` reads a folder between builds.

A build holds an exclusive ``flock`` on the output folder itself for its whole run (sitemaps,
record, stale files, change feed, ``sitemap.html``, robots.txt); ``validate`` holds a shared
one while it reads a folder's files. The lock is on the folder, not on a lock file in it: it
adds nothing to the deployed site, needs no write access for ``validate``, and cannot be
removed from under a waiting process. The kernel drops it when the process ends, however it
ends, so a killed build never leaves a folder locked.

Where ``flock`` does not exist (Windows) or the file system refuses it (some network file
systems), runs are not serialised: the lock is then a no-op, as before it existed.
"""

from __future__ import annotations

import contextlib
import errno
import os
from collections.abc import Callable, Iterator
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows: no advisory locks
    fcntl = None  # type: ignore[assignment]

Waiting = Callable[[Path], None]
"""Told the folder when a run has to wait for another to finish with it."""


@contextlib.contextmanager
def folder_locked(folder: Path, *, shared: bool = False, waiting: Waiting | None = None) -> Iterator[None]:
    """Hold the lock of ``folder`` inside: exclusive for a build, ``shared`` for a reader.
    When another run holds it, ``waiting(folder)`` is called once, then this one waits."""
    if fcntl is None:
        yield
        return
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:  # no folder yet (a dry run), or one that cannot be opened: nothing to guard
        yield
        return
    try:
        _take(fd, folder, fcntl.LOCK_SH if shared else fcntl.LOCK_EX, waiting)
        yield
    finally:
        os.close(fd)  # releases the lock


def _take(fd: int, folder: Path, mode: int, waiting: Waiting | None) -> None:
    try:
        fcntl.flock(fd, mode | fcntl.LOCK_NB)
        return
    except OSError as error:
        if error.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            return  # the file system has no locks: go on unserialised
    if waiting is not None:
        waiting(folder)
    with contextlib.suppress(OSError):  # a lock lost to the file system: go on unserialised
        fcntl.flock(fd, mode)
