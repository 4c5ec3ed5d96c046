"""Listing pages dated by what they list, for ``sitemapkit build`` on a folder of HTML.

A generator's listing pages (the home page, sections, tags and categories, archives, the
pages of a pagination) have no source of their own, or one without a date (Hugo's
``_index.md``, Jekyll's ``index.html``, or any source whose template loops over the site's
pages: Jekyll's ``archive.html``, ``layouts.LISTING_LOOP``): their content changes when a
page they list does. Each such page gets, as ``Page.listed``, the dates of the pages of the
same site that its main content links to (their front-matter date, else their source's last
commit) and its own source's last commit; its ``meta`` lastmod is then the newest of them
(see ``entries``). A page that links to no dated page keeps its own date (its source's commit).

What the main content holds is listed, not the theme's navigation around it; and of the
other listing pages it links to, only its own sections (a listing page one folder below it)
are listed: a tag cloud, or the tags printed under each post of a tag page, link to listing
pages that are no part of this one.
"""

from __future__ import annotations

import html
import os
import re
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path

from sitemapkit.dates import newest
from sitemapkit.lastmod.git import GitDates
from sitemapkit.model import Moment, Page
from sitemapkit.protocol import PAGE_READ_BYTES
from sitemapkit.settings import Settings
from sitemapkit.site.content import main_content
from sitemapkit.site.files import read_regular
from sitemapkit.sources.layouts import LISTING_LOOP
from sitemapkit.sources.matching import page_key
from sitemapkit.urls import resolve

_HREF = re.compile(rb"""<a\s[^>]*?\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""", re.IGNORECASE)
_FOLDER_PAGES = ("index", "_index")
"""Sources that build a folder's page, which may list the pages under it."""
_SOURCE_PEEK = 1 << 20
"""How much of a source is looked at for a loop over the site's pages."""


def listings_dated(pages: Iterable[Page], settings: Settings, source_dir: Path) -> list[Page]:
    """``with_listed``, the pages' sources dated by git (when ``settings.lastmod`` asks for
    git) from the history of ``source_dir``."""
    git = GitDates([source_dir])
    try:
        return with_listed(pages, settings.base_url,
                           lambda path: git.date(path) if "git" in settings.lastmod else None)
    finally:
        git.close()


def with_listed(pages: Iterable[Page], base_url: str, source_date: Callable[[str], Moment | None]) -> list[Page]:
    """``pages``, each listing page with ``listed`` filled. ``source_date(path)``: the last
    commit that changed a source file, or None."""
    pages = list(pages)
    by_key = {page_key(page.url): page for page in pages}
    listed: dict[str, tuple[Moment | None, ...]] = {}
    listings = [page for page in pages if _may_list(page)]
    listing_keys = {page_key(page.url) for page in listings}
    # Deeper pages first: a section is dated before the home page that lists it.
    for page in sorted(listings, key=lambda page: -page.url.count("/")):
        dates = {}
        for key in sorted(_linked_keys(page, base_url)):
            target = by_key.get(key)
            if target is None or target is page:
                continue
            if key in listing_keys and not _section_of(key, page_key(page.url)):
                continue  # a tag cloud's link, another tag of a listed post: not listed here
            if key in listed:
                moment = newest(listed[key])
            elif target.source is not None:
                moment = target.modified or source_date(os.fspath(target.source))
            else:
                moment = None
            if moment is not None:
                dates[key] = moment
        if dates:
            own = source_date(os.fspath(page.source)) if page.source is not None else None
            listed[page_key(page.url)] = (own, *dates.values())
    return [replace(page, listed=listed[key]) if (key := page_key(page.url)) in listed else page for page in pages]


def _may_list(page: Page) -> bool:
    """A page with no date of its own, built by no source or by a folder's source."""
    if page.modified is not None or page.listed or page.output is None:
        return False
    if page.source is None:
        return True
    stem = os.path.basename(os.fspath(page.source)).split(".")[0]
    return stem in _FOLDER_PAGES or _loops_over_pages(os.fspath(page.source))


def _loops_over_pages(source: str) -> bool:
    """Whether the source's template lists the site's pages (``layouts.LISTING_LOOP``)."""
    try:
        return LISTING_LOOP.search(read_regular(source, _SOURCE_PEEK)) is not None
    except OSError:
        return False


def _section_of(key: str, parent: str) -> bool:
    """Whether the page ``key`` is a section of the page ``parent``: one folder below it."""
    folder, _, name = key.rpartition("/")
    return bool(name) and folder == parent


def _linked_keys(page: Page, base_url: str) -> set[str]:
    """Page keys of the same site's pages that the page's main content links to."""
    try:
        data = read_regular(page.output, PAGE_READ_BYTES)
    except OSError:
        return set()
    page_url = base_url + page.url.lstrip("/")
    keys = set()
    for match in _HREF.finditer(main_content(data)):
        raw = next(group for group in match.groups() if group is not None)
        href = html.unescape(raw.decode("utf-8", "replace")).strip()
        if not href or href.startswith(("#", "mailto:", "javascript:", "data:")):
            continue
        target = resolve(page_url, href).split("#", 1)[0].split("?", 1)[0]
        if target.startswith(base_url):
            keys.add(page_key(target[len(base_url):]))
    return keys
