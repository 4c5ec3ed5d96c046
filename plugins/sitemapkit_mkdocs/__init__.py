"""MkDocs adapter of sitemapkit: ``plugins: [sitemapkit]`` in mkdocs.yml (or properdocs.yml)."""

from importlib.metadata import PackageNotFoundError, version

try:
    from .plugin import SitemapkitPlugin
except ImportError as error:  # MkDocs 2 has no mkdocs.plugins, mkdocs.config, ...
    try:
        found = f"MkDocs {version('mkdocs')}"
    except PackageNotFoundError:
        found = "no MkDocs 1.x"
    raise ImportError(
        f"sitemapkit's MkDocs plugin needs MkDocs 1.x (mkdocs>=1.5,<2) or ProperDocs, whose plugin "
        f"system it uses; found {found} ({error}). Install 'sitemapkit[mkdocs]' or 'properdocs', or "
        f"run 'sitemapkit build' after the build instead"
    ) from error

__all__ = ["SitemapkitPlugin"]
