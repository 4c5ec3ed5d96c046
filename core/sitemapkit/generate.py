"""The whole post-build step in one call: what every adapter and ``sitemapkit build`` run."""

import contextlib
import gc
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from sitemapkit.dates import build_time
from sitemapkit.lastmod.manifest import Manifest
from sitemapkit.lastmod.sources import LastmodResolver
from sitemapkit.listing.entries import list_entries
from sitemapkit.model import Outline, Page
from sitemapkit.output.names import (
    PAGE_NAME,
    beside_names,
    feed_name,
    index_name,
    is_news_name,
    own_names,
    sections_index,
    stem_of,
)
from sitemapkit.output.robots import RobotsTooLarge, first_loc, robots_where_read, sync_robots_txt
from sitemapkit.output.write import write_sitemap_files
from sitemapkit.protocol import ROBOTS_READ_BYTES
from sitemapkit.report import Problem, Report, SitemapError, plural
from sitemapkit.settings import Settings
from sitemapkit.site.files import Sink
from sitemapkit.site.lock import folder_locked
from sitemapkit.site.owned import Owned, elsewhere_keys, named_extras, record_key, record_written

if TYPE_CHECKING:
    from sitemapkit.lastmod.git import Checkout
    from sitemapkit.listing.transform import UserTransform
    from sitemapkit.output.html_sitemap import Render
    from sitemapkit.versions import Deployment

OthersCheck = Callable[[Path, Settings], Callable[[Report, Iterable[Path]], None]]
"""``generate``'s ``other_sitemaps``: see ``cli.others.look_for_others``."""


class Build(NamedTuple):
    """What the caller of ``generate`` said of this build, handed down whole (see
    ``generate`` for each field)."""

    site_dir: Path
    settings: Settings
    project_dir: Path
    state_from: Path | None
    source_dirs: tuple[Path | str, ...]
    checkouts: "tuple[Checkout, ...]"
    sink: Sink
    progress: Callable[[int], None] | None
    render_html: "Render | None"
    outline: Outline | None
    deployment: "Deployment | None"
    other_sitemaps: OthersCheck | None
    keep_urlset: bool
    keep_facts: bool
    keep_rendered: bool
    by_folder: bool


