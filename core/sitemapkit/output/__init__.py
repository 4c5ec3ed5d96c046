"""Entries out to files: the streaming writer, the XML it writes, robots.txt, the change
feed, ``sitemap.html`` and IndexNow."""

import os
from pathlib import Path

TEMPLATES = Path(os.path.abspath(__file__)).parent.parent / "templates"  # no resolve(): 0.03 ms of file system calls
"""The folder of sitemapkit's own templates: ``sitemapkit/sections.html``, ``sitemapkit/page.html``.
Here, not in ``html_sitemap``: an adapter adds it to its generator's template folders at start,
and a build that writes no ``sitemap.html`` does not load the views."""
