"""Which file of a built site answers a site-relative URL path, as static hosts serve them,
and so which URL a page may be listed at: every listed URL is served by a written file."""

from __future__ import annotations

import os
from urllib.parse import unquote, urlsplit

from .report import Problem


def serving_file(site_dir: str | os.PathLike[str], url: str) -> str | None:
    """The site-relative file a static host serves ``url`` (``a/``, ``a.html``, ``a``) from.

    A folder URL is served by its ``index.html``; an extension-less URL by ``name.html``
    as well (GitHub Pages, Netlify and Cloudflare Pages all do this), or by ``name/index.html``.
    ``None`` when no file answers: the URL would be a 404.
    """
    path = unquote(urlsplit(url).path).lstrip("/")
    if ".." in path.split("/"):
        return None
    if not path or path.endswith("/"):
        candidates = [path + "index.html"]
    else:
        candidates = [path, path + "/index.html", path + ".html"]
    for candidate in candidates:
        if os.path.isfile(os.path.join(site_dir, candidate)):
            return candidate
    return None


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
