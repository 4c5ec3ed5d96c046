"""When each source file last changed in git, for every file at once.

One ``git log`` per repository, limited to the folders the pages come from (a generator's
docs or content folder), reads their history newest first, and only as far as the files
asked for need: it stops once every page source has its date. No process per file, and a
big repository costs no more than its docs folder's recent history. Dates are committer
dates (when a change landed, and monotonic along the history, unlike author dates after a
cherry-pick).

Renames are followed: a pure rename (similarity 100%) is not a change, so the file keeps
the date of its last real edit under the old name; a rename with edits is a change. Only
exact renames decide a date, so only they are looked for (a hash join, no similarity
matrix). A file whose last change in the folder was its arrival may have been moved in from
outside (``doc/`` renamed ``docs/``): those commits are checked in one ``git diff-tree`` and
the moved files followed under their old names, so the dates are those of a whole-history
pass.

A shallow clone's boundary commits look as if they added every file, so files last touched
there get no date (the next lastmod source answers) and one note says why. Files in
submodules, outside any repository or never committed get no date either.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

# Settings that would change what git prints, or make it slow, are pinned; GIT_DIR and
# friends from a surrounding hook would point git at another repository.
GIT = (
    "git", "-c", "core.quotepath=false", "-c", "log.showSignature=false",
)
_ENV_DROP = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_PREFIX")
_HEADER = "\x01"


class GitUnavailable(Exception):
    """git is not installed or cannot read the repository; the message says which."""


class Repository:
    """A repository whose history dates files, read as far as the files asked for need."""

    def __init__(self, root: Path, revision: str = "HEAD", shallow: bool = False, submodule: bool = False) -> None:
        self.root = root
        self.revision = revision
        """Where history is read from: HEAD, or a checkout's revision (``git.Checkout``)."""
        self.shallow = shallow
        self.submodule = submodule
        self.dates: dict[str, int] | None = None
        """HEAD path (relative, POSIX) -> committer time, once ``read_dates`` read the history."""
        self.histories: dict[str, History | None] = {}
        """Folder (relative, ending in ``/``; ``""`` for all) -> the pass reading its history
        as far as the files asked for need (None: no commits yet)."""
        self.boundary_files: set[str] = set()
        """Files whose only known change is a shallow clone's boundary commit."""


def git_environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _ENV_DROP}
    env["LC_ALL"] = "C"
    return env


def _run(root: Path, *args: str) -> bytes:
    try:
        done = subprocess.run(
            [*GIT, "-C", str(root), *args],
            capture_output=True, env=git_environment(), check=False,
        )
    except OSError as error:
        raise GitUnavailable(f"cannot run git: {error}") from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        command = next(arg for arg in args if not arg.startswith("-"))
        raise GitUnavailable(f"git {command} failed in {root}: {message[-1] if message else '?'}")
    return done.stdout


def inspect(root: Path, revision: str = "HEAD") -> Repository:
    """What kind of work tree ``root`` (a folder holding ``.git``) is; its history read
    from ``revision``."""
    out = _run(
        root, "rev-parse", "--show-toplevel", "--is-shallow-repository",
        "--show-superproject-working-tree",
    ).decode("utf-8", "surrogateescape").splitlines()
    return Repository(
        root=Path(out[0]), revision=revision, shallow=out[1] == "true",
        submodule=len(out) > 2 and bool(out[2]),
    )


def _tokens(stream, chunk_size: int = 1 << 16) -> Iterator[str]:
    """NUL-separated fields of a byte stream, decoded as git writes paths (UTF-8)."""
    rest = b""
    while chunk := stream.read(chunk_size):
        parts = (rest + chunk).split(b"\0")
        rest = parts.pop()
        for part in parts:
            yield part.decode("utf-8", "surrogateescape")
    if rest:
        yield rest.decode("utf-8", "surrogateescape")


