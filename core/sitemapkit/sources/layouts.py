"""How each generator lays out its sources, as data: which source file builds which page.

``sitemapkit build --source-dir DIR`` dates each built page from its source (front matter,
then git). The folder names a generator by its marker files (``hugo.toml`` with
``content/``, ``_config.yml`` with ``_posts/``, ``docusaurus.config.js``, ``.eleventy.js``);
``DIR`` may be the project's root or its content folder. One matching mechanism
(``project.Sources``) turns each source's path into the page key of the page it builds,
following the ``Layout`` of that generator:

- Hugo: ``content/a.fr.md`` builds ``/fr/a/``, ``_index.md`` and ``index.md`` their folder's
  page, ``content/fr/...`` the French pages when each language has its ``contentDir``;
  ``url`` and ``slug`` in front matter move a page; URLs are lower case.
- Jekyll: ``_posts/2024-01-15-hello.md`` builds ``/2024/01/15/hello.html`` (under its
  categories; ``permalink`` in ``_config.yml`` or the front matter moves it).
- Docusaurus: ``docs/`` under ``/docs/`` (number prefixes dropped, ``slug`` and ``id``
  honoured), ``blog/2021-08-26-welcome.md`` under ``/blog/2021/08/26/welcome``,
  ``src/pages/`` at the root.
- Eleventy: the input folder mirrors the output; ``permalink`` moves a page.

A README never builds a home page; only MkDocs (the ``files`` layout) reads ``README.md``
as its folder's page.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

DATED = re.compile(r"(\d{4})-(\d{2})-(\d{2})-(.+)")
"""Jekyll's posts and Docusaurus' blog: ``YYYY-MM-DD-slug``."""
NUMBER_PREFIX = re.compile(r"\d+[-_.]\s*(?=.)")
"""Docusaurus drops ``01-`` from the names of docs and their folders."""
JEKYLL_STYLES = {
    "date": "/:categories/:year/:month/:day/:title:output_ext",
    "pretty": "/:categories/:year/:month/:day/:title/",
    "ordinal": "/:categories/:year/:y_day/:title:output_ext",
    "none": "/:categories/:title:output_ext",
}
_SLASHES = re.compile(r"/{2,}")
_PLACEHOLDER = re.compile(r":(categories|year|short_year|month|i_month|day|i_day|y_day|title|slug|name|output_ext)")


@dataclass(frozen=True, slots=True)
class Layout:
    """One generator's source layout."""

    name: str
    markers: tuple[tuple[str, ...], ...]
    """Groups of names, all of one group present in the project's root, that mark it."""
    folders: tuple[tuple[str, str], ...]
    """(source folder under the root, URL prefix of what it builds)."""
    updated: tuple[str, ...]
    """Front-matter keys of a page's last change, the generator's own first."""
    folder_pages: tuple[str, ...] = ("index",)
    """Source names that build their folder's page."""
    suffixes: tuple[str, ...] = (".md", ".markdown", ".html", ".htm")
    url_keys: tuple[str, ...] = ()
    """Front-matter keys that give the page's whole URL path."""
    slug_keys: tuple[str, ...] = ()
    """Front-matter keys that replace the last part of the page's URL path."""
    dated: tuple[tuple[str, str], ...] = ()
    """(folder name, URL template) for ``YYYY-MM-DD-slug`` sources in that folder."""
    skip_underscore: bool = False
    """Folders whose name starts with ``_`` hold no pages (except the dated ones)."""
    number_prefixes: bool = False
    lower_case: bool = False
    date_words: tuple[str, ...] = ()
    """Front-matter ``date`` values that are no date (Eleventy's ``Last Modified``)."""
    sitemap_off: str = ""
    """The setting that turns the generator's own sitemap off."""


HUGO_CONFIGS = ("hugo.toml", "hugo.yaml", "hugo.yml", "hugo.json", "config.toml", "config.yaml",
                "config/_default/hugo.toml", "config/_default/config.toml")
"""Hugo's configuration files, in the order Hugo looks for them; a ``config.*`` one marks a
Hugo project only beside a ``content`` folder (other tools use that name too)."""

