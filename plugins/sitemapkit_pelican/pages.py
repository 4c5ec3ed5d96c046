"""A file Pelican wrote -> a sitemapkit ``Page``, at the URL Pelican links it by."""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import Any, NamedTuple
from urllib.parse import urljoin, urlsplit

from pelican.contents import Article, Content

from sitemapkit import Page
from sitemapkit.dates import newest
from sitemapkit.model import Moment
from sitemapkit.urls import absolute, path_for_file

from .options import Options

_PRIVATE = {"true", "yes", "1"}
_SRC = re.compile(r'src="([^"]*)"')
# Page-level keys pelican-sitemap read from metadata ("ChangeFreq:", "Priority:").
_LEGACY_PAGE_KEYS = {"changefreq": "sitemap_changefreq", "priority": "sitemap_priority"}
_NONE: Mapping[str, Any] = MappingProxyType({})


def is_public(content: Content) -> bool:
    """Published, and not marked ``Private: true`` (drafts, hidden pages and skips are not)."""
    if getattr(content, "status", "published") != "published":
        return False
    private = content.metadata.get("private")
    return private is None or str(private).strip().lower() not in _PRIVATE


class Written(NamedTuple):
    """What ``content_written`` said about one file. The pages are made in one go at the end,
    where the work runs far faster than spread between Pelican's renders."""

    path: str
    run_output: str
    """The output folder of the run that wrote it (an i18n sub-site writes into ``fr/``)."""
    content: int | None
    """The article or page written (its ``id``, see ``Collected``), if any."""
    siteurl: str = ""
    """The site URL the content was rendered with (its rendering is memoized by it)."""
    url: str | None = None
    """An index page's URL relative to its run, or None: served where it was written."""
    listed: tuple[int, ...] = ()
    """The articles an index page lists (their ``id``)."""
    lang: str | None = None


class Collected:
    """Each file written, in plain values: strings, numbers, dates.

    The articles and pages they name are kept once, in ``objects``. Python's cycle
    collector stops tracking a tuple of plain values, so thousands of them kept through a
    build add nothing to its full collections; tuples holding the content objects stay
    tracked, and on a 2,000-article blog they pushed Pelican into one full collection more
    (40 ms) than it makes alone.
    """

    def __init__(self) -> None:
        self.files: dict[str, tuple[Any, ...]] = {}
        """Written path -> the rest of its ``Written`` fields, in their order."""
        self.objects: dict[int, Content] = {}
        self.index_urls: dict[str, str] = {}
        """Written path -> URL of the index pages Pelican writes without a paginator."""
        self._lists: dict[int, tuple[Sequence[Content], tuple[int, ...]]] = {}

    def add(self, path: str, context: Mapping[str, Any]) -> None:
        content = context.get("article") or context.get("page")
        if isinstance(content, Content):
            self.objects[id(content)] = content
            self.files[path] = (context["OUTPUT_PATH"], id(content), content.get_siteurl())
            return
        listing = context.get("articles_page")
        if listing is not None:
            listed = tuple(map(id, listing.object_list))
            in_place = _paginated_in_place(tuple(listing.settings["PAGINATION_PATTERNS"]))
            url = None if in_place else listing.url
        else:
            output_file = context["output_file"]
            # A page rendered from one of the site's own templates lists no articles.
            own_template = output_file in (context.get("TEMPLATE_PAGES") or {}).values()
            listed = self._ids(() if own_template else context.get("articles") or ())
            url = self.index_urls.get(path) or output_file
        self.files[path] = (context["OUTPUT_PATH"], None, "", url, listed, context.get("DEFAULT_LANG"))

    def _ids(self, articles: Sequence[Content]) -> tuple[int, ...]:
        """The ids of a run's article list, worked out once for the pages that list it all."""
        known = self._lists.get(id(articles))
        if known is None or known[0] is not articles:
            known = self._lists[id(articles)] = (articles, tuple(map(id, articles)))
        return known[1]

    def written(self) -> list[Written]:
        return [Written(path, *values) for path, values in self.files.items()]


def site_pages(collected: Collected, main_output: str, options: Options) -> Iterator[Page]:
    """The pages of the files written, in order, leaving out what stays out."""
    site = _Site(collected, main_output, options)
    for file, prefix in site.files:
        page = site.content_page(file, prefix) if file.content is not None else site.index_page(file, prefix)
        if page is not None:
            yield page


class _Changed(dict):
    """Each article's last change (``modified``, else ``date``) by its id, read once: home,
    archives, categories, tags and authors list the same articles again and again."""

    def __init__(self, objects: Mapping[int, Content]) -> None:
        super().__init__()
        self.objects = objects

    def __missing__(self, key: int) -> Moment | None:
        content = self.objects.get(key)
        found = getattr(content, "modified", None) or getattr(content, "date", None)
        self[key] = found
        return found


