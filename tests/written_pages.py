"""Pages written into a folder as a built site, for ``sitemapkit build``: each file's time set
long before any build (no kept fact of it is in doubt)."""

from __future__ import annotations

import os
from pathlib import Path

OLD = 1_700_000_000_000_000_000  # 2023-11-14


def page(site: Path, path: str, body: str, head: str = "") -> None:
    target = site / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(f"<!doctype html><html lang='en'><head><title>{path}</title>{head}</head>"
                      f"<body><main><h1>{path}</h1>{body}</main></body></html>", encoding="utf-8")
    os.utime(target, ns=(OLD, OLD))
