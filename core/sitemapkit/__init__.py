"""sitemapkit: sitemaps for static sites, from one shared core."""

from importlib.metadata import PackageNotFoundError, version

from sitemapkit.generate import generate
from sitemapkit.listing.entries import build_entries
from sitemapkit.model import Alternate, Entry, Image, NavItem, NewsArticle, Outline, Page, Video
from sitemapkit.output.write import write_sitemaps
from sitemapkit.report import Problem, Report, SitemapError
from sitemapkit.settings import OPTION_NAMES, Settings, SettingsError
from sitemapkit.validate import validate

try:
    __version__ = version("sitemapkit")  # the installed distribution's (pyproject.toml is the one place)
except PackageNotFoundError:  # pragma: no cover - imported from a tree never installed
    __version__ = "0+unknown"

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
