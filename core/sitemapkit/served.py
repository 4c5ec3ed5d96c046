"""Which file of a built site answers a site-relative URL path, as static hosts serve them."""

from __future__ import annotations

import os
from urllib.parse import unquote, urlsplit


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
