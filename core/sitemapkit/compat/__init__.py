"""Other sitemap plugins' options, and the ways of each generator and of the plugins sitemapkit
works beside, in sitemapkit's terms: what an adapter would otherwise decide, as plain functions."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sitemapkit.versions import ReadTheDocs


def read_the_docs(environ: Mapping[str, str]) -> ReadTheDocs | None:
    """The Read the Docs build ``environ`` says this is (``READTHEDOCS=True``), or None. Here,
    not in ``sitemapkit.versions``, which only a versioned build loads: each adapter asks."""
    if environ.get("READTHEDOCS") != "True":
        return None
    from sitemapkit.versions import ReadTheDocs

    return ReadTheDocs(environ.get("READTHEDOCS_CANONICAL_URL") or None, environ.get("READTHEDOCS_VERSION") or None)
