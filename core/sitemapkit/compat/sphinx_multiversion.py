"""sphinx-multiversion: which ref a Sphinx build is building, where its pages go below the
output root, and the copy of the ref's files it reads (dated from the ref's history)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

from sitemapkit.lastmod.git import Checkout
from sitemapkit.patterns import lazy_pattern


class Multiversion(NamedTuple):
    """What sphinx-multiversion tells the build of one ref: the version's folder below the
    output root every version is built under (``v1.0``), and the copy of the ref's files the
    build reads, with the repository and ref whose history dates them. Handed along once a
    build: a named tuple."""

    folder: str
    checkout: Checkout


_smv_source = lazy_pattern(r"heads|tags|remotes/[^/\s]+")


# A ref name as git allows it (no space, control character, ``~^:?*[\\``).
_smv_name = lazy_pattern(r"[^\s\x00-\x1f~^:?*\[\\]+")


def sphinx_multiversion(current: Any, metadata: Any, confdir: str) -> Multiversion | None:
    """The ref sphinx-multiversion is building (``smv_current_version``, and its entry in
    ``smv_metadata``: ``outputdir``, ``basedir`` the ref's ``git archive`` copy, ``confdir``
    there, ``source`` and ``name`` of the ref), or None when it is none or its entry does not
    hold together. sphinx-multiversion builds every ref with the conf.py of ``confdir`` (in
    the original repository), so the repository is ``confdir`` less the conf folder's path
    in the copy."""
    data = metadata.get(current) if isinstance(metadata, Mapping) and isinstance(current, str) else None
    keys = ("outputdir", "basedir", "confdir", "source", "name")
    if not isinstance(data, Mapping) or not all(isinstance(data.get(key), str) for key in keys):
        return None
    source, name = data["source"], data["name"]
    if not _smv_source().fullmatch(source) or not _smv_name().fullmatch(name) or ".." in name or name[0] in "-/.":
        return None
    copy, output = Path(data["basedir"]), Path(data["outputdir"])
    try:
        inside = Path(data["confdir"]).relative_to(copy).parts
    except ValueError:
        return None
    repository = Path(confdir)
    if inside and repository.parts[-len(inside):] != inside:
        return None
    for _ in inside:
        repository = repository.parent
    outputs = [Path(item["outputdir"]) for item in metadata.values()
               if isinstance(item, Mapping) and isinstance(item.get("outputdir"), str)]
    steps = len(name.split("/"))  # the one ref: its folder is sphinx-multiversion's default, its name
    try:
        common = Path(os.path.commonpath(outputs)) if len(outputs) > 1 else output.parents[steps - 1]
        folder = output.relative_to(common).as_posix()
    except (ValueError, IndexError):  # absolute and relative mixed; a path too short
        return None
    from sitemapkit.versions import folder_name  # loaded by the builds sphinx-multiversion runs

    if not all(folder_name(part) for part in folder.split("/")):
        return None
    return Multiversion(folder, Checkout(copy, repository, f"refs/{source}/{name}"))
