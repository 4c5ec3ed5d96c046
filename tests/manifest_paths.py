"""Where a build keeps its site's manifest (``state_file`` with the site's key in its name)."""

from __future__ import annotations

import os
from pathlib import Path

from sitemapkit.lastmod.manifest import site_manifest

DEFAULT_STATE = ".cache/sitemapkit/state.json"


def manifest_of(project: str | os.PathLike[str], base_url: str, site_dir: str | os.PathLike[str] | None = None,
                state_file: str = DEFAULT_STATE) -> Path:
    """The manifest a build of ``base_url`` into ``site_dir`` keeps under ``project``."""
    return site_manifest(Path(project) / state_file, base_url, site_dir, project)


def manifests_in(folder: str | os.PathLike[str]) -> list[Path]:
    """The manifests (``state-KEY.json``) in ``folder``, sorted."""
    return sorted(Path(folder).glob("state-*.json"))
