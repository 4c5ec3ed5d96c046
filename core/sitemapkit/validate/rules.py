"""What ``sitemapkit validate`` checks of a value: URLs, W3C dates, numbers, codes and the
patterns of the image, video and news extensions. Pure data and pure functions; the rule ids
and limits are in ``protocol``, the content models in ``validate.models``, the streaming in
``validate.xml`` and the table of which check runs on which element in ``validate.xml_checks``."""

from __future__ import annotations

import functools
import re
from datetime import date, datetime, timedelta, timezone

from sitemapkit.protocol import (
    CHANGEFREQS,
    MAX_LOC_LENGTH,
    MIN_LOC_LENGTH,
    NEWS_GENRES,
    VIDEO_PLATFORMS,
    hreflang_pattern,
)
from sitemapkit.urls import escaped, news_language_pattern

Finding = tuple[str, str] | None
"""``(rule, message)`` or ``None`` when the value is fine."""

_PCHAR = r"[A-Za-z0-9\-._~:/?\[\]@!$&'()*+,;=]*+"
_GOOD_URL = re.compile(  # possessive: a path is matched in one pass, no backtracking
    rf"https?://[A-Za-z0-9.\-]+(?::[0-9]{{1,5}})?(?:[/?]{_PCHAR}(?:%[0-9A-Fa-f]{{2}}{_PCHAR})*+)?"
)
_BAD_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")
_URL_SHAPE = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):(//)?([^/?#]*)(.*)", re.S)
_NEEDS_ESCAPE = re.compile(r"[^A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]")


def check_url(value: str, label: str) -> Finding:
    """An absolute, escaped http(s) URL (``value`` already stripped)."""
    if _GOOD_URL.fullmatch(value):
        if len(value) >= MAX_LOC_LENGTH:
            return "loc-length", (f"<{label}> is {len(value)} characters long; it must be "
                                  f"under {MAX_LOC_LENGTH}")
        return None
    shape = _URL_SHAPE.fullmatch(value)
    if not value:
        return "loc-relative", f"<{label}> is empty; it must be an absolute URL"
    if not shape or not shape.group(2) or not shape.group(3):
        return "loc-relative", (f"<{label}> '{_short(value)}' is not an absolute URL; "
                                "write it with http:// or https:// and the host")
    if shape.group(1).lower() not in ("http", "https"):
        return "loc-scheme", f"<{label}> '{_short(value)}' must be an http or https URL"
    bad = _NEEDS_ESCAPE.search(value) or _BAD_ESCAPE.search(value)
    if bad:
        return "loc-escaping", (f"<{label}> '{_short(value)}' has {bad.group()!r} at "
                                f"character {bad.start() + 1}; percent-encode it (UTF-8)")
    if "#" in value:
        return "loc-fragment", f"<{label}> '{_short(value)}' has a #fragment; crawlers drop it"
    if len(value) >= MAX_LOC_LENGTH:
        return "loc-length", (f"<{label}> is {len(value)} characters long; it must be under "
                              f"{MAX_LOC_LENGTH}")
    return None


def check_loc_length(value: str) -> Finding:
    if len(value) < MIN_LOC_LENGTH:
        return "loc-length", (f"<loc> '{value}' is {len(value)} characters long; the sitemap "
                              f"XSD requires at least {MIN_LOC_LENGTH}")
    return None


def _short(value: str, limit: int = 80) -> str:
    """``value`` for a message: at most ``limit`` characters, control characters escaped."""
    return escaped(value if len(value) <= limit else value[: limit - 3] + "...")


_DATE_RE = re.compile(
    r"(-?\d{4,})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?"
)


def parse_w3c(value: str) -> tuple[date | datetime | None, bool]:
    """An ``xsd:date`` or ``xsd:dateTime`` (the forms the sitemap XSDs accept) as a ``date`` or
    an aware ``datetime``, and whether a zone was given; ``None`` when it is neither."""
    found = _DATE_RE.fullmatch(value)
    if not found:
        return None, False
    year, month, day, hour, minute, second, _fraction, zone = found.groups()
    try:
        if hour is None:
            return date(int(year), int(month), int(day)), zone is not None
        tz = timezone.utc
        if zone and zone != "Z":
            sign = -1 if zone[0] == "-" else 1
            tz = timezone(sign * timedelta(hours=int(zone[1:3]), minutes=int(zone[4:6])))
        if hour == "24" and minute == "00" and second == "00":
            hour = "00"  # xsd allows 24:00:00; it names midnight at the day's end
        moment = datetime(int(year), int(month), int(day), int(hour), int(minute), int(second), tzinfo=tz)
        return moment, zone is not None
    except ValueError:
        return None, False


DATE_HINT = "use YYYY-MM-DD or YYYY-MM-DDThh:mm:ss+hh:mm (the forms the sitemap XSDs accept)"

CHANGEFREQ_VALUES = frozenset(CHANGEFREQS)
_DECIMAL = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)")
_INTEGER = re.compile(r"\+?\d+")
YES_NO = frozenset({"yes", "no", "Yes", "No", "YES", "NO"})
_COUNTRIES = re.compile(r"([A-Z]{2}( +[A-Z]{2})*)?")
_PLATFORM = "|".join(VIDEO_PLATFORMS)
_PLATFORMS = re.compile(rf"(({_PLATFORM})( ({_PLATFORM}))*)?")
_GENRE = "|".join(NEWS_GENRES)
_GENRES = re.compile(rf"({_GENRE})(, *({_GENRE}))*")
_TICKERS = re.compile(r"(\w+:\w+(, *\w+:\w+){0,4})?")


def parse_decimal(value: str) -> float | None:
    return float(value) if _DECIMAL.fullmatch(value) else None


def parse_whole(value: str) -> int | None:
    return int(value) if _INTEGER.fullmatch(value) else None


@functools.lru_cache(maxsize=1024)
def hreflang_ok(code: str) -> bool:
    return hreflang_pattern().fullmatch(code) is not None


def news_language_ok(code: str) -> bool:
    return news_language_pattern().fullmatch(code) is not None


def matches(pattern: re.Pattern[str], value: str) -> bool:
    return pattern.fullmatch(value) is not None


COUNTRIES, PLATFORMS, GENRES, TICKERS = _COUNTRIES, _PLATFORMS, _GENRES, _TICKERS
GOOD_URL = _GOOD_URL
