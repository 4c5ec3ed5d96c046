"""``sitemap.html``'s sections: the sitemap's URLs arranged as the site's own navigation shows
them (an adapter's ``Outline``), the rest after them; by folder when there is no outline.

The page shows what the sitemap lists: only its URLs are links, each once. A page the outline
names but the sitemap leaves out is not shown (a heading over other pages stays, as text). The
later pages of a list (``index2.html``, ``page/2/``) are folded into its first page. Titles are
the site's: the outline's, else the page's own (from its generator), else its HTML
``<title>`` without the site's name around it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple
from urllib.parse import unquote

from sitemapkit.model import NavItem, Outline
from sitemapkit.urls import URLError, site_loc


class Link(NamedTuple):
    path: str
    """Below the site root, where the page is: ``guide/install/``, ``""`` for home."""
    href: str | None
    """``./`` and the path (``./guide/install/``), as ``urls.link_href`` allows; None when it
    does not, and the page shows the title as text."""
    loc: str
    title: str
    lastmod: str | None
    """``YYYY-MM-DD``, for people."""
    read: bool = False
    """``title`` was read from the page's HTML ``<title>`` (it may carry the site's name)."""
    lists: bool = False
    """The page lists others (tags, an archive, a page of a list): ``llms.txt`` puts it under ``Optional``."""


class Item(NamedTuple):
    """One line of the map: a page (``link``), or a heading of the navigation with no page in
    the sitemap (``link`` None), and what is below it."""

    title: str
    link: Link | None
    items: list[Item]


class Section(NamedTuple):
    """A heading (``title`` None: top-level pages that have none) and its items; ``link``: the
    section's own page, when the sitemap lists it."""

    title: str | None
    link: Link | None
    items: list[Item]


OTHER_PAGES = "Other pages"
"""The heading of the sitemap's top-level URLs the site's navigation does not name (those in
folders follow, by folder)."""
_HOME = ("", "index.html", "index.htm")
_SEPARATORS = (" - ", " \u2014 ", " \u2013 ", " | ", " \u00b7 ", " :: ")
# The later pages of a list, by the common pagination pattern (Hugo, Jekyll, Material's blog):
# ``blog/page/2/`` folds into ``blog/`` when the sitemap lists that.
_PAGE_N = re.compile(r"(?P<first>(?:.*/)?)page/[1-9][0-9]*/(?:index\.html?)?")


def own_title(title: str, site_name: str | None) -> str:
    """``title`` without the site's name the theme put around it (``Install - My Docs``,
    ``My Blog - Tags``, ``Intro — Project 1.0 documentation``); a title that is only the
    site's name stays as it is."""
    title = " ".join(title.split())
    name = " ".join(site_name.split()) if site_name else ""
    if not name:
        return title
    for separator in _SEPARATORS:
        if title.endswith(separator + name) and len(title) > len(separator + name):
            return title[: -len(separator + name)].strip()
        if title.startswith(name + separator) and len(title) > len(name + separator):
            return title[len(name + separator):].strip()
    return title


def arrange(links: list[Link], outline: Outline | None, base_url: str) -> list[Section]:
    """The sections of the map: by ``outline`` when there is one, else by folder."""
    site_name = outline.site_name if outline is not None and outline.site_name else _home_title(links)
    folded = _folded(links, outline, base_url)
    shown = [link for link in links if link.loc not in folded]
    home = next((_title(link, site_name) for link in shown if link.path in _HOME), None)
    if outline is None or not outline.items:
        return _by_folder(shown, site_name, home)
    return _Arranger(shown, base_url, site_name, home).sections(outline.items)


def _home_title(links: Iterable[Link]) -> str | None:
    """The site's name where no adapter gives it: the home page's HTML title."""
    return next((link.title for link in links if link.path in _HOME and link.read), None)


def _folded(links: list[Link], outline: Outline | None, base_url: str) -> set[str]:
    """The locs of later pages of a list: those the outline names, and ``page/N/`` below a
    page the sitemap lists."""
    folded: set[str] = set()
    pending = list(outline.items) if outline is not None else []
    while pending:
        item = pending.pop()
        pending.extend(item.items)
        folded.update(loc for loc in map(lambda url: _loc(base_url, url), item.later) if loc is not None)
    paths = {link.path for link in links}
    for link in links:
        found = _PAGE_N.fullmatch(link.path)
        if found is not None and found["first"] in paths:
            folded.add(link.loc)
    return folded


