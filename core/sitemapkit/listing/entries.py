"""Pages in, entries out: the listing step of a build, lazily, in the order the pages come.

Each page goes to the ``EntryMaker`` (``entry_maker``), which decides whether it is listed and
checks every value, once, so that the writer only formats; then through the ``transform``
option's callable; each URL is listed once (``url_hashes``), and one-way hreflang alternates
are dropped (``return_links``).
"""

import itertools
import os
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from sitemapkit.dates import build_time
from sitemapkit.lastmod.sources import LastmodResolver
from sitemapkit.listing.entry_maker import EntryMaker, Folded
from sitemapkit.listing.url_hashes import UrlHashes
from sitemapkit.model import Entry, Page, PlainEntry
from sitemapkit.report import Report
from sitemapkit.return_links import without_one_way
from sitemapkit.settings import Settings
from sitemapkit.site.pages import INDEX_FILES, site_robots

if TYPE_CHECKING:
    from sitemapkit.listing.transform import UserTransform
    from sitemapkit.output.html_sitemap import Listing
    from sitemapkit.versions import Deployment


def build_entries(
    pages: Iterable[Page],
    settings: Settings,
    *,
    report: Report | None = None,
    lastmod: LastmodResolver | None = None,
    site_dir: str | os.PathLike[str] | None = None,
    documents: Iterable[Page] = (),
    listing: "Listing | None" = None,
    project_dir: str | os.PathLike[str] | None = None,
    source_dirs: Iterable[str | os.PathLike[str]] = (),
    deployment: "Deployment | None" = None,
    transform: "UserTransform | None" = None,
) -> Iterator[Entry]:
    """One ``Entry`` per listable page, lazily, in the order the pages come. With
    ``site_dir``, pages the site's robots.txt keeps crawlers from are left out.

    Lastmods come from ``settings.lastmod`` as in a build: git history of the pages'
    sources (``source_dirs``: the folders git reads; ``project_dir``: where relative
    sources and ``state_file`` are, the current folder by default) and the fingerprints of
    the manifest an earlier build of the site left (the one of ``site_dir``: pass the folder
    ``generate`` wrote), which is read, not written: ``generate`` keeps it.
    ``lastmod`` is the resolver a build shares with its manifest. ``documents``: files that
    are not HTML (the ``include`` option), listed after the pages with only a loc and a
    lastmod. ``listing`` gathers each entry's title for ``sitemap.html``. ``deployment``:
    the site is one version of versioned documentation (pages canonical to another version
    are left out and named; a home page left out is warned of). The pages of
    ``settings.extra_urls`` follow the pages given, checked as they are. Each entry goes
    through ``settings.transform`` (``transform``: that callable, already loaded; else it is
    loaded from ``project_dir``) before it is listed.
    """
    if not settings.base_url:
        raise ValueError("build_entries needs settings.base_url")
    report = report if report is not None else Report()
    own = lastmod is None
    project = Path(project_dir) if project_dir is not None else Path.cwd()
    if settings.transform and transform is None:
        from sitemapkit.listing.transform import load_transform

        transform = load_transform(settings.transform, project)
    if lastmod is None:
        lastmod = LastmodResolver(settings, project, report, build_time(), source_dirs, site_dir=site_dir)
    try:
        yield from list_entries(pages, settings, report, lastmod, site_dir=site_dir, documents=documents,
                                listing=listing, deployment=deployment, transform=transform).entries
    finally:
        if own:
            lastmod.finish()
            lastmod.manifest.close()


class Counted:
    """What the listing counted, filled as its entries stream and complete once they are
    consumed: what the steps after it decide from (the report is told the same, for the
    summary, at the end)."""

    __slots__ = ("left_out", "selector_only")

    def __init__(self) -> None:
        self.left_out: dict[str, int] = {}
        """Pages left out, by reason (``noindex``, ``exclude`` ...): the writer's ``no-pages``
        and ``noindex-most``."""
        self.selector_only = 0
        """Pages listed for a version selector only (their canonical URL is another version's):
        a build with any does not call IndexNow."""


