"""The whole post-build step in one call: what every adapter and ``sitemapkit build`` run."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime
from pathlib import Path

from .dates import build_time
from .entries import build_entries
from .feed import write_changes_feed
from .files import dry_run as counted_only
from .lastmod import LastmodResolver
from .model import Page
from .report import Problem, Report, SitemapError
from .robots import drop_sitemap_line, update_robots_txt
from .settings import Settings
from .urls import normalise_base_url
from .write import write_sitemaps


def generate(
    pages: Iterable[Page],
    site_dir: Path | str,
    settings: Settings,
    *,
    project_dir: Path | str | None = None,
    source_dirs: Iterable[Path | str] = (),
    on_warning: Callable[[Problem], None] | None = None,
    progress: Callable[[int], None] | None = None,
    dry_run: bool = False,
) -> Report:
    """Build entries from ``pages`` and write every file into ``site_dir``.

    ``project_dir`` anchors relative paths such as ``state_file`` (the folder holding the
    generator's configuration; the current folder by default). ``source_dirs`` are the
    folders the pages' sources come from (MkDocs' docs_dir, Sphinx's source folder,
    Pelican's PATH): git reads only their history. ``progress`` is called with
    the number of pages read so far. ``dry_run`` writes and removes nothing: every file is
    rendered to a sink that only counts its bytes (``report.files`` and ``report.sizes``
    say what would be written) and IndexNow prints what it would send. Under
    ``settings.strict`` any warning raises ``SitemapError`` once all files are written.
    """
    if not settings.base_url:
        raise SitemapError("sitemapkit needs the site's absolute URL: set base_url")
    run = dict(project_dir=project_dir, source_dirs=source_dirs, on_warning=on_warning, progress=progress)
    if dry_run:
        with counted_only() as tally:
            report = _generate(pages, site_dir, settings, **run, dry_run=True)
        report.sizes = dict(tally.sizes)  # every file it would write, the manifest included
        return report
    report = _generate(pages, site_dir, settings, **run, dry_run=False)
    report.sizes = {path: path.stat().st_size for path in report.files if path.is_file()}
    return report


def _generate(
    pages: Iterable[Page],
    site_dir: Path | str,
    settings: Settings,
    *,
    project_dir: Path | str | None,
    source_dirs: Iterable[Path | str],
    on_warning: Callable[[Problem], None] | None,
    progress: Callable[[int], None] | None,
    dry_run: bool,
) -> Report:
    settings = settings.replace(base_url=normalise_base_url(settings.base_url))
    site_dir = Path(site_dir)
    project_dir = Path(project_dir) if project_dir is not None else Path.cwd()
    report = Report(on_warning=on_warning)
    resolver = LastmodResolver(settings, project_dir, report, build_time(), source_dirs)

    if progress is not None:
        pages = _counted(pages, progress)
    entries = build_entries(pages, settings, report=report, lastmod=resolver, site_dir=site_dir)

    def feed() -> tuple[Path, datetime]:
        return write_changes_feed(resolver, site_dir, settings)

    with _cycle_collector_paused():
        write_sitemaps(entries, site_dir, settings, report=report,
                       changes_feed=feed if settings.changes_feed else None)
        changes = resolver.finish()

    if settings.indexnow:
        from .indexnow import submit_changes

        submit_changes(changes, site_dir, settings, report, dry_run=dry_run)
    if settings.robots_txt:
        sitemap_url = settings.base_url + settings.filename
        if site_dir / settings.filename in report.files:
            report.files.append(update_robots_txt(site_dir, sitemap_url))
        else:  # an empty site: no sitemap, so robots.txt must not name one
            drop_sitemap_line(site_dir, sitemap_url)

    if settings.strict and report.warnings:
        raise SitemapError(
            f"{len(report.warnings)} sitemap warnings and strict is on; the first: {report.warnings[0]}"
        )
    return report


def _counted(pages: Iterable[Page], progress: Callable[[int], None]) -> Iterator[Page]:
    count = 0
    for count, page in enumerate(pages, 1):
        yield page
        if count % 100 == 0:
            progress(count)
    progress(count)


@contextlib.contextmanager
def _cycle_collector_paused() -> Iterator[None]:
    """Streaming pages makes many short-lived objects and no reference cycles. Inside a
    generator's process, whose heap holds the whole site, those allocations would set off
    full cycle collections over that heap on sitemapkit's account; they wait until after."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
