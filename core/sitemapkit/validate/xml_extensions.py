"""The checks of the video and news extensions' elements in a sitemap. A mixin of
``validate.xml.XMLChecker``, through ``ValueChecks`` (how a value is read)."""

from __future__ import annotations

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
from sitemapkit.validate.xml_values import ValueChecks

CONTENT_LOC = f"{{{VIDEO_NS}}}content_loc"
PLAYER_LOC = f"{{{VIDEO_NS}}}player_loc"


class ExtensionChecks(ValueChecks):
    """The values of ``<video:video>``, ``<video:tvshow>``, ``<news:news>`` and
    ``<news:publication>``."""

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
        if relation not in VIDEO_RELATIONSHIPS:
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
