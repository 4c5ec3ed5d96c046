"""The checks of the video and news extensions' elements in a sitemap: functions of the
file's checker (``validate.xml.XMLChecker``) and the element, as ``validate.xml_values``'
are (which reads each value); ``validate.xml_checks.CHECKS`` says which tag gets which."""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from lxml import etree

from sitemapkit.dates import as_datetime
from sitemapkit.protocol import (
    NEWS_WINDOW_HOURS,
    VIDEO_ID_TYPES,
    VIDEO_MAX_CATEGORY,
    VIDEO_MAX_DESCRIPTION,
    VIDEO_MAX_DURATION,
    VIDEO_MAX_RATING,
    VIDEO_MAX_TITLE,
    VIDEO_MAX_UPLOADER,
    VIDEO_MIN_DURATION,
    VIDEO_NS,
    VIDEO_RELATIONSHIPS,
    VIDEO_TYPES,
)
from sitemapkit.validate.models import NEWS_MODEL, PUBLICATION_MODEL, TVSHOW_MODEL, VIDEO_MODEL, qname
from sitemapkit.validate.rules import (
    COUNTRIES,
    GENRES,
    PLATFORMS,
    TICKERS,
    YES_NO,
    check_url,
    matches,
    news_language_ok,
    parse_decimal,
    parse_whole,
)
from sitemapkit.validate.xml_values import moment_of, url_value, value_of

if TYPE_CHECKING:
    from sitemapkit.validate.xml import XMLChecker

CONTENT_LOC = f"{{{VIDEO_NS}}}content_loc"
PLAYER_LOC = f"{{{VIDEO_NS}}}player_loc"


# videos


def check_video(checker: XMLChecker, element: etree._Element) -> None:
    plan = checker.check_content(element, VIDEO_MODEL)
    if not plan.counts.get(CONTENT_LOC) and not plan.counts.get(PLAYER_LOC):
        checker.add(element.sourceline, "video-location",
                 "<video:video> has neither <video:content_loc> nor <video:player_loc>; "
                 "Google needs one of them")


def _video_location(checker: XMLChecker, element: etree._Element, attributes: tuple[str, ...] = ()) -> None:
    value = url_value(checker, element, attributes)
    if value and value == checker.loc:
        checker.add(element.sourceline, "video-location",
                 f"<{qname(element.tag)}> is the page's own URL; it must be the video "
                 "file or player")


def check_video_location(checker: XMLChecker, element: etree._Element) -> None:
    _video_location(checker, element)


def check_player_loc(checker: XMLChecker, element: etree._Element) -> None:
    _video_location(checker, element, ("allow_embed", "autoplay"))
    for name in ("allow_embed", "autoplay"):
        value = element.get(name)
        if value is None:
            continue
        checker.add(element.sourceline, "video-deprecated",
                 f"<video:player_loc {name}> is no longer supported by Google (2022)")
        if name == "allow_embed" and value not in YES_NO:
            checker.add(element.sourceline, "video-value",
                     f"<video:player_loc allow_embed=\"{value}\"> must be yes or no")


def check_video_title(checker: XMLChecker, element: etree._Element) -> None:
    _limited(checker, element, VIDEO_MAX_TITLE, "video-title-length")


def check_video_description(checker: XMLChecker, element: etree._Element) -> None:
    _limited(checker, element, VIDEO_MAX_DESCRIPTION, "video-description-length")


def _limited(checker: XMLChecker, element: etree._Element, limit: int, rule: str) -> None:
    value = element.text or ""
    value_of(checker, element)
    if not value.strip():
        checker.add(element.sourceline, "video-required", f"<{qname(element.tag)}> is empty")
    elif len(value) > limit:
        checker.add(element.sourceline, rule, f"<{qname(element.tag)}> has {len(value):,} "
                 f"characters; at most {limit:,} are allowed")


def _in_range(checker: XMLChecker, element: etree._Element, read, low: float, high: float, rule: str,
              what: str) -> None:
    value = value_of(checker, element)
    number = read(value)
    if number is None or not low <= number <= high:
        checker.add(element.sourceline, rule, f"<{qname(element.tag)}> '{value}' must be {what}")


