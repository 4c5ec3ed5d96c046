"""A page is as new as the newest file it is made of: Sphinx's recorded dependencies
(``.. include::``, ``literalinclude``, autodoc's module sources) and MkDocs' snippets
(``--8<--``), in a real git history where only the included file changes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from git_helpers import commit, init
from project_checks import committed, lastmods, validate_strict
from sphinx.cmd.build import build_main

from sitemapkit.cli import main
from sitemapkit.lastmod import git_history
from sitemapkit.sources.project import read_project

pytestmark = pytest.mark.slow  # real generator runs in git histories (make test-fast leaves them out)

BASE = "https://docs.example.org/"
FIRST, CHANGELOG_EDIT, EXAMPLE_EDIT, MODULE_EDIT = (
    "2024-01-10T08:00:00Z", "2024-03-01T09:00:00Z", "2024-05-01T10:00:00Z", "2024-07-01T11:00:00Z",
)

SPHINX_CONF = f"""
import os, sys
sys.path.insert(0, os.path.abspath(".."))
project = "Inc"
extensions = ["sitemapkit_sphinx", "sphinx.ext.autodoc"]
html_baseurl = "{BASE}"
"""
SPHINX_PAGES = {
    "docs/conf.py": SPHINX_CONF,
    "docs/index.rst": "Home\n====\n\n.. toctree::\n\n   changelog\n   example\n   api\n   guide\n",
    # attrs' docs/changelog.md, in reST: a three-line stub including the real changelog
    "docs/changelog.rst": "Changelog\n=========\n\n.. include:: ../CHANGELOG.rst\n",
    "docs/example.rst": "Example\n=======\n\n.. literalinclude:: ../example.py\n",
    "docs/api.rst": "API\n===\n\n.. automodule:: incmod\n   :members:\n",
    "docs/guide.rst": "Guide\n=====\n\nNothing included.\n",
    "CHANGELOG.rst": "1.0\n---\n\nFirst release.\n",
    "example.py": "print('hello')\n",
    "incmod.py": '"""The module."""\n\n\ndef run():\n    """Runs."""\n',
}


@pytest.fixture(autouse=True)
def _fixed_now(monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")  # 2026-01-01: a build-time date would show


def _git_logs(monkeypatch) -> list[list[str]]:
    """Every ``git log`` the build starts (the batched passes), recorded."""
    started: list[list[str]] = []
    real = subprocess.Popen

    def popen(command, *args, **kwargs):
        if "log" in command:
            started.append(list(command))
        return real(command, *args, **kwargs)

    monkeypatch.setattr(git_history.subprocess, "Popen", popen)
    return started


def sphinx_history(root: Path) -> Path:
    repo = init(root / "proj")
    commit(repo, FIRST, SPHINX_PAGES)
    commit(repo, CHANGELOG_EDIT, {"CHANGELOG.rst": "1.1\n---\n\nSecond release.\n\n1.0\n---\n\nFirst.\n"})
    commit(repo, EXAMPLE_EDIT, {"example.py": "print('hello, world')\n"})
    commit(repo, MODULE_EDIT, {"incmod.py": '"""The module."""\n\n\ndef run():\n    """Runs fast."""\n'})
    return repo


def test_sphinx_pages_move_with_the_files_they_include_and_no_others(tmp_path, monkeypatch):
    repo = sphinx_history(tmp_path)
    logs = _git_logs(monkeypatch)
    monkeypatch.syspath_prepend(str(repo))
    monkeypatch.delitem(sys.modules, "incmod", raising=False)  # autodoc's import is undone after the test
    out = repo / "_build" / "html"
    assert build_main(["-b", "html", "-q", str(repo / "docs"), str(out)]) == 0
    found = lastmods(out, BASE)
    assert found == {
        f"{BASE}index.html": FIRST,
        f"{BASE}guide.html": FIRST,
        f"{BASE}changelog.html": CHANGELOG_EDIT,  # its own file last changed at FIRST
        f"{BASE}example.html": EXAMPLE_EDIT,  # literalinclude
        f"{BASE}api.html": MODULE_EDIT,  # autodoc's module source
    }
    # the files outside the source folder come from one more batched pass, not one per file
    assert len(logs) == 2, logs
    assert committed(repo, "docs/changelog.rst") == FIRST
    assert validate_strict(out) == 0


MKDOCS_FILES = {
    "mkdocs.yml": (
        f"site_name: Snips\nsite_url: {BASE}\nplugins:\n  - sitemapkit\n"
        "markdown_extensions:\n  - pymdownx.snippets\n"
    ),
    ".gitignore": "site/\n",
    "docs/index.md": "# Home\n\nNothing included.\n",
    "docs/usage.md": '# Usage\n\n--8<-- "snippet.md"\n',
    "docs/block.md": "# Block\n\n--8<--\nparts/a.md\n--8<--\n",
    "docs/escaped.md": '# Escaped\n\n;--8<-- "snippet.md"\n',
    "snippet.md": "Shared text.\n",
    "parts/a.md": 'Part A.\n\n--8<-- "parts/nested.md:1:1"\n',
    "parts/nested.md": "Nested.\n",
}


def test_mkdocs_pages_move_with_their_snippets_and_no_others(tmp_path):
    repo = init(tmp_path / "site-project")
    commit(repo, FIRST, MKDOCS_FILES)
    commit(repo, CHANGELOG_EDIT, {"snippet.md": "Shared text, edited.\n"})
    commit(repo, EXAMPLE_EDIT, {"parts/nested.md": "Nested, edited.\n"})
    env = {**os.environ, "SOURCE_DATE_EPOCH": "1767225600"}
    done = subprocess.run([str(Path(sys.executable).parent / "mkdocs"), "build"], cwd=repo, env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "Nested, edited." in (repo / "site" / "block" / "index.html").read_text(encoding="utf-8")
    assert lastmods(repo / "site", BASE) == {
        BASE: FIRST,
        f"{BASE}block/": EXAMPLE_EDIT,  # a snippet inside a snippet
        f"{BASE}escaped/": FIRST,  # ";--8<--" is text, not an include
        f"{BASE}usage/": CHANGELOG_EDIT,
    }
    assert validate_strict(repo / "site") == 0


def test_command_line_in_an_mkdocs_project_dates_pages_by_their_snippets_too(tmp_path, monkeypatch):
    repo = init(tmp_path / "site-project")
    files = {**MKDOCS_FILES, "mkdocs.yml": MKDOCS_FILES["mkdocs.yml"].replace("plugins:\n  - sitemapkit\n", "")}
    commit(repo, FIRST, files)
    commit(repo, CHANGELOG_EDIT, {"snippet.md": "Shared text, edited.\n"})
    mkdocs = str(Path(sys.executable).parent / "mkdocs")
    subprocess.run([mkdocs, "build", "-q"], cwd=repo, check=True, capture_output=True)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")
    monkeypatch.chdir(repo)
    assert main(["build", "-q"]) == 0
    found = lastmods(repo / "site", BASE)
    assert found[f"{BASE}usage/"] == CHANGELOG_EDIT
    assert found[BASE] == found[f"{BASE}escaped/"] == FIRST


def test_zensical_table_of_extensions_enables_snippets(tmp_path):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "part.md").write_text("Part.\n", encoding="utf-8")
    config = tmp_path / "zensical.toml"
    config.write_text('[project]\nsite_name = "Z"\n[project.markdown_extensions.pymdownx.snippets]\n'
                      'base_path = ["inc"]\n', encoding="utf-8")
    snippets = read_project(config).snippets
    assert snippets is not None
    assert snippets.files('--8<-- "part.md"\n') == (str(tmp_path / "inc" / "part.md"),)
    config.write_text('[project]\nsite_name = "Z"\n[project.markdown_extensions.admonition]\n', encoding="utf-8")
    assert read_project(config).snippets is None
