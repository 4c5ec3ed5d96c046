"""A video entry from loose fields, checked against Google's video sitemap rules (SPEC §3)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from sitemapkit.dates import DateError, parse_moment
from sitemapkit.extensions import Video
from sitemapkit.output.render import strip_forbidden
from sitemapkit.patterns import lazy_pattern
from sitemapkit.protocol import (
    VIDEO_MAX_DESCRIPTION,
    VIDEO_MAX_DURATION,
    VIDEO_MAX_RATING,
    VIDEO_MAX_TAGS,
    VIDEO_MAX_TITLE,
    VIDEO_MAX_UPLOADER,
    VIDEO_MIN_DURATION,
    VIDEO_PLATFORMS,
    VIDEO_RELATIONSHIPS,
)
from sitemapkit.urls import URLError, encode_url, resolve

_country_code = lazy_pattern(r"[A-Z]{2}")


_KNOWN = {
    "thumbnail_loc", "title", "description", "content_loc", "player_loc", "duration",
    "expiration_date", "rating", "view_count", "publication_date", "tag", "tags",
    "family_friendly", "restriction", "requires_subscription", "uploader", "uploader_info",
    "platform", "live",
}


class VideoError(ValueError):
    """A required field is missing or broken: the whole video is dropped."""

    def __init__(self, field: str, rule: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.rule = rule


Problems = list[tuple[str, str, str]]


def clean_text(value: Any) -> str:
    """Text as it will be written (no characters XML forbids, no outer blanks), so that the
    checks for empty and too long see what the file will hold."""
    return strip_forbidden(str(value or "")).strip()


def video_from_fields(fields: Mapping[str, Any], page_loc: str) -> tuple[Video, Problems]:
    """The video, and ``(field, rule, message)`` for each optional field dropped."""
    problems: Problems = []

    def drop(field: str, rule: str, message: str) -> None:
        problems.append((field, rule, f"dropped: {message}"))

    def url(field: str, required: bool = False) -> str | None:
        raw = fields.get(field)
        if raw is None or str(raw).strip() == "":
            if required:
                raise VideoError(field, "video-required", f"'{field}' is required")
            return None
        try:
            value = encode_url(resolve(page_loc, str(raw)))
        except URLError as error:
            if required:
                raise VideoError(field, "video-url", str(error)) from None
            drop(field, "video-url", str(error))
            return None
        return value

    def text(field: str, limit: int, rule: str) -> str:
        value = clean_text(fields.get(field))
        if not value:
            raise VideoError(field, "video-required", f"'{field}' is required")
        if len(value) > limit:
            raise VideoError(field, rule, f"{field} is {len(value)} characters; at most {limit}")
        return value

    for key in sorted(set(fields) - _KNOWN):
        drop(key, "video-unknown-field", f"'{key}' is not a video field Google reads")

    thumbnail = url("thumbnail_loc", required=True)
    title = text("title", VIDEO_MAX_TITLE, "video-title-length")
    description = text("description", VIDEO_MAX_DESCRIPTION, "video-description-length")
    content, player = url("content_loc"), url("player_loc")
    if content is None and player is None:
        raise VideoError("content_loc", "video-required", "a video needs content_loc or player_loc")
    for field, value in (("content_loc", content), ("player_loc", player)):
        if value is not None and value == page_loc:
            raise VideoError(field, "video-location", f"{field} must not be the page's own URL")

    return Video(
        thumbnail_loc=thumbnail or "",
        title=title,
        description=description,
        content_loc=content,
        player_loc=player,
        duration=_number(
            fields, "duration", "video-duration", int, VIDEO_MIN_DURATION, VIDEO_MAX_DURATION, drop
        ),
        expiration_date=_date(fields, "expiration_date", drop),
        rating=_number(fields, "rating", "video-rating", float, 0.0, VIDEO_MAX_RATING, drop),
        view_count=_number(fields, "view_count", "video-view-count", int, 0, None, drop),
        publication_date=_date(fields, "publication_date", drop),
        tags=_tags(fields, drop),
        family_friendly=_yes_no(fields, "family_friendly", drop),
        restriction=_relationship(fields, "restriction", "video-restriction", _country, drop),
        requires_subscription=_yes_no(fields, "requires_subscription", drop),
        uploader=_uploader(fields, drop),
        uploader_info=_uploader_info(fields, page_loc, url, drop),
        platform=_relationship(fields, "platform", "video-platform", _platform, drop),
        live=_yes_no(fields, "live", drop),
    ), problems


def _number(fields, field, rule, kind, low, high, drop):
    raw = fields.get(field)
    if raw is None or raw == "":
        return None
    try:
        value = kind(raw)
        if kind is int and float(raw) != value:
            raise ValueError
    except (TypeError, ValueError):
        drop(field, rule, f"'{raw}' is not a number")
        return None
    if value < low or (high is not None and value > high):
        upper = f"-{high}" if high is not None else " or more"
        drop(field, rule, f"{raw} is outside {low}{upper}")
        return None
    return value


def _date(fields, field, drop):
    raw = fields.get(field)
    if raw is None or raw == "":
        return None
    try:
        return parse_moment(raw)
    except DateError as error:
        drop(field, "date-format", str(error))
        return None


def _tags(fields, drop) -> tuple[str, ...]:
    raw = fields.get("tags", fields.get("tag"))
    if raw is None:
        return ()
    items = raw.split(",") if isinstance(raw, str) else list(raw)
    tags = tuple(dict.fromkeys(tag for tag in map(clean_text, items) if tag))
    if len(tags) > VIDEO_MAX_TAGS:
        drop("tags", "video-tag-count", f"{len(tags)} tags; only the first {VIDEO_MAX_TAGS} are listed")
    return tags[:VIDEO_MAX_TAGS]


def _yes_no(fields, field, drop) -> bool | None:
    raw = fields.get(field)
    if raw is None or raw == "":
        return None
    if isinstance(raw, bool):
        return raw
    text = str(raw).strip().lower()
    if text in ("yes", "true"):
        return True
    if text in ("no", "false"):
        return False
    drop(field, "video-yes-no", f"'{raw}' must be yes or no")
    return None


def _country(code: str) -> str | None:
    code = code.upper()
    return code if _country_code().fullmatch(code) else None


def _platform(name: str) -> str | None:
    name = name.lower()
    return name if name in VIDEO_PLATFORMS else None


def _relationship(fields, field, rule, item, drop):
    """``{relationship: allow, countries: [US, CA]}``, or ``"allow US CA"``."""
    raw = fields.get(field)
    if raw is None or raw == "":
        return None
    if isinstance(raw, Mapping):
        relationship = str(raw.get("relationship", "allow")).strip().lower()
        values = raw.get("countries", raw.get("platforms", raw.get("values", ())))
        values = values.split() if isinstance(values, str) else list(values)
    else:
        words = str(raw).replace(",", " ").split()
        relationship = words[0].lower() if words and words[0].lower() in VIDEO_RELATIONSHIPS else "allow"
        values = words[1:] if words and words[0].lower() in VIDEO_RELATIONSHIPS else words
    checked = [item(str(v)) for v in values]
    if relationship not in VIDEO_RELATIONSHIPS or not checked or None in checked:
        drop(field, rule, f"'{raw}' must be 'allow' or 'deny' and a list of valid codes")
        return None
    return relationship, tuple(dict.fromkeys(checked))


def _uploader(fields, drop) -> str | None:
    raw = clean_text(fields.get("uploader"))
    if not raw:
        return None
    if len(raw) > VIDEO_MAX_UPLOADER:
        drop("uploader", "video-uploader", f"uploader is {len(raw)} characters; at most {VIDEO_MAX_UPLOADER}")
        return None
    return raw


def _uploader_info(fields, page_loc, url, drop) -> str | None:
    if not clean_text(fields.get("uploader")):
        return None
    info = url("uploader_info")
    if info is not None and urlsplit(info).hostname != urlsplit(page_loc).hostname:
        drop("uploader_info", "video-uploader", "uploader_info must be on the page's own domain")
        return None
    return info
