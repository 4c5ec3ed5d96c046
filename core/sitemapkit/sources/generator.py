"""Which generator left a source folder, and what its configuration says about where its
pages go (``sitemapkit build --source-dir``); the layouts themselves are in ``layouts``."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sitemapkit.sources import jsconfig
from sitemapkit.sources.bounded import ConfigError, config_text, load_config
from sitemapkit.sources.layouts import (
    DOCUSAURUS_CURRENT_PATH,
    DOCUSAURUS_DOCS_PLUGIN,
    DOCUSAURUS_POST,
    DOCUSAURUS_TRANSLATIONS,
    DOCUSAURUS_VERSION_FOLDER,
    DOCUSAURUS_VERSIONS,
    FILES,
    HUGO_CONFIG_DIR,
    HUGO_CONFIG_SUFFIXES,
    HUGO_CONFIGS,
    JEKYLL_COLLECTION,
    JEKYLL_STYLES,
    LAYOUTS,
    Found,
    Layout,
)

_DEFAULT_LOCALE = re.compile(r"""\bdefaultLocale\s*:\s*["']([^"'\\]{1,40})["']""")
_LOCALES = re.compile(r"\blocales\s*:\s*\[([^\]]{0,2000})\]")
_QUOTED = re.compile(r"""["']([^"'\\]{1,40})["']""")
_LOCALE = re.compile(r"[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*")
"""Docusaurus' ``i18n: {defaultLocale: 'en', locales: ['en', 'fr']}``, read as text; a
locale is a language tag (it names a folder and a URL prefix)."""
_ELEVENTY_INPUT = re.compile(r"""\binput\s*:\s*["']([^"'\\]{1,200})["']"""
                             r"""|\bsetInputDirectory\(\s*["']([^"'\\]{1,200})["']\s*\)""")
"""``dir: {input: "src"}`` (or Eleventy 3's ``eleventyConfig.setInputDirectory("src")``) in
an Eleventy configuration (read as text, never run)."""


def detect(source_dir: Path, languages: tuple[str, ...] = ()) -> Found:
    """The layout of ``source_dir``: the generator whose markers lie in it or in the folder
    above it (``--source-dir content`` in a Hugo project), else the mirror layout."""
    source_dir = Path(source_dir)
    for root in (source_dir, source_dir.parent):
        for layout in LAYOUTS:
            if any(all((root / name).exists() for name in group) for group in layout.markers):
                return _configured(layout, root, source_dir)
    return Found(FILES, source_dir, ((source_dir, "", None),), languages)


def _configured(layout: Layout, root: Path, source_dir: Path) -> Found:
    if layout.name == "hugo":
        return _hugo(layout, root, source_dir)
    if layout.name == "jekyll":
        return _jekyll(layout, root)
    if layout.name == "eleventy":
        folder = root
        for marker in layout.markers:
            config = root / marker[0]
            text = config_text(config)[:100_000] if config.exists() else ""
            if (match := _ELEVENTY_INPUT.search(text)) and _inside(root, root / (match.group(1) or match.group(2))):
                folder = root / (match.group(1) or match.group(2))
                break
        return Found(layout, root, ((folder, "", None),))
    if layout.name == "docusaurus":
        return _docusaurus(layout, root)
    if layout.name == "vitepress":
        return _vitepress(layout, root)
    folders = tuple((root / sub, prefix, None) for sub, prefix in layout.folders if (root / sub).is_dir())
    return Found(layout, root, folders, templates=layout.dated)


def _docusaurus(layout: Layout, root: Path) -> Found:
    """Docusaurus' folders (the docs' and the blog's as the classic preset's ``path`` and
    ``routeBasePath`` set them, and each further docs plugin instance's), and with ``i18n:
    {defaultLocale, locales}`` in its configuration each other locale's: its translations
    (``i18n/fr/docusaurus-plugin-content-docs/current`` builds ``/fr/docs/``) first, then the
    default locale's sources, which build the pages not translated (Docusaurus builds every
    page in every locale); ``static/``, copied into each locale's folder."""
    text = _docusaurus_config(root, layout)
    default, others = _docusaurus_locales(text)
    served = _docusaurus_versions(root, _docusaurus_folders(text, layout))
    folders = [(root / sub, prefix, default if others else None) for _translated, sub, prefix in served]
    for locale in others:
        translated = root / "i18n" / locale
        folders += [(translated / kind, prefix, locale) for kind, _sub, prefix in served]
        folders += [(root / sub, prefix, locale) for _translated, sub, prefix in served]
    found = tuple(folder for folder in folders if folder[0].is_dir() and _inside(root, folder[0]))
    copied = tuple((root / "static", locale) for locale in ("", *others)) if (root / "static").is_dir() else ()
    blog = next((prefix for kind, _sub, prefix in served if kind == DOCUSAURUS_TRANSLATIONS["blog"]), None)
    templates = () if blog is None else ((blog, f"/{blog}{DOCUSAURUS_POST}"),)
    return Found(layout, root, found, (default, *others) if others else (), templates=templates, copied=copied)


