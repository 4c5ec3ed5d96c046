"""Projects as each generator's quickstart makes them, run with the tools of one venv (``bin_dir``):
``mkdocs new``, ``pelican-quickstart`` (its questions answered as a blog's author would) and
``sphinx-quickstart``. Tests add their lines to what these make, as users do."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path


def pelican_answers(base_url: str) -> str:
    """pelican-quickstart's questions, answered: the folder (here), title, author, language, URL
    prefix wanted and given, pagination, time zone, no automation script."""
    return f"\nTest blog\nAnn\nen\ny\n{base_url.rstrip('/')}\ny\n10\nEurope/Paris\nn\n"


def run(folder: Path, bin_dir: Path, *command: str | Path, answers: str | None = None,
        env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``command`` from ``folder`` with ``bin_dir`` first on PATH, as an activated venv runs it;
    it must succeed."""
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", **(env or {})}
    done = subprocess.run([str(word) for word in command], cwd=folder, env=env, input=answers,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{command}:\n{done.stdout}{done.stderr}"
    return done


def mkdocs_new(root: Path, bin_dir: Path, site_url: str) -> Path:
    """``mkdocs new .`` in ``root``, with ``site_url`` set; sitemapkit not yet enabled."""
    root.mkdir(parents=True, exist_ok=True)
    run(root, bin_dir, "mkdocs", "new", ".")
    with open(root / "mkdocs.yml", "a", encoding="utf-8") as config:
        config.write(f"site_url: {site_url}\n")
    return root


def pelican_quickstart(root: Path, bin_dir: Path, base_url: str, posts: dict[str, str]) -> Path:
    """pelican-quickstart's project in ``root``, with ``posts`` (name -> Markdown) in content/."""
    root.mkdir(parents=True, exist_ok=True)
    run(root, bin_dir, "pelican-quickstart", "-p", root, answers=pelican_answers(base_url))
    for name, text in posts.items():
        (root / "content" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "content" / name).write_text(text, encoding="utf-8")
    return root


def sphinx_quickstart(root: Path, bin_dir: Path, *flags: str) -> Path:
    """sphinx-quickstart's project in ``root`` (``flags``: ``--sep``); returns the folder of conf.py."""
    root.mkdir(parents=True, exist_ok=True)
    run(root, bin_dir, "sphinx-quickstart", "-q", "-p", "Proj", "-a", "Ann", "-v", "1.0", *flags, ".")
    return root / "source" if "--sep" in flags else root
