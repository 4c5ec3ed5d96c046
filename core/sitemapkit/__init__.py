"""sitemapkit: sitemaps for static sites, from one shared core."""

from importlib.metadata import PackageNotFoundError, version

from sitemapkit.generate import generate
from sitemapkit.listing.entries import build_entries
from sitemapkit.model import Alternate, Entry, Image, NavItem, NewsArticle, Outline, Page, Video
from sitemapkit.output.write import write_sitemaps
from sitemapkit.report import Problem, Report, SitemapError
from sitemapkit.settings import OPTION_NAMES, Settings, SettingsError
from sitemapkit.validate import validate


def __getattr__(name: str) -> str:
    """``__version__``: the installed distribution's (pyproject.toml is the one place), read
    from its metadata when first asked for (1.5 ms, which a build does not spend)."""
    if name != "__version__":
        raise AttributeError(f"module 'sitemapkit' has no attribute {name!r}")
    try:
        found = version("sitemapkit")
    except PackageNotFoundError:  # pragma: no cover - imported from a tree never installed
        found = "0+unknown"
    globals()["__version__"] = found
    return found

__all__ = [
    "OPTION_NAMES",
    "Alternate",
    "Entry",
    "Image",
    "NavItem",
    "NewsArticle",
    "Outline",
    "Page",
    "Problem",
    "Report",
    "Settings",
    "SettingsError",
    "SitemapError",
    "Video",
    "__version__",
    "build_entries",
    "generate",
    "validate",
    "write_sitemaps",
]