def _docusaurus_versions(root: Path, served: tuple[tuple[str, str, str], ...]) -> tuple[tuple[str, str, str], ...]:
    """``served`` with the default docs instance's released versions (``versions.json``):
    the newest at the docs' prefix, the others under ``PREFIX/VERSION``, and the current docs
    under ``PREFIX/next``. Versions that are not names of a folder inside the project are
    not followed."""
    try:
        versions = json.loads((root / DOCUSAURUS_VERSIONS).read_text(encoding="utf-8")[:jsconfig.LIMIT])
    except (OSError, ValueError, RecursionError):
        return served
    versions = [str(v) for v in versions if isinstance(v, str | int) and "/" not in str(v) and str(v).strip(".")] \
        if isinstance(versions, list) else []
    if not versions:
        return served
    docs = DOCUSAURUS_TRANSLATIONS["docs"]
    found: list[tuple[str, str, str]] = []
    for kind, sub, prefix in served:
        if kind != docs:
            found.append((kind, sub, prefix))
            continue
        for number, version in enumerate(versions):
            kept = DOCUSAURUS_VERSION_FOLDER.format(version)
            found.append((docs.replace("current", f"version-{version}"), kept,
                          prefix if number == 0 else "/".join(part for part in (prefix, version) if part)))
        found.append((kind, sub, "/".join(part for part in (prefix, DOCUSAURUS_CURRENT_PATH) if part)))
    return tuple(found)


_CLEAN_URLS = re.compile(r"\bcleanUrls\s*:\s*true\b")
_SRC_DIR = re.compile(r"""\bsrcDir\s*:\s*["']([^"'\\]{1,200})["']""")


def _vitepress(layout: Layout, root: Path) -> Found:
    """VitePress' source folder (``srcDir``, from the folder holding ``.vitepress/``) and
    whether its URLs are clean (``cleanUrls: true``), its configuration read as text."""
    text = _docusaurus_config(root, layout)
    folder = root
    if (match := _SRC_DIR.search(text)) and _inside(root, root / match.group(1)):
        folder = root / match.group(1)
    return Found(layout, root, ((folder, "", None),), clean_urls=_CLEAN_URLS.search(text) is not None)


def _docusaurus_config(root: Path, layout: Layout) -> str:
    """The text of the project's configuration, the first of the layout's marker files
    (``docusaurus.config.*``, ``.vitepress/config.*``; never run); ``""`` when none can be read."""
    for marker in layout.markers:
        config = root / marker[0]
        if config.exists():
            try:
                return config_text(config)[:jsconfig.LIMIT]
            except ConfigError:
                raise
            except OSError:
                return ""
    return ""


def _docusaurus_folders(text: str, layout: Layout) -> tuple[tuple[str, str, str], ...]:
    """(folder of a locale's translations under ``i18n/LOCALE/``, source folder, URL prefix)
    of the docs, the blog and the pages: the layout's unless the classic preset's ``docs:
    {path, routeBasePath}`` or ``blog: {...}`` (read as text) moves them (``routeBasePath:
    '/'``: served at the root), none for ``docs: false``; then each docs plugin instance
    that ``plugins`` adds with its ``id``, ``path`` and ``routeBasePath``."""
    served = []
    for sub, prefix in layout.folders:
        given = jsconfig.options(text, sub) if sub in ("docs", "blog") else []
        if not any(found.get("") is False for found in given):
            served.append((DOCUSAURUS_TRANSLATIONS[sub], _option(given, "path", sub) or sub,
                           _option(given, "routeBasePath", prefix)))
    for name in DOCUSAURUS_DOCS_PLUGIN:
        for given in jsconfig.plugin_options(text, name):
            plugin_id, path = _option([given], "id", ""), _option([given], "path", "")
            if plugin_id and path and plugin_id != "default":
                served.append((f"{DOCUSAURUS_TRANSLATIONS['docs'].replace('/', f'-{plugin_id}/', 1)}", path,
                               _option([given], "routeBasePath", "docs")))
    return tuple(served)


