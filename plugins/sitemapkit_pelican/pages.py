"""A file Pelican wrote -> a sitemapkit ``Page``, at the URL Pelican links it by."""

from __future__ import annotations

import os
import posixpath
from collections.abc import Callable, Iterator, Mapping
from typing import Any, NamedTuple

from pelican.contents import Article, Content

from sitemapkit import Page, Problem
from sitemapkit.build.page_keys import with_defaults
from sitemapkit.dates import authored
from sitemapkit.model import Moment
from sitemapkit.pages import fold_index, url_from_root
from sitemapkit.served import listed_url
from sitemapkit.translations import folder_prefix
from sitemapkit.urls import absolute

from .options import Options, absolute_dir

_NONE: Mapping[str, Any] = {}
_LEFT_OUT: Mapping[str, Any] = {"sitemap": False}
# Page-level keys pelican-sitemap read from metadata ("ChangeFreq:", "Priority:").
_LEGACY_PAGE_KEYS = {"changefreq": "sitemap_changefreq", "priority": "sitemap_priority"}


def is_public(content: Content) -> bool:
    """Published, and not marked ``Private: true`` (drafts, hidden pages and skips are not)."""
    private = str(content.metadata.get("private", "")).strip().lower()
    return getattr(content, "status", "published") == "published" and private not in ("true", "yes", "1")


class Written(NamedTuple):
    """One file written: by which run (its output folder: an i18n sub-site writes into ``fr/``);
    the article or page (its ``id``) and the site URL it was rendered with (its rendering is
    memoized by it); or, for an index page, its URL as Pelican links it and what it lists."""

    path: str
    run_output: str
    content: int | None
    siteurl: str = ""
    url: str | None = None
    listed: tuple[int, ...] = ()
    lang: str | None = None


class Collected:
    """Each file written, in plain values (strings, numbers): Python's cycle collector stops
    tracking such tuples, so keeping thousands through a build costs its collections nothing.
    The articles and pages they name are kept once, in ``objects``."""

    def __init__(self) -> None:
        self.files: dict[str, tuple[Any, ...]] = {}
        """Written path -> the rest of its ``Written`` fields, in their order."""
        self.objects: dict[int, Content] = {}
        self.index_urls: dict[str, str] = {}
        """Written path -> URL of the index pages Pelican writes without a paginator."""
        self.static: dict[str, Mapping[str, Any]] = {}
        """Run output -> that run's ``static_content`` (source path -> static file)."""

    def add(self, path: str, context: Mapping[str, Any]) -> None:
        run_output = absolute_dir(context["OUTPUT_PATH"])
        self.static.setdefault(run_output, context.get("static_content") or {})
        content = context.get("article") or context.get("page")
        if isinstance(content, Content):
            self.objects[id(content)] = content
            self.files[path] = (run_output, id(content), content.get_siteurl())
            return
        listing = context.get("articles_page")
        if listing is not None:
            articles, url = listing.object_list, listing.url
        else:
            output_file = context["output_file"]
            # A page rendered from one of the site's own templates lists no articles.
            own = output_file in (context.get("TEMPLATE_PAGES") or {}).values()
            articles, url = () if own else context.get("articles") or (), self.index_urls.get(path) or output_file
        self.files[path] = (run_output, None, "", url, tuple(map(id, articles)), context.get("DEFAULT_LANG"))

    def written(self) -> list[Written]:
        return [Written(path, *values) for path, values in self.files.items()]


def site_pages(collected: Collected, main_output: str, options: Options,
               warn: Callable[[Problem], None]) -> Iterator[Page]:
    """The pages of the files written, in order; drafts, hidden and private content and
    SITEMAP's excludes as pages with ``sitemap: false``, which the core leaves out."""
    site = _Site(collected, absolute_dir(main_output), options, warn)
    for file in collected.written():
        yield site.content_page(file) if file.content is not None else site.index_page(file)


