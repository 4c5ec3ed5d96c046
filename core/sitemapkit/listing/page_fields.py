"""The values of an entry's fields that a page gives beyond its loc: dates written as text,
images, videos, its news article and its hreflang alternates. Each value is checked here; one
that breaks a rule is dropped with a warning (``warn``) naming the page, the field and the rule.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from datetime import datetime, timedelta
from fnmatch import fnmatchcase
from typing import Any

from sitemapkit.dates import DateError, as_datetime, parse_moment
from sitemapkit.listing.page_keys import PageKeys
from sitemapkit.model import Alternate, Image, Moment, NewsArticle, Page, Video
from sitemapkit.protocol import MAX_IMAGES, hreflang_pattern
from sitemapkit.site.extract import HtmlFacts
from sitemapkit.site.images import decorative
from sitemapkit.urls import URLError, absolute, encode_url, news_language_pattern, resolve
from sitemapkit.values import NewsSettings

Warn = Callable[[Page, str, str, str], None]
"""Reports a problem of a page: the page, its field, the rule, the message."""


def page_moment(page: Page, field: str, value: Any, warn: Warn) -> Moment | None:
    """A date or datetime the page gives as text (None: not given, or not a date: warned)."""
    if value is None or value == "":
        return None
    try:
        return parse_moment(value)
    except DateError as error:
        warn(page, field, "date-format", f"dropped: {error}")
        return None


def images(page: Page, keys: PageKeys, facts: HtmlFacts, loc: str, warn: Warn,
           shown: Callable[[str], bool] | None = None, missing: Callable[[str], str | None] | None = None,
           ) -> tuple[Image, ...]:
    """The page's images: from its HTML, its generator and its ``sitemap_images`` key, each
    once, at most ``MAX_IMAGES``. ``shown(url)``: whether the written page shows an image its
    generator names (a cover in its metadata that the theme never shows is not the page's).
    ``missing(url)``: why a same-site image is not there (no file in the built site), or None."""
    return present_images(page, image_urls(page, keys, facts, loc, warn), warn, shown, missing)


def image_urls(page: Page, keys: PageKeys, facts: HtmlFacts, loc: str, warn: Warn) -> Iterator[tuple[str, bool]]:
    """The URLs of the images the page names, absolute, each with whether its generator named it
    (``images``' first step: what the page's HTML and keys say, whatever else is there)."""
    # The HTML's images passed the filter where their tags were read; the generator's and
    # the page keys' pass it here: badges, pixels and logos are no page's images.
    named = ((raw, True) for raw in page.images if not decorative(raw))
    given = ((raw, False) for raw in keys.images if not decorative(raw))
    for raw, by_generator in (*((raw, False) for raw in facts.images), *named, *given):
        try:
            yield encode_url(resolve(loc, raw)), by_generator
        except URLError as error:
            warn(page, "image", "image-loc", f"image dropped: {error}")


def present_images(page: Page, urls: Iterable[tuple[str, bool]], warn: Warn,
                   shown: Callable[[str], bool] | None = None,
                   missing: Callable[[str], str | None] | None = None) -> tuple[Image, ...]:
    """``images``' second step: of ``urls`` (``image_urls``), each once, those the built site has
    (``missing``) and the written page shows (``shown``), at most ``MAX_IMAGES``."""
    found: dict[str, None] = {}
    for url, by_generator in urls:
        if url in found:
            continue
        if by_generator and shown is not None and not shown(url):  # the page's <img> showed it: not asked
            continue
        why = missing(url) if missing is not None else None
        if why is not None:
            warn(page, "image", "image-missing", f"image {url} dropped: {why}")
            continue
        found.setdefault(url, None)
    if len(found) > MAX_IMAGES:
        warn(
            page, "images", "image-count",
            f"{len(found)} images; only the first {MAX_IMAGES} are listed (Google's limit per URL)",
        )
    return tuple(Image(url) for url in list(found)[:MAX_IMAGES])


def videos(page: Page, keys: PageKeys, facts: HtmlFacts, loc: str, warn: Warn) -> tuple[Video, ...]:
    """The page's videos: from its ``sitemap_video`` key, then each ``<video>`` of its HTML that
    carries every required field."""
    if not keys.videos and not facts.videos:
        return ()
    # (the video checks are loaded by the builds that meet a video: 2-7 M instructions, most
    # builds none)
    from sitemapkit.listing.videos import VideoError, video_from_fields

    videos: list[Video] = []
    for fields in keys.videos:
        try:
            video, problems = video_from_fields(fields, loc)
        except VideoError as error:
            warn(page, f"sitemap_video.{error.field}", error.rule, f"video dropped: {error}")
            continue
        for field, rule, message in problems:
            warn(page, f"sitemap_video.{field}", rule, message)
        videos.append(video)
    for fields in facts.videos:
        # A <video> element is listed only when its markup carries every required field.
        try:
            video, _ = video_from_fields(fields, loc)
        except VideoError:
            continue
        if all(v.content_loc != video.content_loc for v in videos):
            videos.append(video)
    return tuple(videos)


def news_article(page: Page, keys: PageKeys, facts: HtmlFacts, path: str, news: NewsSettings, now: datetime,
                 warn: Warn) -> NewsArticle | None:
    """The page's news article, when ``news.match`` matches ``path`` and it was published
    inside the window before ``now``."""
    if keys.news is False or not fnmatchcase(path, news.match.lstrip("/")):
        return None
    fields = keys.news or {}
    published = (
        page_moment(page, "sitemap_news.publication_date", fields.get("publication_date"), warn)
        or page.published
        or page_moment(page, "article:published_time", facts.published, warn)
    )
    if published is None:
        return None
    when = as_datetime(published)
    if not now - timedelta(hours=news.window_hours) <= when <= now + _CLOCK_SKEW:
        return None
    from sitemapkit.listing.videos import clean_text

    title = clean_text(fields.get("title") or page.title or facts.title)
    if not title:
        warn(page, "sitemap_news.title", "news-required", "news entry dropped: no title")
        return None
    language = str(fields.get("language") or news.language or _news_language(page.lang or facts.lang))
    language = language.strip().lower().replace("_", "-")
    if not news_language_pattern().fullmatch(language):
        warn(
            page, "sitemap_news.language", "news-language",
            f"news entry dropped: '{language}' is not an ISO 639 code (or zh-cn, zh-tw)"
            if language else "news entry dropped: no language (set news.language, or the page's own)",
        )
        return None
    name = clean_text(fields.get("publication") or fields.get("name") or news.publication) or news.publication
    return NewsArticle(name, language, published, title)


def alternates(page: Page, facts: HtmlFacts, loc: str, base_url: str, x_default: str | None,
               warn: Warn) -> tuple[Alternate, ...]:
    """The page's hreflang alternates, itself among them, x-default last when asked for:
    from its own ``hreflang`` links when it has them (what a crawler reads on the page, so
    that the pages of a set list the same set), else from the generator's translations. The
    page's language (``<html lang="fr-fr">``) names the page only when no alternate does."""
    if not page.translations and not facts.alternates:
        return ()
    versions: dict[str, str] = {}
    own = _language_code(page.lang or facts.lang or "")
    for code, url in facts.alternates or page.translations.items():
        code = _language_code(code)
        if not hreflang_pattern().fullmatch(code):
            warn(page, "hreflang", "hreflang-code", f"alternate '{code}' dropped: not a language code")
            continue
        try:
            versions.setdefault(code, encode_url(absolute(base_url, url)))
        except URLError as error:
            warn(page, "hreflang", "hreflang-href", f"alternate '{code}' dropped: {error}")
    if loc in versions.values():
        pass  # a link names the page itself: its own code, not a second entry for its <html lang>
    elif own and hreflang_pattern().fullmatch(own):
        versions[own] = loc
    elif versions:
        warn(page, "lang", "hreflang-self", "the page's own language is unknown; alternates kept without it")
    others = [code for code, url in versions.items() if url != loc and code != "x-default"]
    if not others:
        return ()
    if x_default and "x-default" not in versions:
        target = versions.get(_language_code(x_default))
        if target:
            versions["x-default"] = target
    return tuple(
        Alternate(code, versions[code])
        for code in sorted(versions, key=lambda c: (c == "x-default", c.lower()))
    )


_CLOCK_SKEW = timedelta(minutes=5)


def _news_language(code: str | None) -> str:
    """A page's language as news wants it: ``fr`` for ``fr_CA``; only Chinese keeps its
    script (``zh-cn``, ``zh-tw``)."""
    code = (code or "").strip().lower().replace("_", "-")
    return code if code in ("zh-cn", "zh-tw") else code.split("-")[0]


def _language_code(code: str) -> str:
    """``fr_FR`` (Sphinx, Pelican, gettext) is ``fr-FR`` to hreflang."""
    return code.strip().replace("_", "-")