def generate(
    pages: Iterable[Page],
    site_dir: Path | str,
    settings: Settings,
    *,
    project_dir: Path | str | None = None,
    state_from: Path | str | None = None,
    source_dirs: Iterable[Path | str] = (),
    checkouts: "Iterable[Checkout]" = (),
    on_warning: Callable[[Problem], None] | None = None,
    progress: Callable[[int], None] | None = None,
    dry_run: bool = False,
    render_html: "Render | None" = None,
    outline: Outline | None = None,
    deployment: "Deployment | None" = None,
    other_sitemaps: OthersCheck | None = None,
    keep_urlset: bool = False,
    problems: Iterable[Problem] = (),
    keep_facts: bool = False,
    keep_rendered: bool = False,
    by_folder: bool = False,
) -> Report:
    """Build entries from ``pages`` and write every file into ``site_dir``.

    ``project_dir`` anchors relative paths such as ``state_file`` (the folder holding the
    generator's configuration; the current folder by default). ``state_from``: the folder
    ``state_file`` is read relative to when not ``project_dir``: a dry run's, where the real
    build would take the state from (``cli.state_place``). ``source_dirs`` are the
    folders the pages' sources come from (MkDocs' docs_dir, Sphinx's source folder,
    Pelican's PATH): git reads only their history. ``checkouts``: folders holding a
    repository's files at another revision than HEAD (``lastmod.git.Checkout``). ``progress`` is called with
    the number of pages read so far. ``dry_run`` writes and removes nothing: every file is
    rendered to a sink that only counts its bytes (``report.files`` and ``report.sizes``
    say what would be written) and IndexNow prints what it would send. Under
    ``settings.strict`` any warning raises ``SitemapError`` once all files are written.
    With ``settings.html_sitemap``, ``render_html`` renders ``sitemap.html`` in the site's
    theme (an adapter's); without it the page is sitemapkit's own plain one. ``outline``: the
    site's own navigation (an adapter's), which the page follows; without it, by folder.
    ``other_sitemaps``: called with ``site_dir`` and the settings before anything is written,
    it returns what is called with the report and the sitemap files once they are written:
    ``sitemapkit build`` gives ``cli.others.look_for_others``, which names in a
    ``sitemap-other`` warning the sitemap files another tool left there (it takes any folder
    of HTML; an adapter knows its generator's sitemap). ``deployment``: where this version of
    versioned documentation is served (``sitemapkit.versions``).
    ``keep_urlset``: the site's theme reads ``filename`` as a ``<urlset>`` (an adapter says so,
    see ``compat.material.reads_urlset``): with ``sections`` the index gets another name.
    ``problems``: what the adapter found before the build (its configuration's notes), told
    and counted with the build's own (a page's own go with it, ``Page.problems``).
    ``keep_facts``: a later build may hand over without their HTML pages this one hands over
    with it (MkDocs' ``--dirty`` renders only the pages that changed): their facts are kept,
    by their written file (``Page.output``), so that such a build does not read them again.
    ``keep_rendered``: the generator renders every page again each build (MkDocs): the facts
    of the heads of the pages handed over with their HTML and content are kept by that HTML
    (URL and head, compared whole), so that a build handing over the same does not read them again.
    ``by_folder``: the pages are the files of a walk of ``site_dir``, a folder's together
    (``site.scan.pages_in``: ``sitemapkit build``): a run of one folder's pages whose files are
    all unchanged is replayed together (``listing.entries``).
    """
    if not settings.base_url:
        raise SitemapError("sitemapkit needs the site's absolute URL: set base_url")
    sink = Sink(dry_run=dry_run)  # every file this build writes or removes goes through it
    build = Build(Path(site_dir), settings, Path(project_dir) if project_dir is not None else Path.cwd(),
                  Path(state_from) if state_from is not None else None,
                  tuple(source_dirs), tuple(checkouts), sink, progress, render_html, outline, deployment,
                  other_sitemaps, keep_urlset, keep_facts, keep_rendered, by_folder)
    with _heap_frozen():
        report = _generate(pages, build, Report(on_warning=on_warning), problems)
    if dry_run:
        report.sizes = dict(sink.sizes)  # every file it would write, the manifest included
    else:
        report.sizes = {path: path.stat().st_size for path in report.files if path.is_file()}
    return report


@contextlib.contextmanager
def _heap_frozen() -> Iterator[None]:
    """Performance: while sitemapkit works, the cycle collector looks only at the objects
    this step makes, not at the whole heap the generator built before it (``gc.freeze``).
    A full pass over that heap falls inside this step in some builds and not in others, and
    costs as much as all of its page work: in a 1,000-post Pelican build, 18-21 ms of a
    90 ms final step, and none with the heap frozen. This step's own garbage is still
    collected. A heap the caller froze itself is left as it is."""
    if gc.get_freeze_count():
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _generate(pages: Iterable[Page], build: Build, report: Report, problems: Iterable[Problem]) -> Report:
    for problem in problems:
        report.add(problem)
    settings, note = robots_where_read(build.settings, build.site_dir, index_name(build.settings, build.keep_urlset))
    if note is not None:
        report.add(note)
    build = build._replace(settings=settings)
    # The user's callable is imported before anything is read or written: one that cannot be is
    # an error naming the option, as a wrong option value is.
    transform = None
    if settings.transform:  # (its module loaded only by a build that has one, as every optional step's)
        from sitemapkit.listing.transform import load_transform

        transform = load_transform(settings.transform, build.project_dir)
    build.sink.make_dir(build.site_dir)  # to lock it (a dry run makes nothing)

    def waiting(folder: Path) -> None:
        report.info(str(folder), "output", "output-locked",
                    "another sitemapkit build is writing into this folder: waiting for it to finish")

    # One build at a time per output folder, from reading the manifest to robots.txt.
    with folder_locked(build.site_dir, shared=build.sink.dry_run, waiting=waiting):
        _write_all(pages, build, report, transform)
    if settings.strict and report.warning_count:
        raise SitemapError(
            f"{plural(report.warning_count, 'sitemap warning')} and strict is on; the first: {report.warnings[0]}"
        )
    return report