def _loc(base_url: str, url: str | None) -> str | None:
    if url is None:
        return None
    try:
        return site_loc(base_url, url)
    except URLError:
        return None


def _title(link: Link, site_name: str | None) -> str:
    return own_title(link.title, site_name) if link.read else link.title


class _Arranger:
    """Walks the outline once, taking each listed URL the first time it is named."""

    def __init__(self, links: list[Link], base_url: str, site_name: str | None, home: str | None) -> None:
        self.links = {link.loc: link for link in links}
        self.order = links
        self.base_url, self.site_name, self.home = base_url, site_name, home
        self.used: set[str] = set()

    def sections(self, items: Iterable[NavItem]) -> list[Section]:
        found: list[Section] = []
        loose: list[Item] = []
        for nav in items:
            item = self.item(nav, 0)
            if item is None:
                continue
            if item.items or item.link is None:  # a heading over pages: a section of its own
                if loose:
                    found.append(Section(None, None, loose))
                    loose = []
                found.append(Section(item.title, item.link, item.items))
            else:
                loose.append(item)
        if loose:
            found.append(Section(None, None, loose))
        # The rest by folder (another language's pages, a folder the navigation leaves out),
        # its top-level pages under "Other pages".
        rest = _by_folder([link for link in self.order if link.loc not in self.used], self.site_name, self.home,
                          {section.title for section in found if section.title} | {OTHER_PAGES})
        if rest and rest[0].title is None:
            rest[0] = rest[0]._replace(title=OTHER_PAGES if found else "Pages")
        return found + rest

    def item(self, nav: NavItem, depth: int) -> Item | None:
        loc = _loc(self.base_url, nav.url)
        link = self.links.get(loc) if loc is not None and loc not in self.used else None
        if link is not None:
            self.used.add(link.loc)
        # A navigation deeper than any site's is not walked further (a hostile or cyclic outline).
        below = [] if depth > _MAX_DEPTH else [found for child in nav.items
                                               if (found := self.item(child, depth + 1)) is not None]
        if link is None and not below:
            return None
        title = (nav.title or "").strip() or (_title(link, self.site_name) if link is not None else "")
        return Item(title or (link.path if link is not None else ""), link, below)


_MAX_DEPTH = 12


def _by_folder(links: list[Link], site_name: str | None, home: str | None,
               taken: set[str] | frozenset[str] = frozenset()) -> list[Section]:
    """Without an outline (or for what it leaves out): top-level pages first, then one section
    per top folder, in path order, named by the title of the folder's own page, which the
    heading links (by the folder's name when that only repeats the title of the site's
    ``home`` page, as a blog's year archive or another language's home often does). A folder
    holding only its own page joins the top-level pages. A heading already ``taken`` (by the
    sections before these) names its folder too: ``Pages (pages/)``."""
    groups: dict[str, list[Link]] = {}
    for link in links:
        head, slash, _ = link.path.partition("/")
        groups.setdefault(head + "/" if slash else "", []).append(link)
    top: list[Item] = []
    found: list[Section] = []
    for key in sorted(groups):
        own = (key, *(key + name for name in _HOME if name)) if key else _HOME
        members = sorted(groups[key], key=lambda link: (link.path not in own, link.path))
        items = [Item(_title(link, site_name), link, []) for link in members]
        if not key or (len(members) == 1 and members[0].path in own):
            top.extend(items)
            continue
        link = None
        title = _folder_title(key) or "Pages"
        if members[0].path in own:  # the folder's own page heads its section
            first, items = items[0], items[1:]
            link, title = first.link, title if first.title == home else first.title
        if title in taken:
            title = f"{title} ({unquote(key)})"
        found.append(Section(title, link, items))
    return ([Section(None, None, top)] if top else []) + found


def _folder_title(key: str) -> str:
    words = unquote(key.strip("/")).replace("-", " ").replace("_", " ").strip()
    return words[:1].upper() + words[1:]
