"""robots.txt: add our ``Sitemap:`` line, keep every other byte. (Being written.)"""

from __future__ import annotations

from pathlib import Path


def update_robots_txt(site_dir: Path, sitemap_url: str) -> Path:
    raise NotImplementedError
