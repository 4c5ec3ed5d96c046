"""Which URL a page may be listed at: every listed URL is served by a written file (by the
one URL <-> file mapping, ``pages.serving_file``)."""

from __future__ import annotations

import os

from sitemapkit.report import Problem
from sitemapkit.site.pages import serving_file


def listed_url(site_dir: str | os.PathLike[str], linked: str, written: str, *, generator: str,
               fix: str) -> tuple[str, Problem | None]:
    """The URL to list for a page its ``generator`` links as ``linked`` and wrote where
    ``written`` is served (both site-relative): ``linked`` when a file of the site serves it,
    else ``written``, with the ``page-missing`` problem that says so and how to ``fix`` it."""
    if linked == written or serving_file(site_dir, linked) is not None:
        return linked, None
    return written, Problem(
        written or "index.html", "page-missing",
        f"{generator} links this page as '{linked}', which no written file serves; listed as "
        f"'{written}' where {generator} wrote it ({fix})", field="loc",
    )