def _write_all(pages: Iterable[Page], build: Build, report: Report, transform: "UserTransform | None") -> None:
    site_dir, settings, project_dir, sink = build.site_dir, build.settings, build.project_dir, build.sink
    source_dirs = build.source_dirs
    now = build_time()
    # the project's key, beside the manifest: what signs the record of our own files in site_dir
    key = record_key((build.state_from or project_dir) / settings.state_file, create=not sink.dry_run)
    named_before = named_extras(site_dir, settings.base_url, key)  # before this build's record replaces it
    listed_before = first_loc(site_dir / settings.filename)  # the base URL the sitemap replaced was for
    # other tools' sitemaps: the one at our own name is looked at before this build replaces it
    others = build.other_sitemaps
    warn_others = others(site_dir, settings) if others is not None else None
    manifest = Manifest.for_settings(settings, project_dir, report, now, site_dir, sink, keep_facts=build.keep_facts,
                                     state_from=build.state_from, keep_rendered=build.keep_rendered)
    try:
        # pages -> entries, each dated as it streams (and noted in the manifest)
        resolver = LastmodResolver(settings, project_dir, report, now, source_dirs, manifest,
                                   checkouts=build.checkouts)
        if build.progress is not None:
            pages = _counted(pages, build.progress)
        listing = None
        if settings.html_sitemap or settings.llms_txt:
            from sitemapkit.output.html_sitemap import Listing, write_page

            listing = Listing(settings.base_url)
        if settings.html_sitemap:  # an earlier build's page is not read (nor dated, nor counted) as a page
            own = (PAGE_NAME, settings.base_url + PAGE_NAME)
            pages = (page for page in pages if page.url not in own)
        documents = _documents(site_dir, settings, source_dirs, report) if settings.include else ()
        listed = list_entries(pages, settings, report, resolver, site_dir=site_dir, documents=documents,
                              listing=listing, deployment=build.deployment, transform=transform,
                              by_folder=build.by_folder, written_only=True)
        entries = listed.entries
        if listing is not None and settings.html_sitemap:
            entries = listing.with_page(entries, PAGE_NAME, report.lastmod_sources if settings.lastmod else None)
        # entries -> the sitemap files (sparing the files written beside them below)
        written = write_sitemap_files(entries, site_dir, settings, report, keep_urlset=build.keep_urlset,
                                      chosen_out=listed.chosen_out, spare=beside_names(settings), sink=sink,
                                      key=key, left_out=listed.counted.left_out)
        resolver.finish()
        if warn_others is not None:
            warn_others(report, written.files)
        # every page seen -> the new manifest, and what changed since the last one
        changes = manifest.finish()
        # the pages for people beside the sitemaps: the change feed, sitemap.html
        beside = []
        if settings.changes_feed and written.urls:
            from sitemapkit.output.feed import write_changes_feed

            beside.append(write_changes_feed(manifest, site_dir, settings, sink)[0])
        if listing is not None and settings.html_sitemap and written.urls:
            listing.warn_left(report)
            sections = listing.sections(build.outline)
            beside.append(write_page(site_dir, sections, build.render_html, settings.base_url, sink, report))
        mirrors: list[Path] = []
        removed: list[Path] = []
        owned = None
        if listing is not None and settings.llms_txt and written.urls:  # llms.txt and the pages' mirrors
            from sitemapkit.output.llms import write_llms

            owned = Owned(site_dir, Report(), settings.base_url, own_names(settings), key, dry_run=sink.dry_run)
            made = manifest.kept_facts()  # what each mirror was made from
            llms = write_llms(site_dir, listing.links, build.outline, settings, sink, report, owned, listing.languages,
                              made)
            if made is not None:
                made.save()
            beside.extend(llms.files)
            mirrors, removed = llms.mirrors, llms.removed
        if beside:
            record_written(site_dir, beside + mirrors, listed.chosen_out, settings.base_url, own_names(settings), key,
                           settings.extra_sitemaps if settings.robots_txt else (),
                           elsewhere_keys(settings.base_url, (extra.loc for extra in settings.extra_urls)),
                           dry_run=sink.dry_run, removed=removed, owned=owned)
            report.files.extend(beside)
    finally:
        manifest.close()

    if settings.indexnow and listed.counted.selector_only:  # URLs whose canonical is another version's
        report.info(str(site_dir), "indexnow", "canonical-other-version",
                    f"IndexNow not called: {plural(listed.counted.selector_only, 'page')} of this version have their "
                    "canonical URL in another version; its sitemap is for the version selector only")
    elif settings.indexnow:
        # Loaded only by a build that submits: IndexNow posts with urllib.request, which
        # loads http.client and ssl (about 10 ms).
        from sitemapkit.output.indexnow import submit_changes

        submit_changes(changes, site_dir, settings, report, sink)
    if settings.robots_txt:
        # The sitemap, and beside it each news sitemap and the change feed; an empty site
        # has none, so robots.txt must not name one (nor files an earlier build left). The
        # sitemaps of other tools (extra_sitemaps) are named whatever this build wrote; one
        # an earlier build named and the option no longer has is taken out.
        entry_points = [path.name for path in _entry_points([*written.files, *beside], settings, build.keep_urlset)]
        named = [settings.base_url + name for name in entry_points]
        # (and the sections' own index, named while the theme kept sitemap.xml a urlset)
        ours = {settings.filename, sections_index(settings.filename), *(p.name for p in written.removed)}
        gone = [settings.base_url + name for name in ours]
        named += settings.extra_sitemaps
        gone += [url for url in named_before if url not in settings.extra_sitemaps]
        try:
            # (and our lines an earlier build wrote for another base URL: a staging host)
            sync_robots_txt(site_dir, named, gone, sink, ours.union(entry_points), listed_before)
        except RobotsTooLarge as error:
            report.warn(str(error.path), "robots_txt", "robots-too-large",
                        f"robots.txt is {error.size:,} bytes, over the {ROBOTS_READ_BYTES:,} "
                        "Google reads: left as it is, without the Sitemap: lines of this "
                        "build; shorten it, or edit its Sitemap: lines yourself")
        else:
            if named:
                report.files.append(site_dir / "robots.txt")


