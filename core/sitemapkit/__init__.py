"""sitemapkit: sitemaps for static sites, from one shared core."""

from typing import TYPE_CHECKING, Any

from .model import Entry, Image, Page
from .report import Problem, Report, SitemapError
from .settings import OPTION_NAMES, Settings, SettingsError
from .validate import validate

if TYPE_CHECKING:
    from .build.entries import build_entries
    from .build.generate import generate
    from .build.write import write_sitemaps
    from .extensions import Alternate, NewsArticle, Video

    __version__: str

# Performance: an adapter's import is paid by every build (and by MkDocs builds that end
# before post-build), so it carries only the vocabulary. Looked up when first asked for:
# the building half (measured: about 5 ms), the rarely used entry parts of extensions.py,
# and the installed version (2 ms).
_LAZY = {"build_entries": ".build.entries", "generate": ".build.generate", "write_sitemaps": ".build.write",
         "Alternate": ".extensions", "NewsArticle": ".extensions", "Video": ".extensions"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from importlib import import_module

        value = getattr(import_module(_LAZY[name], __name__), name)
    elif name == "__version__":  # the installed distribution's (pyproject.toml is the one place)
        from importlib.metadata import PackageNotFoundError, version

        try:
            value = version("sitemapkit")
        except PackageNotFoundError:  # pragma: no cover - imported from a tree never installed
            value = "0+unknown"
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


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
