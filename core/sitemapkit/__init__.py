"""sitemapkit: sitemaps for static sites, from one shared core."""

from .entries import build_entries
from .generate import generate
from .model import Alternate, Entry, Image, NewsArticle, Page, Video
from .report import Problem, Report, SitemapError
from .settings import OPTION_NAMES, Settings, SettingsError
from .validate import validate
from .write import write_sitemaps

__all__ = [
    "OPTION_NAMES",
    "Alternate",
    "Entry",
    "Image",
    "NewsArticle",
    "Page",
    "Problem",
    "Report",
    "Settings",
    "SettingsError",
    "SitemapError",
    "Video",
    "build_entries",
    "generate",
    "validate",
    "write_sitemaps",
]
