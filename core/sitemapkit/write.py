"""Streaming sitemap writer. (Being written: see the writer task.)"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from .model import Entry
from .report import Report
from .settings import Settings


def write_sitemaps(
    entries: Iterable[Entry], out_dir: Path | str, settings: Settings, *, report: Report | None = None
) -> Report:
    """Write ``settings.filename`` (a urlset, or an index over sitemap-N.xml), sitemap-news.xml,
    gzip twins and sitemap.txt into ``out_dir``; stream, never holding all entries."""
    raise NotImplementedError
