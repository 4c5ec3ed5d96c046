"""The checks of one element's value in a sitemap: reading a value, ``<loc>``,
``<lastmod>``, ``<changefreq>``, ``<priority>``, images and hreflang links. Each is a function
of the file's checker (``validate.xml.XMLChecker``: the state these checks read and fill)
and the element; ``validate.xml_checks.CHECKS`` says which tag gets which."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

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

if TYPE_CHECKING:
    from sitemapkit.validate.xml import XMLChecker

MOBILE_ATTRIBUTES = frozenset({"rel", "media", "href"})
IMAGE_LOC = f"{{{IMAGE_NS}}}loc"


def value_of(checker: XMLChecker, element: etree._Element, attributes: tuple[str, ...] = ()) -> str:
    if len(element):  # rare: element children (or unexpanded entities) in a value
        for child in element:
            if isinstance(child.tag, str):
                checker.add(child.sourceline, "unknown-element",
                         f"<{qname(element.tag)}> holds text only, not <{qname(child.tag)}>")
                break
    if element.keys():
        check_attributes(checker, element, attributes)
    text = element.text
    return text.strip() if text else ""


def check_attributes(checker: XMLChecker, element: etree._Element, allowed: tuple[str, ...]) -> None:
    for name in element.attrib:
        if name not in allowed and not name.startswith(f"{{{XSI_NS}}}"):
            checker.add(element.sourceline, "unknown-attribute",
                     f"<{qname(element.tag)}> has no attribute '{qname(name)}'")


def url_value(checker: XMLChecker, element: etree._Element, attributes: tuple[str, ...] = ()) -> str:
    value = value_of(checker, element, attributes)
    if len(value) < MAX_LOC_LENGTH and GOOD_URL.fullmatch(value):
        return value
    finding = check_url(value, qname(element.tag))
    if finding is not None:
        checker.add(element.sourceline, *finding)
    return value


def good_url(checker: XMLChecker, url: str) -> bool:
    if len(url) < MAX_LOC_LENGTH and GOOD_URL.fullmatch(url):
        if len(checker.good) > 1024:
            checker.good.clear()
        checker.good.add(url)
        return True
    return False


def check_loc(checker: XMLChecker, element: etree._Element) -> None:
    loc = value_of(checker, element)
    prefix = checker.scope.prefix
    if prefix is not None and len(loc) >= MIN_LOC_LENGTH and loc.startswith(prefix) and (
            loc in checker.good or good_url(checker, loc)):
        checker.loc = loc
        return
    finding = checker.scope.check(loc)
    if finding is not None:
        checker.add(element.sourceline, *finding)
        if finding[0] not in ("loc-fragment", "loc-host", "loc-scope"):
            return
    checker.loc = loc


def _date(value: str, rule: str, what: str) -> tuple[object, list[tuple[str, str]]]:
    """The moment ``value`` names and the problems of its form."""
    moment, zoned = parse_w3c(value)
    if moment is None:
        return None, [(rule, f"{what} '{value}' is not a date the sitemap XSDs accept; "
                             f"{DATE_HINT}")]
    if not zoned and isinstance(moment, datetime):
        return moment, [("date-timezone",
                         f"{what} '{value}' has a time but no time zone; add Z or +hh:mm")]
    return moment, []


def moment_of(checker: XMLChecker, element: etree._Element, rule: str, what: str):
    moment, problems = _date(value_of(checker, element), rule, what)
    for problem in problems:
        checker.add(element.sourceline, *problem)
    return moment


def check_lastmod(checker: XMLChecker, element: etree._Element) -> None:
    value = value_of(checker, element)
    problems = checker.lastmods.get(value)
    if problems is None:  # a speed-up (see __init__): each distinct date is read once
        if len(checker.lastmods) > 4096:
            checker.lastmods.clear()
        moment, problems = _date(value, "lastmod-format", "<lastmod>")
        if moment is not None and as_datetime(moment) > checker.future:
            problems.append(("lastmod-future", f"<lastmod> {value} is after now "
                             f"({checker.session.now:%Y-%m-%d}); search engines distrust a "
                             "lastmod that does not match reality"))
        checker.lastmods[value] = problems
    for problem in problems:
        checker.add(element.sourceline, *problem)


def check_changefreq(checker: XMLChecker, element: etree._Element) -> None:
    value = value_of(checker, element)
    if value not in CHANGEFREQ_VALUES:
        hint = "write it in lower case" if value.lower() in CHANGEFREQ_VALUES else (
            "use always, hourly, daily, weekly, monthly, yearly or never")
        checker.add(element.sourceline, "changefreq-value",
                 f"<changefreq> '{value}' is not allowed; {hint}")


def check_priority(checker: XMLChecker, element: etree._Element) -> None:
    value = value_of(checker, element)
    number = parse_decimal(value)
    if number is None:
        checker.add(element.sourceline, "priority-format",
                 f"<priority> '{value}' is not a decimal number such as 0.5")
    elif not 0.0 <= number <= 1.0:
        checker.add(element.sourceline, "priority-range", f"<priority> {value} is outside 0.0-1.0")


# images


def check_image_loc(checker: XMLChecker, element: etree._Element) -> None:
    image = url_value(checker, element)
    checker.session.urls.image(checker.number, element.sourceline, image)


def check_other_url(checker: XMLChecker, element: etree._Element) -> None:
    url_value(checker, element)


def check_text(checker: XMLChecker, element: etree._Element) -> None:
    value_of(checker, element)


# hreflang


def check_link(checker: XMLChecker, element: etree._Element) -> None:
    get = element.get
    rel, code, href = get("rel"), get("hreflang"), get("href")
    line = element.sourceline
    attributes = element.attrib
    if code is None and get("media") is not None and href is not None:
        _mobile(checker, element, rel, href.strip())
        return
    if len(attributes) != 3 or rel is None or code is None or href is None:
        _link_shape(checker, element, LINK_ATTRIBUTES)
    elif element.text or len(element):
        checker.add(line, "stray-text", "<xhtml:link> must be empty")
    if rel != "alternate":
        checker.add(line, "hreflang-rel",
                 f"<xhtml:link rel=\"{rel or ''}\">: a sitemap alternate needs rel=\"alternate\"")
    if code is None or href is None:
        checker.add(line, "hreflang-href",
                 f"<xhtml:link> needs both hreflang and href (missing "
                 f"{'hreflang' if code is None else 'href'})")
        return
    if hreflang_ok(code):
        checker.codes.add(code)
    else:
        checker.add(line, "hreflang-code",
                 f"hreflang=\"{code}\" is not an ISO 639-1 language with an optional "
                 "script and ISO 3166-1 region (en, en-GB, zh-Hant) or x-default")
    href = href.strip()
    if len(href) >= MAX_LOC_LENGTH or not GOOD_URL.fullmatch(href):
        finding = check_url(href, "xhtml:link href")
        if finding is not None:
            checker.add(line, *finding)
            if finding[0] != "loc-fragment":
                return
    if rel == "alternate":
        checker.links.append((code, href, line))


def _link_shape(checker: XMLChecker, element: etree._Element, allowed: frozenset[str]) -> None:
    """An ``<xhtml:link>`` is empty and has only the ``allowed`` attributes (XHTML's
    others are valid XML but mean nothing in a sitemap: a warning)."""
    line = element.sourceline
    for name in element.attrib:
        if name not in allowed:
            known = name in XHTML_LINK_EXTRAS
            checker.add(line, "unknown-attribute",
                     f"<xhtml:link> attribute '{qname(name)}' "
                     + ("means nothing in a sitemap" if known else "does not exist"),
                     WARNING if known else None)
    if element.text or len(element):
        checker.add(line, "stray-text", "<xhtml:link> must be empty")


def _mobile(checker: XMLChecker, element: etree._Element, rel: str | None, href: str) -> None:
    """Google's annotation of a separate mobile page: ``rel="alternate"`` with ``media``
    and ``href``, no ``hreflang``. Its page is usually on another host (m.example.com),
    so only the URL itself is checked, and it is no hreflang alternate."""
    line = element.sourceline
    _link_shape(checker, element, MOBILE_ATTRIBUTES)
    if rel != "alternate":
        checker.add(line, "hreflang-rel", f"<xhtml:link rel=\"{rel or ''}\" media=...>: a "
                 "mobile alternate needs rel=\"alternate\"")
    if not element.get("media", "").strip():
        checker.add(line, "mobile-media", "<xhtml:link media=\"\">: a mobile alternate needs "
                 "a media query such as \"only screen and (max-width: 640px)\"")
    finding = check_url(href, "xhtml:link href")
    if finding is not None:
        checker.add(line, *finding)

