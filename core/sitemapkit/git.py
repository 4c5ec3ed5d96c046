"""When each source file last changed in git, for every file at once.

One ``git log`` per repository, limited to the folders the pages come from (a generator's
docs or content folder), reads their history newest first and stops as soon as every file
of ``HEAD`` there has a date: no process per file, and a big repository costs no more than
its docs folder's history. Dates are committer dates (when a change landed, and monotonic
along the history, unlike author dates after a cherry-pick).

Renames are followed: a pure rename (similarity 100%) is not a change, so the file keeps the
date of its last real edit under the old name; a rename with edits is a change. Only exact
renames decide a date, so only they are looked for (a hash join, no similarity matrix).
A file whose last change in the folder was its arrival may have been moved in from outside
(``doc/`` renamed ``docs/``): those commits are checked in one ``git diff-tree`` and the
moved files followed under their old names, so the dates are those of a whole-history pass. A shallow
clone's boundary commits look as if they added every file, so files last touched there get
no date (the next lastmod source answers) and one warning says why. Files in submodules,
outside any repository or never committed get no date either.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

# Settings that would change what git prints, or make it slow, are pinned; GIT_DIR and
# friends from a surrounding hook would point git at another repository.
_GIT = (
    "git", "-c", "core.quotepath=false", "-c", "log.showSignature=false",
)
_ENV_DROP = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_PREFIX")
_HEADER = "\x01"


class GitUnavailable(Exception):
    """git is not installed or cannot read the repository; the message says which."""


@dataclass
class Repository:
    root: Path
    shallow: bool = False
    submodule: bool = False
    dates: dict[str, int] | None = None
    """HEAD path (relative, POSIX) -> committer time, for the folders read so far."""
    read: list[str] = field(default_factory=list)
    """Folders (relative, ending in ``/``; ``""`` for all) whose history is in ``dates``."""
    boundary_files: set[str] = field(default_factory=set)
    """Files whose only known change is a shallow clone's boundary commit."""


def _environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _ENV_DROP}
    env["LC_ALL"] = "C"
    return env


def _run(root: Path, *args: str) -> bytes:
    try:
        done = subprocess.run(
            [*_GIT, "-C", str(root), *args],
            capture_output=True, env=_environment(), check=False,
        )
    except OSError as error:
        raise GitUnavailable(f"cannot run git: {error}") from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        command = next(arg for arg in args if not arg.startswith("-"))
        raise GitUnavailable(f"git {command} failed in {root}: {message[-1] if message else '?'}")
    return done.stdout


def inspect(root: Path) -> Repository:
    """What kind of work tree ``root`` (a folder holding ``.git``) is."""
    out = _run(
        root, "rev-parse", "--show-toplevel", "--is-shallow-repository",
        "--show-superproject-working-tree",
    ).decode("utf-8", "surrogateescape").splitlines()
    return Repository(
        root=Path(out[0]), shallow=out[1] == "true", submodule=len(out) > 2 and bool(out[2])
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
    """The files of HEAD under ``pathspec`` (all of them for an empty one)."""
    out = _run(
        repo.root, "--literal-pathspecs", "ls-tree", "-r", "-z", "--name-only", "--full-tree",
        "HEAD", "--", *pathspec,
    )
    return [p.decode("utf-8", "surrogateescape") for p in out.split(b"\0") if p]


def _log(repo: Repository, start: str, pathspec: list[str]) -> subprocess.Popen:
    # --full-history: every commit that changed a path counts, as in a log of the whole
    # repository (no merge simplification by the pathspec). -M100%: only exact renames, the
    # only ones that decide a date (an edited rename is a change either way); finding them
    # is a hash join, with no similarity matrix.
    command = [
        *_GIT, "-C", str(repo.root), "--literal-pathspecs", "log", "-z", "--name-status", "-M100%", "--full-history",
        "--no-color", "--no-ext-diff", "--no-textconv", "--format=%x01%H %ct", start,
        "--", *pathspec,
    ]
    try:
        return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=_environment())
    except OSError as error:
        raise GitUnavailable(f"cannot run git: {error}") from None


