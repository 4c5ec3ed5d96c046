"""sitemapkit: sitemaps for static sites, from one shared core."""

from .build.entries import build_entries
from .build.generate import generate
from .build.write import write_sitemaps
from .model import Entry, Image, Page
from .report import Problem, Report, SitemapError
from .settings import OPTION_NAMES, Settings, SettingsError
from .validate import validate


def __getattr__(name: str) -> object:
    """``__version__``: the installed distribution's version (pyproject.toml is the one place
    it is written); ``Alternate``, ``NewsArticle``, ``Video`` (see ``model``). Performance:
    looked up when first asked for, not on import, which an adapter pays on every build
    (measured: 2 ms, about 2% of sitemapkit's own time in a 1,000-page MkDocs build)."""
    if name in ("Alternate", "NewsArticle", "Video"):
        from . import extensions

        return getattr(extensions, name)
    if name != "__version__":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        found = version("sitemapkit")
    except PackageNotFoundError:  # pragma: no cover - imported from a tree that was never installed
        found = "0+unknown"
    globals()["__version__"] = found
    return found


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
    "__version__",
    "build_entries",
    "generate",
    "validate",
    "write_sitemaps",
]
