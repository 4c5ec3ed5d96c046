"""Which generator left a source folder, and what its configuration says about where its
pages go (``sitemapkit build --source-dir``); the layouts themselves are in ``layouts``."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import tomllib
import yaml

from sitemapkit.sources.layouts import FILES, HUGO_CONFIGS, JEKYLL_STYLES, LAYOUTS, Found, Layout

_ELEVENTY_INPUT = re.compile(r"""\binput\s*:\s*["']([^"'\\]{1,200})["']""")
"""``dir: {input: "src"}`` in an Eleventy configuration (read as text, never run)."""


def detect(source_dir: Path, languages: tuple[str, ...] = ()) -> Found:
    """The layout of ``source_dir``: the generator whose markers lie in it or in the folder
    above it (``--source-dir content`` in a Hugo project), else the mirror layout."""
    source_dir = Path(source_dir)
    for root in (source_dir, source_dir.parent):
        for layout in LAYOUTS:
            if any(all((root / name).exists() for name in group) for group in layout.markers):
                return _configured(layout, root, source_dir)
    return Found(FILES, source_dir, ((source_dir, "", None),), languages)


def _configured(layout: Layout, root: Path, source_dir: Path) -> Found:
    if layout.name == "hugo":
        return _hugo(layout, root, source_dir)
    if layout.name == "jekyll":
        style = str(_read_config(root / "_config.yml").get("permalink") or "date")
        return Found(layout, root, ((root, "", None),), templates=(("_posts", JEKYLL_STYLES.get(style, style)),))
    if layout.name == "eleventy":
        folder = root
        for marker in layout.markers:
            config = root / marker[0]
            text = config.read_text(encoding="utf-8", errors="replace")[:100_000] if config.is_file() else ""
            if (match := _ELEVENTY_INPUT.search(text)) and _inside(root, root / match.group(1)):
                folder = root / match.group(1)
                break
        return Found(layout, root, ((folder, "", None),))
    folders = tuple((root / sub, prefix, None) for sub, prefix in layout.folders if (root / sub).is_dir())
    return Found(layout, root, folders, templates=layout.dated)


def _hugo(layout: Layout, root: Path, source_dir: Path) -> Found:
    config: Mapping[str, Any] = {}
    for name in HUGO_CONFIGS:
        if (root / name).is_file():
            config = _read_config(root / name)
            break
    content = root / str(config.get("contentdir") or "content")
    if source_dir != root and source_dir.is_dir():
        content = source_dir  # --source-dir content
    default = str(config.get("defaultcontentlanguage") or "en").lower()
    in_subdir = config.get("defaultcontentlanguageinsubdir") is True
    spoken = config.get("languages") if isinstance(config.get("languages"), Mapping) else {}
    languages = tuple(sorted({default, *(str(code).lower() for code in spoken)}, key=lambda code: code != default))
    folders = []
    for code, options in spoken.items():
        options = {str(k).lower(): v for k, v in options.items()} if isinstance(options, Mapping) else {}
        folder = root / str(options["contentdir"]) if options.get("contentdir") else None
        if folder is not None and _inside(root, folder):
            folders.append((folder, "", str(code).lower()))
    if not folders:
        folders.append((content, "", None))
    return Found(layout, root, tuple(folders), languages if len(languages) > 1 else (), in_subdir)


def _inside(root: Path, folder: Path) -> bool:
    """A configured folder is only read when it lies in the project."""
    try:
        return folder.resolve().is_relative_to(root.resolve())
    except OSError:
        return False


def _read_config(path: Path) -> Mapping[str, Any]:
    """A generator's TOML or YAML configuration, its top-level keys in lower case (Hugo's
    keys are case-insensitive); ``{}`` when it cannot be read (the pages then keep the
    default layout)."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
        data = tomllib.loads(text) if path.suffix == ".toml" else yaml.safe_load(text)
    except (OSError, ValueError, yaml.YAMLError):
        return {}
    return {str(key).lower(): value for key, value in data.items()} if isinstance(data, Mapping) else {}
