"""Where a page's lastmod comes from: metadata, git, or the content-fingerprint manifest.

The sources are tried in the order of ``settings.lastmod``; the first that knows wins:

- ``meta``: ``page.modified``, the generator's own date fields;
- ``git``: the last commit that changed ``page.source`` (see ``git.py``);
- ``fingerprint``: when the page's main content was first seen with its current digest,
  from the manifest kept between builds (see ``state.py``). Only a manifest an earlier
  build left can say that: on a first build (a fresh CI checkout) "first seen" would be
  this build's time, a date that moves with every build, so the page gets no lastmod.

A page no source can date gets none: never a made-up date.

Whatever source answers, every page's digest is recorded, so ``finish()`` can say which
URLs were added, changed or removed since the last build (for IndexNow and the change feed).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from ..dates import format_moment, parse_moment
from ..model import Moment, Page
from ..report import Report
from ..settings import Settings
from .state import Record, State, StateError, StatePathError, load_state, save_state

if TYPE_CHECKING:
    from .git import GitDates

_EXAMPLES = 3


@dataclass
class Changes:
    """What changed since the last build, from the manifest."""

    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    """URLs whose content digest changed."""
    removed: list[str] = field(default_factory=list)
    """URLs in the last build's manifest that this build did not list."""
    first_build: bool = False
    """No usable manifest from an earlier build: nothing is known to have changed."""
    unsent: list[str] = field(default_factory=list)
    """URLs an earlier build failed to submit to IndexNow."""
    state_file: Path | None = None

    @property
    def urls(self) -> list[str]:
        """Every URL to tell search engines about, sorted, each once."""
        return sorted({*self.added, *self.changed, *self.removed, *self.unsent})


def _files(paths: list[str]) -> str:
    return "1 source file" if len(paths) == 1 else f"{len(paths)} source files"


def _examples(paths: list[str]) -> str:
    shown = ", ".join(sorted(paths)[:_EXAMPLES])
    return shown + (f" and {len(paths) - _EXAMPLES} more" if len(paths) > _EXAMPLES else "")


