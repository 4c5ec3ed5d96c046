"""Dates of source files from git, across any number of repositories: which repository
holds a file, and one history pass (``lastmod.git_history``) per repository and scope
folder, started when a file of it is first asked for."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import NamedTuple

from sitemapkit.lastmod.git_history import (
    GIT,
    GitUnavailable,
    History,
    Repository,
    commit_time,
    git_available,
    git_environment,
    inspect,
    start_history,
)


class Checkout(NamedTuple):
    """A folder holding the files of the repository that holds ``repository`` (a folder in
    it) at ``revision``, copied out without git (sphinx-multiversion builds each ref from a
    ``git archive`` copy): the dates of its files are those of that revision's history."""

    folder: Path
    repository: Path
    revision: str
    """A ref or commit (``refs/tags/v1.0``); never starts with ``-``."""


def outside_repositories(folder: str | os.PathLike[str]) -> bool:
    """Whether no git repository holds ``folder``: no ``.git`` in it or in a folder above it,
    links followed. Asked once a build of each source folder (issue 36)."""
    resolved = Path(folder).resolve()
    return resolved.is_dir() and not any((above / ".git").exists() for above in (resolved, *resolved.parents))


def no_repository_between(top: str, folder: str) -> bool:
    """Whether git can date no file in ``folder``, a folder below ``top`` (one no repository
    holds): no folder from ``folder`` up to ``top`` holds a repository (``.git``) or is a link
    (which may lead into one). Asked once a folder, not once a file."""
    while folder != top:
        parent = os.path.dirname(folder)
        if parent == folder or os.path.islink(folder) or os.path.lexists(os.path.join(folder, ".git")):
            return False
        folder = parent
    return True


class GitDates:
    """Dates of source files, across any number of repositories, each read once on demand.

    ``scope`` is the folders the pages' sources come from (a generator's docs or content
    folder): only their history is read. A file outside them has its own folder read when
    it is asked for; without a scope, the whole repository is. Files in one of
    ``checkouts`` are dated from its revision's history in its repository.
    """

    def __init__(self, scope: Iterable[Path | str] = (), checkouts: Iterable[Checkout] = ()) -> None:
        self.checkouts = [(Path(c.folder).resolve(), Path(c.repository).resolve(), c.revision) for c in checkouts]
        self.scope = [self._in_repository(Path(folder).resolve())[0] for folder in scope]
        self._places: dict[str, tuple[Path, str, str] | None] = {}  # folder as given -> _place
        self._roots: dict[Path, Path | None] = {}  # folder -> repository root holding it
        self._repos: dict[Path, Repository | None] = {}  # read from HEAD
        self._revisions: dict[tuple[Path, str], Repository | None] = {}  # read from a checkout's revision
        self.failures: dict[Path, str] = {}
        """Repository root -> why git could not be used there."""
        self.untracked: dict[Path, list[str]] = {}
        """Repository root -> files in it git has no commit for."""
        self.shallow: dict[Path, list[str]] = {}
        """Repository root -> files whose history a shallow clone cut off."""
        self.submodule: dict[Path, list[str]] = {}
        """Submodule root -> files in it (their history is not read)."""
        self.outside: list[str] = []
        """Folders of files asked for that no repository holds."""

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

    def _repository(self, root: Path, revision: str) -> Repository | None:
        if revision == "HEAD" and root in self._repos:
            return self._repos[root]
        if (root, revision) in self._revisions:
            return self._revisions[root, revision]
        repo: Repository | None = None
        try:
            if not git_available():
                raise GitUnavailable("git is not installed (or not on PATH)")
            repo = inspect(root, revision)
        except GitUnavailable as error:
            self.failures[root] = str(error)
            repo = None
        self._store(root, revision, repo)
        return repo

    def _store(self, root: Path, revision: str, repo: Repository | None) -> None:
        if revision == "HEAD":
            self._repos[root] = repo
        else:
            self._revisions[root, revision] = repo

    def _in_repository(self, folder: Path) -> tuple[Path, str]:
        """Where ``folder`` (resolved) is in a repository, and the revision to read: a folder
        of a checkout is its counterpart in the checkout's repository."""
        for copy, repository, revision in self.checkouts:
            if folder == copy or copy in folder.parents:
                return repository / folder.relative_to(copy), revision
        return folder, "HEAD"

    def _place(self, folder: Path) -> tuple[Path, str, str] | None:
        """The repository root holding ``folder``, the folder's path inside it, and the
        revision whose history dates it."""
        folder, revision = self._in_repository(folder.resolve())
        root = self._root_of(folder)
        if root is None:
            return None
        inside = folder.relative_to(root).as_posix()
        return root, "" if inside == "." else inside + "/", revision

    def date(self, source: Path | str) -> datetime | None:
        """The committer date of the last change to ``source``, or None (and why is noted)."""
        # Performance: split as text, the folder's place looked up by its text; no Path per
        # page (measured: 0.95 µs a page instead of 3.4 µs).
        folder, name = os.path.split(os.fspath(source))
        place = self._places.get(folder, False)
        if place is False:
            place = self._places[folder] = self._place(Path(folder))
            if place is None:
                self.outside.append(folder)
        if place is None:
            return None  # not in a repository
        root, prefix, revision = place
        repo = self._repository(root, revision)
        if repo is None:
            return None
        relative = prefix + name
        if repo.submodule:
            self.submodule.setdefault(root, []).append(relative)
            return None
        try:
            history = self._history(repo, root, prefix)
            stamp = history.date(relative) if history is not None else None
        except GitUnavailable as error:
            self.failures[root] = str(error)
            self._store(root, revision, None)
            return None
        if stamp is not None:
            return commit_time(stamp)
        if relative in repo.boundary_files:
            self.shallow.setdefault(root, []).append(relative)
        else:
            self.untracked.setdefault(root, []).append(relative)
        return None

    def _history(self, repo: Repository, root: Path, prefix: str) -> History | None:
        """The pass that covers ``prefix`` (the folder of a file asked for), started when
        first needed: over the scope folders in the repository that hold it, or else over
        that folder alone."""
        for folder, history in repo.histories.items():
            if prefix.startswith(folder):
                return history
        inside: list[str] = []  # "" for the whole repository
        for folder in self.scope:
            if folder == root or folder in root.parents:
                inside = [""]
                break
            if root in folder.parents:
                inside.append(folder.relative_to(root).as_posix() + "/")
        if not any(prefix.startswith(folder) for folder in inside):
            inside = [prefix] if self.scope else [""]
        history = start_history(repo, [] if "" in inside else inside)
        repo.histories.update(dict.fromkeys(inside, history))
        return history

    def close(self) -> None:
        """Stop the passes still open (a build asks for nothing more)."""
        for repo in [*self._repos.values(), *self._revisions.values()]:
            for history in repo.histories.values() if repo is not None else ():
                if history is not None:
                    history.close()

    def ignored(self, root: Path, paths: list[str]) -> set[str]:
        """Which of ``paths`` .gitignore excludes (generated sources: not worth a warning)."""
        try:
            done = subprocess.run(
                [*GIT, "-C", str(root), "check-ignore", "-z", "--stdin", "--no-index"],
                input=b"".join(p.encode("utf-8", "surrogateescape") + b"\0" for p in paths),
                capture_output=True, env=git_environment(), check=False,
            )
        except OSError:
            return set()
        return {p.decode("utf-8", "surrogateescape") for p in done.stdout.split(b"\0") if p}