def _commits(tokens: Iterator[str]) -> Iterator[tuple[str, int, list[tuple[str, ...]]]]:
    """``(hash, time, changes)`` from ``git log -z --name-status --format=%x01%H %ct``;
    each change is ``(status, path)`` or ``(status, old, new)`` for renames and copies."""
    commit: tuple[str, int] | None = None
    changes: list[tuple[str, ...]] = []
    for token in tokens:
        token = token.lstrip("\n")
        if token.startswith(_HEADER):
            if commit is not None:
                yield commit[0], commit[1], changes
            sha, _, stamp = token[1:].partition(" ")
            commit, changes = (sha, int(stamp)), []
        elif token:
            if token[0] in "RC":
                changes.append((token, next(tokens, ""), next(tokens, "")))
            else:
                changes.append((token, next(tokens, "")))
    if commit is not None:
        yield commit[0], commit[1], changes


def _boundary(repo: Repository) -> set[str]:
    if not repo.shallow:
        return set()
    path = _run(repo.root, "rev-parse", "--git-path", "shallow").decode().strip()
    shallow_file = Path(path) if Path(path).is_absolute() else repo.root / path
    try:
        return set(shallow_file.read_text().split())
    except OSError:
        return set()


def _listing(repo: Repository, pathspec: list[str]) -> list[str]:
    """The files of the revision read (HEAD) under ``pathspec`` (all of them for an empty one)."""
    out = _run(
        repo.root, "--literal-pathspecs", "ls-tree", "-r", "-z", "--name-only", "--full-tree",
        repo.revision, "--", *pathspec,
    )
    return [p.decode("utf-8", "surrogateescape") for p in out.split(b"\0") if p]


def _log(repo: Repository, start: str, pathspec: list[str]) -> subprocess.Popen:
    # --full-history: every commit that changed a path counts, as in a log of the whole
    # repository (no merge simplification by the pathspec). -M100%: only exact renames, the
    # only ones that decide a date (an edited rename is a change either way); finding them
    # is a hash join, with no similarity matrix.
    command = [
        *GIT, "-C", str(repo.root), "--literal-pathspecs", "log", "-z", "--name-status", "-M100%", "--full-history",
        "--no-color", "--no-ext-diff", "--no-textconv", "--format=%x01%H %ct", start,
        "--", *pathspec,
    ]
    try:
        return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=git_environment())
    except OSError as error:
        raise GitUnavailable(f"cannot run git: {error}") from None


class History:
    """One ``git log`` from ``start`` over ``pathspec``, read only as far as the files asked
    for need: the pass stops at the last change of the oldest page, not of the repository.

    ``pending`` maps each followed name (as it is at the point of history reached) to its
    name at HEAD. A file whose last change inside the pathspec is its arrival may be a pure
    rename from outside it; ``date`` checks all such arrivals met so far at once.
    """

    def __init__(
        self, repo: Repository, start: str, pathspec: list[str], pending: dict[str, str], boundary: set[str]
    ) -> None:
        self.repo, self.pathspec, self.boundary = repo, pathspec, boundary
        self.pending = pending
        self.waiting = set(pending.values())
        """HEAD names the log has not reached the last change of yet."""
        self.dates: dict[str, int] = {}
        self.added: dict[str, tuple[str, int, str]] = {}
        """HEAD name -> (commit, time, name then) of an arrival not checked yet."""
        self._process: subprocess.Popen | None = _log(repo, start, pathspec)
        self._commits = _commits(_tokens(self._process.stdout))

    def date(self, name: str) -> int | None:
        """The time of the last change to ``name`` (a HEAD path), or None."""
        self._read_until(name)
        if name in self.added:
            self._check_arrivals()
        return self.dates.get(name)

    def finish(self) -> dict[str, int]:
        """Every followed file's date (the whole pass)."""
        self._read_until(None)
        self._check_arrivals()
        return self.dates

    def _read_until(self, name: str | None) -> None:
        while self._process is not None and (name in self.waiting if name else self.waiting):
            found = next(self._commits, None)
            if found is None:
                self.close(check=True)
                break
            self._take(*found)
        if not self.waiting:
            self.close()

    def _take(self, sha: str, stamp: int, changes: list[tuple[str, ...]]) -> None:
        if sha in self.boundary:  # a shallow clone's edge: every file looks added here
            self.repo.boundary_files.update(self.pending.values())
            return
        renamed: list[tuple[str, str]] = []
        for status, *paths in changes:
            if status == "D":  # a deletion says nothing about the file at this name now
                continue
            current = self.pending.pop(paths[-1], None)
            if current is None:
                continue
            if status == "R100":
                renamed.append((paths[0], current))
                continue
            self.waiting.discard(current)
            if status == "A" and self.pathspec:  # without one, nothing is outside it
                self.added[current] = (sha, stamp, paths[-1])
            else:
                self.dates[current] = stamp
        # Old names are added after all new names are taken, so swaps stay right.
        for old, current in renamed:
            self.pending[old] = current

    def _check_arrivals(self) -> None:
        """Date every arrival met so far; follow those that were pure renames from outside
        the pathspec under their old names, in one pass per renaming commit."""
        if not self.added:
            return
        added, self.added = self.added, {}
        renames = _exact_renames(self.repo, {sha for sha, _, _ in added.values()})
        moved: dict[str, dict[str, str]] = {}  # commit -> {old name: HEAD name}
        for current, (sha, stamp, name) in added.items():
            old = renames.get((sha, name))
            if old is None:
                self.dates[current] = stamp
            else:
                moved.setdefault(sha, {})[old] = current
        for sha, olds in moved.items():
            self.dates.update(History(self.repo, f"{sha}^", sorted(olds), olds, self.boundary).finish())

    def close(self, check: bool = False) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        if process.poll() is None and not check:
            process.kill()
        process.stdout.close()
        if process.wait() != 0 and check:
            raise GitUnavailable(f"git log failed in {self.repo.root} (exit {process.returncode})")