def _walk(
    repo: Repository, start: str, pathspec: list[str], pending: dict[str, str], boundary: set[str]
) -> tuple[dict[str, int], dict[str, tuple[str, int, str]]]:
    """Follow ``pending`` (name at ``start`` -> name at HEAD) back from ``start``, reading
    only commits that touch ``pathspec``, until every name has its last change.

    Returns the dates found, and the files whose last change there is an addition (``HEAD
    name -> (commit, time, name then)``): inside the pathspec an addition may be a pure
    rename from outside it, which the caller checks.
    """
    dates: dict[str, int] = {}
    added: dict[str, tuple[str, int, str]] = {}
    process = _log(repo, start, pathspec)
    try:
        for sha, stamp, changes in _commits(_tokens(process.stdout)):
            if sha in boundary:  # a shallow clone's edge: every file looks added here
                repo.boundary_files.update(pending.values())
                continue
            renamed: list[tuple[str, str]] = []
            for status, *paths in changes:
                if status == "D":  # a deletion says nothing about the file at this name now
                    continue
                current = pending.pop(paths[-1], None)
                if current is None:
                    continue
                if status == "R100":
                    renamed.append((paths[0], current))
                elif status == "A":
                    added[current] = (sha, stamp, paths[-1])
                else:
                    dates[current] = stamp
            # Old names are added after all new names are taken, so swaps stay right.
            for old, current in renamed:
                pending[old] = current
            if not pending:
                break
        else:
            if process.wait() != 0:
                raise GitUnavailable(f"git log failed in {repo.root} (exit {process.returncode})")
    finally:
        if process.poll() is None:
            process.kill()
        process.stdout.close()
        process.wait()
    return dates, added