def _documents(site_dir: Path, settings: Settings, source_dirs: Iterable[Path | str],
               report: Report) -> Iterator[Page]:
    """The files ``include`` names, never one of the files a build writes."""
    from sitemapkit.site.scan import documents_in

    stem = stem_of(settings.filename)

    def ours(name: str) -> bool:
        return name.startswith(stem) or name in ("robots.txt", PAGE_NAME)

    def unmatched(patterns: list[str]) -> None:
        for pattern in patterns:
            report.warn("settings", "include", "include-unmatched",
                        f"pattern '{pattern}' matched no file that is not HTML; check its spelling (gitignore-style)")

    return documents_in(site_dir, settings.include, source_dirs, ours, unmatched)


def _entry_points(files: list[Path], settings: Settings, keep_urlset: bool) -> list[Path]:
    """The files robots.txt names: the sitemap (or its index), the news sitemaps and the
    change feed, never the index's children or gzip twins."""
    top = index_name(settings, keep_urlset)
    extra = {feed_name(settings.filename)} if settings.changes_feed else set()
    return [path for path in files
            if path.name == top or path.name in extra or is_news_name(path.name, settings.filename)]


def _counted(pages: Iterable[Page], progress: Callable[[int], None]) -> Iterator[Page]:
    count = 0
    for count, page in enumerate(pages, 1):
        yield page
        if count % 100 == 0:
            progress(count)
    progress(count)
