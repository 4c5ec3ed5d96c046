"""Where a page's lastmod comes from: metadata, git, or the content-fingerprint manifest.

The sources are tried in the order of ``settings.lastmod``; the first that knows wins:

- ``meta``: ``page.modified``, the generator's own date fields;
- ``git``: the last commit that changed ``page.source`` (see ``git.py``);
- ``fingerprint``: when the page's main content was first seen with its current digest,
  from the manifest kept between builds (see ``manifest.py``). Only a manifest an earlier
  build left can say that: on a first build (a fresh CI checkout) "first seen" would be
  this build's time, a date that moves with every build, so the page gets no lastmod.

A page made of more than its source (``page.depends_on``: included files, literalinclude,
autodoc's modules, snippets) is as new as the newest of them: once a source has dated the
page, each of those files' git dates (read in the same pass as the pages') wins when it is
later. Only git dates a file by itself: a page's metadata speaks for the page, and its
fingerprint already covers what the files put into it.

Where the manifest says the page's main content is what it was when the last build wrote
its lastmod (the same digest), no source moves that lastmod forward: what changed is not
what the page says (a site-wide include, a date bumped alone).

A page no source can date gets none: never a made-up date; a file it is made from never
stands in for the page's own date.

Whatever source answers, every page's digest is noted in the manifest, which says at the
end of the build which URLs were added, changed or removed (for IndexNow and the change feed).
"""

from __future__ import annotations

import bisect
import os
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from sitemapkit.dates import DateError, as_datetime, format_moment, parse_moment
from sitemapkit.lastmod.manifest import Manifest
from sitemapkit.lastmod.state import Record
from sitemapkit.model import Moment, Page
from sitemapkit.report import EXAMPLES, Report, examples
from sitemapkit.settings import Settings

if TYPE_CHECKING:
    from sitemapkit.lastmod.git import Checkout, GitDates


def _files(paths: list[str]) -> str:
    return "1 source file" if len(paths) == 1 else f"{len(paths)} source files"


def _fallback(count: int) -> str:
    return f"{'its' if count == 1 else 'their'} lastmod falls back to the next source in 'lastmod'"


def _topmost(folders: list[str]) -> list[str]:
    """``folders`` without those inside another of them."""
    found: list[str] = []
    for folder in sorted(set(folders), key=len):
        if not any(folder.startswith(top.rstrip(os.sep) + os.sep) for top in found):
            found.append(folder)
    return sorted(found)


_MOMENTS_KEPT = 4096
"""Kept times parsed at once (``_first_seen``)."""