def _exact_renames(repo: Repository, commits: set[str]) -> dict[tuple[str, str], str]:
    """``(commit, new name) -> old name`` for the pure renames of ``commits``, each diffed as
    a whole (renames across the pathspec's edge), in one process."""
    done = subprocess.run(
        [*_GIT, "-C", str(repo.root), "diff-tree", "-r", "-z", "--name-status", "-M100%",
         "--diff-filter=R", "--root", "--no-ext-diff", "--stdin"],
        input="".join(f"{sha}\n" for sha in sorted(commits)).encode(),
        capture_output=True, env=_environment(), check=False,
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


def _follow(
    repo: Repository, start: str, pathspec: list[str], pending: dict[str, str], boundary: set[str]
) -> dict[str, int]:
    """``_walk``, then each addition that was a pure rename from outside the pathspec
    followed under its old name, from the commit before (in bulk, per renaming commit)."""
    dates, added = _walk(repo, start, pathspec, pending, boundary)
    if not added:
        return dates
    renames = _exact_renames(repo, {sha for sha, _, _ in added.values()})
    moved: dict[str, dict[str, str]] = {}  # commit -> {old name: HEAD name}
    for current, (sha, stamp, name) in added.items():
        old = renames.get((sha, name))
        if old is None:
            dates[current] = stamp
        else:
            moved.setdefault(sha, {})[old] = current
    for sha, olds in moved.items():
        dates.update(_follow(repo, f"{sha}^", sorted(olds), olds, boundary))
    return dates


def read_dates(repo: Repository, pathspec: list[str] | None = None) -> None:
    """Add to ``repo.dates`` the last commit that changed each file of HEAD under
    ``pathspec`` (folders relative to the root, ending in ``/``; None or empty: all)."""
    pathspec = pathspec or []
    if repo.dates is None:
        repo.dates = {}
    try:
        _run(repo.root, "rev-parse", "-q", "--verify", "HEAD")
    except GitUnavailable:  # a repository without commits: every file is untracked
        return
    pending = {path: path for path in _listing(repo, pathspec)}
    dates = _follow(repo, "HEAD", pathspec, pending, _boundary(repo))
    repo.boundary_files.difference_update(dates)
    repo.dates.update(dates)


def as_datetime(stamp: int) -> datetime:
    return datetime.fromtimestamp(stamp, tz=timezone.utc)


def git_available() -> bool:
    return shutil.which("git") is not None


class GitDates:
    """Dates of source files, across any number of repositories, each read once on demand.

    ``scope`` is the folders the pages' sources come from (a generator's docs or content
    folder): only their history is read. A file outside them has its own folder read when
    it is asked for; without a scope, the whole repository is.
    """

    def __init__(self, scope: Iterable[Path | str] = ()) -> None:
        self.scope = [Path(folder).resolve() for folder in scope]
        self._places: dict[Path, tuple[Path, str] | None] = {}  # folder as given -> _place
        self._roots: dict[Path, Path | None] = {}  # folder -> repository root holding it
        self._repos: dict[Path, Repository | None] = {}
        self.failures: dict[Path, str] = {}
        """Repository root -> why git could not be used there."""
        self.untracked: dict[Path, list[str]] = {}
        """Repository root -> files in it git has no commit for."""
        self.shallow: dict[Path, list[str]] = {}
        """Repository root -> files whose history a shallow clone cut off."""
        self.submodule: dict[Path, list[str]] = {}
        """Submodule root -> files in it (their history is not read)."""

    def _root_of(self, folder: Path) -> Path | None:
        trail = []
        found: Path | None = None
        for candidate in (folder, *folder.parents):
            if candidate in self._roots:
                found = self._roots[candidate]
                break
            trail.append(candidate)
            if (candidate / ".git").exists():
                found = candidate
                break
        for visited in trail:
            self._roots[visited] = found
        return found

    def _repository(self, root: Path) -> Repository | None:
        if root in self._repos:
            return self._repos[root]
        repo: Repository | None = None
        try:
            if not git_available():
                raise GitUnavailable("git is not installed (or not on PATH)")
            repo = inspect(root)
        except GitUnavailable as error:
            self.failures[root] = str(error)
            repo = None
        self._repos[root] = repo
        return repo

    def _place(self, folder: Path) -> tuple[Path, str] | None:
        """The repository root holding ``folder``, and the folder's path inside it."""
        folder = folder.resolve()
        root = self._root_of(folder)
        if root is None:
            return None
        inside = folder.relative_to(root).as_posix()
        return root, "" if inside == "." else inside + "/"

    def date(self, source: Path) -> datetime | None:
        """The committer date of the last change to ``source``, or None (and why is noted)."""
        place = self._places.get(source.parent, False)
        if place is False:
            place = self._places[source.parent] = self._place(source.parent)
        if place is None:
            return None  # not in a repository: nothing to say
        root, prefix = place
        repo = self._repository(root)
        if repo is None:
            return None
        relative = prefix + source.name
        if repo.submodule:
            self.submodule.setdefault(root, []).append(relative)
            return None
        if not any(prefix.startswith(folder) for folder in repo.read):
            try:
                self._read(repo, root, prefix)
            except GitUnavailable as error:
                self.failures[root] = str(error)
                self._repos[root] = None
                return None
        stamp = repo.dates.get(relative)
        if stamp is not None:
            return as_datetime(stamp)
        if relative in repo.boundary_files:
            self.shallow.setdefault(root, []).append(relative)
        else:
            self.untracked.setdefault(root, []).append(relative)
        return None

    def _read(self, repo: Repository, root: Path, prefix: str) -> None:
        """Read the history of the scope folders in ``root`` that hold ``prefix`` (the
        folder of a file asked for), or else of that folder alone."""
        inside: list[str] = []  # "" for the whole repository
        for folder in self.scope:
            if folder == root or folder in root.parents:
                inside = [""]
                break
            if root in folder.parents:
                inside.append(folder.relative_to(root).as_posix() + "/")
        if not any(prefix.startswith(folder) for folder in inside):
            inside = [prefix]
        read_dates(repo, [] if "" in inside else inside)
        repo.read.extend(inside)

    def ignored(self, root: Path, paths: list[str]) -> set[str]:
        """Which of ``paths`` .gitignore excludes (generated sources: not worth a warning)."""
        try:
            done = subprocess.run(
                [*_GIT, "-C", str(root), "check-ignore", "-z", "--stdin", "--no-index"],
                input=b"".join(p.encode("utf-8", "surrogateescape") + b"\0" for p in paths),
                capture_output=True, env=_environment(), check=False,
            )
        except OSError:
            return set()
        return {p.decode("utf-8", "surrogateescape") for p in done.stdout.split(b"\0") if p}
