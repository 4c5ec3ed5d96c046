"""The streaming writer: entries in, sitemap files on disk.

Layers: ``render`` turns an entry into text; a ``_Series`` counts URLs and encoded bytes
exactly and starts a new file before one would pass ``max_urls`` or ``max_bytes``; a
``files.open_target`` puts the bytes on disk under a temporary name (and a gzip twin), or in
a dry run only counts them. Each
file's body is streamed to an anonymous temporary file first, because the root element
may only declare the namespaces the file turned out to use.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable
from datetime import date, datetime
from pathlib import Path
from typing import BinaryIO

from sitemapkit.dates import format_moment, newest
from sitemapkit.model import Entry, Moment
from sitemapkit.output.feed import feed_name
from sitemapkit.output.html_sitemap import PAGE_NAME
from sitemapkit.output.names import (
    DIGEST,
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
from sitemapkit.output.render import NEWS, escape, extensions, head, index_item, news_url, tail
from sitemapkit.output.render import decimal as _decimal
from sitemapkit.protocol import MAX_NEWS, OTHER_VERSION
from sitemapkit.report import Report, SitemapError
from sitemapkit.settings import PROTOCOL_MAX_BYTES, PROTOCOL_MAX_URLS, Settings
from sitemapkit.site.files import AnyTarget, faults_named, make_dir, open_target, remove, scratch
from sitemapkit.site.owned import RECORD, Owned, elsewhere_keys
from sitemapkit.urls import normalise_base_url, site_path

_FLUSH_LINES = 2048
_CACHE_SIZE = 4096

AnyEntry = Entry | tuple[str, Moment | None]
"""What ``write_sitemaps`` takes: an ``Entry``, or for bulk callers with only a loc and a
lastmod, the pair ``(loc, lastmod)``, which costs far less to make."""


def write_sitemaps(
    entries: Iterable[AnyEntry],
    out_dir: Path | str,
    settings: Settings,
    *,
    report: Report | None = None,
    removed: list[Path] | None = None,
    keep_urlset: bool = False,
) -> Report:
    """Write ``settings.filename`` (a urlset of the pages, or an index over
    ``{stem}-N-HASH.xml`` when they need more than one file), the news sitemaps, gzip twins
    and text sitemaps into ``out_dir``, and remove our stale files (appended to ``removed``).

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

    With ``settings.changes_feed``, the feed's name is checked like the others and, when
    sitemaps were written, kept: ``generate`` writes the feed next, from the manifest (see
    ``feed.py``). Like the news sitemaps it stands beside the sitemap, reached through its own
    ``Sitemap:`` line, and never turns ``sitemap.xml`` into an index. With
    ``settings.html_sitemap``, ``sitemap.html`` is checked and kept the same way.

    With ``settings.sections``, each section's pages go to a sitemap of its own
    (``sitemap-blog.xml``, the rest to ``sitemap-other.xml``) under an index at ``filename``;
    with ``keep_urlset`` (a theme reads ``filename`` as a urlset) ``filename`` lists every page
    as without sections and the index is ``sitemap-index.xml`` (``names.index_name``). An
    index also lists ``settings.extra_sitemaps``.
    """
    report = report if report is not None else Report()
    if not settings.base_url:
        raise SitemapError("sitemapkit needs the site's absolute URL to write sitemaps: set base_url")
    base_url = normalise_base_url(settings.base_url)
    out = Path(out_dir)
    make_dir(out)
    names = own_names(settings)
    owned = Owned(out, report, base_url, names)
    stem = stem_of(settings.filename)
    twin = settings.gzip
    feed = feed_name(settings.filename) if settings.changes_feed else None
    page = PAGE_NAME if settings.html_sitemap else None
    owned.check(fixed_names(settings) + ([page] if page else []))

    def numbered(first: str, suffix: str) -> Callable[[int, str], str]:
        return lambda i, _: numbered_name(first, suffix, i)

    urlsets = _Series(out, "urlset", lambda i, digest: child_name(stem, i, digest),
                      settings.max_urls, settings.max_bytes, settings.stylesheet, twin, hashed=True)
    news = _Series(out, "urlset", numbered(f"{stem}-news", ".xml"),
                   min(MAX_NEWS, settings.max_urls), settings.max_bytes,
                   settings.stylesheet, twin)
    texts = _Series(out, None, numbered(stem, ".txt"), settings.max_urls, settings.max_bytes,
                    None, twin) if settings.txt else None
    parts = [(prefix, name, _Series(out, "urlset", _part_name(stem, name), settings.max_urls, settings.max_bytes,
                                    settings.stylesheet, twin, hashed=True))
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
        _fill(entries, whole, _router(parts, base_url) if parts else None, news, texts, report)
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
                                             settings), len(whole.written) + len(extras)))
            if parts:
                children = []
                for _, name, series in parts:
                    if not series.empty:
                        series.finish(section_file(stem, name) if not series.written else None)
                        children += series.written
                top = write_index(out / index_name(settings, keep_urlset),
                                  _children(children, base_url, settings.extra_sitemaps), settings)
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
    if written:  # generate writes them next
        keep.update(name for name in (feed, page) if name is not None)
    stale = remove(owned.stale(keep) + _leftovers(out, names))
    owned.settle(written, stale, report.chosen_out, settings.extra_sitemaps if settings.robots_txt else (),
                 elsewhere_keys(base_url, (extra.loc for extra in settings.extra_urls)))
    gone = [path for path in stale if not path.name.endswith(".tmp")]
    if removed is not None:
        removed.extend(gone)
    if not written:
        _no_pages(report, out / settings.filename, len(gone))
    elif report.left_out.get("noindex", 0) > report.urls:
        noindex = report.left_out["noindex"]
        report.warn(str(out), "pages", "noindex-most",
                    f"{noindex} of {noindex + report.urls} pages say noindex and are left out: {NOINDEX_CAUSE}")
    report.files.extend(written)
    return report


NOINDEX_CAUSE = (
    "a theme or a development setting usually does this (Hugo themes such as Ananke mark every page "
    "noindex unless built for production: HUGO_ENV=production hugo, or hugo --environment production); "
    "build for production, or set include_noindex to list them anyway"
)
"""Why most pages of a built site say noindex, when they do."""


def _no_pages(report: Report, path: Path, removed: int) -> None:
    reasons = ", ".join(f"{count} {reason}" for reason, count in sorted(report.left_out.items()))
    gone = f"; removed the {removed} sitemap file{'s' * (removed != 1)} an earlier build left" if removed else ""
    if OTHER_VERSION in report.left_out:  # a version whose pages are another's: as it should be
        report.info(str(path), "pages", "no-pages-other-version",
                    f"no sitemap written: no page to list (left out: {reasons}); this version's pages have their "
                    f"canonical URLs in another version{gone}")
        return
    cause = f"; every page says noindex: {NOINDEX_CAUSE}" if set(report.left_out) == {"noindex"} else (
        "; check exclude, include_noindex and base_url")
    report.warn(
        str(path), "pages", "no-pages",
        f"no page to list{f' (left out: {reasons})' if reasons else ''}, so no sitemap was "
        f"written: a sitemap must list at least one URL{gone}{cause}",
    )


def _fill(
    entries: Iterable[AnyEntry], urlsets: _Series | None, route: Callable[[str], _Series] | None,
    news: _Series, texts: _Series | None, report: Report,
) -> None:
    """The hot loop: one ``<url>`` per entry, rendered inline (no per-entry call layers for
    the common loc + lastmod case), dates formatted once per distinct value. An entry is an
    ``Entry`` or the bulk form, a ``(loc, lastmod)`` pair. With ``sections``, ``route`` gives
    each URL's section; ``urlsets`` (None: no file lists every page) takes every URL."""
    moments: dict[object, str] = {}
    add_url, add_news = urlsets.add if urlsets is not None else None, news.add
    add_text = texts.add if texts is not None else None
    urls = images = videos = 0
    for entry in entries:
        if type(entry) is tuple:
            source, lastmod = entry
            more, used, article = "", 0, None
        else:
            source, lastmod, article = entry.loc, entry.lastmod, entry.news
            more, used = "", 0
            if entry.changefreq is not None or entry.priority is not None or entry.images \
                    or entry.videos or entry.alternates:
                more, used = _more(entry)
        loc = source
        # A loc is percent-encoded (urls.encode_url): ASCII, no control characters, so of
        # what XML cares about only the five specials can occur; memchr checks are far
        # cheaper than a regex here, and anything unusual still gets the full escape().
        if "&" in loc or "'" in loc or "<" in loc or ">" in loc or '"' in loc or not loc.isascii():
            loc = escape(loc)
        if lastmod is None:
            when = ""
        else:
            # Equal instants in different offsets are equal keys: keep the offset in the key.
            key = lastmod if type(lastmod) is date else (lastmod, lastmod.tzinfo)
            when = moments.get(key)
            if when is None:
                if len(moments) >= _CACHE_SIZE:
                    moments.clear()
                when = moments[key] = f"<lastmod>{format_moment(lastmod)}</lastmod>"
        line = f"<url><loc>{loc}</loc>{when}{more}</url>\n"
        if (route is not None and not route(source).add(line, used, lastmod)) or (
                add_url is not None and not add_url(line, used, lastmod)):
            _too_big(report, source, "sitemap")
            continue
        urls += 1
        if used:
            images += len(entry.images)
            videos += len(entry.videos)
        if article is not None:
            if add_news(news_url(loc, article), NEWS, newest((lastmod, article.publication_date))):
                report.news += 1
            else:
                _too_big(report, source, "news sitemap")
        if add_text is not None and not add_text(source + "\n"):
            _too_big(report, source, "text sitemap")
    report.urls += urls
    report.images += images
    report.videos += videos


