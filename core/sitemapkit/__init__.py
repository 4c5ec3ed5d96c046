"""sitemapkit: sitemaps for static sites, from one shared core."""

from .entries import build_entries
from .generate import generate
from .model import Alternate, Entry, Image, NewsArticle, Page, Video
from .report import Problem, Report, SitemapError
from .settings import OPTION_NAMES, Settings, SettingsError
from .write import write_sitemaps


def validate(paths, site_dir=None):
    """Check sitemap, index, news, text and robots.txt files; see ``sitemapkit.validate``."""
    from .validate import validate as _validate

    return _validate(paths, site_dir=site_dir)


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
