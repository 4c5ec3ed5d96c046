"""Which files of a Jekyll project build pages, beyond the name-for-name match every layout
shares: ``exclude`` in ``_config.yml`` (read as Jekyll reads it) and the documents of a
collection whose ``output`` is true (any file with front matter, of any extension)."""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterator
from pathlib import Path


def excluded(relative: str, patterns: tuple[str, ...]) -> bool:
    """Whether ``exclude`` names the root-relative path ``relative``: a pattern that matches
    it (``*`` crossing folders, as Ruby's ``File.fnmatch`` without ``FNM_PATHNAME``), or that
    it begins with."""
    return any(fnmatch.fnmatchcase(relative, pattern) or relative.startswith(pattern.rstrip("/"))
               for pattern in patterns)


def documents(folder: Path, root: Path, patterns: tuple[str, ...]) -> Iterator[tuple[str, str]]:
    """(path, path in ``folder``) of each document of the collection in ``folder``: a file
    with front matter that no ``exclude`` pattern names (a file without front matter is
    copied as it is: no page); names starting with ``_`` or ``.`` are skipped, as Jekyll
    skips them."""
    for dirpath, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith(("_", ".")))
        for name in sorted(files):
            path = os.path.join(dirpath, name)
            relative = os.path.relpath(path, root).replace(os.sep, "/")
            if not name.startswith(("_", ".")) and not excluded(relative, patterns) and _fenced(path):
                yield path, os.path.relpath(path, folder).replace(os.sep, "/")


def default_permalink(defaults: tuple[tuple[str, str | None, str], ...], path: str, kind: str) -> str | None:
    """The ``permalink`` Jekyll's ``defaults:`` give the source at ``path`` (relative to the
    project, or for a post or a collection's document to ``collections_dir``) of ``kind``
    (``posts``, ``pages`` or a collection's name): of the sets whose scope holds it (a path
    it begins with, ``*`` as a glob over its folders; the type), the one with the longest
    path, then one with a type, then the later one, as Jekyll picks."""
    chosen: tuple[str, str | None, str] | None = None
    for scope_path, scope_kind, permalink in defaults:
        if (scope_kind is not None and scope_kind != kind) or not _in_scope(path, scope_path):
            continue
        if chosen is None or len(scope_path) > len(chosen[0]) or (
                len(scope_path) == len(chosen[0]) and (scope_kind is not None or chosen[1] is None)):
            chosen = (scope_path, scope_kind, permalink)
    return None if chosen is None else chosen[2]


def _in_scope(path: str, scope_path: str) -> bool:
    """Whether a defaults' scope ``path`` holds the source at ``path``: it begins with it,
    or with a path a glob (``docs/*/api``) names."""
    if "*" not in scope_path:
        return path.startswith(scope_path)
    parts = path.split("/")
    return any(fnmatch.fnmatchcase("/".join(parts[:end]), scope_path) for end in range(1, len(parts) + 1))


def output_extension(relative: str, converted: tuple[str, ...]) -> tuple[str, str]:
    """(path without its extension, the extension of what Jekyll writes): ``.html`` for a
    source in ``converted`` (Markdown, HTML), else the source's own (``.txt``)."""
    stem, dot, extension = relative.rpartition(".")
    if not dot or "/" in extension:
        return relative, ""
    return stem, ".html" if f".{extension}" in converted else f".{extension}"


def _fenced(path: str) -> bool:
    """Whether the file opens with a front-matter fence (``---``)."""
    try:
        with open(path, "rb") as handle:
            return handle.readline(8).rstrip() == b"---"
    except OSError:
        return False
