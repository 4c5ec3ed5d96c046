"""Material for MkDocs reads the site's ``sitemap.xml`` in the browser (its JavaScript asks for
``sitemap.xml`` below the site's base and reads the ``<url>`` entries of a ``<urlset>``): the
features below work only while ``filename`` is ``sitemap.xml``. An adapter names the features
a site turns on, in Material's own terms; this module says what a build loses."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from sitemapkit.report import Problem

PAGE_NAME = "sitemap.xml"
"""The one name Material asks for."""
READERS = {
    "navigation.instant": "instant navigation (navigation.instant: every link then loads the whole page)",
    "navigation.instant.preview": "instant previews (navigation.instant.preview: none are shown)",
    "version": "the version selector (extra.version: it opens the other version's home page, not the "
               "same page)",
    "alternate": "the language selector (extra.alternate: it opens the other language's home page, not "
                 "the same page)",
}
"""Material's features that read ``sitemap.xml``, by the name its config gives them (``version``:
``extra.version`` with mike, the provider its selector needs; ``alternate``: ``extra.alternate``),
and what each loses without it."""


def reads_urlset(theme: str | None) -> bool:
    """Whether the site's theme reads ``sitemap.xml`` as a ``<urlset>`` of its pages, so that
    ``sections`` must leave it one (their index is then ``sitemap-index.xml``): Material's
    features above may be turned on at any time, so the theme alone decides. Zensical, by
    Material's authors, reads it the same way."""
    return theme in ("material", "zensical")


def lost_features(theme: str | None, filename: str, features: Iterable[str] | None,
                  extra: Mapping[str, Any]) -> Problem | None:
    """Why a site in ``theme``, with these theme ``features`` and ``extra`` settings (MkDocs'
    ``theme.features`` and ``extra``), loses some features with this ``filename``; or None
    (another theme, ``filename`` is ``sitemap.xml``, or nothing on reads it)."""
    if theme != "material" or filename == PAGE_NAME:
        return None
    on = set(features or ())
    version = extra.get("version")
    if isinstance(version, Mapping) and version.get("provider") == "mike":
        on.add("version")
    if extra.get("alternate"):
        on.add("alternate")
    lost = [what for name, what in READERS.items() if name in on]
    if not lost:
        return None
    return Problem("settings", "theme-sitemap-name",
                   f"'{filename}' is written and no {PAGE_NAME}, but Material for MkDocs reads {PAGE_NAME}: "
                   f"{'; '.join(lost)}; keep filename: {PAGE_NAME} (the default) for these to work",
                   field="filename")
