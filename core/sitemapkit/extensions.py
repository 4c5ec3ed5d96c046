"""The parts of an ``Entry`` from the sitemap extensions most pages never have: videos,
news articles and language alternates (images, which most sites have, are in ``model.py``).
``sitemapkit.model`` names them too. Named tuples, not dataclasses: most builds make none, and
a dataclass costs ten times more to define when sitemapkit is imported."""

from typing import NamedTuple

from sitemapkit.dates import Moment


class Video(NamedTuple):
    """A video on a page. Field names are those of Google's video sitemap extension."""

    thumbnail_loc: str
    title: str
    description: str
    content_loc: str | None = None
    player_loc: str | None = None
    duration: int | None = None
    expiration_date: Moment | None = None
    rating: float | None = None
    view_count: int | None = None
    publication_date: Moment | None = None
    tags: tuple[str, ...] = ()
    family_friendly: bool | None = None
    restriction: tuple[str, tuple[str, ...]] | None = None
    """``("allow" | "deny", country codes)``."""
    requires_subscription: bool | None = None
    uploader: str | None = None
    uploader_info: str | None = None
    platform: tuple[str, tuple[str, ...]] | None = None
    """``("allow" | "deny", platforms)``, platforms from ``web``, ``mobile``, ``tv``."""
    live: bool | None = None


class NewsArticle(NamedTuple):
    publication_name: str
    language: str
    publication_date: Moment
    title: str


class Alternate(NamedTuple):
    hreflang: str
    href: str
