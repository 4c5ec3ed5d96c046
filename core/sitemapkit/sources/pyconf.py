"""A Python config file's literal top-level assignments, read without running the file."""

from __future__ import annotations

import ast
import functools
from pathlib import Path
from typing import Any


def conf_py(confdir: str | Path, name: str = "conf.py") -> dict[str, Any]:
    """``name``'s top-level assignments in ``confdir``: the value when it is a literal, else
    ``...``; empty when there is no such file.

    A generator's own view of its config cannot say what the file itself wrote (Sphinx drops
    names no extension declares, such as a misspelt ``sitemapkit_*``, turns ``language = None``
    into ``'en'`` and lays ``-D`` over the file's values), so sitemapkit reads the file."""
    path = Path(confdir, name)
    stat = path.stat() if path.is_file() else None
    return _assignments(str(path), stat and (stat.st_mtime_ns, stat.st_size))


@functools.lru_cache(maxsize=4)  # read once per build (and again when the file changes)
def _assignments(path: str, version: tuple[int, int] | None) -> dict[str, Any]:
    found: dict[str, Any] = {}
    if version is None:
        return found
    for node in ast.parse(Path(path).read_bytes()).body:
        if not isinstance(node, ast.Assign | ast.AnnAssign) or node.value is None:
            continue
        for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
            if isinstance(target, ast.Name):
                try:
                    found[target.id] = ast.literal_eval(node.value)
                except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                    found[target.id] = ...
    return found
