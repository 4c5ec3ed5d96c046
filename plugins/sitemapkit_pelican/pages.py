"""What a Pelican run wrote -> sitemapkit ``Page``s, at the URLs Pelican links them by."""

from __future__ import annotations

import os
import posixpath
from collections.abc import Iterator, Mapping
from datetime import datetime
from typing import Any

from pelican.contents import Article, Content
from pelican.utils import SafeDatetime

from sitemapkit import Page, Problem
from sitemapkit.compat.pelican_sitemap import PelicanSitemap, public
from sitemapkit.dates import authored
from sitemapkit.model import Moment
from sitemapkit.site.pages import HTML_SUFFIXES, fold_index, url_from_root
from sitemapkit.site.served import listed_url
from sitemapkit.translations import folder_prefix
from sitemapkit.urls import absolute

IMAGE_KEYS = ("image", "cover")
"""The metadata naming a page's image (``Image:``, ``Cover:``)."""


class Run:
    """What one run (the main site, or an i18n sub-site in a folder of its output) wrote, in plain
    values, which Python's cycle collector stops tracking: thousands cost its collections nothing."""

    def __init__(self, generator: Any, main: str | None) -> None:
        self.generator, self.output = generator, os.path.abspath(generator.output_path)
        self.main = main or self.output
        self.prefix = folder_prefix(self.output, self.main)  # "" or "fr/"
        self.source_root = os.path.abspath(generator.settings["PATH"]) + os.sep
        self.static: Mapping[str, Any] = generator.context.get("static_content", {})
        self.objects: dict[int, Content] = {}
        self.files: dict[str, tuple[Any, ...]] = {}
        # written path -> (id of its article or page, its head, the site URL it was rendered with),
        # or for an index page (None, its head, its URL, the id of each article it lists, its language)
        settings = generator.settings  # the URLs of the index pages written without a paginator:
        found = {settings.get(f"{t.upper()}_SAVE_AS", f"{t}.html"): settings.get(f"{t.upper()}_URL", f"{t}.html")
                 for t in settings["DIRECT_TEMPLATES"]}
        # Pelican 4.8 keeps no period_archives: its year/month/day archives are listed where written
        for periods in getattr(generator, "period_archives", {}).values():
            found.update((period["save_as"], period["url"]) for period in periods)
        for kind, group in (("TAG", generator.tags), ("CATEGORY", (c for c, _ in generator.categories)),
                            ("AUTHOR", (a for a, _ in generator.authors))):
            # (a kind linked where it is saved, as by default: its items' two properties, each a
            # formatting, are not asked)
            if not _saved_where_linked(settings, kind):
                found.update((item.save_as, item.url) for item in group)
        self.index_urls = {os.path.join(self.output, save_as): url for save_as, url in found.items() if save_as}
        # A pagination rule whose URL is its SAVE_AS links each page where it is written: the
        # URL need not be asked for (a property that formats a pattern each time it is read).
        self.paged_as_saved = all(rule[1] == rule[2] for rule in settings["PAGINATION_PATTERNS"])
        self.later: dict[str, list[str]] = {}
        """The first page of each paginated list -> the paths of its later pages (``index2.html``)."""
        self.paginator, self.first = None, ""  # the list whose later pages are being written, its first page
        self.fs_dates = settings.get("DEFAULT_DATE") == "fs"
        self.linked_as_saved: dict[tuple[type, bool], bool] = {}
        """Whether a kind of content (an article, a page, a translation of either) is linked where
        it is written, by the run's settings (``linked_url``): asked once a kind."""

    def add(self, path: str, context: Mapping[str, Any], head: str | None = None) -> None:
        """``head``: the page as rendered, up to its body (None: read it from the file)."""
        content = context.get("article") or context.get("page")
        if isinstance(content, Content):
            self.objects[id(content)] = content
            self.files[path] = (id(content), head, content.get_siteurl())
            return
        listing = context.get("articles_page")
        if listing is not None:
            articles = listing.object_list
            base_url = getattr(listing, "base_url", None)
            if listing.number == 1 and base_url and context["output_file"] == getattr(listing, "full_name", None):
                url = base_url  # the first page, written where the list is saved: where the site links the list
            else:
                url = None if self.paged_as_saved else listing.url
            if listing.number > 1:
                paginator = context["articles_paginator"]
                if paginator is not self.paginator:  # Performance: its first page's path once a list, not
                    # once a page (a Page made, its save_as formatted: 250 -> 210 M instructions, 1,000 pages)
                    first = os.path.abspath(os.path.join(self.output, paginator.page(1).save_as))
                    self.paginator, self.first = paginator, first
                self.later.setdefault(self.first, []).append(path)
        else:  # a page made from one of the site's own templates lists no articles
            own = context["output_file"] in (context.get("TEMPLATE_PAGES") or {}).values()
            articles, url = () if own else context.get("articles") or (), self.index_urls.get(path)
        self.files[path] = (None, head, url or context["output_file"], tuple(map(id, articles)),
                            context.get("DEFAULT_LANG"))

    def linked_url(self, content: Content) -> str | None:
        """``content.url``, or None when it is plainly where the file was written (Pelican's
        defaults; reading the settings, once a kind of content, is far cheaper than the ``url``
        property)."""
        kind = (type(content), content.in_default_lang)
        as_saved = self.linked_as_saved.get(kind)
        if as_saved is None:
            as_saved = self.linked_as_saved[kind] = _linked_as_saved(content)
        if as_saved and not (hasattr(content, "override_url") or hasattr(content, "override_save_as")):
            return None
        return content.url

    def url(self, path: str, linked: str | None) -> tuple[str, tuple[Problem, ...]]:
        """Where to list the file at ``path``: Pelican's link to it (``linked``, from the run's
        SITEURL; None: where it was written) from the main site's root, if a file serves it;
        and the problem that says it is not, which goes with the page."""
        written = fold_index(path[len(self.main) + 1 :].replace(os.sep, "/"))
        if linked is None or linked == path[len(self.output) + 1 :].replace(os.sep, "/"):
            return written, ()
        url, problem = listed_url(self.main, url_from_root(self.prefix, linked), written,
                                  generator="Pelican", fix="set the matching *_URL setting to fix links")
        return url, (problem,) if problem is not None else ()


