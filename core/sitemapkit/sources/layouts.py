"""How each generator lays out its sources, as data: which source file builds which page.

``sitemapkit build --source-dir DIR`` dates each built page from its source (front matter,
then git). The folder names a generator by its marker files (``hugo.toml`` with
``content/``, ``_config.yml`` with ``_posts/``, ``docusaurus.config.js``, ``.eleventy.js``);
``DIR`` may be the project's root or its content folder. One matching mechanism
(``matching.Sources``) turns each source's path into the page key of the page it builds,
following the ``Layout`` of that generator:

- Hugo (its configuration merged as Hugo merges it: the root ``hugo.toml``, ``.yaml`` or
  ``.json`` over ``config/_default/``, where ``permalinks.toml`` is the ``permalinks`` key):
  ``content/a.fr.md`` builds ``/fr/a/``, ``_index.md`` and ``index.md`` their folder's
  page, ``content/fr/...`` the French pages when each language has its ``contentDir``;
  ``url`` and ``slug`` in front matter move a page, and ``[permalinks]`` the regular pages
  of a section (``posts = "/:year/:month/:title/"``); URLs are lower case.
- Jekyll: ``_posts/2024-01-15-hello.md`` builds ``/2024/01/15/hello.html`` (under its
  categories; ``permalink`` in ``_config.yml``, a ``defaults:`` set whose scope holds it or
  its front matter moves it, a template filled in); a collection with ``output: true``
  builds each of its documents (any file with front matter) at its ``permalink``
  (``/:collection/:path:output_ext`` by default); posts and collections lie in
  ``collections_dir``; a page's permalink template knows ``:path``, ``:basename`` and
  ``:output_ext``; ``exclude`` leaves files out.
- Docusaurus: ``docs/`` under ``/docs/`` (number prefixes dropped, ``slug`` and ``id``
  honoured), ``blog/2021-08-26-welcome.md`` under ``/blog/2021/08/26/welcome``, each
  folder and prefix as the classic preset's ``path`` and ``routeBasePath`` set them;
  ``src/pages/`` at the root; with ``versions.json``, the newest version's
  ``versioned_docs/version-X/`` under ``/docs/``, older ones under ``/docs/X/``, ``docs/``
  under ``/docs/next/``; each other locale of ``i18n`` under ``/fr/``, from its
  translation in ``i18n/fr/docusaurus-plugin-content-docs/current/`` (and ``-blog``,
  ``-pages``) or else the default locale's source.
- VitePress: the source folder mirrors the output (``cleanUrls``: no ``.html``).
- Eleventy: the input folder (``dir: {input}``, ``setInputDirectory``) mirrors the output,
  ``blog/x/x.md`` builds ``/blog/x/`` as ``blog/x/index.md`` does; ``permalink`` moves a page.

Hugo and Docusaurus copy ``static/`` into the output as it is: an HTML file there is its own
page's source.

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
JEKYLL_COLLECTION = "/:collection/:path"
"""Jekyll's permalink of a collection's documents, unless the collection sets its own, before
the ending of the site's permalink style (``/`` or ``:output_ext``)."""
_SLASHES = re.compile(r"/{2,}")
_PLACEHOLDER = re.compile(
    r":(categories|year|short_year|month|i_month|day|i_day|y_day|title|slug|name|output_ext|collection|path"
    r"|filename|slugorfilename|section|sections|basename)(?![a-z_])"
)
_DATE_PLACEHOLDERS = frozenset({"year", "short_year", "month", "i_month", "day", "i_day", "y_day"})


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
    folder_named: bool = False
    """A source named as its folder builds the folder's page (Eleventy: ``blog/x/x.md`` is
    ``/blog/x/``)."""
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


DOCUSAURUS_POST = "/:year/:month/:day/:title"
"""Docusaurus' URL of ``2021-08-26-welcome.md``, under the blog's ``routeBasePath``."""
HUGO_CONFIGS = ("hugo.toml", "hugo.yaml", "hugo.yml", "hugo.json", "config.toml", "config.yaml", "config.yml",
                "config.json")
"""Hugo's root configuration files, in the order Hugo looks for them (the first found is
read); a ``config.*`` one marks a Hugo project only beside a ``content`` folder (other tools
use that name too)."""
HUGO_CONFIG_DIR = "config/_default"
"""Hugo's configuration folder: ``hugo.*`` (or ``config.*``) there is a whole configuration,
any other ``KEY.toml`` (``.yaml``, ``.yml``, ``.json``) the value of its top-level key
(``permalinks.toml``, ``languages.yaml``); Hugo merges it with the root file, whose values
win."""
HUGO_CONFIG_SUFFIXES = (".toml", ".yaml", ".yml", ".json")

