"""sitemapkit: sitemaps for static sites, from one shared core."""

from sitemapkit.generate import generate
from sitemapkit.listing.entries import build_entries
from sitemapkit.model import Alternate, Entry, Image, NavItem, NewsArticle, Outline, Page, Video
from sitemapkit.output.write import write_sitemaps
from sitemapkit.report import Problem, Report, SitemapError
from sitemapkit.settings import OPTION_NAMES, Settings, SettingsError
from sitemapkit.validate import validate

__version__ = "0.1.0"
"""The one place the version is written: pyproject.toml takes it from here (hatchling's
version source), so the package metadata, ``sitemapkit --version`` and the version the
Sphinx extension reports agree. A constant, not read from the installed metadata at import:
that lookup cost each Sphinx build about 4.5 M instructions."""

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
