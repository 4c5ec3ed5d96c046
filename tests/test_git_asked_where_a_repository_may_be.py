"""Whether git can date a page is decided once a build for its source folder, and once for
each folder in it (issue 36): a docs folder outside every repository has its pages dated by
the next source (their fingerprints) without asking git for each, while a page in a
repository still gets its last commit's date, whether its docs folder is in one, holds one,
or links into one. Real MkDocs builds."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from git_helpers import commit, init
from project_checks import lastmods

from sitemapkit.lastmod.git import outside_repositories

pytestmark = pytest.mark.slow  # real git histories

BASE = "https://docs.example.org/"
MKDOCS = str(Path(sys.executable).parent / "mkdocs")
COMMITTED = "2021-03-01T08:00:00Z"
FIRST_BUILD, SECOND_BUILD = 1767225600, 1769904000  # 2026-01-01, 2026-02-01
FIRST_SEEN = "2026-01-01T00:00:00Z"


def build(project: Path, when: int) -> str:
    """``mkdocs build`` of ``project`` at the time ``when``; its log."""
    env = {**os.environ, "SOURCE_DATE_EPOCH": str(when)}
    done = subprocess.run([MKDOCS, "build"], cwd=project, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stderr


def site(project: Path, docs: str = "docs") -> Path:
    project.mkdir(parents=True, exist_ok=True)
    (project / "mkdocs.yml").write_text(f"site_name: Dated\nsite_url: {BASE}\ndocs_dir: {docs}\n"
                                        "plugins:\n  - sitemapkit\n", encoding="utf-8")
    return project


def write(folder: Path, pages: dict[str, str]) -> None:
    for name, text in pages.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")


def test_a_docs_folder_outside_any_repository_is_dated_by_fingerprints(tmp_path):
    project = site(tmp_path / "plain")
    write(project / "docs", {"index.md": "# Home\n", "guide/setup.md": "# Setup\n"})
    assert outside_repositories(project / "docs")  # the case decided once: no git lookups
    log = build(project, FIRST_BUILD)
    # a first build: nothing dates the pages, and the summary says why git did not
    assert "docs is not in a git repository" in log
    assert set(lastmods(project / "site", BASE).values()) == {None}
    build(project, SECOND_BUILD)
    assert lastmods(project / "site", BASE) == {BASE: FIRST_SEEN, f"{BASE}guide/setup/": FIRST_SEEN}


def test_a_page_in_a_repository_keeps_its_commit_date(tmp_path):
    repo = init(tmp_path / "in-git")
    site(repo)
    commit(repo, COMMITTED, {"docs/index.md": "# Home\n", ".gitignore": "site/\n.cache/\n"})
    write(repo / "docs", {"draft.md": "# Draft\n"})  # no commit yet: its fingerprint dates it
    assert not outside_repositories(repo / "docs")
    build(repo, FIRST_BUILD)
    build(repo, SECOND_BUILD)
    assert lastmods(repo / "site", BASE) == {BASE: COMMITTED, f"{BASE}draft/": FIRST_SEEN}


def test_a_repository_inside_a_docs_folder_outside_any_still_dates_its_pages(tmp_path):
    project = site(tmp_path / "holds-one")
    write(project / "docs", {"index.md": "# Home\n"})
    vendored = init(project / "docs" / "vendored")
    commit(vendored, COMMITTED, {"guide.md": "# Guide\n"})
    assert outside_repositories(project / "docs")  # decided for the folder; its folders asked each once
    build(project, FIRST_BUILD)
    build(project, SECOND_BUILD)
    assert lastmods(project / "site", BASE) == {BASE: FIRST_SEEN, f"{BASE}vendored/guide/": COMMITTED}


def test_a_folder_linked_into_a_repository_still_dates_its_pages(tmp_path):
    repo = init(tmp_path / "elsewhere")
    commit(repo, COMMITTED, {"chapters/intro.md": "# Intro\n"})
    project = site(tmp_path / "links")
    write(project / "docs", {"index.md": "# Home\n"})
    (project / "docs" / "chapters").symlink_to(repo / "chapters", target_is_directory=True)
    assert outside_repositories(project / "docs")
    build(project, FIRST_BUILD)
    build(project, SECOND_BUILD)
    assert lastmods(project / "site", BASE) == {BASE: FIRST_SEEN, f"{BASE}chapters/intro/": COMMITTED}
