"""The check each element of a sitemap gets, by tag: ``CHECKS``, a table of functions, each
given the file's checker (``validate.xml.XMLChecker``) and the element."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from lxml import etree

from sitemapkit.protocol import IMAGE_NS, NEWS_NS, VIDEO_NS
from sitemapkit.validate import xml_extensions as extensions
from sitemapkit.validate import xml_values as values
from sitemapkit.validate.models import NEWS, S_CHANGEFREQ, S_LASTMOD, S_LOC, S_PRIORITY, VIDEO
from sitemapkit.validate.xml_extensions import CONTENT_LOC, PLAYER_LOC
from sitemapkit.validate.xml_values import IMAGE_LOC

if TYPE_CHECKING:
    from sitemapkit.validate.xml import XMLChecker


def _video(name: str) -> str:
    return f"{{{VIDEO_NS}}}{name}"


def _news(name: str) -> str:
    return f"{{{NEWS_NS}}}{name}"


CHECKS: dict[str, Callable[[XMLChecker, etree._Element], None]] = {
    # <url> and <sitemap>; the <image:image> and <xhtml:link> in a <url> are checked in
    # XMLChecker.complex itself (the hot loop), the other extensions here
    S_LOC: values.check_loc,
    S_LASTMOD: values.check_lastmod,
    S_CHANGEFREQ: values.check_changefreq,
    S_PRIORITY: values.check_priority,
    VIDEO: extensions.check_video,
    NEWS: extensions.check_news,
    # <image:image>
    IMAGE_LOC: values.check_image_loc,
    f"{{{IMAGE_NS}}}license": values.check_other_url,
    # <video:video> and <video:tvshow>
    _video("thumbnail_loc"): values.check_other_url,
    _video("title"): extensions.check_video_title,
    _video("description"): extensions.check_video_description,
    CONTENT_LOC: extensions.check_video_location,
    PLAYER_LOC: extensions.check_player_loc,
    _video("duration"): extensions.check_duration,
    _video("expiration_date"): extensions.check_date,
    _video("rating"): extensions.check_rating,
    _video("content_segment_loc"): extensions.check_segment,
    _video("view_count"): extensions.check_view_count,
    _video("publication_date"): extensions.check_date,
    _video("tag"): values.check_text,
    _video("category"): extensions.check_category,
    _video("family_friendly"): extensions.check_yes_no,
    _video("restriction"): extensions.check_restriction,
    _video("gallery_loc"): extensions.check_gallery_loc,
    _video("price"): extensions.check_price,
    _video("requires_subscription"): extensions.check_yes_no,
    _video("uploader"): extensions.check_uploader,
    _video("tvshow"): extensions.check_tvshow,
    _video("platform"): extensions.check_platform,
    _video("live"): extensions.check_yes_no,
    _video("id"): extensions.check_video_id,
    _video("show_title"): values.check_text,
    _video("video_type"): extensions.check_video_type,
    _video("episode_title"): values.check_text,
    _video("season_number"): extensions.check_positive,
    _video("episode_number"): extensions.check_positive,
    _video("premier_date"): extensions.check_date,
    # <news:news> and <news:publication>
    _news("publication"): extensions.check_publication,
    _news("access"): extensions.check_access,
    _news("genres"): extensions.check_genres,
    _news("publication_date"): extensions.check_news_date,
    _news("title"): extensions.check_news_text,
    _news("keywords"): values.check_text,
    _news("stock_tickers"): extensions.check_tickers,
    _news("name"): extensions.check_news_text,
    _news("language"): extensions.check_news_language,
}
"""The check each element gets, by tag (tags are unique across the content models, so one
table serves them all). A child of a content model with no entry is only placed, not read."""
