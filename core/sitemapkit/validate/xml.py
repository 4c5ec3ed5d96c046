"""Streaming checks of one XML sitemap or sitemap index.

lxml's ``iterparse`` hands over one finished ``<url>`` (or ``<sitemap>``) at a time; it is
checked and dropped, so memory stays flat whatever the file's size. Entities are never
expanded, no DTD is loaded and nothing is fetched. The children of each element are checked
against a content model once per distinct sequence of tags (``plan_children``); sitemaps
repeat the same few sequences, so most elements cost a dictionary lookup plus value checks.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit

from lxml import etree

from sitemapkit.dates import as_datetime
from sitemapkit.protocol import (
    IMAGE_NS,
    MAX_BYTES,
    MAX_IMAGES,
    MAX_LOC_LENGTH,
    MAX_NEWS,
    MAX_SITEMAPS,
    MAX_URLS,
    MIN_LOC_LENGTH,
    NEWS_NS,
    NEWS_WINDOW_HOURS,
    SITEMAP_NS,
    VIDEO_MAX_CATEGORY,
    VIDEO_MAX_DESCRIPTION,
    VIDEO_MAX_DURATION,
    VIDEO_MAX_RATING,
    VIDEO_MAX_TITLE,
    VIDEO_MAX_UPLOADER,
    VIDEO_MIN_DURATION,
    VIDEO_NS,
    WARNING,
    XSI_NS,
)
from sitemapkit.validate.rules import (
    CHANGEFREQ_VALUES,
    COUNTRIES,
    DATE_HINT,
    GENRES,
    GOOD_URL,
    IMAGE,
    IMAGE_MODEL,
    LINK,
    LINK_ATTRIBUTES,
    NEWS,
    NEWS_MODEL,
    PLATFORMS,
    PUBLICATION_MODEL,
    S_CHANGEFREQ,
    S_LASTMOD,
    S_LOC,
    S_PRIORITY,
    SITEMAP_MODEL,
    SITEMAP_TAG,
    SITEMAPINDEX,
    TICKERS,
    TVSHOW_MODEL,
    URL_MODEL,
    URL_TAG,
    URLSET,
    VIDEO,
    VIDEO_ID_TYPES,
    VIDEO_MODEL,
    VIDEO_TYPES,
    XHTML_LINK_EXTRAS,
    YES_NO,
    Model,
    Plan,
    check_url,
    hreflang_ok,
    matches,
    news_language_ok,
    parse_decimal,
    parse_w3c,
    parse_whole,
    plan_children,
    qname,
)
from sitemapkit.validate.session import ENTRY_CAP, FileCheck, Reader, Scope, Session, declared_encoding

_FUTURE_SLACK = timedelta(days=1)  # a date-only lastmod in a zone ahead of UTC is not "future"


class XMLChecker(FileCheck):
    """Checks one file; ``children`` collects an index's ``(loc, line)`` for the caller."""

    def __init__(self, session: Session, path: Path, name: str, scope: Scope) -> None:
        super().__init__(session, path, name, scope)
        self.children: list[tuple[str, int]] = []
        self.kind: str | None = None
        self.loc: str | None = None
        self.links: list[tuple[str, str, int]] = []
        self.news_count = 0
        self.entries = 0
        """Entries so far; past ``MAX_URLS`` (never read by search engines) none is kept."""
        self.has_news = False
        self.doctype = False
        self._window = session.now - timedelta(hours=NEWS_WINDOW_HOURS)
        self._codes: set[str] = set()
        """The hreflang codes found valid in this file."""
        # The speed-ups, each bounded, and what it buys: CPU seconds for the sitemap of
        # bench/validate_speed.py at 20,000 URLs (3 images, 3 alternates each), 0.43 s with all
        # of them (median of 3 runs on the shared 2-core machine, 2026-11-22):
        self._plans: dict[tuple[object, ...], tuple[Plan, list, list[int], list[int]]] = {}
        """A plan per distinct sequence of child tags (``_resolve``): 0.78 s without."""
        self._lastmods: dict[str, list[tuple[str, str]]] = {}
        """The findings per distinct lastmod (``check_lastmod``): 0.63 s without."""
        self._good: set[str] = set()
        """URLs found good lately (``_good_url``), as a page's alternates name the same few
        URLs again and again: 0.48 s without. The usual image and link checked inline in
        ``_complex`` rather than through a call each: 0.60 s without."""
        self._future = session.now + _FUTURE_SLACK

    # -- the file --------------------------------------------------------------------------

    def run(self) -> str | None:
        """Check the file; return ``"urlset"``, ``"sitemapindex"``, or ``None`` when it is
        not a sitemap at all (or could not be read)."""
        reader = Reader(self.path, self.file, self.session.progress)
        reader.mark = 0
        try:
            self._parse(reader)
        except etree.XMLSyntaxError as error:
            if reader.entry_too_big:
                self.add(error.lineno or None, "entry-size",
                         f"more than {ENTRY_CAP // 2**20} MiB without the end of a <url> or "
                         "<sitemap>; no real entry is that big, so checking stopped here")
            elif reader.error or reader.over:
                pass  # said below: the parser only saw the input end early
            elif "encoding" in (error.msg or ""):
                self.add(error.lineno or None, "encoding",
                         f"the file is not UTF-8 (or not the encoding it declares): {error.msg}")
            else:
                self.add(error.lineno or None, "xml-syntax", f"not well-formed XML: {error.msg}")
        finally:
            reader.close()
        if b"<!DOCTYPE" in reader.head:
            self._doctype()
        if reader.error:
            self.add(None, "unreadable", reader.error)
        if reader.over:
            self.add(None, "size-limit",
                     f"the file is over {MAX_BYTES:,} bytes uncompressed; split it and list the "
                     "parts in a sitemap index" + ("" if reader.total < MAX_BYTES + 4 * 2**20
                                                    else " (checking stopped there)"))
        self.session.close_file(self.file)
        return self.kind

    def _parse(self, reader: Reader) -> None:
        context = etree.iterparse(
            reader, events=("end",), tag=(URL_TAG, SITEMAP_TAG),
            resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False,
            remove_blank_text=True,
        )
        root = None
        last = None
        count = 0
        self.head = b""
        expected = handle = None
        limit = MAX_URLS
        for _, element in context:
            if root is None:
                self.head = reader.head
                root = element.getroottree().getroot()
                if not self._root(root):
                    return
                urlset = self.kind == "urlset"
                expected = URL_TAG if urlset else SITEMAP_TAG
                handle = self._url if urlset else self._sitemap
                limit = MAX_URLS if urlset else MAX_SITEMAPS
            if element.getparent() is not root:
                continue  # nested where it does not belong: its container reports it
            previous = element.getprevious()
            junk = previous is not last or (last is not None and last.tail)
            if junk:
                self._between(root, last, element)
            count += 1
            self.entries = count
            if element.tag == expected:
                handle(element)
            else:
                self.add(element.sourceline, "unknown-element",
                         f"<{qname(element.tag)}> is not allowed in <{qname(root.tag)}>")
            if count == limit + 1:
                rule = "url-count" if self.kind == "urlset" else "index-count"
                what = "URLs" if self.kind == "urlset" else "sitemaps"
                self.add(element.sourceline, rule,
                         f"more than {limit:,} {what} in one file (this is number "
                         f"{limit + 1:,}); split it and list the parts in a sitemap index")
            element.clear(keep_tail=True)
            reader.mark = reader.total
            last = element
            if junk:
                while element.getprevious() is not None:
                    del root[0]
            elif previous is not None:
                del root[0]
        if root is None:
            self.head = reader.head
            root = context.root
            if root is None or not self._root(root):
                return
        self._between(root, last, None)
        if count == 0:
            news = self.has_news or "news" in self.path.name
            self.add(root.sourceline, "sitemap-empty",
                     f"<{etree.QName(root).localname}> lists nothing; the sitemap XSD requires "
                     f"at least one <{'url' if self.kind == 'urlset' else 'sitemap'}>"
                     + (" (an empty news sitemap is fine for Google)" if news else ""),
                     WARNING if news else None)
        if self.news_count > MAX_NEWS:
            self.add(None, "news-count",
                     f"{self.news_count:,} <news:news> in one sitemap; Google reads at most "
                     f"{MAX_NEWS:,}: split them over several news sitemaps")

    def _root(self, root: etree._Element) -> bool:
        tree = root.getroottree()
        info = tree.docinfo
        if info.internalDTD is not None or info.doctype:
            self._doctype()
        encoding = declared_encoding(self.head)
        if encoding.upper().replace("_", "-") not in ("UTF-8", "UTF8"):
            self.add(1, "encoding", f"the file is {encoding}; sitemaps must be UTF-8")
        if root.tag == URLSET:
            self.kind = "urlset"
        elif root.tag == SITEMAPINDEX:
            self.kind = "sitemapindex"
        else:
            name = etree.QName(root)
            if name.localname in ("urlset", "sitemapindex"):
                self.add(root.sourceline, "namespace",
                         f"<{name.localname}> is in namespace '{name.namespace or '(none)'}'; "
                         f"it must be xmlns=\"{SITEMAP_NS}\"")
                self.kind = name.localname
            elif name.localname not in ("rss", "feed"):
                self.add(root.sourceline, "root-element",
                         f"the root element is <{name.localname}>; a sitemap starts with "
                         "<urlset> and an index with <sitemapindex>")
            return False
        self._attributes(root, ())
        text = root.text
        if text and not text.isspace():
            self.add(root.sourceline, "stray-text", _stray(root, text))
        return True

    def _doctype(self) -> None:
        if not self.doctype:
            self.doctype = True
            self.add(1, "doctype", "the file declares a DOCTYPE; a sitemap has none (its "
                     "entities are not expanded and nothing it names is fetched)")

    def _between(self, root, last, element) -> None:
        """Whatever sits in the root between two entries: only whitespace and comments."""
        if last is not None and last.tail and not last.tail.isspace():
            self.add(last.sourceline, "stray-text", _stray(root, last.tail))
        for sibling in root:
            if sibling is element:
                break
            if sibling is last:
                continue
            if isinstance(sibling.tag, str):
                self.add(sibling.sourceline, "unknown-element",
                         f"<{qname(sibling.tag)}> is not allowed in <{qname(root.tag)}>")
            if sibling.tail and not sibling.tail.isspace():
                self.add(sibling.sourceline, "stray-text", _stray(root, sibling.tail))

    # -- entries ---------------------------------------------------------------------------

    def _complex(self, element: etree._Element, model: Model) -> Plan:
        children = element[:]
        key = (model.name, *[child.tag for child in children])
        if any([child.tail for child in children]):  # blank text is dropped by the parser
            for child in children:
                tail = child.tail
                if tail and not tail.isspace():
                    self.add(child.sourceline, "stray-text", _stray(element, tail))
        found = self._plans.get(key)
        if found is None:
            found = self._resolve(model, key)
        plan, checks, images, links = found
        if plan.problems:
            for n, rule, message, severity in plan.problems:
                line = children[n].sourceline if n >= 0 else element.sourceline
                self.add(line, rule, message, severity)
        for n, check in checks:
            check(self, children[n])
        # The usual image and hreflang link, checked here rather than through a call each
        # (a speed-up: see ``_good`` in __init__): a <url> often has several of both.
        good = self._good
        for n in images:
            image = children[n]
            if len(image) == 1 and image.text is None and not image.keys():
                child = image[0]
                if (child.tag == IMAGE_LOC and child.tail is None and not len(child)
                        and not child.keys()):
                    value = child.text
                    if value is not None and (value in good or self._good_url(value)):
                        continue
            self._complex(image, IMAGE_MODEL)
        for n in links:
            link = children[n]
            if link.keys() == _LINK_ORDER:  # rel, hreflang, href
                rel, code, href = link.values()
                if (rel == "alternate" and code in self._codes and link.text is None
                        and not len(link) and (href in good or self._good_url(href))):
                    self.links.append((code, href, link.sourceline))
                    continue
            self.check_link(link)
        if element.text and not element.text.isspace():
            self.add(element.sourceline, "stray-text", _stray(element, element.text))
        if element.keys():
            self._attributes(element, ())
        return plan

    def _resolve(self, model: Model, key: tuple[object, ...]):
        plan = plan_children(model, key[1:])
        checks = [(n, CHECKS[tag]) for n, tag in plan.checks if tag in CHECKS]
        images = [n for n, tag in plan.checks if tag == IMAGE]
        links = [n for n, tag in plan.checks if tag == LINK]
        found = (plan, checks, images, links)
        if len(key) <= 64:  # long sequences are rare: not worth keeping
            if len(self._plans) > 4096:
                self._plans.clear()
            self._plans[key] = found
        return found

    def _url(self, element: etree._Element) -> None:
        self.loc = None
        self.links = []
        self.has_news = False
        plan = self._complex(element, URL_MODEL)
        images = plan.counts.get(IMAGE, 0)
        if images > MAX_IMAGES:
            self.add(element.sourceline, "image-count",
                     f"<url> has {images:,} <image:image>; Google reads at most {MAX_IMAGES:,}")
        if self.session.table is not None:
            self.session.table.add(self.number, element.sourceline, element)
        if self.loc is None:
            return
        if self.links:
            self._alternates(element.sourceline)
        elif self.session.waiting:
            self.session.alternates(self.number, self.loc, [])
        self.session.listed(self.number, element.sourceline, self.loc,
                            "news" if self.has_news else "", remember=self.entries <= MAX_URLS)

    def _sitemap(self, element: etree._Element) -> None:
        self.loc = None
        self._complex(element, SITEMAP_MODEL)
        if self.loc is not None:
            self.children.append((self.loc, element.sourceline))

    def _alternates(self, line: int) -> None:
        loc, links = self.loc, self.links
        if len({code.lower() for code, _, _ in links}) < len(links):
            codes: dict[str, str] = {}
            for code, href, link_line in links:
                other = codes.setdefault(code.lower(), href)
                if other != href:
                    self.add(link_line, "hreflang-duplicate",
                             f"hreflang=\"{code}\" names both {other} and {href}; one code, one URL")
        if loc not in [href for _, href, _ in links]:
            self.add(line, "hreflang-self",
                     f"the alternates of {loc} do not include the page itself; each <url> lists "
                     "every language version, itself too")
        self.session.alternates(self.number, loc, links)

    # -- values ----------------------------------------------------------------------------

    def _value(self, element: etree._Element, attributes: tuple[str, ...] = ()) -> str:
        if len(element):  # rare: element children (or unexpanded entities) in a value
            for child in element:
                if isinstance(child.tag, str):
                    self.add(child.sourceline, "unknown-element",
                             f"<{qname(element.tag)}> holds text only, not <{qname(child.tag)}>")
                    break
        if element.keys():
            self._attributes(element, attributes)
        text = element.text
        return text.strip() if text else ""

    def _attributes(self, element: etree._Element, allowed: tuple[str, ...]) -> None:
        for name in element.attrib:
            if name not in allowed and not name.startswith(f"{{{XSI_NS}}}"):
                self.add(element.sourceline, "unknown-attribute",
                         f"<{qname(element.tag)}> has no attribute '{qname(name)}'")

    def _url_value(self, element: etree._Element, attributes: tuple[str, ...] = ()) -> str:
        value = self._value(element, attributes)
        if len(value) < MAX_LOC_LENGTH and GOOD_URL.fullmatch(value):
            return value
        finding = check_url(value, qname(element.tag))
        if finding is not None:
            self.add(element.sourceline, *finding)
        return value

    def _good_url(self, url: str) -> bool:
        if len(url) < MAX_LOC_LENGTH and GOOD_URL.fullmatch(url):
            if len(self._good) > 1024:
                self._good.clear()
            self._good.add(url)
            return True
        return False

    def check_loc(self, element: etree._Element) -> None:
        loc = self._value(element)
        prefix = self.scope.prefix
        if prefix is not None and len(loc) >= MIN_LOC_LENGTH and loc.startswith(prefix) and (
                loc in self._good or self._good_url(loc)):
            self.loc = loc
            return
        finding = self.scope.check(loc)
        if finding is not None:
            self.add(element.sourceline, *finding)
            if finding[0] not in ("loc-fragment", "loc-host", "loc-scope"):
                return
        self.loc = loc

    def _date(self, value: str, rule: str, what: str) -> tuple[object, list[tuple[str, str]]]:
        """The moment ``value`` names and the problems of its form."""
        moment, zoned = parse_w3c(value)
        if moment is None:
            return None, [(rule, f"{what} '{value}' is not a date the sitemap XSDs accept; "
                                 f"{DATE_HINT}")]
        if not zoned and isinstance(moment, datetime):
            return moment, [("date-timezone",
                             f"{what} '{value}' has a time but no time zone; add Z or +hh:mm")]
        return moment, []

    def _moment(self, element: etree._Element, rule: str, what: str):
        moment, problems = self._date(self._value(element), rule, what)
        for problem in problems:
            self.add(element.sourceline, *problem)
        return moment

    def check_lastmod(self, element: etree._Element) -> None:
        value = self._value(element)
        problems = self._lastmods.get(value)
        if problems is None:  # a speed-up (see __init__): each distinct date is read once
            if len(self._lastmods) > 4096:
                self._lastmods.clear()
            moment, problems = self._date(value, "lastmod-format", "<lastmod>")
            if moment is not None and as_datetime(moment) > self._future:
                problems.append(("lastmod-future", f"<lastmod> {value} is after now "
                                 f"({self.session.now:%Y-%m-%d}); search engines distrust a "
                                 "lastmod that does not match reality"))
            self._lastmods[value] = problems
        for problem in problems:
            self.add(element.sourceline, *problem)

    def check_changefreq(self, element: etree._Element) -> None:
        value = self._value(element)
        if value not in CHANGEFREQ_VALUES:
            hint = "write it in lower case" if value.lower() in CHANGEFREQ_VALUES else (
                "use always, hourly, daily, weekly, monthly, yearly or never")
            self.add(element.sourceline, "changefreq-value",
                     f"<changefreq> '{value}' is not allowed; {hint}")

    def check_priority(self, element: etree._Element) -> None:
        value = self._value(element)
        number = parse_decimal(value)
        if number is None:
            self.add(element.sourceline, "priority-format",
                     f"<priority> '{value}' is not a decimal number such as 0.5")
        elif not 0.0 <= number <= 1.0:
            self.add(element.sourceline, "priority-range", f"<priority> {value} is outside 0.0-1.0")

    # images
    def check_image_loc(self, element: etree._Element) -> None:
        self._url_value(element)

    def check_other_url(self, element: etree._Element) -> None:
        self._url_value(element)

    def check_text(self, element: etree._Element) -> None:
        self._value(element)

    # videos
    def check_video(self, element: etree._Element) -> None:
        plan = self._complex(element, VIDEO_MODEL)
        if not plan.counts.get(CONTENT_LOC) and not plan.counts.get(PLAYER_LOC):
            self.add(element.sourceline, "video-location",
                     "<video:video> has neither <video:content_loc> nor <video:player_loc>; "
                     "Google needs one of them")

    def _video_location(self, element: etree._Element, attributes: tuple[str, ...] = ()) -> None:
        value = self._url_value(element, attributes)
        if value and value == self.loc:
            self.add(element.sourceline, "video-location",
                     f"<{qname(element.tag)}> is the page's own URL; it must be the video "
                     "file or player")

    def check_video_location(self, element: etree._Element) -> None:
        self._video_location(element)

    def check_player_loc(self, element: etree._Element) -> None:
        self._video_location(element, ("allow_embed", "autoplay"))
        for name in ("allow_embed", "autoplay"):
            value = element.get(name)
            if value is None:
                continue
            self.add(element.sourceline, "video-deprecated",
                     f"<video:player_loc {name}> is no longer supported by Google (2022)")
            if name == "allow_embed" and value not in YES_NO:
                self.add(element.sourceline, "video-value",
                         f"<video:player_loc allow_embed=\"{value}\"> must be yes or no")

    def check_video_title(self, element: etree._Element) -> None:
        self._limited(element, VIDEO_MAX_TITLE, "video-title-length")

    def check_video_description(self, element: etree._Element) -> None:
        self._limited(element, VIDEO_MAX_DESCRIPTION, "video-description-length")

    def _limited(self, element: etree._Element, limit: int, rule: str) -> None:
        value = element.text or ""
        self._value(element)
        if not value.strip():
            self.add(element.sourceline, "video-required", f"<{qname(element.tag)}> is empty")
        elif len(value) > limit:
            self.add(element.sourceline, rule, f"<{qname(element.tag)}> has {len(value):,} "
                     f"characters; at most {limit:,} are allowed")

    def _in_range(self, element: etree._Element, read, low: float, high: float, rule: str,
                  what: str) -> None:
        value = self._value(element)
        number = read(value)
        if number is None or not low <= number <= high:
            self.add(element.sourceline, rule, f"<{qname(element.tag)}> '{value}' must be {what}")

    def check_duration(self, element: etree._Element) -> None:
        self._in_range(element, parse_whole, VIDEO_MIN_DURATION, VIDEO_MAX_DURATION, "video-duration",
                       f"whole seconds from {VIDEO_MIN_DURATION} to {VIDEO_MAX_DURATION}")

    def check_date(self, element: etree._Element) -> None:
        self._moment(element, "date-format", f"<{qname(element.tag)}>")

    def check_rating(self, element: etree._Element) -> None:
        self._in_range(element, parse_decimal, 0.0, VIDEO_MAX_RATING, "video-rating",
                       f"a number from 0.0 to {VIDEO_MAX_RATING}")

    def check_segment(self, element: etree._Element) -> None:
        self._url_value(element, ("duration",))
        duration = element.get("duration")
        if duration is not None and (parse_whole(duration) is None or parse_whole(duration) > VIDEO_MAX_DURATION):
            self.add(element.sourceline, "video-value",
                     f"<video:content_segment_loc duration=\"{duration}\"> must be 0-{VIDEO_MAX_DURATION} seconds")

    def check_view_count(self, element: etree._Element) -> None:
        value = self._value(element)
        if parse_whole(value) is None:
            self.add(element.sourceline, "video-view-count",
                     f"<video:view_count> '{value}' must be a whole number, 0 or more")

    def check_category(self, element: etree._Element) -> None:
        value = self._value(element)
        if len(value) > VIDEO_MAX_CATEGORY:
            self.add(element.sourceline, "video-value", f"<video:category> has {len(value)} "
                     f"characters; the XSD allows {VIDEO_MAX_CATEGORY}")

    def check_yes_no(self, element: etree._Element) -> None:
        value = self._value(element)
        if value not in YES_NO:
            self.add(element.sourceline, "video-yes-no",
                     f"<{qname(element.tag)}> '{value}' must be yes or no")

    def _relationship(self, element: etree._Element, rule: str, pattern, what: str) -> None:
        value = self._value(element, ("relationship",))
        relation = element.get("relationship")
        if relation not in ("allow", "deny"):
            self.add(element.sourceline, rule, f"<{qname(element.tag)}> needs "
                     f"relationship=\"allow\" or \"deny\", not {relation!r}")
        if not matches(pattern, value):
            self.add(element.sourceline, rule,
                     f"<{qname(element.tag)}> '{value}' must be {what} separated by spaces")

    def check_restriction(self, element: etree._Element) -> None:
        self._relationship(element, "video-restriction", COUNTRIES,
                           "upper-case ISO 3166 country codes")

    def check_platform(self, element: etree._Element) -> None:
        self._relationship(element, "video-platform", PLATFORMS, "web, mobile or tv")

    def check_gallery_loc(self, element: etree._Element) -> None:
        self._url_value(element, ("title",))

    def check_price(self, element: etree._Element) -> None:
        self._value(element, ("currency", "type", "resolution"))
        checks = (("currency", None), ("type", ("purchase", "PURCHASE", "rent", "RENT")),
                  ("resolution", ("sd", "SD", "hd", "HD")))
        for name, allowed in checks:
            value = element.get(name)
            if value is None:
                continue
            ok = (len(value) == 3 and value.isalpha() and value.isupper() and value.isascii()
                  if allowed is None else value in allowed)
            if not ok:
                self.add(element.sourceline, "video-value",
                         f"<video:price {name}=\"{value}\"> is not a value the XSD allows")

    def check_uploader(self, element: etree._Element) -> None:
        value = self._value(element, ("info",))
        if len(value) > VIDEO_MAX_UPLOADER:
            self.add(element.sourceline, "video-uploader",
                     f"<video:uploader> has {len(value)} characters; at most {VIDEO_MAX_UPLOADER}")
        info = element.get("info")
        if info is not None:
            finding = check_url(info.strip(), "video:uploader info")
            if finding is not None:
                self.add(element.sourceline, *finding)
            elif self.loc and urlsplit(info.strip()).hostname != urlsplit(self.loc).hostname:
                self.add(element.sourceline, "video-uploader",
                         f"<video:uploader info=\"{info}\"> must be on the page's own host")

    def check_tvshow(self, element: etree._Element) -> None:
        self._complex(element, TVSHOW_MODEL)

    def check_video_type(self, element: etree._Element) -> None:
        value = self._value(element)
        if value not in VIDEO_TYPES:
            self.add(element.sourceline, "video-value",
                     f"<video:video_type> '{value}' is not one of {', '.join(sorted(VIDEO_TYPES))}")

    def check_positive(self, element: etree._Element) -> None:
        value = self._value(element)
        if not parse_whole(value):
            self.add(element.sourceline, "video-value",
                     f"<{qname(element.tag)}> '{value}' must be a whole number from 1")

    def check_video_id(self, element: etree._Element) -> None:
        self._value(element, ("type",))
        kind = element.get("type")
        if kind not in VIDEO_ID_TYPES:
            self.add(element.sourceline, "video-value",
                     f"<video:id> needs type= one of {', '.join(sorted(VIDEO_ID_TYPES))}")

    # news
    def check_news(self, element: etree._Element) -> None:
        self.has_news = True
        self.news_count += 1
        self._complex(element, NEWS_MODEL)

    def check_publication(self, element: etree._Element) -> None:
        self._complex(element, PUBLICATION_MODEL)

    def check_news_text(self, element: etree._Element) -> None:
        if not self._value(element):
            self.add(element.sourceline, "news-required", f"<{qname(element.tag)}> is empty")

    def check_news_language(self, element: etree._Element) -> None:
        value = self._value(element)
        if not news_language_ok(value):
            self.add(element.sourceline, "news-language",
                     f"<news:language> '{value}' must be an ISO 639 code of 2 or 3 lower-case "
                     "letters (zh-cn and zh-tw for Chinese)")

    def check_news_date(self, element: etree._Element) -> None:
        moment = self._moment(element, "date-format", "<news:publication_date>")
        if moment is None:
            return
        when = as_datetime(moment)
        if when < self._window:
            self.add(element.sourceline, "news-too-old",
                     f"<news:publication_date> {moment.isoformat()} is more than "
                     f"{NEWS_WINDOW_HOURS} hours before now ({self.session.now:%Y-%m-%dT%H:%MZ}); "
                     "Google News reads only articles of the last two days")
        elif when > self._future:
            self.add(element.sourceline, "news-future",
                     f"<news:publication_date> {moment.isoformat()} is after now")

    def check_access(self, element: etree._Element) -> None:
        value = self._value(element)
        if value not in ("Subscription", "Registration"):
            self.add(element.sourceline, "news-value",
                     f"<news:access> '{value}' must be Subscription or Registration")

    def check_genres(self, element: etree._Element) -> None:
        value = self._value(element)
        if not matches(GENRES, value):
            self.add(element.sourceline, "news-value", f"<news:genres> '{value}' is not a "
                     "comma-separated list of PressRelease, Satire, Blog, OpEd, Opinion, "
                     "UserGenerated")

    def check_tickers(self, element: etree._Element) -> None:
        value = self._value(element)
        if not matches(TICKERS, value):
            self.add(element.sourceline, "news-value", f"<news:stock_tickers> '{value}' must be "
                     "up to 5 EXCHANGE:SYMBOL, comma-separated")

    # hreflang
    def check_link(self, element: etree._Element) -> None:
        get = element.get
        rel, code, href = get("rel"), get("hreflang"), get("href")
        line = element.sourceline
        attributes = element.attrib
        if code is None and get("media") is not None and href is not None:
            self._mobile(element, rel, href.strip())
            return
        if len(attributes) != 3 or rel is None or code is None or href is None:
            self._link_shape(element, LINK_ATTRIBUTES)
        elif element.text or len(element):
            self.add(line, "stray-text", "<xhtml:link> must be empty")
        if rel != "alternate":
            self.add(line, "hreflang-rel",
                     f"<xhtml:link rel=\"{rel or ''}\">: a sitemap alternate needs rel=\"alternate\"")
        if code is None or href is None:
            self.add(line, "hreflang-href",
                     f"<xhtml:link> needs both hreflang and href (missing "
                     f"{'hreflang' if code is None else 'href'})")
            return
        if hreflang_ok(code):
            self._codes.add(code)
        else:
            self.add(line, "hreflang-code",
                     f"hreflang=\"{code}\" is not an ISO 639-1 language with an optional "
                     "script and ISO 3166-1 region (en, en-GB, zh-Hant) or x-default")
        href = href.strip()
        if len(href) >= MAX_LOC_LENGTH or not GOOD_URL.fullmatch(href):
            finding = check_url(href, "xhtml:link href")
            if finding is not None:
                self.add(line, *finding)
                if finding[0] != "loc-fragment":
                    return
        if rel == "alternate":
            self.links.append((code, href, line))


    def _link_shape(self, element: etree._Element, allowed: frozenset[str]) -> None:
        """An ``<xhtml:link>`` is empty and has only the ``allowed`` attributes (XHTML's
        others are valid XML but mean nothing in a sitemap: a warning)."""
        line = element.sourceline
        for name in element.attrib:
            if name not in allowed:
                known = name in XHTML_LINK_EXTRAS
                self.add(line, "unknown-attribute",
                         f"<xhtml:link> attribute '{qname(name)}' "
                         + ("means nothing in a sitemap" if known else "does not exist"),
                         WARNING if known else None)
        if element.text or len(element):
            self.add(line, "stray-text", "<xhtml:link> must be empty")

    def _mobile(self, element: etree._Element, rel: str | None, href: str) -> None:
        """Google's annotation of a separate mobile page: ``rel="alternate"`` with ``media``
        and ``href``, no ``hreflang``. Its page is usually on another host (m.example.com),
        so only the URL itself is checked, and it is no hreflang alternate."""
        line = element.sourceline
        self._link_shape(element, MOBILE_ATTRIBUTES)
        if rel != "alternate":
            self.add(line, "hreflang-rel", f"<xhtml:link rel=\"{rel or ''}\" media=...>: a "
                     "mobile alternate needs rel=\"alternate\"")
        if not element.get("media", "").strip():
            self.add(line, "mobile-media", "<xhtml:link media=\"\">: a mobile alternate needs "
                     "a media query such as \"only screen and (max-width: 640px)\"")
        finding = check_url(href, "xhtml:link href")
        if finding is not None:
            self.add(line, *finding)