LAYOUTS = (
    Layout("hugo", (*((name,) if "hugo." in name else (name, "content") for name in HUGO_CONFIGS),
                    *((f"{HUGO_CONFIG_DIR}/{stem}{suffix}",) for stem in ("hugo", "config")
                      for suffix in HUGO_CONFIG_SUFFIXES), (HUGO_CONFIG_DIR, "content")),
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
           slug_keys=("slug",), dated=(("blog", f"/blog{DOCUSAURUS_POST}"),), skip_underscore=True,
           number_prefixes=True,
           sitemap_off="sitemap: false in the classic preset's options (docusaurus.config.js)"),
    Layout("eleventy", ((".eleventy.js",), ("eleventy.config.js",), ("eleventy.config.mjs",),
                        ("eleventy.config.cjs",)), (("", ""),), ("updated", "lastmod", "last_modified_at"),
           suffixes=(".md", ".html", ".njk", ".liquid", ".11ty.js", ".hbs", ".mustache", ".pug", ".ejs"),
           url_keys=("permalink",), skip_underscore=True, folder_named=True,
           date_words=("Last Modified", "git Last Modified", "Created", "git Created")),
    # VitePress: the source folder (``srcDir``, else the folder holding ``.vitepress/``) mirrors
    # the output; ``cleanUrls: true`` drops ``.html`` from the URLs (``generator._vitepress``).
    Layout("vitepress", ((".vitepress/config.js",), (".vitepress/config.ts",), (".vitepress/config.mjs",),
                        (".vitepress/config.mts",)), (("", ""),), ("lastUpdated", "updated", "lastmod"),
           suffixes=(".md",),
           sitemap_off="leave sitemap out of .vitepress/config (its sitemap: {hostname} option)"),
)
FILES = Layout("files", (), (("", ""),), ("updated", "lastmod", "last_modified_at"),
               ("index", "_index", "README", "readme"),
               suffixes=(".md", ".markdown", ".mdown", ".mkd", ".html", ".htm", ".njk", ".liquid", ".rst"))
"""A folder no generator marks, and MkDocs' ``docs_dir``: sources mirror the output."""
DOCUSAURUS_TRANSLATIONS = {
    "docs": "docusaurus-plugin-content-docs/current",
    "blog": "docusaurus-plugin-content-blog",
    "src/pages": "docusaurus-plugin-content-pages",
}
"""Where a Docusaurus locale's translations of each folder live, under ``i18n/LOCALE/``."""
DOCUSAURUS_VERSIONS = "versions.json"
"""Docusaurus' released docs versions, newest first: the newest is served at the docs' root
from ``versioned_docs/version-X/``, each older one under ``/docs/X/``, and ``docs/`` itself
(the unreleased "current" version) under ``/docs/next/``; a locale's translations of a
version lie in ``i18n/LOCALE/docusaurus-plugin-content-docs/version-X/``."""
DOCUSAURUS_VERSION_FOLDER = "versioned_docs/version-{}"
DOCUSAURUS_CURRENT_PATH = "next"
DOCUSAURUS_DOCS_PLUGIN = ("@docusaurus/plugin-content-docs", "content-docs")
"""The names by which a Docusaurus configuration adds a docs plugin instance (its translations
lie in ``docusaurus-plugin-content-docs-ID/current``)."""
LISTING_LOOP = re.compile(rb"\{%-?\s*for\s+\w+\s+in\s+(?:site|paginator|collections)\.")
"""A source that lists the site's pages with a template loop (Jekyll's and Eleventy's
``{% for post in site.posts %}``, ``paginator.posts``, ``collections.post``): a listing page
(``archive.html``) whatever its name, dated by what it lists. Hugo's and Docusaurus' listing
pages are built from no source, or from a folder's ``_index.md``."""
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
    collections: tuple[tuple[str, str], ...] = ()
    """(folder under the root, URL template) of each collection whose documents are pages
    (Jekyll's ``output: true``), ``:collection`` already filled in."""
    excluded: tuple[str, ...] = ()
    """Patterns of the root-relative paths that build nothing (Jekyll's ``exclude``)."""
    permalinks: tuple[tuple[str, str], ...] = ()
    """(section, URL pattern) of Hugo's ``[permalinks]``: the regular pages of that section."""
    defaults: tuple[tuple[str, str | None, str], ...] = ()
    """(scope path, scope type or None, permalink) of Jekyll's ``defaults:`` that set a
    ``permalink``, in their order (``jekyll.default_permalink`` picks one)."""
    collections_dir: str = ""
    """Jekyll's ``collections_dir``: its collections and ``_posts`` lie under it."""
    clean_urls: bool = False
    """Pages are served without ``.html`` (VitePress' ``cleanUrls``): ``guide/a.html`` is ``guide/a``."""
    copied: tuple[tuple[Path, str], ...] = ()
    """(folder, URL prefix) whose files the generator copies to the output as they are
    (Docusaurus' and Hugo's ``static/``): each HTML file there is its own page's source."""


