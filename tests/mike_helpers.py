"""mike run for real in tests: an mkdocs.yml with chosen plugins, and `mike` itself with git's
user settings kept out (mike commits to a local gh-pages branch; nothing is pushed)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from git_helpers import git

BIN = Path(sys.executable).parent
BASE = "https://example.org/project/"


def config(plugins: list[str], mike: dict[str, str] | None = None) -> str:
    lines = ["site_name: Project", f"site_url: {BASE}", "plugins:"]
    for name in plugins:
        if name == "mike" and mike:
            lines += ["  - mike:", *(f"      {key}: {value}" for key, value in mike.items())]
        else:
            lines.append(f"  - {name}")
    return "\n".join(lines) + "\n"


def run_mike(repo: Path, *args: str) -> str:
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}", "GIT_CONFIG_GLOBAL": os.devnull,
           "GIT_CONFIG_NOSYSTEM": "1"}
    done = subprocess.run([str(BIN / "mike"), *args], cwd=repo, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stderr + done.stdout


def gh_pages(repo: Path, tmp_path: Path) -> Path:
    tree = tmp_path / "gh-pages"
    git(repo, "worktree", "add", "-q", str(tree), "gh-pages")
    return tree
