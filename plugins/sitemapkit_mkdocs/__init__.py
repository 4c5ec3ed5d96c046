"""MkDocs adapter of sitemapkit: ``plugins: [sitemapkit]`` in mkdocs.yml."""

from .plugin import SitemapkitPlugin

__all__ = ["SitemapkitPlugin"]