def _more(entry: Entry) -> tuple[str, int]:
    """What follows ``<lastmod>`` in an entry's ``<url>``, and the namespaces it uses."""
    more = ""
    if entry.changefreq is not None:
        more = f"<changefreq>{entry.changefreq}</changefreq>"
    if entry.priority is not None:
        more += f"<priority>{_decimal(entry.priority)}</priority>"
    used = 0
    if entry.images or entry.videos or entry.alternates:
        extra, used = extensions(entry)
        more += extra
    return more, used


def _too_big(report: Report, loc: str, where: str) -> None:
    report.warn(loc, "url", "max-bytes", f"this URL alone is larger than max_bytes allows in a "
                f"{where}; left out of it")


class _Series:
    """Files of one kind filled in turn (``{stem}-1.xml``, ``-2`` ...; news; text).

    Counts URLs and encoded bytes exactly: a file may be exactly ``max_bytes`` long. The room
    a file has depends on its head, which depends on the namespaces its URLs use, so the
    check uses the head the file would need with the new URL in it. ``root`` None means a
    text sitemap: no head, no tail.
    """

    def __init__(
        self,
        out: Path,
        root: str | None,
        name: Callable[[int, str], str],
        max_urls: int,
        max_bytes: int,
        stylesheet: str | None,
        gzip_twin: bool,
        *,
        hashed: bool = False,
    ) -> None:
        self.out, self.root, self.name, self.gzip_twin = out, root, name, gzip_twin
        self.hashed = hashed
        """Name each file by its content (``name`` gets a digest of its bytes)."""
        self._hash = hashlib.sha256()
        self.max_urls = max_urls
        self.heads = [head(root, ns, stylesheet) if root else "" for ns in range(16)]
        self.tail = tail(root) if root else ""
        end = len(self.tail.encode())
        self.room = [max_bytes - len(text.encode()) - end for text in self.heads]
        self.written: list[tuple[Path, Moment | None]] = []
        """Each finished file with the newest lastmod of its URLs (for the index)."""
        self.targets: list[AnyTarget] = []
        """Finished files under their temporary names, for ``commit`` to put in place."""
        self.closed: list[tuple[Path, Path | None]] = []
        """Each final path (gzip twins included) with the temporary file holding it (None
        in a dry run)."""
        self.counts: dict[Path, int] = {}
        """URLs in each file (gzip twins included)."""
        self._body: BinaryIO | None = None
        self._pending: list[str] = []
        self._reset()

    @property
    def empty(self) -> bool:
        return not self.written and not self._urls

    def _reset(self) -> None:
        self._urls = self._size = self._ns = 0
        self._room = -1  # the first URL of a file takes the slow path, which opens the file
        self._newest_date: date | None = None
        self._newest_time: datetime | None = None

    def add(self, line: str, ns: int = 0, lastmod: Moment | None = None) -> bool:
        """Append one line; False (nothing written) when it is too big for any file."""
        size = len(line) if line.isascii() else len(line.encode())
        crowded = ns or self._size + size > self._room or self._urls >= self.max_urls
        if crowded and not self._make_room(size, ns):
            return False
        self._urls += 1
        self._size += size
        if lastmod is not None:
            if type(lastmod) is date:
                if self._newest_date is None or lastmod > self._newest_date:
                    self._newest_date = lastmod
            elif self._newest_time is None or lastmod > self._newest_time:
                self._newest_time = lastmod  # type: ignore[assignment]
        pending = self._pending
        pending.append(line)
        if len(pending) >= _FLUSH_LINES:
            self._flush()
        return True

    def _make_room(self, size: int, ns: int) -> bool:
        """See that the next line (``size`` bytes, using namespaces ``ns``) goes into a file
        with room for it, this one or the next; False when no file could hold it."""
        wanted = self._ns | ns
        if self._urls and self._urls < self.max_urls and self._size + size <= self.room[wanted]:
            self._ns, self._room = wanted, self.room[wanted]
            return True
        if size > self.room[ns]:
            return False
        if self._urls:
            self._close(None)
        if self._body is None:
            self._body = scratch(self.out)
        self._ns, self._room = ns, self.room[ns]
        return True

    def finish(self, name: str | None = None, *, force: bool = False) -> None:
        """Close the file being filled (named ``name``, or by its number); ``force`` writes
        a file even when the series is empty."""
        if self._urls or force:
            self._close(name)

    def commit(self) -> list[Path]:
        """Rename every finished file into place; the paths, gzip twins included."""
        done = []
        for target in self.targets:
            done.extend(target.commit())
        self.targets = []
        return done

    def abort(self) -> None:
        self._pending = []
        if self._body is not None:
            self._body.close()
            self._body = None
        for target in self.targets:
            target.abort()
        self.targets = []

    def _flush(self) -> None:
        if self._pending:
            assert self._body is not None
            data = "".join(self._pending).encode()
            if self.hashed:
                self._hash.update(data)
            with faults_named(self.out / "(a temporary file)"):
                self._body.write(data)
            self._pending = []

    def _close(self, name: str | None) -> None:
        head, tail = self.heads[self._ns].encode(), self.tail.encode()
        if name is None:
            digest = ""
            if self.hashed:
                self._flush()
                digest = hashlib.sha256(head + self._hash.digest() + tail).hexdigest()[:DIGEST]
            name = self.name(len(self.written) + 1, digest)
        self._hash = hashlib.sha256()
        target = open_target(self.out / name, gzip_twin=self.gzip_twin)
        try:
            target.write(head)
            if self._body is not None:
                self._flush()
                with faults_named(self.out / "(a temporary file)"):
                    self._body.flush()
                target.copy_from(self._body)
            target.write(tail)
            self.closed.extend(target.close())
        except BaseException:
            target.abort()
            raise
        self.targets.append(target)
        self.counts.update(dict.fromkeys(target.finals, self._urls))
        self.written.append((target.path, newest((self._newest_date, self._newest_time))))
        if self._body is not None:
            self._body.close()
            self._body = None
        self._reset()