MOBILE_ATTRIBUTES = frozenset({"rel", "media", "href"})
IMAGE_LOC = f"{{{IMAGE_NS}}}loc"
_LINK_ORDER = ["rel", "hreflang", "href"]
CONTENT_LOC = f"{{{VIDEO_NS}}}content_loc"
PLAYER_LOC = f"{{{VIDEO_NS}}}player_loc"


def _stray(element: etree._Element, text: str) -> str:
    shown = " ".join(text.split())
    shown = shown if len(shown) <= 40 else shown[:37] + "..."
    return f"text '{shown}' inside <{qname(element.tag)}>, where only elements may be"


def _video(name: str) -> str:
    return f"{{{VIDEO_NS}}}{name}"


def _news(name: str) -> str:
    return f"{{{NEWS_NS}}}{name}"


_C = XMLChecker
CHECKS: dict[str, Callable[[XMLChecker, etree._Element], None]] = {
    # <url> and <sitemap>; the <image:image> and <xhtml:link> in a <url> are checked in
    # XMLChecker._complex itself (the hot loop), the other extensions here
    S_LOC: _C.check_loc,
    S_LASTMOD: _C.check_lastmod,
    S_CHANGEFREQ: _C.check_changefreq,
    S_PRIORITY: _C.check_priority,
    VIDEO: _C.check_video,
    NEWS: _C.check_news,
    # <image:image>
    IMAGE_LOC: _C.check_image_loc,
    f"{{{IMAGE_NS}}}license": _C.check_other_url,
    # <video:video> and <video:tvshow>
    _video("thumbnail_loc"): _C.check_other_url,
    _video("title"): _C.check_video_title,
    _video("description"): _C.check_video_description,
    CONTENT_LOC: _C.check_video_location,
    PLAYER_LOC: _C.check_player_loc,
    _video("duration"): _C.check_duration,
    _video("expiration_date"): _C.check_date,
    _video("rating"): _C.check_rating,
    _video("content_segment_loc"): _C.check_segment,
    _video("view_count"): _C.check_view_count,
    _video("publication_date"): _C.check_date,
    _video("tag"): _C.check_text,
    _video("category"): _C.check_category,
    _video("family_friendly"): _C.check_yes_no,
    _video("restriction"): _C.check_restriction,
    _video("gallery_loc"): _C.check_gallery_loc,
    _video("price"): _C.check_price,
    _video("requires_subscription"): _C.check_yes_no,
    _video("uploader"): _C.check_uploader,
    _video("tvshow"): _C.check_tvshow,
    _video("platform"): _C.check_platform,
    _video("live"): _C.check_yes_no,
    _video("id"): _C.check_video_id,
    _video("show_title"): _C.check_text,
    _video("video_type"): _C.check_video_type,
    _video("episode_title"): _C.check_text,
    _video("season_number"): _C.check_positive,
    _video("episode_number"): _C.check_positive,
    _video("premier_date"): _C.check_date,
    # <news:news> and <news:publication>
    _news("publication"): _C.check_publication,
    _news("access"): _C.check_access,
    _news("genres"): _C.check_genres,
    _news("publication_date"): _C.check_news_date,
    _news("title"): _C.check_news_text,
    _news("keywords"): _C.check_text,
    _news("stock_tickers"): _C.check_tickers,
    _news("name"): _C.check_news_text,
    _news("language"): _C.check_news_language,
}
"""The check each element gets, by tag (tags are unique across the content models, so one
table serves them all). A child of a content model with no entry is only placed, not read."""