class LastmodResolver:
    """Answers each page's lastmod as the pages stream, and notes each page in the manifest."""

    def __init__(
        self,
        settings: Settings,
        project_dir: Path,
        report: Report,
        now: datetime,
        source_dirs: Iterable[Path | str] = (),
        manifest: Manifest | None = None,
        site_dir: Path | str | None = None,
        checkouts: Iterable[Checkout] = (),
    ) -> None:
        """``source_dirs``: the folders the pages' sources are read from (the generator's
        docs or content folder); git reads only their history. ``manifest``: the one this
        build keeps (by default the site's, named after ``settings.state_file``, for the
        output folder ``site_dir``). ``checkouts``: folders holding a repository's files at
        another revision, dated from that revision's history."""
        self.settings = settings
        self.source_dirs = tuple(source_dirs)
        self.checkouts = tuple(checkouts)
        self.project_dir = Path(project_dir)
        self._project = os.fspath(self.project_dir)
        self.report = report
        self.now = now
        self.manifest = manifest or Manifest.for_settings(settings, self.project_dir, report, now, site_dir)
        self._git: GitDates | None = None
        self._moments: dict[str, Moment] = {}
        self._told_lastmod = False
        """Whether a kept lastmod that is no date was warned of (once a build)."""
        self._sourceless = 0
        """Pages git was asked about that have no source file."""
        self._sourceless_first: list[str] = []
        """The first ``EXAMPLES`` of them by site path, the ones a note names: a count and a
        few names, not a list of every page (a million pages with no source is one folder
        of HTML given no --source-dir)."""
        self._undated: tuple[str, ...] | None = None
        """The source folders no repository holds (``outside_repositories``), each as the start
        of its files' paths: decided at the first page git is asked of, once a build."""
        self._undated_folders: dict[str, bool] = {}
        """Folder of a page from one of them -> whether git can date none of its files
        (``_undated_source``): asked once a folder."""
        self._undated_asked = False
        """Whether a page was left undated by git without asking it."""
        asks = {"meta": None, "git": self._by_git, "fingerprint": self._by_fingerprint}  # (meta: given to dated)
        self._sources = tuple((source, asks[source]) for source in settings.lastmod)
        """The sources of ``settings.lastmod`` in order, each with what asks it: decided once."""

    @property
    def git(self) -> GitDates:
        """The git reader, made when a page first asks it (often never: most pages have dates)."""
        if self._git is None:
            # Performance: git's modules are loaded by the builds that ask git, not by every
            # import (measured: 2.4 M instructions of a Pelican build's import)
            from sitemapkit.lastmod.git import GitDates

            self._git = GitDates(self.source_dirs, self.checkouts)
        return self._git

    # ------------------------------------------------------------------ sources

    def lastmod(self, page: Page, loc: str, digest: str | None, title: str | None = None,
                override: Moment | None = None) -> Moment | None:
        """The first answer of the sources in ``settings.lastmod``.

        ``digest`` is a hash of the page's main content; it is recorded for the manifest
        whatever source answers, with ``title`` for the change feed. A page without one (no
        content read) counts as changed when the lastmod written for it moves.
        ``override`` (a page's own ``sitemap_lastmod``) wins over every source and is
        recorded as the lastmod written.
        """
        return self.dated(page, loc, digest, title, override, page.modified)[0]

    def dated(
        self,
        page: Page,
        loc: str,
        digest: str | None,
        title: str | None = None,
        override: Moment | None = None,
        meta: Moment | None = None,
    ) -> tuple[Moment | None, str]:
        """``lastmod`` with the source that answered (``none``: none did). ``meta`` is what
        the page's own metadata dates it (``page.modified``, or what the caller read for
        it: an index page's newest listed page, the HTML's article dates)."""
        found, answered = override, "meta"
        for source, ask in self._sources if found is None else ():
            found = meta if source == "meta" else ask(page, loc, digest)
            if found is not None:
                answered = source
                break
        if override is None and found is not None and page.depends_on:
            found, answered = self._newest_part(page, found, answered)
        if override is None and found is not None and digest is not None and answered != "fingerprint":
            found = self._unchanged(self.manifest.recorded(loc), loc, digest, found)
        if self.settings.lastmod:
            counts = self.report.lastmod_sources
            source = answered if found is not None else "none"
            counts[source] = counts.get(source, 0) + 1
        self.manifest.note(loc, digest, title, format_moment(found) if found is not None else None)
        return found, answered if found is not None else "none"

    def again(self, page: Page, loc: str, digest: str | None, answered: str, found: Moment | None
              ) -> tuple[bool, Moment | None, Record | None]:
        """What ``dated`` gives again a page of the last build's whose content is unchanged (its
        ``digest``) and that ``answered`` dated then (``found``: what that source said when it
        was the page's own metadata), asked of that source alone, with nothing counted nor
        noted (``replay`` does that), and the manifest's record of the page it read (None: it
        read none): ``(False, None, None)`` when that source says nothing now (a manifest gone),
        and ``dated`` must be asked. The sources before it said nothing of the page (no
        metadata, no source file): they say the same of the same file."""
        if answered == "fingerprint":
            if not self.manifest.known():
                return False, None, None
            old = self.manifest.previous(loc)
            moment = self._fingerprinted(old, digest)
            return moment is not None, moment, old
        if answered == "meta":
            if found is None or page.depends_on:
                return False, None, None
            if digest is None:
                return True, found, None
            old = self.manifest.recorded(loc)
            return True, self._unchanged(old, loc, digest, found), old
        return answered == "none" and self.lasting(answered) and found is None, None, None

    def lasting(self, answered: str) -> bool:
        """Whether a page that ``answered`` dated is dated by it again while its content and
        its manifest record are unchanged (``again``): its HTML's dates, its fingerprint, or
        none where no fingerprint is asked (a first build's pages, which no source dated, are
        dated by their fingerprint the next build). Not git: a page's commits move its date."""
        return answered in ("meta", "fingerprint") or (
            answered == "none" and "fingerprint" not in self.settings.lastmod)

    def replay(self, page: Page, loc: str, digest: str | None, answered: str, found: Moment | None,
               old: Record | None) -> None:
        """Count and note the page ``again`` dated ``found`` by ``answered`` (``old``: the
        record it read), as ``dated`` does: the sources before that one are asked (they say
        nothing; git counts a page with no source file)."""
        for source, ask in self._sources:
            if source == answered:
                break
            if source != "meta":  # (it said nothing, and counts nothing)
                ask(page, loc, digest)
        if self.settings.lastmod:
            counts = self.report.lastmod_sources
            counts[answered] = counts.get(answered, 0) + 1
        self.manifest.note(loc, digest, None, format_moment(found) if found is not None else None, old)

    def _by_git(self, page: Page, loc: str, digest: str | None) -> Moment | None:
        if page.source is None:
            self._sourceless += 1
            if self.source_dirs:  # named only where sources were there to match
                bisect.insort(self._sourceless_first, loc.removeprefix(self.settings.base_url.rstrip("/")) or loc)
                del self._sourceless_first[EXAMPLES:]
            return None
        if self._undated is None:
            from sitemapkit.lastmod.git import outside_repositories  # (see ``git``)

            self._undated = () if self.checkouts else tuple(
                os.path.join(os.path.abspath(folder), "") for folder in self.source_dirs
                if outside_repositories(folder))
        if self._undated and self._undated_source(page.source):
            self._undated_asked = True  # no repository holds it: git is not asked
            return None
        # os.path.join keeps an absolute source as it is, as Path's / does: no Path per page.
        return self.git.date(os.path.join(self._project, page.source))

    def _undated_source(self, source: str | os.PathLike[str]) -> bool:
        """Whether git can date no file in the folder of ``source``: a folder in one of the
        source folders no repository holds, with none in it or linked from it on the way
        (asked once a folder). A path it would take more than a split to read the folder of
        (another type, ``..`` in it, Windows' other separator) is asked of git."""
        if not isinstance(source, str) or not source.startswith(self._undated) or (os.altsep and os.altsep in source):
            return False
        folder = source.rpartition(os.sep)[0]
        undated = self._undated_folders.get(folder)
        if undated is None:
            from sitemapkit.lastmod.git import no_repository_between  # (see ``git``)

            top = next((top for top in self._undated if (folder + os.sep).startswith(top)), None)
            undated = self._undated_folders[folder] = (
                top is not None and os.path.normpath(folder) == folder
                and no_repository_between(os.path.dirname(top), folder))
        return undated

    def _by_fingerprint(self, page: Page, loc: str, digest: str | None) -> Moment | None:
        if not self.manifest.known():  # a first build: "first seen now" would move with every build
            return None
        return self._fingerprinted(self.manifest.previous(loc), digest)

    def _fingerprinted(self, old: Record | None, digest: str | None) -> Moment | None:
        """The date a page's fingerprint gives it, by the last build's record of it (``old``)."""
        if digest is None:  # no content read this time: the last fingerprint still holds
            known = old is not None and old.digest is not None
            return self._first_seen(old.first_seen) if known else None
        if old is not None and old.digest == digest:
            return self._first_seen(old.first_seen)
        return self.now  # new or changed since the last build: it changed by now

    def _newest_part(self, page: Page, found: Moment, answered: str) -> tuple[Moment, str]:
        """``found`` (the page's date, by ``answered``), or the git date of a file the page is
        made from when that is later: then ``git`` answered."""
        if "git" not in self.settings.lastmod:
            return found, answered
        latest = as_datetime(found)
        for path in page.depends_on:
            changed = self.git.date(os.path.join(self._project, path))
            if changed is not None and changed > latest:
                found, latest, answered = changed, changed, "git"
        return found, answered

    def _unchanged(self, old: Record | None, loc: str, digest: str, found: Moment) -> Moment:
        """``found``, or the lastmod the last build wrote for ``loc`` (its record ``old``) when
        that is earlier and the page's main content is the same (its digest in the manifest):
        a source date (a site-wide file's commit, a front-matter date bumped alone) does not
        move a page whose rendered content did not change."""
        if old is None or old.digest != digest or old.lastmod is None:
            return found
        try:
            written = self._first_seen(old.lastmod)
        except DateError:  # the manifest is hostile input: its reader checks only first-seen times
            if not self._told_lastmod:
                self._told_lastmod = True
                self.report.warn(str(self.manifest.last), "state_file", "state-corrupt",
                                 f"the manifest's record of {loc} has a lastmod that is no date "
                                 f"({old.lastmod[:40]!r}): ignored, and written again by this build")
            return found
        return written if as_datetime(written) < as_datetime(found) else found

    def _first_seen(self, text: str) -> Moment:
        # Performance: a manifest holds few distinct first-seen times (one per build that
        # changed pages), each parsed once (measured: 0.03 µs a page instead of 1.7 µs).
        moment = self._moments.get(text)
        if moment is None:
            if len(self._moments) >= _MOMENTS_KEPT:  # (lastmods may be as many as the pages)
                self._moments.clear()
            moment = self._moments[text] = parse_moment(text)
        return moment

    # ------------------------------------------------------------------ finish

    def finish(self) -> None:
        """Report what git could not date, and how to date the pages no source could: one
        hint per cause found (no source file, no repository, no commit, a shallow clone)."""
        missing = [folder for folder in self.source_dirs if not os.path.isdir(folder)]
        for folder in missing:  # a typo: every page would be undated with no more than a note
            self.report.warn(
                os.fspath(folder), "source_dir", "source-dir-missing",
                f"no such folder: {self._shown(os.fspath(folder))}; no page is dated by its source "
                "(front matter, git): check the path given to --source-dir")
        if missing and len(missing) == len(self.source_dirs):
            self._sourceless = 0  # said above, once, not again as pages with no source
        causes = [f"no such folder {self._shown(os.fspath(folder))}" for folder in missing] + self._warn_git()
        if self.report.lastmod_sources.get("none"):
            if "git" not in self.settings.lastmod:
                causes = ["add git to 'lastmod' to date pages by their last commit"]
            self.report.lastmod_hint = "; ".join(causes)

    def _no_source(self) -> str:
        """Why pages found no source: no source folder was given, or their names match no
        file in it (listing pages, a permalink not followed), which an info note lists."""
        if not self.source_dirs:
            return "git dates need the pages' source files, which sitemapkit build finds with --source-dir"
        pages, shown = self._sourceless, examples(self._sourceless_first, self._sourceless)
        count = "1 page" if pages == 1 else f"{pages} pages"
        folders = ", ".join(self._shown(os.fspath(folder)) for folder in self.source_dirs)
        self.report.info(
            folders, "lastmod", "lastmod-no-source",
            f"{count} {'matches' if pages == 1 else 'match'} no source file in "
            f"{folders} ({shown}): listing pages (home, "
            "sections, tags, archives) and pages moved by a permalink sitemapkit does not follow; "
            "give them sitemap_lastmod or leave them undated",
        )
        return f"{count} with no source file ({shown})"

    def _shown(self, folder: str) -> str:
        """A folder as the user knows it: relative to the project folder when inside it."""
        relative = os.path.relpath(folder, self._project)
        return folder if relative == "." or relative.startswith("..") else relative.replace(os.sep, "/")

    def _warn_git(self) -> list[str]:
        """What git could not date. A broken repository is a warning; the documented
        fallbacks (no git installed, a shallow clone, a submodule, pages not committed yet)
        are notes at info level: the CI checkout of a healthy site never fails for them.
        Returns the hints for the causes found, for the pages left undated."""
        causes = [self._no_source()] if self._sourceless else []
        outside = [os.path.dirname(folder) for folder in self._undated or ()] if self._undated_asked else []
        if self._git is not None:
            self._git.close()
            outside += self.git.outside
        outside = _topmost(outside)
        if outside:
            shown = examples([self._shown(folder) for folder in outside])
            causes.append(f"{shown} {'is' if len(outside) == 1 else 'are'} not in a git repository")
        if self._git is None:
            return causes
        for root, reason in sorted(self.git.failures.items()):
            message = f"no git dates: {reason}; the pages' lastmod falls back to the next source in 'lastmod'"
            if reason.startswith("git is not installed"):
                self.report.info(str(root), "lastmod", "lastmod-git", message)
            else:
                self.report.warn(str(root), "lastmod", "lastmod-git", message)
        for root, paths in sorted(self.git.shallow.items()):
            self.report.info(
                str(root), "lastmod", "lastmod-git-shallow",
                f"shallow clone: the history of {_files(paths)} ({examples(sorted(paths))}) "
                f"is cut off, so {_fallback(len(paths))}; fetch the whole history for git dates "
                "(actions/checkout: fetch-depth: 0; git fetch --unshallow)",
            )
        if self.git.shallow:
            causes.append("for git dates, build from a full clone: fetch-depth: 0 in actions/checkout")
        for root, paths in sorted(self.git.submodule.items()):
            self.report.info(
                str(root), "lastmod", "lastmod-git-submodule",
                f"{_files(paths)} {'is' if len(paths) == 1 else 'are'} in a git submodule ({examples(sorted(paths))}), "
                f"whose history sitemapkit does not read; {_fallback(len(paths))}",
            )
        uncommitted = False
        for root, paths in sorted(self.git.untracked.items()):
            paths = sorted(set(paths) - self.git.ignored(root, paths))
            if paths:
                uncommitted = True
                self.report.info(
                    str(root), "lastmod", "lastmod-git-untracked",
                    f"{_files(paths)} {'has' if len(paths) == 1 else 'have'} no commit yet "
                    f"({examples(sorted(paths))}); {_fallback(len(paths))}",
                )
        if uncommitted:
            causes.append("for git dates, commit the pages")
        return causes