def _option(given: list[dict[str, str | bool]], key: str, default: str) -> str:
    """The first string ``key`` of ``given`` (a folder or a URL prefix, without ``./`` and
    the slashes around it), else ``default``."""
    value = next((found[key] for found in given if isinstance(found.get(key), str)), default)
    return str(value).strip().removeprefix("./").strip("/")


def _docusaurus_locales(text: str) -> tuple[str | None, tuple[str, ...]]:
    """(default locale, the other locales) of ``i18n`` in the configuration's ``text``;
    (None, ()) for a site in one language."""
    default, listed = _DEFAULT_LOCALE.search(text), _LOCALES.search(text)
    if default is None or listed is None:
        return None, ()
    locales = [code for code in _QUOTED.findall(listed.group(1)) if _LOCALE.fullmatch(code)]
    return default.group(1), tuple(code for code in dict.fromkeys(locales) if code != default.group(1))


def _jekyll(layout: Layout, root: Path) -> Found:
    """Jekyll's posts (``permalink``: a style or a template), its collections whose
    documents are pages (``collections: {NAME: {output: true, permalink: ...}}``, in
    ``collections_dir``) and ``exclude``."""
    config = _read_config(root / "_config.yml")
    collections = config.get("collections")
    collections = collections if isinstance(collections, Mapping) else {}  # a list: none has output
    posts = collections.get("posts") if isinstance(collections.get("posts"), Mapping) else {}
    style = str(posts.get("permalink") or config.get("permalink") or "date")
    under = str(config.get("collections_dir") or "").strip("/")
    pages = []
    for label, options in collections.items():
        folder = "/".join(part for part in (under, f"_{label}") if part)
        if label != "posts" and isinstance(options, Mapping) and options.get("output") is True \
                and _inside(root, root / folder):
            template = str(options.get("permalink") or _collection_default(style))
            pages.append((folder, template.replace(":collection", str(label))))
    excluded = config.get("exclude")
    excluded = tuple(str(item) for item in excluded if isinstance(item, str) and item) if isinstance(
        excluded, list) else ()
    return Found(layout, root, ((root, "", None),), templates=(("_posts", JEKYLL_STYLES.get(style, style)),),
                 collections=tuple(pages), excluded=excluded, defaults=_jekyll_defaults(config.get("defaults"), under),
                 collections_dir=under)


def _jekyll_defaults(sets: Any, under: str) -> tuple[tuple[str, str | None, str], ...]:
    """(scope path, scope type or None, permalink) of each set of ``defaults:`` in
    ``_config.yml`` whose values give a ``permalink``, in their order; a scope path that
    begins with ``collections_dir`` is taken without it (as Jekyll takes it), ``post`` and
    ``page`` are Jekyll's old names of ``posts`` and ``pages``."""
    found = []
    for entry in sets if isinstance(sets, list) else ():
        values = entry.get("values") if isinstance(entry, Mapping) else None
        permalink = values.get("permalink") if isinstance(values, Mapping) else None
        if not isinstance(permalink, str) or not permalink.strip():
            continue
        scope = entry.get("scope") if isinstance(entry.get("scope"), Mapping) else {}
        path = scope.get("path")
        path = path.removeprefix("/") if isinstance(path, str) else ""
        if under and path.startswith(f"{under}/"):
            path = path[len(under) + 1:]
        kind = scope.get("type")
        kind = {"post": "posts", "page": "pages"}.get(str(kind), str(kind)) if kind is not None else None
        found.append((path, kind, permalink.strip()))
    return tuple(found)


