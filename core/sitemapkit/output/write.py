"""The streaming writer: entries in, sitemap files on disk.

Layers: ``render`` turns an entry into text; a ``series.Series`` counts URLs and encoded
bytes exactly and starts a new file before one would pass ``max_urls`` or ``max_bytes``; the
build's ``Sink`` puts the bytes on disk under a temporary name (and a gzip twin), or in a dry
run only counts them. This module decides which files a build writes, checks their names
against the record of our own files (``owned``), puts them in place in an order a killed
build cannot break, and removes our stale files.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection, Iterable, Mapping
from pathlib import Path
from typing import NamedTuple

from sitemapkit.model import Moment
from sitemapkit.output.names import (
    OwnNames,
    child_name,
    fixed_names,
    index_name,
    numbered_name,
    own_names,
    section_file,
    section_names,
    stem_of,
)
from sitemapkit.output.render import head, index_item, tail
from sitemapkit.output.series import AnyEntry, Series, fill
from sitemapkit.patterns import lazy_pattern
from sitemapkit.protocol import MAX_NEWS, OTHER_VERSION
from sitemapkit.report import Report, SitemapError
from sitemapkit.settings import PROTOCOL_MAX_BYTES, PROTOCOL_MAX_URLS, Settings
from sitemapkit.site.files import AnyTarget, Sink, faults_named
from sitemapkit.site.owned import RECORD, Owned, RecordKey, elsewhere_keys, record_key
from sitemapkit.urls import site_path


class Written(NamedTuple):
    """What the writer did in its output folder."""

    files: tuple[Path, ...]
    """The files written (or, in a dry run, that would be), the entry point first."""
    removed: tuple[Path, ...]
    """Our stale files removed (or that would be): files of an earlier build this one did
    not write again (not counting the temporary files of a killed build)."""
    urls: int = 0
    """The URLs the sitemap lists (0: nothing was written)."""


def write_sitemaps(
    entries: Iterable[AnyEntry],
    out_dir: Path | str,
    settings: Settings,
    *,
    report: Report | None = None,
    keep_urlset: bool = False,
    chosen_out: Collection[str] = (),
    spare: Iterable[str] = (),
    sink: Sink | None = None,
    key: RecordKey | None = None,
    left_out: Mapping[str, int] | None = None,
) -> Report:
    """``write_sitemap_files`` for a caller that wants the report: the files written, the
    URLs counted in each, the warnings."""
    report = report if report is not None else Report()
    write_sitemap_files(entries, out_dir, settings, report, keep_urlset=keep_urlset, chosen_out=chosen_out,
                        spare=spare, sink=sink, key=key, left_out=left_out)
    return report


def write_sitemap_files(
    entries: Iterable[AnyEntry],
    out_dir: Path | str,
    settings: Settings,
    report: Report,
    *,
    keep_urlset: bool = False,
    chosen_out: Collection[str] = (),
    spare: Iterable[str] = (),
    sink: Sink | None = None,
    key: RecordKey | None = None,
    left_out: Mapping[str, int] | None = None,
) -> Written:
    """Write ``settings.filename`` (a urlset of the pages, or an index over
    ``{stem}-N-HASH.xml`` when they need more than one file), the news sitemaps, gzip twins
    and text sitemaps into ``out_dir``, and remove our stale files; return what was
    written and removed. ``report`` gets the counts and warnings.

    Streams: memory stays flat however many entries come. Entries are taken as
    ``build_entries`` makes them: locs percent-encoded, every value valid; the writer only
    escapes, counts and splits. A ``(loc, lastmod)`` pair stands for ``Entry(loc, lastmod)``
    (the same checks are the caller's) and writes the same bytes.

    Only sitemapkit's own files are written or removed (see ``owned``): an output name held
    by another file is an ``OutputError`` before anything is put in place. Every file is
    finished under a temporary name first and the entry-point file is renamed last; the
    index's children are named by their content, so a build killed at any step leaves an
    index whose children are all there and all of one build.

    With no URL to list, nothing is written (an empty ``<urlset>`` is invalid): the files an
    earlier build left are removed and a ``no-pages`` warning says so.

    ``spare``: the names of the files the caller writes next beside the sitemaps (``generate``:
    the change feed, ``sitemap.html``, see ``names.beside_names``), checked like the others
    before anything is written and, when sitemaps were written, not removed as stale.
    ``chosen_out``: the keys (``owned.url_key``) of the pages the site's own settings leave
    out, kept in the record (``owned.chosen_out``) so that ``validate --site-dir`` does not
    ask for them; read once every entry is consumed. ``left_out``: the pages the listing
    left out, by reason (``entries.Listed.left_out``), read once every entry is consumed too:
    what a ``no-pages`` warning gives as its cause, and whether most pages say noindex
    (``noindex-most``). ``sink``: where the files go (by default
    the disk; a dry run's only counts them). ``key``: what signs the record (``owned.RecordKey``);
    by default the one beside ``settings.state_file``, relative to the current folder.

    With ``settings.sections``, each section's pages go to a sitemap of its own
    (``sitemap-blog.xml``, the rest to ``sitemap-other.xml``) under an index at ``filename``;
    with ``keep_urlset`` (a theme reads ``filename`` as a urlset) ``filename`` lists every page
    as without sections and the index is ``sitemap-index.xml`` (``names.index_name``). An
    index also lists ``settings.extra_sitemaps``.
    """
    if not settings.base_url:
        raise SitemapError("sitemapkit needs the site's absolute URL to write sitemaps: set base_url")
    sink = sink if sink is not None else Sink()
    base_url = settings.base_url  # normalised when the settings were made (values.base_url)
    out = Path(out_dir)
    sink.make_dir(out)
    names = own_names(settings)
    if key is None:
        key = record_key(Path(settings.state_file), create=not sink.dry_run)
    owned = Owned(out, report, base_url, names, key, dry_run=sink.dry_run)
    stem = stem_of(settings.filename)
    twin = settings.gzip
    spare = list(spare)
    owned.check(dict.fromkeys([*fixed_names(settings), *spare]))

    def numbered(first: str, suffix: str) -> Callable[[int, str], str]:
        return lambda i, _: numbered_name(first, suffix, i)

    urlsets = Series(out, "urlset", lambda i, digest: child_name(stem, i, digest),
                     settings.max_urls, settings.max_bytes, settings.stylesheet, twin, sink, hashed=True)
    news = Series(out, "urlset", numbered(f"{stem}-news", ".xml"),
                  min(MAX_NEWS, settings.max_urls), settings.max_bytes,
                  settings.stylesheet, twin, sink)
    texts = Series(out, None, numbered(stem, ".txt"), settings.max_urls, settings.max_bytes,
                   None, twin, sink) if settings.txt else None
    parts = [(prefix, name, Series(out, "urlset", _part_name(stem, name), settings.max_urls, settings.max_bytes,
                                   settings.stylesheet, twin, sink, hashed=True))
             for prefix, name in section_names(settings)] if settings.sections else []
    whole = urlsets if not parts or keep_urlset else None
    """The series behind ``filename`` when it lists every page (a urlset, or its index)."""
    listing = [series for series in (whole, *(series for _, _, series in parts)) if series is not None]
    every = [*listing, *(series for series in (news, texts) if series is not None)]
    written: list[Path] = []
    tops: list[tuple[AnyTarget, int | None]] = []
    """The files that name the others (the urlset or index at ``filename``, the sections'
    index), each with the number of sitemaps it lists (None: a urlset); committed last."""
    try:
        urls = fill(entries, whole, _router(parts, base_url) if parts else None, news, texts, report)
        if all(series.empty for series in listing):  # news and text files hold only URLs the sitemap has
            for series in every:
                series.abort()
        else:
            if whole is not None:
                single = not whole.written
                whole.finish(settings.filename if single else None, force=True)
                if single:
                    tops.append((whole.targets.pop(), None))
                    whole.written.clear()
                else:
                    extras = () if parts else settings.extra_sitemaps
                    tops.append((write_index(out / settings.filename, _children(whole.written, base_url, extras),
                                             settings, sink), len(whole.written) + len(extras)))
            if parts:
                children = []
                for _, name, series in parts:
                    if not series.empty:
                        series.finish(section_file(stem, name) if not series.written else None)
                        children += series.written
                top = write_index(out / index_name(settings, keep_urlset),
                                  _children(children, base_url, settings.extra_sitemaps), settings, sink)
                tops.append((top, len(children) + len(settings.extra_sitemaps)))
            news.finish()
            if texts is not None:
                texts.finish(force=True)
            closed = [item for series in every for item in series.closed]
            closed += [item for top, _ in tops for item in top.close()]
            owned.check(path.name for path, _ in closed)
            owned.expect(closed)
            for series in every:  # the index's children first, then what stands beside it
                written.extend(series.commit())
            for top, listed in tops:  # last: they name the files committed above
                entry_files = top.commit()
                written[:0] = entry_files
                if listed is not None:  # an index counts the sitemaps it lists
                    report.url_counts.update(dict.fromkeys(entry_files, listed))
            for series in every:
                report.url_counts.update(series.counts)
    except BaseException:
        for series in every:
            series.abort()
        for top, _ in tops:
            top.abort()
        raise

    keep = {p.name for p in written}
    if written:  # the caller writes them next
        keep.update(spare)
        keep.update(name for name in owned.files if names.written_later(name))
    stale = sink.remove(owned.stale(keep) + _leftovers(out, names))
    owned.settle(written, stale, chosen_out, settings.extra_sitemaps if settings.robots_txt else (),
                 elsewhere_keys(base_url, (extra.loc for extra in settings.extra_urls)))
    gone = [path for path in stale if not path.name.endswith(".tmp")]
    left_out = left_out if left_out is not None else {}
    noindex = left_out.get("noindex", 0)
    if not written:
        _no_pages(report, out / settings.filename, len(gone), left_out, noindex > urls)
    if noindex > urls:  # with nothing written too: the likely cause, said once
        report.warn(str(out), "pages", "noindex-most",
                    f"{noindex} of {noindex + urls} pages say noindex and are left out: {NOINDEX_CAUSE}")
    report.files.extend(written)
    return Written(tuple(written), tuple(gone), urls)


NOINDEX_CAUSE = (
    "a theme or a development setting usually does this (Hugo themes such as Ananke mark every page "
    "noindex unless built for production: HUGO_ENV=production hugo, or hugo --environment production); "
    "build for production, or set include_noindex to list them anyway"
)
"""Why most pages of a built site say noindex, when they do."""


def _no_pages(report: Report, path: Path, removed: int, left_out: Mapping[str, int], noindex_most: bool) -> None:
    """The ``no-pages`` warning; ``left_out``: the pages left out, by reason; ``noindex_most``:
    most pages say noindex, which the ``noindex-most`` warning after it explains."""
    reasons = ", ".join(f"{count} {reason}" for reason, count in sorted(left_out.items()))
    gone = f"; removed the {removed} sitemap file{'s' * (removed != 1)} an earlier build left" if removed else ""
    if OTHER_VERSION in left_out:  # a version whose pages are another's: as it should be
        report.info(str(path), "pages", "no-pages-other-version",
                    f"no sitemap written: no page to list (left out: {reasons}); this version's pages have their "
                    f"canonical URLs in another version{gone}")
        return
    cause = "; most pages say noindex (see the noindex-most warning)" if noindex_most else (
        "; check exclude, include_noindex and base_url")
    report.warn(
        str(path), "pages", "no-pages",
        f"no page to list{f' (left out: {reasons})' if reasons else ''}, so no sitemap was "
        f"written: a sitemap must list at least one URL{gone}{cause}",
    )


def write_urlsets(entries: Iterable[AnyEntry], out: Path, name: str, settings: Settings, report: Report,
                  sink: Sink | None = None) -> Series:
    """``entries`` as urlsets in ``out``, under temporary names, for the caller to check,
    record and commit (or abort): ``name`` when one file holds them, else
    ``{stem}-N-HASH.xml``; none when no entry is listed. News articles are not written."""
    stem = stem_of(name)
    sink = sink if sink is not None else Sink()
    series = Series(out, "urlset", lambda i, digest: child_name(stem, i, digest), settings.max_urls,
                    settings.max_bytes, settings.stylesheet, settings.gzip, sink, hashed=True)
    news = Series(out, "urlset", lambda i, _: f"{stem}-news-{i}.xml", MAX_NEWS, settings.max_bytes, None, False, sink)
    try:
        fill(entries, series, None, news, None, report)
        news.abort()
        if not series.empty:
            series.finish(name if not series.written else None)
    except BaseException:
        series.abort()
        news.abort()
        raise
    return series


def _part_name(stem: str, name: str) -> Callable[[int, str], str]:
    return lambda number, digest: section_file(stem, name, number, digest)


def _router(parts: list[tuple[str, str, Series]], base_url: str) -> Callable[[str], Series]:
    """loc -> the series of the first section whose prefix its path starts with (the last,
    "other", has the empty prefix)."""
    def route(loc: str) -> Series:
        path = site_path(loc, base_url)
        return next(series for prefix, _, series in parts if path.startswith(prefix))

    return route


def _children(written: list[tuple[Path, Moment | None]], base_url: str,
              extras: tuple[str, ...] = ()) -> list[tuple[str, Moment | None]]:
    """An index's entries: each file written (its URL and newest lastmod), then ``extras``,
    sitemaps other tools write, without a lastmod (sitemapkit does not know it)."""
    return [(base_url + path.name, lastmod) for path, lastmod in written] + [(url, None) for url in extras]


def write_index(path: Path, children: list[tuple[str, Moment | None]], settings: Settings,
                sink: Sink | None = None) -> AnyTarget:
    """The index over ``children`` (each sitemap's URL and newest lastmod), written under a
    temporary name (not yet committed)."""
    if len(children) > PROTOCOL_MAX_URLS:
        raise SitemapError(
            f"{path.name} would list {len(children)} sitemaps; an index may list at most "
            f"{PROTOCOL_MAX_URLS}: raise max_urls"
        )
    text = "".join(
        [
            head("sitemapindex", 0, settings.stylesheet),
            *(index_item(url, lastmod) for url, lastmod in children),
            tail("sitemapindex"),
        ]
    ).encode()
    if len(text) > PROTOCOL_MAX_BYTES:
        raise SitemapError(f"{path.name} would be {len(text)} bytes, over the protocol's 50 MiB")
    target = (sink if sink is not None else Sink()).open_target(path, gzip_twin=settings.gzip)
    try:
        target.write(text)
    except BaseException:
        target.abort()
        raise
    return target


def _leftovers(out: Path, names: OwnNames) -> list[Path]:
    """Temporary files of a build of ours that was killed before it could clean up:
    ``files.temporary_name()`` of a name of the sitemap family, or of the record. (Builds
    into one folder take turns (``lock``), so none of these belongs to a build at work.)"""
    if not out.is_dir():  # a dry run into a folder that does not exist yet
        return []
    with faults_named(out, "list"):  # (names, not Paths: a site's output folder may hold thousands)
        return [out / name for name in os.listdir(out) if _leftover(name, names) and (out / name).is_file()]


def _leftover(name: str, names: OwnNames) -> bool:
    found = _temporary().fullmatch(name) if name.endswith(".tmp") else None
    return found is not None and (found.group(1) == RECORD or names.in_family(found.group(1)))


_temporary = lazy_pattern(r"\.(.+)\.\d+\.[0-9a-f]{8}\.tmp")
"""``files.temporary_name()``: ``.{name}.{pid}.{8 hex digits}.tmp``."""