class _Site:
    """What making the pages of one build needs at hand."""

    def __init__(self, collected: Collected, main_output: str, options: Options,
                 warn: Callable[[Problem], None]) -> None:
        self.main_output, self.options, self.objects, self.warn = main_output, options, collected.objects, warn
        self.static = collected.static
        self.urls = {file.content: self.url(file, _linked(self.objects[file.content], file.path))
                     for file in collected.written() if file.content is not None}
        self.dates: dict[int, tuple[Moment | None, Moment | None]] = {}
        self.listed: dict[tuple[int, ...], tuple[Moment | None, ...]] = {}

    def url(self, file: Written, linked: str | None) -> str:
        """``linked`` (Pelican's URL, relative to its run's SITEURL) from the main site root,
        or where the file was written when no written file serves that."""
        written = fold_index(self.name(file.path))
        if linked is None:
            return written
        prefix = folder_prefix(file.run_output, self.main_output)
        url, problem = listed_url(self.main_output, url_from_root(prefix, linked),
                                  written, generator="Pelican", fix="set the matching *_URL setting to fix links")
        if problem is not None:
            self.warn(problem)
        return url

    def name(self, path: str) -> str:
        """A written file's path from the main site's root (Pelican's paths are absolute)."""
        return path[len(self.main_output) + 1 :].replace(os.sep, "/")

    def date(self, key: int) -> tuple[Moment | None, Moment | None]:
        """An article's (date, last change) from its metadata; dates Pelican took from the file's
        mtime (``DEFAULT_DATE = "fs"``) are not metadata and are left to git or the fingerprint."""
        if key not in self.dates:
            content = self.objects.get(key)
            fs = content is not None and content.settings.get("DEFAULT_DATE") == "fs"
            date, modified = (authored(getattr(content, name, None), content.source_path) if fs
                              else getattr(content, name, None) for name in ("date", "modified"))
            self.dates[key] = (date, modified or date)
        return self.dates[key]

    def index_page(self, file: Written) -> Page:
        url = self.url(file, file.url or "")
        listed = self.listed.get(file.listed)
        if listed is None:
            listed = self.listed[file.listed] = tuple(self.date(key)[1] for key in file.listed)
        return Page(
            url=url,
            output=file.path,
            content="",  # a listing: what it lists is on the articles' own pages
            meta=_LEFT_OUT if self.options.excluded(url) else self.options.kind_meta.get("indexes", _NONE),
            lang=file.lang,
            listed=listed,
            name=self.name(file.path),
        )

    def content_page(self, file: Written) -> Page:
        content, options, url = self.objects[file.content], self.options, self.urls[file.content]
        name = os.path.relpath(content.source_path, absolute_dir(content.settings["PATH"]))
        if not is_public(content) or options.excluded(url):
            return Page(url=url, source=content.source_path, output=file.path, meta=_LEFT_OUT, name=name)
        prefix = folder_prefix(file.run_output, self.main_output)
        published, modified = self.date(file.content)
        kind = "articles" if isinstance(content, Article) else "pages"
        return Page(
            url=url,
            source=content.source_path,
            output=file.path,
            content=f"<h1>{content.title}</h1>\n{content.get_content(file.siteurl)}",
            meta=with_defaults(content.metadata, options.kind_meta.get(kind, _NONE), _LEGACY_PAGE_KEYS),
            title=getattr(content, "title", None),
            lang=getattr(content, "lang", None),
            translations={t.lang: self.urls.get(id(t)) or url_from_root(prefix, t.url)
                          for t in content.translations if is_public(t)},
            published=published,
            modified=modified,
            images=tuple(self.image(content, file.run_output, prefix)),
            name=name,
        )

    def image(self, content: Content, run_output: str, prefix: str) -> Iterator[str]:
        """``Image:``/``Cover:`` metadata; ``{static}``/``{attach}`` paths name the static file."""
        for key in ("image", "cover"):
            value = content.metadata.get(key)
            if not isinstance(value, str) or not value.strip():
                continue
            value = value.strip()
            for marker in ("{static}", "{attach}", "{filename}"):
                if value.startswith(marker):
                    path = value[len(marker) :]
                    path = path[1:] if path.startswith("/") else posixpath.join(content.relative_dir, path)
                    static = self.static.get(run_output, {}).get(posixpath.normpath(path))
                    value = static.url if static is not None else path
            yield absolute(self.options.settings.base_url or "", url_from_root(prefix, value))


def _linked(content: Content, path: str) -> str | None:
    """``content.url``, or None when it is plainly where the file was written (Pelican's
    defaults; reading the settings is far cheaper than the ``url`` property)."""
    kind = f"{type(content).__name__.upper()}_{'' if content.in_default_lang else 'LANG_'}"
    url, save_as = content.settings.get(kind + "URL"), content.settings.get(kind + "SAVE_AS")
    own = hasattr(content, "override_url") or hasattr(content, "override_save_as")
    if not own and isinstance(url, str) and (save_as == url or (url.endswith("/") and save_as == url + "index.html")):
        return None
    return content.url
