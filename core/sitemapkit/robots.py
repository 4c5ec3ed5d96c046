"""robots.txt: add our ``Sitemap:`` line (or take it out when no sitemap was written), keep
every other byte."""

from __future__ import annotations

import os
from pathlib import Path

from .files import write_file

NEW_ROBOTS = "User-agent: *\nDisallow:\n\nSitemap: {url}\n"


def update_robots_txt(site_dir: Path, sitemap_url: str) -> Path:
    """Create ``robots.txt`` naming ``sitemap_url``, or append one ``Sitemap:`` line to the
    one there, in its own line-ending style. When that line is already there the file is
    not touched at all (bytes and mtime), so a rebuild changes nothing."""
    path = Path(site_dir) / "robots.txt"
    line = f"Sitemap: {sitemap_url}"
    try:
        old = path.read_bytes()
    except FileNotFoundError:
        _replace(path, NEW_ROBOTS.format(url=sitemap_url).encode())
        return path
    wanted = line.encode()
    if any(existing.rstrip(b"\r") == wanted for existing in old.split(b"\n")):
        return path
    newline = b"\r\n" if b"\r\n" in old else b"\n"
    separator = newline if old and not old.endswith(b"\n") else b""
    _replace(path, old + separator + wanted + newline)
    return path


def drop_sitemap_line(site_dir: Path, sitemap_url: str) -> bool:
    """Take our ``Sitemap:`` line out of ``robots.txt`` (a build that wrote no sitemap must
    not leave it naming a missing file), keeping every other byte; True when it was there.
    Without the line the file is not touched."""
    path = Path(site_dir) / "robots.txt"
    try:
        old = path.read_bytes()
    except FileNotFoundError:
        return False
    wanted = f"Sitemap: {sitemap_url}".encode()
    lines = old.split(b"\n")
    kept = [line for line in lines if line.rstrip(b"\r") != wanted]
    if len(kept) == len(lines):
        return False
    _replace(path, b"\n".join(kept))
    return True


def _replace(path: Path, data: bytes) -> None:
    mode = _mode(path)
    write_file(path, data)
    if mode is not None:
        os.chmod(path, mode)


def _mode(path: Path) -> int | None:
    """Keep the permissions of a robots.txt we rewrite."""
    try:
        return path.stat().st_mode & 0o7777
    except FileNotFoundError:
        return None
