"""The check each element of a sitemap gets, by tag: ``CHECKS``."""

from __future__ import annotations

from collections.abc import Callable

from lxml import etree

from sitemapkit.protocol import IMAGE_NS, NEWS_NS, VIDEO_NS
from sitemapkit.validate.models import NEWS, S_CHANGEFREQ, S_LASTMOD, S_LOC, S_PRIORITY, VIDEO
from sitemapkit.validate.xml_extensions import CONTENT_LOC, PLAYER_LOC, ExtensionChecks
from sitemapkit.validate.xml_values import IMAGE_LOC


def _video(name: str) -> str:
    return f"{{{VIDEO_NS}}}{name}"


def _news(name: str) -> str:
    return f"{{{NEWS_NS}}}{name}"


_C = ExtensionChecks
CHECKS: dict[str, Callable[[ExtensionChecks, etree._Element], None]] = {
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
