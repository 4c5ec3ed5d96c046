"""Pelican settings -> sitemapkit ``Settings``: ``SITEMAPKIT``, and pelican-sitemap's ``SITEMAP``.

``SITEMAP`` keeps the meaning it has in pelican-sitemap; where both settings say something,
``SITEMAPKIT`` wins: its ``txt`` over ``format``, its ``changefreq``/``rules`` over
``changefreqs``, its ``priority``/``rules`` over ``priorities``. Both excludes apply.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sitemapkit import Settings, SettingsError

KINDS = ("articles", "pages", "indexes")
# pelican-sitemap's values for the kinds a SITEMAP dict leaves out.
_LEGACY_FILL = {
    "changefreqs": {"articles": "monthly", "pages": "monthly", "indexes": "daily"},
    "priorities": {"articles": 0.5, "pages": 0.5, "indexes": 0.5},
}
# legacy key -> (page-level key it fills, SITEMAPKIT keys that override it)
_LEGACY_FIELDS = {
    "changefreqs": ("sitemap_changefreq", ("changefreq", "rules")),
    "priorities": ("sitemap_priority", ("priority", "rules")),
}


class PelicanSitemapError(SettingsError):
    """A SITEMAPKIT or SITEMAP value sitemapkit cannot use, found at start-up."""


@dataclass(frozen=True)
class Options:
    settings: Settings
    exclude: tuple[re.Pattern[str], ...] = ()
    """pelican-sitemap's ``exclude``: regular expressions searched in the site-relative URL."""
    kind_meta: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """Page-level keys every page of a kind (articles, pages, indexes) gets unless it has its own."""

    def excluded(self, url: str) -> bool:
        return any(pattern.search(url) for pattern in self.exclude)


def read_options(pelican_settings: Mapping[str, Any]) -> Options:
    """Check ``SITEMAPKIT`` and ``SITEMAP``; raise ``PelicanSitemapError`` naming the bad value."""
    ours = pelican_settings.get("SITEMAPKIT") or {}
    legacy = pelican_settings.get("SITEMAP") or {}
    if not isinstance(ours, Mapping):
        raise PelicanSitemapError(f"SITEMAPKIT must be a dict, got {ours!r}")
    if not isinstance(legacy, Mapping):
        raise PelicanSitemapError(f"SITEMAP must be a dict, got {legacy!r}")
    unknown = sorted(set(legacy) - {"format", "priorities", "changefreqs", "exclude"})
    if unknown:
        raise PelicanSitemapError(
            f"SITEMAP: unknown key '{unknown[0]}'; pelican-sitemap's keys are "
            "format, priorities, changefreqs, exclude (new options go in SITEMAPKIT)"
        )
    values = dict(ours)
    fmt = legacy.get("format", "xml")
    if fmt not in ("xml", "txt"):
        raise PelicanSitemapError(f"SITEMAP['format'] must be 'xml' or 'txt', got {fmt!r}")
    if fmt == "txt" and values.get("txt") is None:
        values["txt"] = True
    base_url = values.pop("base_url", None) or pelican_settings.get("SITEURL") or None
    if not base_url:
        raise PelicanSitemapError(
            "sitemapkit needs the site's absolute URL: set SITEURL in your Pelican settings "
            "(or SITEMAPKIT['base_url']), e.g. SITEURL = 'https://example.com'"
        )
    try:
        settings = Settings.from_mapping(values, base_url=base_url)
    except SettingsError as error:
        where = "SITEURL" if "'base_url'" in str(error) and "base_url" not in ours else "SITEMAPKIT"
        raise PelicanSitemapError(f"{where}: {error}") from None
    return Options(settings, _regexes(legacy.get("exclude", ())), _kind_meta(legacy, ours))


def _regexes(patterns: Any) -> tuple[re.Pattern[str], ...]:
    if isinstance(patterns, str) or not all(isinstance(p, str) for p in patterns):
        raise PelicanSitemapError(
            f"SITEMAP['exclude'] must be a list of regular expressions, got {patterns!r}"
        )
    compiled = []
    for pattern in patterns:
        try:
            compiled.append(re.compile(pattern))
        except re.error as error:
            raise PelicanSitemapError(
                f"SITEMAP['exclude']: {pattern!r} is not a regular expression: {error}"
            ) from None
    return tuple(compiled)


def _kind_meta(legacy: Mapping[str, Any], ours: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    meta: dict[str, dict[str, Any]] = {kind: {} for kind in KINDS}
    for name, (page_key, overriding) in _LEGACY_FIELDS.items():
        given = legacy.get(name)
        if given is None or any(ours.get(key) is not None for key in overriding):
            continue
        if not isinstance(given, Mapping) or set(given) - set(KINDS):
            raise PelicanSitemapError(
                f"SITEMAP['{name}'] must be a dict with keys from {', '.join(KINDS)}, got {given!r}"
            )
        for kind, value in {**_LEGACY_FILL[name], **given}.items():
            option = page_key.removeprefix("sitemap_")
            try:
                Settings(**{option: value})
            except SettingsError as error:
                raise PelicanSitemapError(f"SITEMAP['{name}']['{kind}']: {error}") from None
            meta[kind][page_key] = value
    return meta


def project_dir(pelican_settings: Mapping[str, Any]) -> str:
    """Where ``state_file`` lives: the folder holding both content and output (the project)."""
    folders = [os.path.abspath(pelican_settings[key]) for key in ("PATH", "OUTPUT_PATH")]
    common = os.path.commonpath(folders)
    return common if os.path.dirname(common) != common else os.path.dirname(folders[0])
