"""A file Pelican wrote -> a sitemapkit ``Page``, at the URL Pelican links it by."""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

from pelican.contents import Article, Content

from sitemapkit import Page
from sitemapkit.dates import newest
from sitemapkit.urls import absolute, path_for_file

from .options import Options

_PRIVATE = {"true", "yes", "1"}
_SRC = re.compile(r'src="([^"]*)"')
# Page-level keys pelican-sitemap read from metadata ("ChangeFreq:", "Priority:").
_LEGACY_PAGE_KEYS = {"changefreq": "sitemap_changefreq", "priority": "sitemap_priority"}


def is_public(content: Content) -> bool:
    """Published, and not marked ``Private: true`` (drafts, hidden pages and skips are not)."""
    private = str(content.metadata.get("private", "")).strip().lower()
    return getattr(content, "status", "published") == "published" and private not in _PRIVATE


def page_for(
    path: str, context: Mapping[str, Any], main_output: str, options: Options,
    index_urls: Mapping[str, str],
) -> Page | None:
    """The page Pelican wrote at ``path`` with ``context``, or None when it stays out."""
    prefix = _prefix(context["OUTPUT_PATH"], main_output)
    content = context.get("article") or context.get("page")
    if isinstance(content, Content):
        if not is_public(content):
            return None
        url = _site_url(prefix, content.url)
        if options.excluded(url):
            return None
        kind = "articles" if isinstance(content, Article) else "pages"
        date = getattr(content, "date", None)
        return Page(
            url=url,
            source=Path(content.source_path) if content.source_path else None,
            output=Path(path),
            meta=_meta(content.metadata, options.kind_meta.get(kind, {})),
            title=getattr(content, "title", None),
            lang=getattr(content, "lang", None),
            translations={
                t.lang: _site_url(prefix, t.url) for t in content.translations if is_public(t)
            },
            published=date,
            modified=getattr(content, "modified", None) or date,
            images=_images(content, options.settings.base_url, prefix),
            name=content.relative_source_path,
        )
    listing = context.get("articles_page")
    url = _site_url(
        prefix, listing.url if listing is not None else index_urls.get(path) or context["output_file"]
    )
    if options.excluded(url):
        return None
    template_pages = context.get("TEMPLATE_PAGES") or {}
    if context["output_file"] in template_pages.values():
        listed = ()
    else:
        listed = listing.object_list if listing is not None else context.get("articles") or ()
    return Page(
        url=url,
        output=Path(path),
        meta=options.kind_meta.get("indexes", {}),
        lang=context.get("DEFAULT_LANG"),
        modified=newest(getattr(a, "modified", None) or getattr(a, "date", None) for a in listed),
        name=context["output_file"],
    )


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
    extra = {new: metadata[old] for old, new in _LEGACY_PAGE_KEYS.items() if old in metadata}
    extra = {**defaults, **extra}
    missing = {key: value for key, value in extra.items() if key not in metadata}
    return {**metadata, **missing} if missing else metadata


def _images(content: Content, base_url: str | None, prefix: str) -> tuple[str, ...]:
    """``Image:``/``Cover:`` metadata, ``{static}``/``{attach}`` links resolved as Pelican does."""
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