def check_duration(checker: XMLChecker, element: etree._Element) -> None:
    _in_range(checker, element, parse_whole, VIDEO_MIN_DURATION, VIDEO_MAX_DURATION, "video-duration",
                   f"whole seconds from {VIDEO_MIN_DURATION} to {VIDEO_MAX_DURATION}")


def check_date(checker: XMLChecker, element: etree._Element) -> None:
    moment_of(checker, element, "date-format", f"<{qname(element.tag)}>")


def check_rating(checker: XMLChecker, element: etree._Element) -> None:
    _in_range(checker, element, parse_decimal, 0.0, VIDEO_MAX_RATING, "video-rating",
                   f"a number from 0.0 to {VIDEO_MAX_RATING}")


def check_segment(checker: XMLChecker, element: etree._Element) -> None:
    url_value(checker, element, ("duration",))
    duration = element.get("duration")
    if duration is not None and (parse_whole(duration) is None or parse_whole(duration) > VIDEO_MAX_DURATION):
        checker.add(element.sourceline, "video-value",
                 f"<video:content_segment_loc duration=\"{duration}\"> must be 0-{VIDEO_MAX_DURATION} seconds")


def check_view_count(checker: XMLChecker, element: etree._Element) -> None:
    value = value_of(checker, element)
    if parse_whole(value) is None:
        checker.add(element.sourceline, "video-view-count",
                 f"<video:view_count> '{value}' must be a whole number, 0 or more")


def check_category(checker: XMLChecker, element: etree._Element) -> None:
    value = value_of(checker, element)
    if len(value) > VIDEO_MAX_CATEGORY:
        checker.add(element.sourceline, "video-value", f"<video:category> has {len(value)} "
                 f"characters; the XSD allows {VIDEO_MAX_CATEGORY}")


def check_yes_no(checker: XMLChecker, element: etree._Element) -> None:
    value = value_of(checker, element)
    if value not in YES_NO:
        checker.add(element.sourceline, "video-yes-no",
                 f"<{qname(element.tag)}> '{value}' must be yes or no")


def _relationship(checker: XMLChecker, element: etree._Element, rule: str, pattern, what: str) -> None:
    value = value_of(checker, element, ("relationship",))
    relation = element.get("relationship")
    if relation not in VIDEO_RELATIONSHIPS:
        checker.add(element.sourceline, rule, f"<{qname(element.tag)}> needs "
                 f"relationship=\"allow\" or \"deny\", not {relation!r}")
    if not matches(pattern, value):
        checker.add(element.sourceline, rule,
                 f"<{qname(element.tag)}> '{value}' must be {what} separated by spaces")


def check_restriction(checker: XMLChecker, element: etree._Element) -> None:
    _relationship(checker, element, "video-restriction", COUNTRIES,
                       "upper-case ISO 3166 country codes")


def check_platform(checker: XMLChecker, element: etree._Element) -> None:
    _relationship(checker, element, "video-platform", PLATFORMS, "web, mobile or tv")


def check_gallery_loc(checker: XMLChecker, element: etree._Element) -> None:
    url_value(checker, element, ("title",))


def check_price(checker: XMLChecker, element: etree._Element) -> None:
    value_of(checker, element, ("currency", "type", "resolution"))
    checks = (("currency", None), ("type", ("purchase", "PURCHASE", "rent", "RENT")),
              ("resolution", ("sd", "SD", "hd", "HD")))
    for name, allowed in checks:
        value = element.get(name)
        if value is None:
            continue
        ok = (len(value) == 3 and value.isalpha() and value.isupper() and value.isascii()
              if allowed is None else value in allowed)
        if not ok:
            checker.add(element.sourceline, "video-value",
                     f"<video:price {name}=\"{value}\"> is not a value the XSD allows")