class Listed(NamedTuple):
    """What the listing step makes: the entries, and the pages the site's settings left out."""

    entries: Iterator[Entry | PlainEntry]
    """The entries, made as they are read (nothing is read before the first is asked for)."""
    chosen_out: set[str]
    """Keys (``owned.url_key``) of the pages the site's own settings leave out (``sitemap:
    false``, ``exclude``, what is no page, ``static_html: omit``, a ``transform``'s None),
    for the record that keeps ``validate --site-dir`` from asking for them: filled as
    ``entries`` stream, complete once they are consumed."""
    counted: Counted
    """What the listing counted (the pages left out by reason, those listed for a version
    selector only), filled as ``entries`` stream, complete once they are consumed."""


def list_entries(
    pages: Iterable[Page],
    settings: Settings,
    report: Report,
    lastmod: LastmodResolver,
    *,
    site_dir: str | os.PathLike[str] | None = None,
    documents: Iterable[Page] = (),
    listing: "Listing | None" = None,
    deployment: "Deployment | None" = None,
    transform: "UserTransform | None" = None,
    by_folder: bool = False,
    written_only: bool = False,
) -> Listed:
    """``build_entries`` for a build: ``settings`` (its ``base_url`` normalised, as ``Settings``
    always has it), this build's report and lastmod resolver (left open: the caller finishes them), the
    ``transform`` callable loaded; the entries with the pages left out on purpose. ``by_folder``:
    the pages come a folder at a time from a walk of ``site_dir`` (``generate``'s). ``written_only``: the
    entries go to the writer alone (``generate``'s): with no ``transform``, an entry with no video,
    news nor alternates is a ``PlainEntry``."""
    chosen_out: set[str] = set()
    counted = Counted()
    seen = UrlHashes()
    made = _entries(itertools.chain(pages, extra_pages(settings)), settings, report, lastmod, site_dir,
                    documents, listing, seen, chosen_out, counted, deployment, transform, by_folder,
                    written_only)
    return Listed(without_one_way(made, report, seen.holds) if settings.alternates else made, chosen_out, counted)


def _entries(
    pages: Iterable[Page],
    settings: Settings,
    report: Report,
    lastmod: LastmodResolver,
    site_dir: str | os.PathLike[str] | None,
    documents: Iterable[Page],
    listing: "Listing | None",
    seen: UrlHashes,
    chosen_out: set[str],
    counted: Counted,
    deployment: "Deployment | None",
    transform: "UserTransform | None",
    by_folder: bool = False,
    written_only: bool = False,
) -> Iterator[Entry | PlainEntry]:
    """The entries of ``pages`` then ``documents``, each URL once (``seen``: those listed),
    each through ``transform``; the keys of the pages left out on purpose go to ``chosen_out``,
    what it counts to ``counted`` (and to ``report`` at the end)."""
    robots = site_robots(site_dir) if site_dir is not None else None
    left_out = counted.left_out
    maker = EntryMaker(settings, report, lastmod, chosen_out, site_dir, deployment, robots, counted=counted,
                       by_folder=by_folder, written_only=written_only and transform is None)
    change = None
    if transform is not None and settings.transform:
        from sitemapkit.listing.transform import Transform

        change = Transform(transform, settings.transform, maker.base, report, chosen_out, left_out,
                           lambda label, field, moment: maker.not_future(Page(label), field, moment, maker.warn),
                           lastmod.manifest.renote)
    folders = bool(maker.folder_key) and listing is None
    if folders:  # (no transform, no version selector: what the loop below does besides)
        yield from _by_folder(pages, maker, seen, report)
    marked = ((page, False) for page in pages) if not folders else ()
    for page, document in itertools.chain(marked, ((file, True) for file in documents)):
        home = deployment is not None and deployment.selector and not document and maker.home(page)
        before = dict(left_out) if home else None
        made = maker.document(page) if document else maker.made(page)
        entry, title = (made[0], made[1]) if made is not None else (None, None)
        if entry is not None and change is not None:
            entry = change(entry)
        if entry is None:
            if before is not None:
                why = ", ".join(reason for reason, count in left_out.items() if count != before.get(reason))
                report.warn(page.label, "loc", "version-home-left-out",
                            f"this version's home page {maker.base} is left out of its sitemap ({why or 'a warning'}): "
                            "Material's version selector finds a version's pages through that sitemap and "
                            "cannot match them without it")
            continue
        if home and entry.loc != maker.base:
            report.info(page.label, "loc", "version-home-unmatched",
                        f"this version's home page is listed as {entry.loc}, not {maker.base}: Material's version "
                        "selector matches pages only below the common start of every listed URL, which must be "
                        "listed itself, so it opens the other version's home page instead (MkDocs' "
                        "use_directory_urls: false names the home page index.html)")
        if not _once(entry, page, seen, report):
            continue
        if listing is not None:
            listing.add(entry, page.title, title, bool(page.listed) or page.content == "")
        yield entry
    maker.finish()
    for reason, count in left_out.items():  # the summary's counts
        report.left_out[reason] = report.left_out.get(reason, 0) + count
    report.selector_only += counted.selector_only
    for pattern in maker.excludes.unmatched():
        report.warn("settings", "exclude", "exclude-unmatched",
                          f"pattern '{pattern}' matched no page; check its spelling (gitignore-style)")