class _Site:
    """What making the pages of one build needs at hand."""

    def __init__(self, collected: Collected, main_output: str, options: Options) -> None:
        self.main_output, self.options, self.objects = main_output, options, collected.objects
        self.files = [(file, _prefix(file.run_output, main_output)) for file in collected.written()]
        self.urls = {
            file.content: _url(file, self.objects[file.content], prefix, main_output)
            for file, prefix in self.files if file.content is not None
        }
        self.changed = _Changed(self.objects)
        self.newest_of: dict[int, Moment | None] = {}  # listings share their article lists

    def index_page(self, file: Written, prefix: str) -> Page | None:
        where = file.url
        url = path_for_file(_in_site(file.path, self.main_output)) if where is None else _site_url(prefix, where)
        if self.options.excluded(url):
            return None
        listed = file.listed
        if id(listed) not in self.newest_of:
            self.newest_of[id(listed)] = newest(map(self.changed.__getitem__, listed))
        return Page(
            url=url,
            output=file.path,
            content="",  # a listing: what it lists is on the articles' own pages
            meta=self.options.kind_meta.get("indexes", _NONE),
            lang=file.lang,
            modified=self.newest_of[id(listed)],
            name=_in_site(file.path, self.main_output),
        )

    def content_page(self, file: Written, prefix: str) -> Page | None:
        content, options, urls = self.objects[file.content], self.options, self.urls
        if not is_public(content):
            return None
        url = urls[file.content]
        if options.excluded(url):
            return None
        kind = "articles" if isinstance(content, Article) else "pages"
        return Page(
            url=url,
            source=content.source_path,
            output=file.path,
            content=f"<h1>{content.title}</h1>\n{content.get_content(file.siteurl)}",
            meta=_meta(content.metadata, options.kind_meta.get(kind, _NONE)),
            title=getattr(content, "title", None),
            lang=getattr(content, "lang", None),
            translations={
                t.lang: urls.get(id(t)) or _site_url(prefix, t.url)
                for t in content.translations if is_public(t)
            },
            published=getattr(content, "date", None),
            modified=self.changed[file.content],
            images=_images(content, options.settings.base_url, prefix),
            name=_relative(content.source_path, content.settings["PATH"]),
        )


def _url(file: Written, content: Content, prefix: str, main_output: str) -> str:
    """The URL Pelican links the content by: where it wrote it, when its URL and SAVE_AS
    settings agree on the place (the default, and cheaper to read than ``content.url``)."""
    kind = f"{type(content).__name__.upper()}_{'' if content.in_default_lang else 'LANG_'}"
    same = _same_place(content.settings.get(kind + "URL"), content.settings.get(kind + "SAVE_AS"))
    if same and not hasattr(content, "override_url") and not hasattr(content, "override_save_as"):
        return path_for_file(_in_site(file.path, main_output))
    return _site_url(prefix, content.url)


@functools.lru_cache(maxsize=16)
def _same_place(url: Any, save_as: Any) -> bool:
    if not isinstance(url, str) or not isinstance(save_as, str):
        return False
    return save_as == url or (url.endswith("/") and save_as == url + "index.html")


@functools.lru_cache(maxsize=16)
def _paginated_in_place(patterns: tuple[Any, ...]) -> bool:
    """Whether every PAGINATION_PATTERNS rule serves a page where it saves it (Pelican's
    default): a listing's URL is then where it was written, cheaper than the paginator's
    ``url``. Rules built from ``{url}`` and ``{save_as}`` may put the two apart."""
    return all(
        _same_place(url, save_as) and "{url}" not in url and "{save_as}" not in save_as
        for _, url, save_as in patterns
    )


def _in_site(path: str, main_output: str) -> str:
    """A written file's path from the main site's root (Pelican's paths are absolute)."""
    return path[len(main_output) + 1 :].replace(os.sep, "/")


def _relative(path: str, root: str) -> str:
    root = _folder(root)
    return path[len(root) :] if path.startswith(root) else path


@functools.lru_cache(maxsize=16)
def _folder(path: str) -> str:
    return path.rstrip(os.sep) + os.sep


@functools.lru_cache(maxsize=16)
def _prefix(output: str, main_output: str) -> str:
    """Where a run's output sits inside the main run's (i18n_subsites writes ``fr/`` there)."""
    relative = os.path.relpath(output, main_output).replace(os.sep, "/")
    return "" if relative == "." else relative + "/"


def _site_url(prefix: str, url: str) -> str:
    """``url`` (relative to its run's SITEURL, maybe ``../x.html``) from the main site root;
    ``index.html`` is served as its folder, so it is named so."""
    if "://" in url[:12]:
        return url
    if not prefix and not url.startswith(("/", ".")) and "?" not in url:
        return path_for_file(url)  # the usual case, without the cost of urljoin
    joined = urlsplit(urljoin("http://site/" + prefix, url.lstrip("/")))
    return path_for_file(joined.path.lstrip("/")) + (f"?{joined.query}" if joined.query else "")


def _meta(metadata: Mapping[str, Any], defaults: Mapping[str, Any]) -> Mapping[str, Any]:
    """The page's metadata, with pelican-sitemap's keys and SITEMAP's defaults under our names."""
    if not defaults and "changefreq" not in metadata and "priority" not in metadata:
        return metadata  # the usual case
    extra = {new: metadata[old] for old, new in _LEGACY_PAGE_KEYS.items() if old in metadata}
    extra = {**defaults, **extra}
    missing = {key: value for key, value in extra.items() if key not in metadata}
    return {**metadata, **missing} if missing else metadata


def _images(content: Content, base_url: str | None, prefix: str) -> tuple[str, ...]:
    """``Image:``/``Cover:`` metadata, ``{static}``/``{attach}`` links resolved as Pelican does."""
    if "image" not in content.metadata and "cover" not in content.metadata:
        return ()
    found = []
    for key in ("image", "cover"):
        value = content.metadata.get(key)
        if not isinstance(value, str) or not value.strip():
            continue
        value = value.strip()
        if value.startswith("{"):
            rendered = content._update_content(f'<img src="{value}">', "")
            value = next(iter(_SRC.findall(rendered)), value)
        found.append(absolute(base_url or "", _site_url(prefix, value)) if base_url else value)
    return tuple(found)