def write_urlsets(entries: Iterable[AnyEntry], out: Path, name: str, settings: Settings, report: Report) -> _Series:
    """``entries`` as urlsets in ``out``, under temporary names, for the caller to check,
    record and commit (or abort): ``name`` when one file holds them, else
    ``{stem}-N-HASH.xml``; none when no entry is listed. News articles are not written."""
    stem = stem_of(name)
    series = _Series(out, "urlset", lambda i, digest: child_name(stem, i, digest), settings.max_urls,
                     settings.max_bytes, settings.stylesheet, settings.gzip, hashed=True)
    news = _Series(out, "urlset", lambda i, _: f"{stem}-news-{i}.xml", MAX_NEWS, settings.max_bytes, None, False)
    try:
        _fill(entries, series, None, news, None, report)
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


def _router(parts: list[tuple[str, str, _Series]], base_url: str) -> Callable[[str], _Series]:
    """loc -> the series of the first section whose prefix its path starts with (the last,
    "other", has the empty prefix)."""
    def route(loc: str) -> _Series:
        path = site_path(loc, base_url)
        return next(series for prefix, _, series in parts if path.startswith(prefix))

    return route


def _children(written: list[tuple[Path, Moment | None]], base_url: str,
              extras: tuple[str, ...] = ()) -> list[tuple[str, Moment | None]]:
    """An index's entries: each file written (its URL and newest lastmod), then ``extras``,
    sitemaps other tools write, without a lastmod (sitemapkit does not know it)."""
    return [(base_url + path.name, lastmod) for path, lastmod in written] + [(url, None) for url in extras]


def write_index(path: Path, children: list[tuple[str, Moment | None]], settings: Settings) -> AnyTarget:
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
    target = open_target(path, gzip_twin=settings.gzip)
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
    with faults_named(out, "list"):
        return [child for child in out.iterdir() if _leftover(child.name, names) and child.is_file()]


def _leftover(name: str, names: OwnNames) -> bool:
    found = _TEMPORARY.fullmatch(name)
    return found is not None and (found.group(1) == RECORD or names.in_family(found.group(1)))


_TEMPORARY = re.compile(r"\.(.+)\.\d+\.[0-9a-f]{8}\.tmp")
"""``files.temporary_name()``: ``.{name}.{pid}.{8 hex digits}.tmp``."""