def _once(entry: Entry | PlainEntry, page: Page, seen: UrlHashes, report: Report) -> bool:
    """Whether ``entry``'s URL is listed for the first time (else it is warned of)."""
    if seen.add(entry.loc):
        return True
    report.warn(page.label, "loc", "duplicate-url", f"{entry.loc} is listed already")
    return False


def _by_folder(pages: Iterable[Page], maker: EntryMaker, seen: UrlHashes, report: Report
               ) -> Iterator[Entry | PlainEntry]:
    """The entries of ``pages``, a run of one folder's pages at a time (``_runs``, each by its
    key): replayed together when an earlier build kept the run's entries of the same files (``EntryMaker.folder``),
    else each made (``EntryMaker.made``) and, when each may be replayed and is listed, kept
    for the next build."""
    for key, folder, run in _runs(pages):
        replayed = maker.folder(key, run, folder) if key is not None else None
        if replayed is not None:
            for page, entry in zip(run, replayed, strict=True):
                if _once(entry, page, seen, report):
                    yield entry
            continue
        made_at = time.time_ns()
        folded: list[Folded] = []
        for page in run:
            made = maker.made(page)
            if made is None:
                continue
            entry, _, kept = made
            if _once(entry, page, seen, report):
                if kept is not None:
                    folded.append(kept)
                yield entry
        if key is not None and len(folded) == len(run):
            maker.keep_folder(key, run, folded, made_at)


def _runs(pages: Iterable[Page]) -> Iterator[tuple[str | None, str | None, list[Page]]]:
    """The pages in runs of one folder's pages (``_folder_of``), as the walk hands them over
    (a folder's files together, by name, then its folders'), each run with its key and that
    folder: the key is the path of its first page's file, so that two runs of one folder (its
    files before and after its index, which is its parent's) are two; None for pages not
    replayed together: a run of fewer than two, pages with no file, the pages past
    ``_RUN_MOST`` of a run (memory stays flat), each then alone."""
    for folder, group in itertools.groupby(pages, _folder_of):
        run = list(itertools.islice(group, _RUN_MOST + 1))
        if folder is not None and 1 < len(run) <= _RUN_MOST:
            yield os.fspath(run[0].output), folder, run
            continue
        for page in itertools.chain(run, group):
            yield None, None, [page]


def _folder_of(page: Page) -> str | None:
    """The folder whose pages ``page`` is replayed with: the one its file is in, or for a
    folder's index (``a/b/index.html``: a site of pretty URLs, one page a folder) that
    folder's parent, with its other folders' indexes. The pages are a walk's: a file's path is
    its folder's, a separator and its name (``scan.site_folders``), cut at the last separator."""
    if page.output is None:
        return None
    folder, _, name = os.fspath(page.output).rpartition(os.sep)
    return folder.rpartition(os.sep)[0] if name in INDEX_FILES else folder


_RUN_MOST = 4096
"""The most pages of a folder replayed together: a folder with more has each replayed alone."""


def extra_pages(settings: Settings) -> Iterator[Page]:
    """The pages of ``extra_urls``, each named for messages by the option and its URL, with
    its lastmod as a ``sitemap_lastmod`` page key (checked as one)."""
    for extra in settings.extra_urls:
        meta = {"sitemap_lastmod": extra.lastmod} if extra.lastmod not in (None, "") else {}
        yield Page(url=extra.loc, meta=meta, name=f"extra_urls: {extra.loc}")