def site_pages(runs: list[Run], options: PelicanSitemap) -> Iterator[Page]:
    """The pages of what ``runs`` wrote, in order, then the HTML files they copied; drafts,
    hidden and private content and ``SITEMAP``'s excludes among them with ``sitemap: false``,
    which the core leaves out."""
    urls, problems, dates = {}, {}, {}  # by the id of each article and page written
    for run in runs:
        for path, (key, *_) in run.files.items():
            if key is not None:
                urls[key], problems[key] = run.url(path, run.linked_url(run.objects[key]))
                dates[key] = _dates(run.objects[key], run.fs_dates)
    changed = {key: modified for key, (_, modified) in dates.items()}  # what index pages list, looked up in one pass
    for run in runs:
        for path, (key, head, *rest) in run.files.items():
            if key is None:
                linked, listed, lang = rest
                url, found = run.url(path, linked)
                yield Page(url=url, output=path, html=head, content="", meta=options.meta("indexes", url), lang=lang,
                           listed=tuple(map(changed.get, listed)), problems=found,
                           name=path[len(run.main) + 1 :].replace(os.sep, "/"))
                continue
            (siteurl,), content, url, (published, modified) = rest, run.objects[key], urls[key], dates[key]
            meta = content.metadata
            # Performance: no comprehension run for what most pages lack (84 -> 75 M instructions, 1,000 articles)
            yield Page(
                url=url, source=content.source_path, output=path, html=head, title=content.title,
                name=content.source_path.removeprefix(run.source_root), lang=getattr(content, "lang", None),
                content=f"<h1>{content.title}</h1>\n{content.get_content(siteurl)}",
                meta=options.meta("articles" if isinstance(content, Article) else "pages", url, meta, content.status),
                translations={t.lang: urls.get(id(t)) or url_from_root(run.prefix, t.url)
                              for t in content.translations if public(t.status, t.metadata)}
                if content.translations else {},
                published=published, modified=modified, problems=problems[key],
                images=tuple(absolute(options.settings.base_url, url_from_root(run.prefix, _image(value, content, run)))
                             for value in map(meta.get, IMAGE_KEYS) if isinstance(value, str) and value.strip())
                if not meta.keys().isdisjoint(IMAGE_KEYS) else (),
            )
    yield from _static_html(runs)