def _collection_default(style: str) -> str:
    """Jekyll's permalink of a collection that sets none: ``/:collection/:path``, ending as
    the site's permalink style ends (a folder, or the output's extension)."""
    template = JEKYLL_STYLES.get(style, style)
    return JEKYLL_COLLECTION + ("/" if template.endswith("/") else ":output_ext")


def hugo_config(root: Path) -> Mapping[str, Any]:
    """Hugo's configuration as Hugo merges it: ``config/_default/`` (``hugo.*`` or
    ``config.*`` whole, any other file the value of the key it is named after), then the
    root file (the first of ``HUGO_CONFIGS``) over it; top-level keys in lower case."""
    config: dict[str, Any] = {}
    folder = root / HUGO_CONFIG_DIR
    files = sorted(path for path in folder.iterdir() if path.suffix in HUGO_CONFIG_SUFFIXES) \
        if folder.is_dir() and _inside(root, folder) else []
    for path in files:
        key = path.stem.lower()
        if key in ("hugo", "config"):
            _merge(config, _read_config(path))
        else:
            value = _read_config(path, lower=False)
            _merge(config, {key: value})
    root_file = next((root / name for name in HUGO_CONFIGS if (root / name).is_file()), None)
    if root_file is not None:
        _merge(config, _read_config(root_file))
    return config


def _merge(into: dict[str, Any], data: Mapping[str, Any]) -> None:
    """``data`` deep-merged into ``into``: its values win, tables are merged key by key."""
    for key, value in data.items():
        if isinstance(value, Mapping) and isinstance(into.get(key), Mapping):
            merged = dict(into[key])
            _merge(merged, value)
            into[key] = merged
        else:
            into[key] = value


def _hugo(layout: Layout, root: Path, source_dir: Path) -> Found:
    config = hugo_config(root)
    content: Path | None = root / str(config.get("contentdir") or "content")
    if not _inside(root, content):
        content = None  # outside the project: not read, as any other configured folder
    if source_dir != root and source_dir.is_dir():
        content = source_dir  # --source-dir content
    default = str(config.get("defaultcontentlanguage") or "en").lower()
    in_subdir = config.get("defaultcontentlanguageinsubdir") is True
    spoken = config.get("languages") if isinstance(config.get("languages"), Mapping) else {}
    languages = tuple(sorted({default, *(str(code).lower() for code in spoken)}, key=lambda code: code != default))
    folders = []
    for code, options in spoken.items():
        options = {str(k).lower(): v for k, v in options.items()} if isinstance(options, Mapping) else {}
        folder = root / str(options["contentdir"]) if options.get("contentdir") else None
        if folder is not None and _inside(root, folder):
            folders.append((folder, "", str(code).lower()))
    if not folders and content is not None:
        folders.append((content, "", None))
    copied = ((root / "static", ""),) if (root / "static").is_dir() else ()
    permalinks = config.get("permalinks") if isinstance(config.get("permalinks"), Mapping) else {}
    if isinstance(permalinks.get("page"), Mapping):  # Hugo 0.112: [permalinks.page], for regular pages
        permalinks = {**permalinks, **permalinks["page"]}
    sections = tuple((str(section).lower(), pattern) for section, pattern in permalinks.items()
                     if isinstance(pattern, str))
    return Found(layout, root, tuple(folders), languages if len(languages) > 1 else (), in_subdir, copied=copied,
                 permalinks=sections)


def _inside(root: Path, folder: Path) -> bool:
    """A configured folder is only read when it lies in the project."""
    try:
        return folder.resolve().is_relative_to(root.resolve())
    except OSError:
        return False


def _read_config(path: Path, lower: bool = True) -> Mapping[str, Any]:
    """A generator's TOML, YAML or JSON configuration, its top-level keys in lower case
    (Hugo's keys are case-insensitive; ``lower`` False: as written); ``{}`` when it cannot be
    read (the pages then keep the default layout). Read within bounds: past one,
    ``ConfigError`` (see ``bounded``)."""
    try:
        data = load_config(path, config_text(path))
    except ConfigError:
        raise
    except (OSError, ValueError):
        return {}
    if not isinstance(data, Mapping):
        return {}
    return {str(key).lower() if lower else str(key): value for key, value in data.items()}
