"""Pelican settings -> sitemapkit: ``SITEMAPKIT``, and pelican-sitemap's ``SITEMAP``.

``SITEMAP`` keeps its pelican-sitemap meaning; ``SITEMAPKIT`` wins key by key: its ``txt``
over ``format``, its ``changefreq``/``rules`` over ``changefreqs``, its ``priority``/``rules``
over ``priorities``. Both excludes apply.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Mapping
from typing import Any, NamedTuple

from sitemapkit import Settings, SettingsError
from sitemapkit.options import OPTIONS
from sitemapkit.settings import MovedTo, moved_to

KINDS = ("articles", "pages", "indexes")
# SITEMAP key -> (page-level key it fills, SITEMAPKIT keys that beat it, pelican-sitemap's defaults)
_PER_KIND = {
    "changefreqs": ("changefreq", ("changefreq", "rules"), ("monthly", "monthly", "daily")),
    "priorities": ("priority", ("priority", "rules"), (0.5, 0.5, 0.5)),
}


MOVED_TO: MovedTo = {"format": ("txt", lambda format: True if format == "txt" else None)}


class PelicanSitemapError(SettingsError):
    """A SITEMAPKIT, SITEMAP or SITEURL value sitemapkit cannot use, found at start-up."""


class Options(NamedTuple):
    settings: Settings
    exclude: tuple[re.Pattern[str], ...]
    """SITEMAP's ``exclude``: regular expressions searched in the site-relative URL."""
    kind_meta: Mapping[str, Mapping[str, Any]]
    """Page-level keys each kind of page (articles, pages, indexes) gets unless it has its own."""

    def excluded(self, url: str) -> bool:
        return bool(self.exclude) and any(pattern.search(url) for pattern in self.exclude)


def read_options(pelican_settings: Mapping[str, Any]) -> Options | None:
    """The options, or None when the site has no absolute URL (quickstart's dev settings)."""
    ours = pelican_settings.get("SITEMAPKIT") or {}
    legacy = pelican_settings.get("SITEMAP") or {}
    for name, value in (("SITEMAPKIT", ours), ("SITEMAP", legacy)):
        if not isinstance(value, Mapping):
            raise PelicanSitemapError(f"{name} must be a dict, got {value!r}")
    unknown = sorted(set(legacy) - {"format", "exclude", *_PER_KIND})
    if unknown:
        raise PelicanSitemapError(
            f"SITEMAP: unknown key '{unknown[0]}'; pelican-sitemap's keys are format, "
            "priorities, changefreqs, exclude (sitemapkit's options go in SITEMAPKIT)"
        )
    if legacy.get("format", "xml") not in ("xml", "txt"):
        raise PelicanSitemapError(f"SITEMAP['format'] must be 'xml' or 'txt', got {legacy['format']!r}")
    values = moved_to(ours, legacy, MOVED_TO)
    for option in OPTIONS:  # a Python string where a list of patterns goes is a slip: say so
        given = values.get(option.name)
        if option.kind.item is str and isinstance(given, str):
            raise PelicanSitemapError(f"SITEMAPKIT['{option.name}'] must be a list of patterns, got the "
                                      f"string {given!r} (write [{given!r}])")
    base_url = values.pop("base_url", None)
    if base_url is None and "://" not in str(pelican_settings.get("SITEURL") or ""):
        return None
    base_url = base_url or pelican_settings["SITEURL"]
    try:
        settings = Settings.from_mapping(values, base_url=base_url)
    except SettingsError as error:
        where = "SITEURL" if "'base_url'" in str(error) and "base_url" not in ours else "SITEMAPKIT"
        raise PelicanSitemapError(f"{where}: {error}") from None
    return Options(settings, _regexes(legacy.get("exclude", ())), _kind_meta(legacy, ours))


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


@functools.lru_cache(maxsize=16)  # asked once per file written
def absolute_dir(path: str | os.PathLike[str]) -> str:
    """A Pelican path setting (str or ``pathlib.Path``, maybe relative to the current folder)
    as an absolute string, the form of the paths ``content_written`` gives."""
    return os.path.abspath(os.fspath(path))
