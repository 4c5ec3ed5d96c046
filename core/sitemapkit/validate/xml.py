"""Streaming checks of one XML sitemap or sitemap index.

lxml's ``iterparse`` hands over one finished ``<url>`` (or ``<sitemap>``) at a time; it is
checked and dropped, so memory stays flat whatever the file's size. Entities are never
expanded, no DTD is loaded and nothing is fetched. The children of each element are checked
against a content model once per distinct sequence of tags (``plan_children``); sitemaps
repeat the same few sequences, so most elements cost a dictionary lookup plus value checks.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from lxml import etree

from sitemapkit.protocol import (
    FUTURE_SLACK,
    MAX_BYTES,
    MAX_IMAGES,
    MAX_NEWS,
    MAX_SITEMAPS,
    MAX_URLS,
    NEWS_WINDOW_HOURS,
    SITEMAP_NS,
    WARNING,
)
from sitemapkit.validate.models import (
    IMAGE,
    IMAGE_MODEL,
    LINK,
    SITEMAP_MODEL,
    SITEMAP_TAG,
    SITEMAPINDEX,
    URL_MODEL,
    URL_TAG,
    URLSET,
    Model,
    Plan,
    plan_children,
    qname,
)
from sitemapkit.validate.session import ENTRY_CAP, FileCheck, Reader, Scope, Session, declared_encoding
from sitemapkit.validate.xml_checks import CHECKS
from sitemapkit.validate.xml_values import IMAGE_LOC, check_attributes, check_link, good_url


class XMLChecker(FileCheck):
    """Checks one file; ``children`` collects an index's ``(loc, line)`` for the caller. The
    checks of each element's value are functions in ``xml_values`` and ``xml_extensions``,
    found by tag in ``xml_checks.CHECKS``; each is given this checker, the state they read
    and fill: the current entry's ``loc``, ``links`` and ``has_news``, and the caches below."""

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
        self.window = session.now - timedelta(hours=NEWS_WINDOW_HOURS)
        """The oldest news publication date Google still reads."""
        self.codes: set[str] = set()
        """The hreflang codes found valid in this file (``check_link``)."""
        # The speed-ups, each bounded, and what it buys: CPU seconds for the sitemap of
        # bench/validate_speed.py at 20,000 URLs (3 images, 3 alternates each), 0.43 s with all
        # of them (median of 3 runs on the shared 2-core machine, 2026-11-22):
        self._plans: dict[tuple[object, ...], tuple[Plan, list, list[int], list[int]]] = {}
        """A plan per distinct sequence of child tags (``_resolve``): 0.78 s without."""
        self.lastmods: dict[str, list[tuple[str, str]]] = {}
        """The findings per distinct lastmod (``xml_values.check_lastmod``): 0.63 s without."""
        self.good: set[str] = set()
        """URLs found good lately (``xml_values.good_url``), as a page's alternates name the
        same few URLs again and again: 0.48 s without. The usual image and link checked inline
        in ``check_content`` rather than through a call each: 0.60 s without."""
        self.future = session.now + FUTURE_SLACK
        """The latest date not taken for one in the future."""

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
        self.session.findings.close_file(self.file)
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
        check_attributes(self, root, ())
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

    def check_content(self, element: etree._Element, model: Model) -> Plan:
        """Check ``element``'s children against its content ``model``, each child by the
        function ``CHECKS`` gives its tag; the plan of its children (their counts)."""
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
        good = self.good
        for n in images:
            image = children[n]
            if len(image) == 1 and image.text is None and not image.keys():
                child = image[0]
                if (child.tag == IMAGE_LOC and child.tail is None and not len(child)
                        and not child.keys()):
                    value = child.text
                    if value is not None and (value in good or good_url(self, value)):
                        if self.session.urls.site is not None:  # --site-dir: the image's file
                            self.session.urls.image(self.number, child.sourceline, value)
                        continue
            self.check_content(image, IMAGE_MODEL)
        for n in links:
            link = children[n]
            if link.keys() == _LINK_ORDER:  # rel, hreflang, href
                rel, code, href = link.values()
                if (rel == "alternate" and code in self.codes and link.text is None
                        and not len(link) and (href in good or good_url(self, href))):
                    self.links.append((code, href, link.sourceline))
                    continue
            check_link(self, link)
        if element.text and not element.text.isspace():
            self.add(element.sourceline, "stray-text", _stray(element, element.text))
        if element.keys():
            check_attributes(self, element, ())
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
        plan = self.check_content(element, URL_MODEL)
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
        elif self.session.urls.waiting:
            self.session.urls.alternates(self.number, self.loc, [])
        self.session.urls.listed(self.number, element.sourceline, self.loc,
                                 "news" if self.has_news else "", remember=self.entries <= MAX_URLS)

    def _sitemap(self, element: etree._Element) -> None:
        self.loc = None
        self.check_content(element, SITEMAP_MODEL)
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
        self.session.urls.alternates(self.number, loc, links)


_LINK_ORDER = ["rel", "hreflang", "href"]


def _stray(element: etree._Element, text: str) -> str:
    shown = " ".join(text.split())
    shown = shown if len(shown) <= 40 else shown[:37] + "..."
    return f"text '{shown}' inside <{qname(element.tag)}>, where only elements may be"

