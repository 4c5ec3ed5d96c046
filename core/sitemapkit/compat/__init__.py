"""Other sitemap plugins' options, and the ways of each generator and of the plugins sitemapkit
works beside, in sitemapkit's terms: what an adapter would otherwise decide, as plain functions."""

from collections.abc import Mapping


def on_read_the_docs(environ: Mapping[str, str]) -> bool:
    """Whether ``environ`` is a Read the Docs build's (it sets ``READTHEDOCS=True``): asked before
    ``sitemapkit.versions`` is loaded, which only a versioned build needs."""
    return environ.get("READTHEDOCS") == "True"
