"""The checks of one element's value in a sitemap: reading a value, ``<loc>``,
``<lastmod>``, ``<changefreq>``, ``<priority>``, images and hreflang links. A mixin of
``validate.xml.XMLChecker``, which holds the state these checks read and fill."""

from __future__ import annotations

from datetime import datetime

from lxml import etree

from sitemapkit.dates import as_datetime
from sitemapkit.protocol import (
    IMAGE_NS,
    MAX_LOC_LENGTH,
    MIN_LOC_LENGTH,
    WARNING,
    XSI_NS,
)
from sitemapkit.validate.models import LINK_ATTRIBUTES, XHTML_LINK_EXTRAS, qname
from sitemapkit.validate.rules import (
    CHANGEFREQ_VALUES,
    DATE_HINT,
    GOOD_URL,
    check_url,
    hreflang_ok,
    parse_decimal,
    parse_w3c,
)

MOBILE_ATTRIBUTES = frozenset({"rel", "media", "href"})
IMAGE_LOC = f"{{{IMAGE_NS}}}loc"


class ValueChecks:
    """The values of ``<url>`` and ``<sitemap>``, of images and of hreflang links."""

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
        image = self._url_value(element)
        self.session.urls.image(self.number, element.sourceline, image)

    def check_other_url(self, element: etree._Element) -> None:
        self._url_value(element)

    def check_text(self, element: etree._Element) -> None:
        self._value(element)

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

