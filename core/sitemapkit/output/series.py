"""Sitemap files of one kind filled in turn, and the loop that fills them.

A ``Series`` counts URLs and encoded bytes exactly and starts a new file before one would pass
``max_urls`` or ``max_bytes``; each file's body is streamed to an anonymous temporary file
first, because the root element may only declare the namespaces the file turned out to use,
then put under a temporary name by the build's ``Sink`` (in a dry run, only counted).
``fill`` renders each entry's ``<url>`` and hands it to the series that take it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from datetime import date, datetime
from pathlib import Path
from typing import BinaryIO

from sitemapkit.dates import format_moment, newest
from sitemapkit.model import Entry, Moment, PlainEntry
from sitemapkit.output.names import DIGEST
from sitemapkit.output.render import NEWS, escape, extensions, head, news_url, tail
from sitemapkit.output.render import decimal as _decimal
from sitemapkit.report import Report
from sitemapkit.site.files import BLOCK, AnyTarget, Sink, faults_named

_FLUSH_LINES = 2048

AnyEntry = Entry | PlainEntry | tuple[str, Moment | None]
"""What the writer takes: an ``Entry``, a ``PlainEntry``, or for bulk callers with only a loc
and a lastmod, the pair ``(loc, lastmod)``, which costs far less to make."""


def fill(
    entries: Iterable[AnyEntry], urlsets: Series | None, route: Callable[[str], Series] | None,
    news: Series, texts: Series | None, report: Report,
) -> int:
    """The hot loop: one ``<url>`` per entry, rendered inline (no per-entry call layers for
    the common loc + lastmod case), dates formatted once per distinct value. An entry is an
    ``Entry`` or the bulk form, a ``(loc, lastmod)`` pair. With ``sections``, ``route`` gives
    each URL's section; ``urlsets`` (None: no file lists every page) takes every URL.
    Returns how many URLs it wrote (the caller decides from that); ``report`` is told them,
    and the images, videos and news articles, for the summary."""
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
        when = "" if lastmod is None else f"<lastmod>{format_moment(lastmod)}</lastmod>"
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
    return urls


def _more(entry: Entry | PlainEntry) -> tuple[str, int]:
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


class Series:
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
        sink: Sink,
        *,
        hashed: bool = False,
    ) -> None:
        self.out, self.root, self.name, self.gzip_twin = out, root, name, gzip_twin
        self.sink = sink
        """Where the files go (the disk, or a dry run's count)."""
        self.hashed = hashed
        """Name each file by its content (``name`` gets a digest of its bytes)."""
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
        crowded = ns & ~self._ns or self._size + size > self._room or self._urls >= self.max_urls
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
            self._body = self.sink.scratch(self.out)
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
            with faults_named(self.out / "(a temporary file)"):
                self._body.write(data)
            self._pending = []

    def _body_digest(self) -> bytes:
        """The SHA-256 of the body written so far, read back from its scratch file: taken
        only for a file named by its digest (a part of a split sitemap), never for the one
        named ``filename`` that most builds write alone (issue 36)."""
        body = hashlib.sha256()
        if self._body is not None:
            with faults_named(self.out / "(a temporary file)"):
                self._body.flush()
                self._body.seek(0)
                while block := self._body.read(BLOCK):
                    body.update(block)
        return body.digest()

    def _close(self, name: str | None) -> None:
        head, tail = self.heads[self._ns].encode(), self.tail.encode()
        if name is None:
            digest = ""
            if self.hashed:
                self._flush()
                digest = hashlib.sha256(head + self._body_digest() + tail).hexdigest()[:DIGEST]
            name = self.name(len(self.written) + 1, digest)
        target = self.sink.open_target(self.out / name, gzip_twin=self.gzip_twin)
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