def check_uploader(checker: XMLChecker, element: etree._Element) -> None:
    value = value_of(checker, element, ("info",))
    if len(value) > VIDEO_MAX_UPLOADER:
        checker.add(element.sourceline, "video-uploader",
                 f"<video:uploader> has {len(value)} characters; at most {VIDEO_MAX_UPLOADER}")
    info = element.get("info")
    if info is not None:
        finding = check_url(info.strip(), "video:uploader info")
        if finding is not None:
            checker.add(element.sourceline, *finding)
        elif checker.loc and urlsplit(info.strip()).hostname != urlsplit(checker.loc).hostname:
            checker.add(element.sourceline, "video-uploader",
                     f"<video:uploader info=\"{info}\"> must be on the page's own host")


def check_tvshow(checker: XMLChecker, element: etree._Element) -> None:
    checker.check_content(element, TVSHOW_MODEL)


def check_video_type(checker: XMLChecker, element: etree._Element) -> None:
    value = value_of(checker, element)
    if value not in VIDEO_TYPES:
        checker.add(element.sourceline, "video-value",
                 f"<video:video_type> '{value}' is not one of {', '.join(sorted(VIDEO_TYPES))}")


def check_positive(checker: XMLChecker, element: etree._Element) -> None:
    value = value_of(checker, element)
    if not parse_whole(value):
        checker.add(element.sourceline, "video-value",
                 f"<{qname(element.tag)}> '{value}' must be a whole number from 1")


def check_video_id(checker: XMLChecker, element: etree._Element) -> None:
    value_of(checker, element, ("type",))
    kind = element.get("type")
    if kind not in VIDEO_ID_TYPES:
        checker.add(element.sourceline, "video-value",
                 f"<video:id> needs type= one of {', '.join(sorted(VIDEO_ID_TYPES))}")


# news


def check_news(checker: XMLChecker, element: etree._Element) -> None:
    checker.has_news = True
    checker.news_count += 1
    checker.check_content(element, NEWS_MODEL)


def check_publication(checker: XMLChecker, element: etree._Element) -> None:
    checker.check_content(element, PUBLICATION_MODEL)


def check_news_text(checker: XMLChecker, element: etree._Element) -> None:
    if not value_of(checker, element):
        checker.add(element.sourceline, "news-required", f"<{qname(element.tag)}> is empty")


def check_news_language(checker: XMLChecker, element: etree._Element) -> None:
    value = value_of(checker, element)
    if not news_language_ok(value):
        checker.add(element.sourceline, "news-language",
                 f"<news:language> '{value}' must be an ISO 639 code of 2 or 3 lower-case "
                 "letters (zh-cn and zh-tw for Chinese)")


def check_news_date(checker: XMLChecker, element: etree._Element) -> None:
    moment = moment_of(checker, element, "date-format", "<news:publication_date>")
    if moment is None:
        return
    when = as_datetime(moment)
    if when < checker.window:
        checker.add(element.sourceline, "news-too-old",
                 f"<news:publication_date> {moment.isoformat()} is more than "
                 f"{NEWS_WINDOW_HOURS} hours before now ({checker.session.now:%Y-%m-%dT%H:%MZ}); "
                 "Google News reads only articles of the last two days")
    elif when > checker.future:
        checker.add(element.sourceline, "news-future",
                 f"<news:publication_date> {moment.isoformat()} is after now")


def check_access(checker: XMLChecker, element: etree._Element) -> None:
    value = value_of(checker, element)
    if value not in ("Subscription", "Registration"):
        checker.add(element.sourceline, "news-value",
                 f"<news:access> '{value}' must be Subscription or Registration")


def check_genres(checker: XMLChecker, element: etree._Element) -> None:
    value = value_of(checker, element)
    if not matches(GENRES, value):
        checker.add(element.sourceline, "news-value", f"<news:genres> '{value}' is not a "
                 "comma-separated list of PressRelease, Satire, Blog, OpEd, Opinion, "
                 "UserGenerated")


def check_tickers(checker: XMLChecker, element: etree._Element) -> None:
    value = value_of(checker, element)
    if not matches(TICKERS, value):
        checker.add(element.sourceline, "news-value", f"<news:stock_tickers> '{value}' must be "
                 "up to 5 EXCHANGE:SYMBOL, comma-separated")
