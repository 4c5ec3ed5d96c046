"""RSS 2.0 and Atom 1.0 feeds given to ``validate`` as sitemaps.

The Sitemaps protocol names both formats, and Google reads them as sitemaps: each item's (or
entry's) link is a URL, and its ``pubDate`` (RSS, RFC 822) or ``updated`` (Atom, RFC 3339) is
its last modification. So each link is checked as a ``<loc>`` is (absolute http(s), same host
and folder rules) and each date must parse. Read streaming, one item at a time, like a sitemap.
"""

from __future__ import annotations

import re
from email.utils import parsedate_tz
from pathlib import Path

from lxml import etree

from sitemapkit.protocol import ATOM_NS, MAX_BYTES, MAX_URLS, WARNING
from sitemapkit.validate.session import FileCheck, Reader, Scope, Session

_ENTRY, _LINK, _UPDATED = (f"{{{ATOM_NS}}}{name}" for name in ("entry", "link", "updated"))
_RFC3339 = re.compile(
    r"\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})"
)


def rfc822_ok(value: str) -> bool:
    """Whether ``value`` is an RFC 822 date-time with a zone (``Sat, 07 Sep 2002 00:00:01 GMT``)."""
    parsed = parsedate_tz(value)
    return parsed is not None and parsed[9] is not None and 1 <= parsed[1] <= 12 and (
        1 <= parsed[2] <= 31)


def rfc3339_ok(value: str) -> bool:
    """Whether ``value`` is an RFC 3339 date-time (``2026-01-15T08:00:00Z``), as Atom requires."""
    if not _RFC3339.fullmatch(value):
        return False
    month, day = int(value[5:7]), int(value[8:10])
    hour, minute, second = int(value[11:13]), int(value[14:16]), int(value[17:19])
    return 1 <= month <= 12 and 1 <= day <= 31 and hour < 24 and minute < 60 and second <= 60


class FeedChecker(FileCheck):
    """Checks one RSS or Atom file: version, each item's link and date, the URL count."""

    def __init__(self, session: Session, path: Path, name: str, scope: Scope) -> None:
        super().__init__(session, path, name, scope)
        self.count = 0

    def run(self) -> None:
        reader = Reader(self.path, self.file, self.session.progress)
        try:
            self._parse(reader)
        except etree.XMLSyntaxError as error:
            if not (reader.error or reader.over):
                self.add(error.lineno or None, "xml-syntax", f"not well-formed XML: {error.msg}")
        finally:
            reader.close()
        if reader.error:
            self.add(None, "unreadable", reader.error)
        if reader.over:
            self.add(None, "size-limit", f"the feed is over {MAX_BYTES:,} bytes uncompressed; "
                     "split it")
        self.session.findings.close_file(self.file)

    def _parse(self, reader: Reader) -> None:
        context = etree.iterparse(
            reader, events=("start", "end"), resolve_entities=False, no_network=True,
            load_dtd=False, huge_tree=False,
        )
        kind = None
        for event, element in context:
            if kind is None:
                kind = self._root(element)
                if kind is None:
                    return
                continue
            if event != "end":
                continue
            if (kind == "rss" and element.tag == "item") or (kind == "atom" and element.tag == _ENTRY):
                if kind == "rss":
                    self._item(element)
                else:
                    self._entry(element)
                element.clear(keep_tail=True)
                parent = element.getparent()
                while element.getprevious() is not None:
                    del parent[0]
        if kind is not None and not self.count:
            self.add(None, "feed-empty", f"the {'RSS' if kind == 'rss' else 'Atom'} feed has "
                     f"no {'<item>' if kind == 'rss' else '<entry>'}; it lists no URL", WARNING)

    def _root(self, root: etree._Element) -> str | None:
        if root.tag == "rss":
            version = root.get("version")
            if version != "2.0":
                self.add(root.sourceline, "feed-version",
                         f"<rss version=\"{version or ''}\">: search engines read RSS 2.0 "
                         "feeds as sitemaps; write version=\"2.0\"")
            return "rss"
        if root.tag == f"{{{ATOM_NS}}}feed":
            return "atom"
        name = etree.QName(root)
        self.add(root.sourceline, "feed-version",
                 f"<{name.localname}> in namespace '{name.namespace or '(none)'}' is neither "
                 f"RSS 2.0 nor Atom 1.0 (xmlns=\"{ATOM_NS}\"); it was not checked")
        return None

    def _url(self, line: int, value: str | None, what: str) -> None:
        self.count += 1
        if not value or not value.strip():
            self.add(line, "feed-link", f"{what} gives no link; a feed read as a sitemap "
                     "needs one URL per item")
            return
        value = value.strip()
        finding = self.scope.check(value, "link")
        if finding is not None:
            self.add(line, *finding)
            if finding[0] not in ("loc-fragment", "loc-host", "loc-scope"):
                return
        if self.count == MAX_URLS + 1:
            self.add(line, "url-count", f"more than {MAX_URLS:,} items in one feed; split it")
        # duplicates within one feed only: a site's RSS and Atom feeds list the same pages
        self.session.urls.listed(self.number, line, value, f"feed{self.number}",
                                 remember=self.count <= MAX_URLS)

    def _item(self, item: etree._Element) -> None:
        link = item.find("link")
        self._url(item.sourceline, None if link is None else link.text, "<item>")
        date = item.find("pubDate")
        if date is not None and not rfc822_ok((date.text or "").strip()):
            self.add(date.sourceline, "feed-date",
                     f"<pubDate> '{(date.text or '').strip()}' is not an RFC 822 date "
                     "(Sat, 07 Sep 2002 09:42:31 GMT); the date cannot be read")

    def _entry(self, entry: etree._Element) -> None:
        href = None
        for link in entry.iterchildren(_LINK):
            if link.get("rel", "alternate") == "alternate":
                href = link.get("href")
                break
        self._url(entry.sourceline, href, "<entry>")
        updated = entry.find(_UPDATED)
        value = "" if updated is None else (updated.text or "").strip()
        if not rfc3339_ok(value):
            self.add(entry.sourceline if updated is None else updated.sourceline, "feed-date",
                     f"<updated> '{value}' is not an RFC 3339 date-time "
                     "(2026-01-15T08:00:00Z)" if updated is not None else
                     "<entry> has no <updated>, which Atom requires; the date cannot be read")
