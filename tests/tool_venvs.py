"""Virtual environments of their own for generators that cannot share the test venv (ProperDocs
answers ``mkdocs`` imports; Zensical pins its own Markdown stack): made from PyPI with pip on
first use and kept in pytest's cache, so a fresh machine needs only PyPI."""

from __future__ import annotations

import fcntl
import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sitemap_checks import REPO


def tool_venv(config: pytest.Config, name: str, packages: list[str], *, sitemapkit: bool = False) -> Path:
    """The ``bin`` folder of a venv holding ``packages`` (and sitemapkit, editable, so it follows
    the working tree); remade when the package list, pyproject.toml or this file changes."""
    wanted = "\n".join([*packages, f"sitemapkit={sitemapkit}", (REPO / "pyproject.toml").read_text(),
                        Path(__file__).read_text()])  # a change to how venvs are made remakes them
    tag = hashlib.sha256(wanted.encode()).hexdigest()[:12]
    folder = Path(config.cache.mkdir("sitemapkit-venvs")) / f"{name}-{tag}"
    bin_dir = folder / ("Scripts" if os.name == "nt" else "bin")
    ready = folder / "ready"
    folder.parent.mkdir(parents=True, exist_ok=True)
    with open(folder.parent / f"{name}.lock", "w") as lock:  # test workers running side by side
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not ready.exists():
            _make(folder, bin_dir, packages, sitemapkit=sitemapkit)
            ready.write_text(wanted, encoding="utf-8")
    return bin_dir


def _make(folder: Path, bin_dir: Path, packages: list[str], *, sitemapkit: bool) -> None:
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(folder)], check=True)
    pip = [str(bin_dir / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    if packages:
        subprocess.run([*pip, *packages], check=True)
    if sitemapkit:
        subprocess.run([*pip, "--editable", str(REPO)], check=True)  # with the core's own dependencies