def dated_url(template: str, year: str, month: str, day: str, slug: str, categories: list[str]) -> str | None:
    """A dated source's URL path from its generator's permalink template (Jekyll's posts,
    Docusaurus' blog); None when the template has a placeholder not listed in ``_PLACEHOLDER``
    or not a post's (``:basename``, ``:path``)."""
    values = _date_values(year, month, day) | {
        "categories": "/".join(categories), "title": slug, "slug": slug, "name": slug, "output_ext": ".html",
    }
    return _fill(template, values) if _followable(template, values) else None


def collection_url(template: str, path: str, output_ext: str, day: tuple[str, str, str] | None,
                   collection: str = "") -> str | None:
    """A Jekyll collection document's URL path from its collection's permalink template:
    ``path`` is the document's path in the collection without its extension, ``day`` the
    (year, month, day) of its front-matter date, ``collection`` its name. None when the
    template needs what is not known here: a date the document does not give (Jekyll takes
    the build's time), or a placeholder not listed in ``_PLACEHOLDER``."""
    name = path.rsplit("/", 1)[-1]
    values = _date_values(*(day or ("0000", "01", "01"))) | {
        "categories": "", "title": name, "slug": name, "name": name, "output_ext": output_ext, "path": path,
        **({"collection": collection} if collection else {}),
    }
    if not _followable(template, values) or (day is None and _dated(template)):
        return None
    return _fill(template, values)


def page_url(template: str, folder: str, basename: str, output_ext: str) -> str | None:
    """A Jekyll page's URL path from a ``permalink`` template (its front matter's or its
    ``defaults:``): a page knows ``:path`` (its folder), ``:basename`` and ``:output_ext``
    only; None when the template needs another."""
    values = {"path": folder, "basename": basename, "output_ext": output_ext}
    return _fill(template, values) if _followable(template, values) else None


def _dated(template: str) -> bool:
    """Whether ``template`` needs a date (``:year``, ``:y_day``...)."""
    return bool(_DATE_PLACEHOLDERS.intersection(_PLACEHOLDER.findall(template)))


def _followable(template: str, values: Mapping[str, str]) -> bool:
    """Whether each placeholder of ``template`` has a value (no other ``:`` left)."""
    return ":" not in _PLACEHOLDER.sub("", template) and set(_PLACEHOLDER.findall(template)) <= set(values)


def hugo_url(pattern: str, section: str, sections: list[str], filename: str, meta: Mapping[str, Any],
             day: tuple[str, str, str] | None) -> str | None:
    """A Hugo page's URL path from its section's ``[permalinks]`` pattern (Hugo 0.111's
    placeholders: ``:title`` and ``:slug`` are the title made a URL, ``:filename`` the file's
    or bundle's name); None when the pattern needs what the page does not give (a date, a
    title) or a placeholder not listed in ``_PLACEHOLDER``."""
    title = meta.get("title")
    title = _urlize(str(title)) if isinstance(title, str | int) and str(title).strip() else None
    slug = meta.get("slug")
    slug = _urlize(str(slug)) if isinstance(slug, str | int) and str(slug).strip() else None
    values = _date_values(*(day or ("0000", "01", "01"))) | {
        "section": section, "sections": "/".join(sections), "filename": _urlize(filename),
        "slugorfilename": slug or _urlize(filename), **({"title": title} if title else {}),
        **({"slug": slug or title} if slug or title else {}),
    }
    if not _followable(pattern, values) or (day is None and _dated(pattern)):
        return None
    return _fill(pattern, values)


def _urlize(text: str) -> str:
    """Hugo's ``urlize`` of a title: spaces become ``-``; letters, digits and ``._-#+~%``
    stay; the rest goes (its lower case comes with every Hugo key)."""
    return "".join("-" if char.isspace() else char for char in text.strip()
                   if char.isspace() or char.isalnum() or char in "._-#+~%")


def _date_values(year: str, month: str, day: str) -> dict[str, str]:
    y_day = str(_day_of_year(int(year), int(month), int(day))).zfill(3)
    return {"year": year, "short_year": year[2:], "month": month, "i_month": str(int(month)), "day": day,
            "i_day": str(int(day)), "y_day": y_day}


def _fill(template: str, values: dict[str, str]) -> str:
    """``template`` with each placeholder replaced by its value, in one pass (a value is
    never read again as a placeholder)."""
    path = _PLACEHOLDER.sub(lambda match: values.get(match.group(1), match.group(0)), template)
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
