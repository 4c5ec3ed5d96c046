"""The data that flows through sitemapkit.

``Page`` is what an adapter (or the folder scanner) hands to the core: one page as the
generator knows it. ``Entry`` and its parts are what the writer writes: already checked,
normalised values only (absolute percent-encoded URLs, aware-UTC datetimes or dates). The
parts most pages never have (``Video``, ``NewsArticle``, ``Alternate``) are defined in
``extensions.py`` and named here too.

No postponed annotations (a module of named tuples: see docs/development.md).
"""

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from sitemapkit.dates import Moment
from sitemapkit.extensions import Alternate, NewsArticle, Video

if TYPE_CHECKING:
    from sitemapkit.report import Problem

__all__ = ["Alternate", "Entry", "Image", "Moment", "NavItem", "NewsArticle", "Outline", "Page", "Video"]


@dataclass(slots=True, eq=False)  # Performance: never compared, so no __eq__ made at import (1 M instructions)
class Page:
    """One page of a built site, as an adapter sees it.

    ``url`` is the page's path relative to the site root, as the browser asks for it
    (``guide/``, ``blog/a.html``, ``""`` for the home page); an absolute URL is accepted too.
    ``html`` is the rendered page; when it is ``None`` and ``output`` names the written file,
    the core reads that file when it needs the HTML, so an adapter never has to keep every
    page in memory. ``meta`` carries the page-level keys of the contract (``sitemap``,
    ``sitemap_priority``, ``sitemap_video`` ...), flat or nested under ``sitemap``.

    The core never changes a page it is given (it makes a new one with
    ``dataclasses.replace``).
    """

    url: str
    source: str | os.PathLike[str] | None = None
    output: str | os.PathLike[str] | None = None
    html: str | None = None
    content: str | None = None
    """The page's own content, rendered (an article's body without the theme around it), when
    the adapter holds it already: images, videos and the fingerprint then come from it, and
    only the head of the written page is read (for robots, canonical and hreflang). ``""``
    says the page has no content of its own (an index listing other pages): no images, no
    fingerprint, and the page counts as changed when its lastmod moves."""
    meta: Mapping[str, Any] = field(default_factory=dict)
    title: str | None = None
    lang: str | None = None
    translations: Mapping[str, str] = field(default_factory=dict)
    """Other language versions of this page: language code -> URL (site-relative or absolute)."""
    published: Moment | None = None
    """When the page was first published (a blog post's date); news uses it."""
    modified: Moment | None = None
    """When the page last changed, by the generator's own metadata; the ``meta`` lastmod source."""
    listed: tuple[Moment | None, ...] = ()
    """For a page that lists other pages (an index, an archive, a tag or category page, one
    page of a pagination): the dates of what it lists, as the generator knows them. Its
    ``meta`` lastmod is the newest of them, unless ``modified`` says otherwise."""
    images: tuple[str, ...] = ()
    """Image URLs the adapter already knows (e.g. from a doctree), besides those in the HTML."""
    name: str | None = None
    """How messages name the page (its source path); defaults to ``url``."""
    depends_on: tuple[str | os.PathLike[str], ...] = ()
    """Other files the page is made from, as the generator records them (included files,
    literalinclude, autodoc's module sources, MkDocs snippets): paths as ``source`` takes
    them. The page's lastmod is the newest of its own date and theirs (see ``lastmod.py``)."""
    not_page: str | None = None
    """Why this written file is no page, as its generator knows it (``"generated index"``:
    Sphinx's genindex, search and module indexes; ``"error page"``: a theme's ``404.html``):
    it is left out, named in the summary and recorded as left out on purpose, so that
    ``validate --site-dir`` does not ask for it."""
    copied: bool = False
    """The generator copied this HTML file as it is, from no source it rendered (Pelican's
    static files, MkDocs' ``.html`` files in docs_dir): listed, or left out on purpose, as
    the ``static_html`` option says."""
    problems: "tuple[Problem, ...]" = ()
    """What the adapter found wrong with the page as it translated it (Pelican links it where
    no file serves it): reported and counted with the build's own warnings."""

    @property
    def label(self) -> str:
        return self.name or self.url or "/"


class Image(NamedTuple):
    """An ``<image:image>`` of an entry: the image's absolute URL."""

    loc: str


@dataclass(frozen=True, slots=True)
class Entry:
    """One ``<url>`` of a sitemap, every value already valid."""

    loc: str
    lastmod: Moment | None = None
    changefreq: str | None = None
    priority: float | None = None
    images: tuple[Image, ...] = ()
    videos: tuple[Video, ...] = ()
    news: NewsArticle | None = None
    alternates: tuple[Alternate, ...] = ()


class PlainEntry(NamedTuple):
    """The ``<url>`` of a page that is its written file alone, as a run of a folder's pages
    replayed together gives it to the writer: a tuple to make, where an ``Entry`` is a frozen
    dataclass only passed along. Read as an ``Entry`` is (it has each of its fields: no
    videos, news nor alternates) and writes the bytes ``Entry(*plain)`` writes."""

    loc: str
    lastmod: Moment | None
    changefreq: str | None
    priority: float | None
    images: tuple[Image, ...]
    videos = ()
    news = None
    alternates = ()


class NavItem(NamedTuple):
    """One place in a site's own navigation, as its generator shows it: a page, a heading over
    other items (a section, a caption), or both (a page with pages below it). Handed along to
    ``sitemap.html`` and ``llms.txt`` only: a named tuple, not a dataclass (made at import)."""

    title: str | None = None
    """As the navigation shows it; None: the page's own title."""
    url: str | None = None
    """The page, as ``Page.url`` gives it (site-relative or absolute); None: a heading only."""
    items: "tuple[NavItem, ...]" = ()
    """What is below it, in the site's order."""
    later: tuple[str, ...] = ()
    """The later pages of a list this page begins (a blog index's ``index2.html``,
    ``page/2/``): ``sitemap.html`` folds them into this one."""


class Outline(NamedTuple):
    """A site's navigation, handed to ``generate`` for ``sitemap.html``: its top-level items in
    the site's order, and the site's name (which page titles read from the HTML may carry,
    as in ``Install - My Docs``)."""

    items: tuple[NavItem, ...] = ()
    site_name: str | None = None
    name: str | None = None
    """The site's name as ``llms.txt``'s heading gives it, where ``site_name`` is a theme's
    longer title (Sphinx's ``project``, not its ``html_title``); None: ``site_name``."""
    description: str | None = None
    """The site's description, as its generator's configuration gives it (``llms.txt``'s summary)."""
