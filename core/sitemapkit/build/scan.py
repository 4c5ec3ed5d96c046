"""Pages of a folder of built HTML, for sites whose generator has no adapter."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from ..model import Page
from ..pages import HTML_SUFFIXES, url_for_file


def html_files(site_dir: Path) -> Iterator[str]:
    """Site-relative paths of the HTML files, in a stable order; hidden folders skipped."""
    for folder, dirs, files in os.walk(site_dir):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        base = os.path.relpath(folder, site_dir)
        for name in sorted(files):
            if name.endswith(HTML_SUFFIXES):
                yield name if base == "." else f"{base}/{name}".replace(os.sep, "/")


def pages_in(site_dir: Path | str) -> Iterator[Page]:
    """One ``Page`` per HTML file, at the URL a web server gives it (``a/index.html`` -> ``a/``,
    every other byte of the name percent-encoded). The HTML is read later, one page at a
    time, by the core's rules, which also leave out what is not a page (``pages.not_a_page``).
    """
    site_dir = Path(site_dir)
    for relative in html_files(site_dir):
        yield Page(url=url_for_file(relative), output=site_dir / relative, name=relative)
