"""A source file's front matter: YAML (``---``) or TOML (``+++``) at its head, read for
``sitemapkit build`` to place and date the page it builds."""

from __future__ import annotations

import os
from typing import Any

from sitemapkit.dates import DateError, parse_moment


def read_front_matter(path: str | os.PathLike[str]) -> dict[str, Any]:
    """YAML (``---``) or TOML (``+++``) front matter at the head of a source file; ``{}``
    when it has none. Only the head is read. ``ValueError`` when it does not parse."""
    lines: list[str] = []
    try:
        with open(path, encoding="utf-8-sig", errors="replace") as handle:
            fence = handle.readline().rstrip()
            if fence not in ("---", "+++"):
                return {}
            closing = ("---", "...") if fence == "---" else ("+++",)
            for line in handle:
                if line.rstrip() in closing:
                    break
                lines.append(line)
            else:
                return {}
    except OSError:
        return {}
    text = "".join(lines)
    # PyYAML and tomllib are imported by the first page with front matter to read, not by
    # every adapter's import: each costs about 10 ms (tomllib compiles its patterns), and
    # Pelican, whose adapter imports sources.project (and so this module), loads neither itself.
    import tomllib
    import yaml

    try:
        data = tomllib.loads(text) if fence == "+++" else yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise ValueError(" ".join(line.strip() for line in str(error).splitlines())) from None
    return data if isinstance(data, dict) else {}


def front_matter_day(value: Any) -> tuple[str, str, str] | None:
    """(year, month, day) of a front-matter ``date``, as written (its own offset); None when
    there is none or it is no date."""
    try:
        moment = parse_moment(value) if value not in (None, "") else None
    except DateError:
        return None
    return None if moment is None else (f"{moment.year:04}", f"{moment.month:02}", f"{moment.day:02}")