LAYOUTS = (
    Layout("hugo", tuple((name,) if "hugo." in name else (name, "content") for name in HUGO_CONFIGS),
           (("content", ""),), ("lastmod", "modified", "updated"), ("_index", "index"),
           url_keys=("url",), slug_keys=("slug",), lower_case=True,
           sitemap_off='disableKinds = ["sitemap"] in hugo.toml'),
    Layout("jekyll", (("_config.yml", "_posts"), ("_config.yml",)), (("", ""),),
           ("last_modified_at", "updated", "lastmod"),
           url_keys=("permalink",), dated=(("_posts", JEKYLL_STYLES["date"]),), skip_underscore=True,
           sitemap_off="remove jekyll-sitemap from plugins in _config.yml (and the Gemfile)"),
    Layout("docusaurus", (("docusaurus.config.js",), ("docusaurus.config.ts",), ("docusaurus.config.mjs",)),
           (("docs", "docs"), ("blog", "blog"), ("src/pages", "")), ("last_update", "updated", "lastmod"),
           ("index", "README", "readme"), suffixes=(".md", ".mdx", ".js", ".jsx", ".tsx"),
           slug_keys=("slug",), dated=(("blog", "/blog/:year/:month/:day/:title"),), skip_underscore=True,
           number_prefixes=True,
           sitemap_off="sitemap: false in the classic preset's options (docusaurus.config.js)"),
    Layout("eleventy", ((".eleventy.js",), ("eleventy.config.js",), ("eleventy.config.mjs",),
                        ("eleventy.config.cjs",)), (("", ""),), ("updated", "lastmod", "last_modified_at"),
           suffixes=(".md", ".html", ".njk", ".liquid", ".11ty.js", ".hbs", ".mustache", ".pug", ".ejs"),
           url_keys=("permalink",), skip_underscore=True,
           date_words=("Last Modified", "git Last Modified", "Created", "git Created")),
)
FILES = Layout("files", (), (("", ""),), ("updated", "lastmod", "last_modified_at"),
               ("index", "_index", "README", "readme"),
               suffixes=(".md", ".markdown", ".mdown", ".mkd", ".html", ".htm", ".njk", ".liquid", ".rst"))
"""A folder no generator marks, and MkDocs' ``docs_dir``: sources mirror the output."""
SKIPPED = frozenset({"node_modules", "vendor", "_site", "public", "build", "_drafts", "_includes", "_layouts",
                     "_data", "_sass", "i18n", "static", "assets", "themes", "layouts", "resources"})
"""Folders of a project's root that hold no page sources."""


@dataclass(frozen=True, slots=True)
class Found:
    """The layout of one source folder and what its configuration says."""

    layout: Layout
    root: Path
    folders: tuple[tuple[Path, str, str | None], ...]
    """(folder, URL prefix, language or None when the folder holds every language)."""
    languages: tuple[str, ...] = ()
    """Language codes, the default first; empty for a site in one language."""
    default_in_subdir: bool = False
    """The default language is served under its code too (Hugo's ``defaultContentLanguageInSubdir``)."""
    templates: tuple[tuple[str, str], ...] = ()
    """(folder name, URL template) for dated sources, as configured."""


def dated_url(template: str, year: str, month: str, day: str, slug: str, categories: list[str]) -> str:
    """A dated source's URL path from its generator's permalink template."""
    y_day = str(_day_of_year(int(year), int(month), int(day))).zfill(3)
    values = {
        "categories": "/".join(categories), "year": year, "short_year": year[2:], "month": month,
        "i_month": str(int(month)), "day": day, "i_day": str(int(day)), "y_day": y_day, "title": slug,
        "slug": slug, "name": slug, "output_ext": ".html",
    }
    path = _PLACEHOLDER.sub(lambda match: values[match.group(1)], template)
    return _SLASHES.sub("/", path)


def _day_of_year(year: int, month: int, day: int) -> int:
    try:
        return date(year, month, day).timetuple().tm_yday
    except ValueError:
        return 0


def categories_of(meta: Mapping[str, Any], folders: list[str]) -> list[str]:
    """Jekyll's categories of a post: the folders above ``_posts`` and the front matter's
    ``category`` or ``categories`` (a list, or words separated by spaces), in lower case."""
    found = list(folders)
    for key in ("category", "categories"):
        value = meta.get(key)
        words = value.split() if isinstance(value, str) else value if isinstance(value, list) else []
        found.extend(str(word) for word in words if str(word))
    return list(dict.fromkeys(word.lower() for word in found))
