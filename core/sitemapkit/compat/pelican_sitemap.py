"""pelican-sitemap's ``SITEMAP`` setting beside sitemapkit's own ``SITEMAPKIT`` (Pelican's
adapter reads both): ``SITEMAP`` keeps its pelican-sitemap meaning and ``SITEMAPKIT`` wins key
by key, its ``txt`` over ``format``, its ``changefreq``/``rules`` over ``changefreqs``, its
``priority``/``rules`` over ``priorities``. Both excludes apply.
"""

import re
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from sitemapkit.listing.page_keys import with_defaults
from sitemapkit.options import OPTIONS
from sitemapkit.report import Problem
from sitemapkit.settings import MovedTo, Settings, SettingsError, moved_to, no_base_url

KINDS = ("articles", "pages", "indexes")
# SITEMAP key -> (page-level key it fills, SITEMAPKIT keys that beat it, pelican-sitemap's defaults)
_PER_KIND = {
    "changefreqs": ("changefreq", ("changefreq", "rules"), ("monthly", "monthly", "daily")),
    "priorities": ("priority", ("priority", "rules"), (0.5, 0.5, 0.5)),
}
_MOVED_TO: MovedTo = {"format": ("txt", lambda format: True if format == "txt" else None)}
# Page-level keys pelican-sitemap read from metadata ("ChangeFreq:", "Priority:").
_PAGE_KEYS = {"changefreq": "sitemap_changefreq", "priority": "sitemap_priority"}
LEFT_OUT: Mapping[str, Any] = {"sitemap": False}
"""What ``PelicanSitemap.meta`` gives a page left out."""
_NONE: Mapping[str, Any] = {}
PLUGIN = "pelican.plugins.sitemap"
"""pelican-sitemap's module, as Pelican lists the plugins it loaded."""
NO_SITE_URL_FIX = ("pelican-quickstart's pelicanconf.py (development settings) leaves it empty: build with "
                   "`pelican content -s publishconf.py`, which sets SITEURL = 'https://...', or set "
                   "SITEMAPKIT['base_url']")


class PelicanSitemapError(SettingsError):
    """A SITEMAPKIT, SITEMAP or SITEURL value sitemapkit cannot use, found at start-up."""


def public(status: str, meta: Mapping[str, Any]) -> bool:
    """Published (not a draft, hidden or skipped) and not ``Private: true``."""
    return status == "published" and ("private" not in meta  # (most pages: one look)
                                      or str(meta["private"]).strip().lower() not in ("true", "yes", "1"))


def plugin_conflict(plugins: Iterable[str]) -> Problem | None:
    """The warning when pelican-sitemap is among the ``plugins`` Pelican loaded (by module
    name) beside sitemapkit, or None."""
    if PLUGIN not in plugins:
        return None
    return Problem("settings", "plugin-conflict", "pelican-sitemap is enabled too and writes its own sitemap.xml: "
                   "remove it from PLUGINS, or uninstall it when Pelican finds plugins by itself (sitemapkit "
                   "reads its SITEMAP setting)", field="PLUGINS")


def no_site_url(site_url: Any) -> Problem:
    """Why a run with this ``SITEURL`` (and no ``SITEMAPKIT['base_url']``) writes no sitemap."""
    return no_base_url("SITEURL", site_url, NO_SITE_URL_FIX)


class PelicanSitemap(NamedTuple):
    settings: Settings
    exclude: tuple[re.Pattern[str], ...]
    """``SITEMAP['exclude']``: regular expressions searched in the site-relative URL."""
    kind_meta: Mapping[str, Mapping[str, Any]]
    """The page-level keys each kind of page (``KINDS``) gets unless it has its own."""

    def meta(self, kind: str, url: str, own: Mapping[str, Any] = _NONE, status: str = "published") -> Mapping[str, Any]:
        """The page-level keys of a page of ``kind`` at ``url`` whose metadata is ``own``:
        ``sitemap: false`` for what pelican-sitemap leaves out (``public``, ``exclude``)."""
        if not public(status, own) or (self.exclude and any(pattern.search(url) for pattern in self.exclude)):
            return LEFT_OUT
        return with_defaults(own, self.kind_meta[kind], _PAGE_KEYS)