class LastmodResolver:
    """Answers each page's lastmod as the pages stream, and keeps what the manifest needs.

    The manifest is started by the first build that uses it (a page dated by its
    fingerprint, IndexNow, the change feed), with nothing known to have changed, and kept
    current by every build after. A site whose pages all carry dates (or git history) and
    that asks for neither never has one, and never pays for it.
    """

    def __init__(
        self,
        settings: Settings,
        project_dir: Path,
        report: Report,
        now: datetime,
        source_dirs: Iterable[Path | str] = (),
    ) -> None:
        """``source_dirs``: the folders the pages' sources are read from (the generator's
        docs or content folder); git reads only their history."""
        self.settings = settings
        self.source_dirs = tuple(source_dirs)
        self.project_dir = Path(project_dir)
        self.report = report
        self.now = now
        self.state_file = self.project_dir / settings.state_file
        self._git: GitDates | None = None
        self._now_text = format_moment(now)
        self._previous: State | None = None
        self._loaded = False
        self._unusable = False
        self._seen: dict[str, tuple[str | None, str | None, str | None]] = {}
        """loc -> (digest, title, lastmod text): this build's pages, in the order they came."""
        self._records: dict[str, Record] | None = None
        self._kind: dict[str, str] = {}  # loc -> "added" | "changed"

    @property
    def git(self) -> GitDates:
        """The git reader, made when a page first asks it (often never: most pages have dates)."""
        if self._git is None:
            from .git import GitDates

            self._git = GitDates(self.source_dirs)
        return self._git

    # ------------------------------------------------------------------ manifest

    def previous(self) -> State | None:
        """The last build's manifest (None on a first build, or when it was unreadable)."""
        if not self._loaded:
            self._loaded = True
            try:
                self._previous = load_state(self.state_file)
            except StatePathError as error:
                self._unusable = True
                self.report.warn(
                    str(self.state_file), "state_file", "state-path",
                    f"no manifest kept: {error}; set state_file to the path of a file "
                    "(by default .cache/sitemapkit/state.json)",
                )
            except StateError as error:
                self.report.warn(
                    str(self.state_file), "state_file", "state-corrupt",
                    f"manifest ignored and rebuilt: {error}; lastmods from fingerprints "
                    "restart from this build",
                )
        return self._previous

    def records(self) -> dict[str, Record]:
        """This build's manifest records, by URL (once every page has streamed through)."""
        if self._records is None:
            self._records = self._reconcile()
        return self._records

    def _reconcile(self) -> dict[str, Record]:
        """This build's pages against the last manifest: a digest seen before keeps the time
        it was first seen. Notes which URLs were added or changed."""
        state = self.previous()
        before = state.pages if state is not None else {}
        records = {}
        for loc, (digest, title, text) in self._seen.items():
            old = before.get(loc)
            if old is not None and (digest is None or digest == old.digest):
                records[loc] = Record(old.digest, old.first_seen, title or old.title, text)
                if digest is None and old.lastmod is not None and text != old.lastmod:
                    self._kind[loc] = "changed"  # no content to fingerprint: its lastmod tells
            else:
                records[loc] = Record(digest, self._now_text, title, text)
                if state is not None:
                    self._kind[loc] = "added" if old is None else "changed"
        return records

    # ------------------------------------------------------------------ sources

    def lastmod(
        self,
        page: Page,
        loc: str,
        digest: str | None,
        title: str | None = None,
        override: Moment | None = None,
    ) -> Moment | None:
        """The first answer of the sources in ``settings.lastmod``.

        ``digest`` is a hash of the page's main content; it is recorded for the manifest
        whatever source answers, with ``title`` for the change feed. A page without one (no
        content read) counts as changed when the lastmod written for it moves.
        ``override`` (a page's own ``sitemap_lastmod``) wins over every source and is
        recorded as the lastmod written.
        """
        found, answered = override, "meta"
        for answered in self.settings.lastmod if found is None else ():
            found = self._ask(answered, page, loc, digest)
            if found is not None:
                break
        if self.settings.lastmod:
            counts = self.report.lastmod_sources
            source = answered if found is not None else "none"
            counts[source] = counts.get(source, 0) + 1
        self._seen[loc] = (digest, title, format_moment(found) if found is not None else None)
        return found

    def _ask(self, source: str, page: Page, loc: str, digest: str | None) -> Moment | None:
        if source == "meta":
            return page.modified
        if source == "git" and page.source is not None:
            path = Path(page.source)
            return self.git.date(path if path.is_absolute() else self.project_dir / path)
        if source == "fingerprint":
            state = self.previous()
            if state is None:  # a first build: "first seen now" would move with every build
                return None
            old = state.pages.get(loc)
            if digest is None:  # no content read this time: the last fingerprint still holds
                known = old is not None and old.digest is not None
                return parse_moment(old.first_seen) if known else None
            if old is not None and old.digest == digest:
                return parse_moment(old.first_seen)
            return self.now  # new or changed since the last build: it changed by now
        return None

    # ------------------------------------------------------------------ finish

    def finish(self) -> Changes:
        """Save the manifest (when there is one to keep); report what git could not date;
        say what changed."""
        self._warn_git()
        if self.report.lastmod_sources.get("none"):
            self.report.lastmod_hint = (
                "for git dates, commit the pages and build from a full clone: "
                "fetch-depth: 0 in actions/checkout" if "git" in self.settings.lastmod
                else "add git to 'lastmod' to date pages by their last commit"
            )
        used = self._loaded or self.settings.indexnow or self.settings.changes_feed
        if not used and not self.state_file.exists():
            return Changes(state_file=self.state_file, first_build=True)
        records = self.records()
        state = self.previous()
        if self._unusable:
            return Changes(state_file=None, first_build=True)
        changes = Changes(state_file=self.state_file, first_build=state is None)
        if state is not None:
            changes.added = sorted(loc for loc, kind in self._kind.items() if kind == "added")
            changes.changed = sorted(loc for loc, kind in self._kind.items() if kind == "changed")
            changes.removed = sorted(loc for loc in state.pages if loc not in records)
            changes.unsent = sorted(state.unsent)
        try:
            save_state(self.state_file, records, [])
        except OSError as error:
            self.report.warn(
                str(self.state_file), "state_file", "state-write",
                f"manifest not saved ({error.strerror or error}); the next build cannot tell "
                "what changed",
            )
        return changes

    def _warn_git(self) -> None:
        """What git could not date. A broken repository is a warning; the documented
        fallbacks (no git installed, a shallow clone, a submodule, pages not committed yet)
        are notes at info level: the CI checkout of a healthy site never fails for them."""
        if self._git is None:
            return
        self._git.close()
        fallback = "their lastmod falls back to the next source in 'lastmod'"
        for root, reason in sorted(self.git.failures.items()):
            message = f"no git dates: {reason}; {fallback}"
            if reason.startswith("git is not installed"):
                self.report.info(str(root), "lastmod", "lastmod-git", message)
            else:
                self.report.warn(str(root), "lastmod", "lastmod-git", message)
        for root, paths in sorted(self.git.shallow.items()):
            self.report.info(
                str(root), "lastmod", "lastmod-git-shallow",
                f"shallow clone: the history of {_files(paths)} ({_examples(paths)}) "
                f"is cut off, so {fallback}; fetch the whole history for git dates "
                "(actions/checkout: fetch-depth: 0; git fetch --unshallow)",
            )
        for root, paths in sorted(self.git.submodule.items()):
            self.report.info(
                str(root), "lastmod", "lastmod-git-submodule",
                f"{_files(paths)} {'is' if len(paths) == 1 else 'are'} in a git submodule ({_examples(paths)}), "
                f"whose history sitemapkit does not read; {fallback}",
            )
        for root, paths in sorted(self.git.untracked.items()):
            paths = sorted(set(paths) - self.git.ignored(root, paths))
            if paths:
                self.report.info(
                    str(root), "lastmod", "lastmod-git-untracked",
                    f"{_files(paths)} {'has' if len(paths) == 1 else 'have'} no commit yet "
                    f"({_examples(paths)}); {fallback}",
                )
