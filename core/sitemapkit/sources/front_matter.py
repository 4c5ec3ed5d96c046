"""A source file's front matter: YAML (``---``) or TOML (``+++``) at its head, read for
``sitemapkit build`` to place and date the page it builds."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from sitemapkit.dates import DateError, parse_moment
from sitemapkit.site.files import open_regular
from sitemapkit.sources.bounded import CONFIG_BYTES, ConfigError, load_toml, load_yaml


def read_front_matter(path: str | os.PathLike[str]) -> dict[str, Any]:
    """YAML (``---``) or TOML (``+++``) front matter at the head of a source file; ``{}``
    when it has none. Only the head is read, and within the bounds of a configuration
    (``bounded``: a regular file, ``CONFIG_BYTES``, ``MAX_DEPTH``, no YAML aliases).
    ``ValueError`` (``bounded.ConfigError`` past a bound) when it does not parse."""
    lines: list[str] = []
    try:
        fd = open_regular(path)  # a named pipe is never waited for
    except OSError:
        return {}
    size = 0
    with open(fd, encoding="utf-8-sig", errors="replace") as handle:
        try:
            fence = handle.readline(16).rstrip()
            if fence not in ("---", "+++"):
                return {}
            closing = ("---", "...") if fence == "---" else ("+++",)
            while line := handle.readline(CONFIG_BYTES):
                if line.rstrip() in closing:
                    break
                size += len(line)
                if size > CONFIG_BYTES:
                    raise ConfigError(f"{path}: front matter larger than {CONFIG_BYTES >> 10} KiB; not read")
                lines.append(line)
            else:
                return {}
        except OSError:
            return {}
    text = "".join(lines)
    # PyYAML and tomllib are imported by the first page with front matter to read, not by
    # every adapter's import: each costs about 10 ms (tomllib compiles its patterns), and
    # Pelican, whose adapter imports sources.project (and so this module), loads neither itself.
    data = load_toml(Path(path), text) if fence == "+++" else load_yaml(Path(path), text)
    return data if isinstance(data, dict) else {}


def front_matter_day(value: Any) -> tuple[str, str, str] | None:
    """(year, month, day) of a front-matter ``date``, as written (its own offset); None when
    there is none or it is no date."""
    try:
        moment = parse_moment(value) if value not in (None, "") else None
    except DateError:
        return None
    return None if moment is None else (f"{moment.year:04}", f"{moment.month:02}", f"{moment.day:02}")