def _static_html(runs: list[Run]) -> Iterator[Page]:
    """The HTML files Pelican copied as they are (``STATIC_PATHS``: a demo page under
    ``content/media/``), each once; the core lists them or not by ``static_html``."""
    seen = set()
    for run in runs:
        as_path = run.generator.settings.get("STATIC_SAVE_AS") == "{path}"
        for static in run.static.values():
            if as_path and not _may_be_html(static):
                continue
            save_as = getattr(static, "save_as", None) or ""
            path = os.path.join(run.output, save_as)
            if not save_as.endswith(HTML_SUFFIXES) or path in seen or not os.path.isfile(path):
                continue
            seen.add(path)
            url, found = run.url(path, static.url)
            yield Page(url=url, source=static.source_path, output=path, copied=True, problems=found,
                       name=static.source_path.removeprefix(run.source_root))


def _may_be_html(static: Any) -> bool:
    """Whether a static file Pelican saves at its ``{path}`` (``STATIC_SAVE_AS``'s default) may be
    saved as HTML: its own ``save_as``, else the ``path`` its metadata gives it
    (``EXTRA_PATH_METADATA``), else its source's name, ends as one. Performance: Pelican works out
    ``save_as`` anew each time it is read, from a copy of the file's metadata and the clock
    (measured: 41 µs a file), and a site's images are most of its static files."""
    if not static.in_default_lang:
        return True  # (saved by STATIC_LANG_SAVE_AS: asked)
    name = getattr(static, "override_save_as", None) or static.metadata.get("path") or static.source_path
    return not isinstance(name, str) or name.endswith(HTML_SUFFIXES)


def _dates(content: Content, fs_dates: bool) -> tuple[Moment | None, Moment | None]:
    """(published, last changed); a date Pelican took from the file (``fs_dates``: its
    ``DEFAULT_DATE = "fs"``) is none."""
    published, modified = _datetime(getattr(content, "date", None)), _datetime(getattr(content, "modified", None))
    if fs_dates:
        published, modified = authored(published, content.source_path), authored(modified, content.source_path)
    return published, modified or published


def _datetime(moment: Moment | None) -> Moment | None:
    """Pelican's ``SafeDatetime`` as the ``datetime`` it is. Performance: zoneinfo reads a subclass's
    fields one attribute at a time each time it works out the offset, which formatting and hashing
    a date do (measured: formatting it 31.6 k instructions, against 3.0 k for the copy and 20.8 k)."""
    return datetime.combine(moment.date(), moment.timetz()) if type(moment) is SafeDatetime else moment


def _image(value: str, content: Content, run: Run) -> str:
    """``Image:``/``Cover:`` metadata; a ``{static}``/``{attach}`` path names the static file."""
    value = value.strip()
    for marker in ("{static}", "{attach}", "{filename}"):
        if value.startswith(marker):
            path = value[len(marker) :]
            path = path[1:] if path.startswith("/") else posixpath.join(content.relative_dir, path)
            static = run.static.get(posixpath.normpath(path))
            value = static.url if static is not None else path
    return value


def _linked_as_saved(content: Content) -> bool:
    """Whether the settings link ``content``'s kind where they save it (``ARTICLE_URL`` and
    ``ARTICLE_SAVE_AS``, or ``ARTICLE_LANG_*`` for a translation, name the same file)."""
    kind = type(content).__name__.upper() + ("" if content.in_default_lang else "_LANG")
    return _saved_where_linked(content.settings, kind)


def _saved_where_linked(settings: Mapping[str, Any], kind: str) -> bool:
    """Whether the settings' ``{kind}_URL`` and ``{kind}_SAVE_AS`` name the same file (``TAG``:
    ``tag/{slug}.html`` both, as by default; or ``tag/{slug}/`` and its ``index.html``)."""
    url, save_as = settings.get(f"{kind}_URL"), settings.get(f"{kind}_SAVE_AS")
    return isinstance(url, str) and (save_as == url or (url.endswith("/") and save_as == url + "index.html"))
