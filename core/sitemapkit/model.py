"""The data that flows through sitemapkit.

``Page`` is what an adapter (or the folder scanner) hands to the core: one page as the
generator knows it. ``Entry`` and its parts are what the writer writes: already checked,
normalised values only (absolute percent-encoded URLs, aware-UTC datetimes or dates). The
parts most pages never have (``Video``, ``NewsArticle``, ``Alternate``) are defined in
``extensions.py`` and named here too.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import FrozenInstanceError, dataclass, field
from datetime import date, datetime
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from .extensions import Alternate, NewsArticle, Video

Moment = date | datetime
"""A ``date``, or an aware ``datetime``: the two forms a sitemap date may take."""

_T = TypeVar("_T")
_set = object.__setattr__


def data(cls: type[_T]) -> type[_T]:
    """A dataclass (``fields``, ``replace`` and ``asdict`` work on it) with slots, whose
    ``__init__`` is written in the class and whose ``repr`` and ``==`` (frozen: hash and
    immutability too) come from ``Data`` or ``FrozenData``, as ``@dataclass`` makes them.

    Performance: ``@dataclass`` writes each class's ``__init__``, ``__repr__``, ``__eq__``
    (and, frozen, ``__hash__``, ``__setattr__``, ``__delattr__``) as text and compiles it at
    every import, which an adapter pays on every build; source is compiled once, into the
    ``.pyc`` (measured side by side: ``Entry`` 0.06 ms instead of 0.82; with ``Page``, ``Image``,
    ``Problem``, ``Report`` and ``Settings``, 0.6 ms instead of 5.8)."""
    return dataclass(init=False, repr=False, eq=False, slots=True)(cls)


class Data:
    """``repr`` and ``==`` over the fields, in their order (``__match_args__``), as
    ``@dataclass`` makes them; unhashable, as a mutable dataclass is."""

    __slots__ = ()
    __match_args__: tuple[str, ...]

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__match_args__)
        return f"{type(self).__qualname__}({shown})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return _values(self) == _values(other)

    __hash__ = None  # type: ignore[assignment]


class FrozenData(Data):
    """A frozen dataclass's: hashable, and fields that cannot be set or deleted; its
    ``__init__`` sets them with ``object.__setattr__``."""

    __slots__ = ()

    def __hash__(self) -> int:
        return hash(_values(self))

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __getstate__(self) -> list[object]:  # pickle and copy, past __setattr__
        return list(_values(self))

    def __setstate__(self, state: list[object]) -> None:
        for name, value in zip(self.__match_args__, state, strict=True):
            _set(self, name, value)


def _values(item: Data) -> tuple[object, ...]:
    return tuple(getattr(item, name) for name in item.__match_args__)


@data
class Page(Data):
    """One page of a built site, as an adapter sees it.

    ``url`` is the page's path relative to the site root, as the browser asks for it
    (``guide/``, ``blog/a.html``, ``""`` for the home page); an absolute URL is accepted too.
    ``html`` is the rendered page; when it is ``None`` and ``output`` names the written file,
    the core reads that file when it needs the HTML, so an adapter never has to keep every
    page in memory. ``meta`` carries the page-level keys of the contract (``sitemap``,
    ``sitemap_priority``, ``sitemap_video`` ...), flat or nested under ``sitemap``.

    The core never changes a page it is given (it makes a new one with
    ``dataclasses.replace``). Pages are not frozen: a frozen dataclass's ``__init__`` sets
    each field through ``object.__setattr__``, and at one page per file of a site that was
    most of the cost of making one.
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

    def __init__(
        self, url: str, source: str | os.PathLike[str] | None = None, output: str | os.PathLike[str] | None = None,
        html: str | None = None, content: str | None = None, meta: Mapping[str, Any] | None = None,
        title: str | None = None, lang: str | None = None, translations: Mapping[str, str] | None = None,
        published: Moment | None = None, modified: Moment | None = None, listed: tuple[Moment | None, ...] = (),
        images: tuple[str, ...] = (), name: str | None = None,
        depends_on: tuple[str | os.PathLike[str], ...] = (), not_page: str | None = None,
        copied: bool = False,
    ) -> None:
        self.url = url
        self.source = source
        self.output = output
        self.html = html
        self.content = content
        self.meta = {} if meta is None else meta
        self.title = title
        self.lang = lang
        self.translations = {} if translations is None else translations
        self.published = published
        self.modified = modified
        self.listed = listed
        self.images = images
        self.name = name
        self.depends_on = depends_on
        self.not_page = not_page
        self.copied = copied

    @property
    def label(self) -> str:
        return self.name or self.url or "/"


@data
class Image(FrozenData):
    """An ``<image:image>`` of an entry: the image's absolute URL."""

    loc: str

    def __init__(self, loc: str) -> None:
        _set(self, "loc", loc)


@data
class Entry(FrozenData):
    """One ``<url>`` of a sitemap, every value already valid."""

    loc: str
    lastmod: Moment | None = None
    changefreq: str | None = None
    priority: float | None = None
    images: tuple[Image, ...] = ()
    videos: tuple[Video, ...] = ()
    news: NewsArticle | None = None
    alternates: tuple[Alternate, ...] = ()

    def __init__(
        self, loc: str, lastmod: Moment | None = None, changefreq: str | None = None, priority: float | None = None,
        images: tuple[Image, ...] = (), videos: tuple[Video, ...] = (), news: NewsArticle | None = None,
        alternates: tuple[Alternate, ...] = (),
    ) -> None:
        _set(self, "loc", loc)
        _set(self, "lastmod", lastmod)
        _set(self, "changefreq", changefreq)
        _set(self, "priority", priority)
        _set(self, "images", images)
        _set(self, "videos", videos)
        _set(self, "news", news)
        _set(self, "alternates", alternates)


def __getattr__(name: str) -> type:
    # Performance: the dataclasses of extensions.py are made when first named, not on every
    # import (measured: 16 M instructions, about 2 ms, of the MkDocs adapter's 140 M import).
    if name in ("Alternate", "NewsArticle", "Video"):
        from . import extensions

        return getattr(extensions, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
