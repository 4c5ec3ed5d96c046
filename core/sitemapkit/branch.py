"""A git branch read and written with git's own plumbing, as mike does (no worktree, nothing
to clean up): its files copied out, a new root tree committed on top of it, the branch moved
only from the commit it was read at, and pushed."""

from __future__ import annotations

import contextlib
import os
import subprocess
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from sitemapkit.versions import folder_name

_BLOB_MODES = {"100644", "100755"}
_LINK_MODE = "120000"


class BranchError(Exception):
    """git refused, or the branch is not as expected: one line for the user."""


@dataclass(frozen=True, slots=True)
class Branch:
    """A branch of the repository at ``repo``, as read at commit ``head``."""

    repo: Path
    name: str
    head: str

    @property
    def ref(self) -> str:
        return f"refs/heads/{self.name}"


def _git(repo: Path, *args: str, data: bytes | None = None) -> bytes:
    try:
        done = subprocess.run(["git", "-C", str(repo), *args], input=data, capture_output=True, check=False)
    except OSError as error:
        raise BranchError(f"cannot run git: {error.strerror}") from None
    if done.returncode != 0:
        why = done.stderr.decode(errors="replace").strip().splitlines()
        raise BranchError(f"git {args[0]} failed: {why[-1] if why else f'exit status {done.returncode}'}")
    return done.stdout


def open_branch(repo: Path, name: str) -> Branch:
    """The branch ``name`` of the repository holding ``repo``, at its current commit."""
    if not name or name.startswith("-") or not folder_name(name.replace("/", "_")):
        raise BranchError(f"{name!r} is not a branch name")
    try:
        _git(repo, "check-ref-format", f"refs/heads/{name}")
    except BranchError:
        raise BranchError(f"{name!r} is not a branch name") from None
    try:
        head = _git(repo, "rev-parse", "--verify", "--quiet", f"refs/heads/{name}^{{commit}}").decode().strip()
    except BranchError:
        raise BranchError(f"no branch {name} in {repo.absolute()} (mike deploy makes it; or "
                          f"git fetch origin {name}:{name})") from None
    return Branch(repo, name, head)


def copy_out(branch: Branch, dest: Path, wanted, limit: int) -> dict[str, bytes]:
    """Write the branch's files whose path ``wanted(path)`` accepts into ``dest`` (each cut at
    ``limit`` bytes; symbolic links kept when they point inside ``dest``; a path of any but
    plain folder names skipped); return the top folder's files, name -> bytes, as read."""
    listing = _git(branch.repo, "ls-tree", "-r", "-z", "--full-tree", branch.head)
    items: list[tuple[str, str, str]] = []
    for line in listing.split(b"\0"):
        if not line:
            continue
        info, _, raw = line.partition(b"\t")
        mode, kind, sha = info.decode().split(" ")
        try:
            path = raw.decode()
        except UnicodeDecodeError:
            continue
        parts = path.split("/")
        if kind != "blob" or mode not in (*_BLOB_MODES, _LINK_MODE) or not all(map(folder_name, parts)):
            continue
        if parts[0] == ".git" or not wanted(path):
            continue
        items.append((mode, sha, path))
    top: dict[str, bytes] = {}
    for (mode, _, path), data in zip(items, _blobs(branch.repo, [sha for _, sha, _ in items], limit), strict=True):
        target = dest / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if mode == _LINK_MODE:
            link = data.decode(errors="replace")
            inside = (target.parent / link).resolve(strict=False)
            if not link.startswith("/") and inside.is_relative_to(dest.resolve()):
                os.symlink(link, target)
            continue
        target.write_bytes(data)
        if "/" not in path:
            top[path] = data
    return top


def _blobs(repo: Path, shas: list[str], limit: int) -> Iterator[bytes]:
    """Each blob's bytes (at most ``limit``), one at a time, through one ``git cat-file
    --batch``: only one blob is held at once, however large the branch."""
    if not shas:
        return
    process = subprocess.Popen(["git", "-C", str(repo), "cat-file", "--batch"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert process.stdin is not None and process.stdout is not None
    feeder = threading.Thread(target=_feed, args=(process.stdin, shas), daemon=True)
    feeder.start()
    try:
        for _ in shas:
            header = process.stdout.readline().split()
            size = int(header[2]) if len(header) == 3 else 0
            kept = process.stdout.read(min(size, limit))
            left = size - len(kept)
            while left > 0:  # the rest of a blob over the limit, read past
                chunk = process.stdout.read(min(left, 1 << 20))
                left = left - len(chunk) if chunk else 0
            process.stdout.read(1)  # the newline after each object
            yield kept
    finally:
        process.stdout.close()
        process.kill()
        process.wait()
        feeder.join()


def _feed(stdin: IO[bytes], shas: list[str]) -> None:
    """The object names, written while the answers are read (a pipe holds only so much)."""
    with contextlib.suppress(OSError), stdin:
        for sha in shas:
            stdin.write(f"{sha}\n".encode())


def commit_top(branch: Branch, changed: Mapping[str, bytes | None], message: str) -> str | None:
    """Commit on top of ``branch.head`` its root tree with the top-level files ``changed``
    (name -> new bytes; None: removed); the new commit, or None when the tree is the same."""
    entries: dict[str, bytes] = {}
    for line in _git(branch.repo, "ls-tree", "-z", branch.head).split(b"\0"):
        if line:
            entries[line.partition(b"\t")[2].decode(errors="surrogateescape")] = line
    for name, data in changed.items():
        if data is None:
            entries.pop(name, None)
        else:
            sha = _git(branch.repo, "hash-object", "-w", "--stdin", data=data).decode().strip()
            entries[name] = f"100644 blob {sha}\t{name}".encode()
    listing = b"".join(line + b"\0" for _, line in sorted(entries.items()))
    tree = _git(branch.repo, "mktree", "-z", data=listing).decode().strip()
    if tree == _git(branch.repo, "rev-parse", f"{branch.head}^{{tree}}").decode().strip():
        return None
    return _git(branch.repo, "commit-tree", tree, "-p", branch.head, "-m", message).decode().strip()


def move_branch(branch: Branch, commit: str, message: str) -> None:
    """Point the branch at ``commit``, only if it is still at ``branch.head``."""
    try:
        _git(branch.repo, "update-ref", "-m", message, branch.ref, commit, branch.head)
    except BranchError:
        raise BranchError(f"branch {branch.name} moved while its root was written (it was at "
                          f"{branch.head[:12]}): nothing committed; run the command again") from None


def push(branch: Branch, remote: str) -> None:
    """``git push REMOTE BRANCH``, as ``mike deploy --push`` does."""
    if not remote or remote.startswith("-"):
        raise BranchError(f"{remote!r} is not a remote name")
    _git(branch.repo, "push", "--quiet", remote, f"{branch.ref}:{branch.ref}")
