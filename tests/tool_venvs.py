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
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import tomllib

from sitemap_checks import REPO

SITEMAPKIT = re.compile(r"sitemapkit(?:\[([\w,]+)\])?")
UV = [sys.executable, "-m", "uv", "--quiet"]  # the test venv's uv (a development dependency)


def tool_venv(config: pytest.Config, packages: list[str], *, sitemapkit: bool = False,
              python: str = sys.executable) -> Path:
    """The ``bin`` folder of a venv holding ``packages`` (and sitemapkit, editable, so it follows
    the working tree), on ``python`` (an interpreter's path, or a version uv finds: ``3.13``);
    tests that ask for the same packages share one. It is remade when the package list,
    pyproject.toml or this file changes."""
    wanted = "\n".join([*packages, f"sitemapkit={sitemapkit}", f"python={python}",
                        (REPO / "pyproject.toml").read_text(),
                        Path(__file__).read_text()])  # a change to how venvs are made remakes them
    tag = hashlib.sha256(wanted.encode()).hexdigest()[:12]
    folder = Path(config.cache.mkdir("sitemapkit-venvs")) / tag
    bin_dir = folder / ("Scripts" if os.name == "nt" else "bin")
    ready = folder / "ready"
    with open(folder.parent / f"{tag}.lock", "w") as lock:  # test workers running side by side
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not ready.exists():
            _make(folder, bin_dir, [*packages, *(["--editable", str(REPO)] if sitemapkit else [])], python)
            ready.write_text(wanted, encoding="utf-8")
    return bin_dir


def packages(install: str) -> list[str]:
    """What ``pip install ...`` installs besides sitemapkit itself (made editable by tool_venv):
    the other packages named, and the requirements of the sitemapkit extras named."""
    words = shlex.split(install)
    assert words[:2] == ["pip", "install"], install
    extras = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    wanted: list[str] = []
    ours = [SITEMAPKIT.fullmatch(word) for word in words[2:]]
    assert any(ours), f"{install}: installs no sitemapkit"
    for word, match in zip(words[2:], ours, strict=True):
        if match is None:
            wanted.append(word)
        else:
            for extra in filter(None, (match.group(1) or "").split(",")):
                wanted += extras[extra]
    return wanted


def sitemapkit_wheel(folder: Path) -> Path:
    """sitemapkit's wheel, built from the working tree into ``folder`` by its build backend in
    an isolated environment, as a release is built."""
    subprocess.run([*UV, "build", "--wheel", "--out-dir", str(folder), str(REPO)], check=True, capture_output=True,
                   timeout=300)
    (wheel,) = folder.glob("sitemapkit-*.whl")
    return wheel


def _make(folder: Path, bin_dir: Path, requirements: list[str], python: str) -> None:
    subprocess.run([*UV, "venv", "--clear", "--seed", "--python", python, str(folder)], check=True)
    if requirements:  # compiled, as pip installs them: the tests run these tools many times
        subprocess.run([*UV, "pip", "install", "--compile-bytecode", "--python", str(bin_dir / "python"),
                        *requirements], check=True)
