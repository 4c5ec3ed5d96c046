"""Virtual environments of their own for generators that cannot share the test venv (ProperDocs
answers ``mkdocs`` imports; Zensical pins its own Markdown stack; the README's rows each want a
fresh venv): made from PyPI on first use and kept in pytest's cache, so a fresh machine needs
only PyPI. They are made with uv (a development dependency, see docs/development.md): it
resolves and installs in parallel and links every wheel from its own cache, where pip would
download it again for each venv. Each venv is seeded with pip, as ``python -m venv`` makes it."""

from __future__ import annotations

import fcntl
import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sitemap_checks import REPO

UV = [sys.executable, "-m", "uv", "--quiet"]  # the test venv's uv (a development dependency)


def tool_venv(config: pytest.Config, packages: list[str], *, sitemapkit: bool = False) -> Path:
    """The ``bin`` folder of a venv holding ``packages`` (and sitemapkit, editable, so it follows
    the working tree); tests that ask for the same packages share one. It is remade when the
    package list, pyproject.toml or this file changes."""
    wanted = "\n".join([*packages, f"sitemapkit={sitemapkit}", (REPO / "pyproject.toml").read_text(),
                        Path(__file__).read_text()])  # a change to how venvs are made remakes them
    tag = hashlib.sha256(wanted.encode()).hexdigest()[:12]
    folder = Path(config.cache.mkdir("sitemapkit-venvs")) / tag
    bin_dir = folder / ("Scripts" if os.name == "nt" else "bin")
    ready = folder / "ready"
    with open(folder.parent / f"{tag}.lock", "w") as lock:  # test workers running side by side
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not ready.exists():
            _make(folder, bin_dir, [*packages, *(["--editable", str(REPO)] if sitemapkit else [])])
            ready.write_text(wanted, encoding="utf-8")
    return bin_dir


def sitemapkit_wheel(folder: Path) -> Path:
    """sitemapkit's wheel, built from the working tree into ``folder`` by its build backend in
    an isolated environment, as a release is built."""
    subprocess.run([*UV, "build", "--wheel", "--out-dir", str(folder), str(REPO)], check=True, capture_output=True,
                   timeout=300)
    (wheel,) = folder.glob("sitemapkit-*.whl")
    return wheel


def _make(folder: Path, bin_dir: Path, requirements: list[str]) -> None:
    subprocess.run([*UV, "venv", "--clear", "--seed", "--python", sys.executable, str(folder)], check=True)
    if requirements:  # compiled, as pip installs them: the tests run these tools many times
        subprocess.run([*UV, "pip", "install", "--compile-bytecode", "--python", str(bin_dir / "python"),
                        *requirements], check=True)
