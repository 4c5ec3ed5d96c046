"""The ``nav`` of an MkDocs, ProperDocs or Zensical project's configuration, read by the
command line (``sitemapkit build`` in a project folder), for ``sitemap.html``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sitemapkit.model import NavItem

_MAX_NAV_DEPTH = 12


def nav_items(nav: Any, directory_urls: bool, depth: int = 0) -> tuple[NavItem, ...]:
    """``nav`` as MkDocs (and Zensical) read it: a list of files, ``{title: file}`` and
    ``{title: [...]}``; entries of any other shape are skipped, as is a deeper level than
    any site's."""
    if not isinstance(nav, list) or depth > _MAX_NAV_DEPTH:
        return ()
    items = []
    for entry in nav:
        if isinstance(entry, str):
            items.append(NavItem(None, _nav_url(entry, directory_urls)))
        elif isinstance(entry, Mapping) and len(entry) == 1:
            ((title, value),) = entry.items()
            if isinstance(value, list):
                items.append(NavItem(str(title), None, nav_items(value, directory_urls, depth + 1)))
            elif isinstance(value, str):
                items.append(NavItem(str(title), _nav_url(value, directory_urls)))
    return tuple(items)


def _nav_url(path: str, directory_urls: bool) -> str:
    """The URL MkDocs builds a ``nav`` file at (``guide/install.md`` -> ``guide/install/``);
    a link (``https://...``, ``page.html``) as it is."""
    if "://" in path or not path.endswith((".md", ".markdown")):
        return path
    folder, _, name = path.lstrip("/").rpartition(".")[0].rpartition("/")
    folder = folder + "/" if folder else ""
    if name in ("index", "README"):
        return folder if directory_urls else folder + "index.html"
    return f"{folder}{name}/" if directory_urls else f"{folder}{name}.html"