def _exact_renames(repo: Repository, commits: set[str]) -> dict[tuple[str, str], str]:
    """``(commit, new name) -> old name`` for the pure renames of ``commits``, each diffed as
    a whole (renames across the pathspec's edge), in one process."""
    done = subprocess.run(
        [*GIT, "-C", str(repo.root), "diff-tree", "-r", "-z", "--name-status", "-M100%",
         "--diff-filter=R", "--root", "--no-ext-diff", "--stdin"],
        input="".join(f"{sha}\n" for sha in sorted(commits)).encode(),
        capture_output=True, env=git_environment(), check=False,
    )
    if done.returncode != 0:
        raise GitUnavailable(f"git diff-tree failed in {repo.root}")
    found: dict[tuple[str, str], str] = {}
    tokens = iter(done.stdout.decode("utf-8", "surrogateescape").split("\0"))
    sha = ""
    for token in tokens:
        token = token.strip("\n")
        if token.startswith("R"):
            old, new = next(tokens, ""), next(tokens, "")
            found[(sha, new)] = old
        elif token:
            sha = token
    return found


def read_dates(repo: Repository, pathspec: list[str] | None = None) -> None:
    """Add to ``repo.dates`` the last commit that changed each file of HEAD under
    ``pathspec`` (folders relative to the root, ending in ``/``; None or empty: all)."""
    history = start_history(repo, pathspec or [])
    if repo.dates is None:
        repo.dates = {}
    if history is not None:
        repo.dates.update(history.finish())
        repo.boundary_files.difference_update(repo.dates)


def start_history(repo: Repository, pathspec: list[str]) -> History | None:
    """The pass over the files of the revision read (HEAD) under ``pathspec``; None without
    commits."""
    try:
        _run(repo.root, "rev-parse", "-q", "--verify", repo.revision)
    except GitUnavailable:  # a repository without commits (every file is untracked), or no such ref
        return None
    pending = {path: path for path in _listing(repo, pathspec)}
    return History(repo, repo.revision, pathspec, pending, _boundary(repo))


def commit_time(stamp: int) -> datetime:
    """A commit's Unix time as an aware UTC datetime."""
    return datetime.fromtimestamp(stamp, tz=timezone.utc)


def git_available() -> bool:
    return shutil.which("git") is not None
