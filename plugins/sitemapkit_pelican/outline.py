"""The site's navigation as Pelican's themes show it, for ``sitemap.html``: the home page, each
category with its articles newest first, the pages, then the archives (categories, tags,
authors), each at the URL its page is listed by and titled in words, not by its file name."""

from __future__ import annotations

import os
from typing import Any

from sitemapkit.model import NavItem, Outline

from .pages import Run

WORDS = {"index": "Home", "archives": "Archives", "categories": "Categories", "tags": "Tags", "authors": "Authors"}
"""Pelican's direct templates, by the names its themes give their pages."""


def outline(run: Run) -> Outline:
    """The outline of the main run (an i18n sub-site's pages are the map's other pages)."""
    generator = run.generator
    settings, context = generator.settings, generator.context
    direct = {name: os.path.abspath(os.path.join(run.output, settings.get(f"{name.upper()}_SAVE_AS", f"{name}.html")))
              for name in WORDS if name in settings["DIRECT_TEMPLATES"]}

    def item(title: str | None, save_as: str | None, items: tuple[NavItem, ...] = ()) -> NavItem:
        path = os.path.abspath(os.path.join(run.output, save_as)) if save_as else None
        return NavItem(title, _url(run, path), items, tuple(_url(run, later) for later in run.later.get(path, ())))

    def direct_item(name: str, items: tuple[NavItem, ...] = ()) -> NavItem:
        return item(WORDS[name], direct[name], items) if name in direct else NavItem(WORDS[name], None, items)

    def contents(found: Any) -> tuple[NavItem, ...]:
        return tuple(item(content.title, content.save_as) for content in found)

    items = [direct_item("index")]
    items += [item(category.name, category.save_as, contents(_newest_first(articles)))
              for category, articles in generator.categories]
    if pages := context.get("pages"):
        items.append(NavItem("Pages", None, contents(pages)))
    tags = tuple(item(tag.name, tag.save_as) for tag in sorted(generator.tags, key=lambda tag: tag.name.lower()))
    authors = tuple(item(author.name, author.save_as) for author, _ in generator.authors)
    items.append(direct_item("archives", (direct_item("categories"), direct_item("tags", tags),
                                          direct_item("authors", authors))))
    return Outline(tuple(items), settings.get("SITENAME"), description=settings.get("SITESUBTITLE") or None)


def _newest_first(articles: list[Any]) -> list[Any]:
    return sorted(articles, key=lambda article: article.date, reverse=True)


def _url(run: Run, path: str | None) -> str | None:
    """The URL the file at ``path`` is listed by (as ``site_pages`` lists it), or None when
    the run wrote no such file."""
    found = run.files.get(path) if path is not None else None
    if found is None:
        return None
    key, _, *rest = found
    # (the problem of a link that serves no file goes with the page site_pages makes: never told twice)
    return run.url(path, run.linked_url(run.objects[key]) if key is not None else rest[0])[0]