def read_settings(pelican_settings: Mapping[str, Any]) -> PelicanSitemap | None:
    """From Pelican's settings (``SITEMAPKIT``, ``SITEMAP``, ``SITEURL``); None when neither
    ``base_url`` nor ``SITEURL`` is an absolute URL (pelican-quickstart's development settings)."""
    ours, legacy = pelican_settings.get("SITEMAPKIT") or {}, pelican_settings.get("SITEMAP") or {}
    site_url = pelican_settings.get("SITEURL")
    for name, value in (("SITEMAPKIT", ours), ("SITEMAP", legacy)):
        if not isinstance(value, Mapping):
            raise PelicanSitemapError(f"{name} must be a dict, got {value!r}")
    unknown = sorted(set(legacy) - {"format", "exclude", *_PER_KIND})
    if unknown:
        raise PelicanSitemapError(f"SITEMAP: unknown key '{unknown[0]}'; pelican-sitemap's keys are format, "
                                  "priorities, changefreqs, exclude (sitemapkit's options go in SITEMAPKIT)")
    if legacy.get("format", "xml") not in ("xml", "txt"):
        raise PelicanSitemapError(f"SITEMAP['format'] must be 'xml' or 'txt', got {legacy['format']!r}")
    values = moved_to(ours, legacy, _MOVED_TO)
    for option in OPTIONS:  # a Python string where a list of patterns goes is a slip: say so
        given = values.get(option.name)
        if option.kind.item is str and isinstance(given, str):
            raise PelicanSitemapError(f"SITEMAPKIT['{option.name}'] must be a list of patterns, got the "
                                      f"string {given!r} (write [{given!r}])")
    base_url = values.pop("base_url", None)
    if base_url is None and "://" not in str(site_url or ""):
        return None
    base_url = base_url or site_url
    try:  # the URL first, so that a bad one is blamed on the setting that gave it
        Settings(base_url=base_url)
    except SettingsError as error:
        raise PelicanSitemapError(f"{'SITEMAPKIT' if 'base_url' in ours else 'SITEURL'}: {error}") from None
    try:
        settings = Settings.from_mapping(values, base_url=base_url)
    except SettingsError as error:
        raise PelicanSitemapError(f"SITEMAPKIT: {error}") from None
    return PelicanSitemap(settings, _regexes(legacy.get("exclude", ())), _kind_meta(legacy, ours))


def _regexes(patterns: Any) -> tuple[re.Pattern[str], ...]:
    try:
        if isinstance(patterns, str) or not all(isinstance(p, str) for p in patterns):
            raise TypeError
        return tuple(re.compile(pattern) for pattern in patterns)
    except (TypeError, re.error) as error:
        why = f": {error}" if isinstance(error, re.error) else ""
        raise PelicanSitemapError(
            f"SITEMAP['exclude'] must be a list of regular expressions, got {patterns!r}{why}"
        ) from None


def _kind_meta(legacy: Mapping[str, Any], ours: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    meta: dict[str, dict[str, Any]] = {kind: {} for kind in KINDS}
    for name, (option, beaten_by, defaults) in _PER_KIND.items():
        given = legacy.get(name)
        if given is None or any(ours.get(key) is not None for key in beaten_by):
            continue
        if not isinstance(given, Mapping) or set(given) - set(KINDS):
            raise PelicanSitemapError(f"SITEMAP['{name}'] must be a dict with keys from {KINDS}")
        for kind, value in {**dict(zip(KINDS, defaults, strict=True)), **given}.items():
            try:
                Settings(**{option: value})
            except SettingsError as error:
                raise PelicanSitemapError(f"SITEMAP['{name}']['{kind}']: {error}") from None
            meta[kind][f"sitemap_{option}"] = value
    return meta
