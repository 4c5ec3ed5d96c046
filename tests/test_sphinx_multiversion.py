"""sphinx-multiversion (from PyPI, in a venv of its own with Sphinx 8.2, the newest Sphinx it
runs on: it does not run on Sphinx 9) builds each git ref into `<outputdir>/<ref name>/`
from a `git archive` copy in a temporary folder, every ref with the one conf.py and its
`html_baseurl`. Each ref's sitemap lists its pages under its own folder, dated from that
ref's history in the original repository; `sitemapkit build` on the output root writes the
index of the versions' sitemaps."""

from __future__ import annotations

import os
import shlex
import subprocess
from datetime import datetime, timezone
from pathlib import Path

import pytest
from docs_blocks import block, shell_lines
from git_helpers import commit, git, init
from project_checks import lastmods
from tool_venvs import tool_venv

from sitemap_checks import assert_valid, assert_valid_tree, locs, robots_sitemaps
from sitemapkit.cli import main

pytestmark = pytest.mark.slow  # real sphinx-multiversion runs: one Sphinx build per ref

REPO = Path(__file__).resolve().parents[1]
BASE = "https://example.org/proj/"
SPHINX = "sphinx>=8.2,<9"  # sphinx-multiversion 0.2.4 fails on Sphinx 9 (its Config API changed)
CONF = f"""\
project = "Proj"
extensions = ["sphinx_multiversion", "sitemapkit_sphinx"]
html_baseurl = "{BASE}"
smv_tag_whitelist = r"^v\\d"
smv_branch_whitelist = r"^$"
"""


@pytest.fixture(scope="module")
def multiversion(request):
    return tool_venv(request.config, [SPHINX, "sphinx-multiversion"], sitemapkit=True)


def at(repo, ref: str, source: str) -> str:
    """``git log -1`` of ``source`` at ``ref``, as a sitemap writes a UTC time."""
    iso = git(repo, "log", "-1", "--format=%cI", ref, "--", source).strip()
    return datetime.fromisoformat(iso).astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def project(tmp_path):
    """v1.0 with a page v2.0 dropped (old), v2.0 with one of its own (new), and a change to
    guide.rst on main after both tags."""
    repo = init(tmp_path / "repo")
    commit(repo, "2024-01-01T00:00:00Z", {"docs/conf.py": CONF, "docs/index.rst": "Home\n====\n\n.. toctree::\n\n"
                                          "   guide\n   old\n", "docs/guide.rst": "Guide\n=====\n",
                                          "docs/old.rst": "Old\n===\n"})
    commit(repo, "2024-03-01T00:00:00Z", {"docs/guide.rst": "Guide\n=====\n\nMore.\n"})
    git(repo, "tag", "v1.0")
    git(repo, "rm", "-q", "docs/old.rst")
    commit(repo, "2025-02-01T00:00:00Z", {"docs/index.rst": "Home\n====\n\n.. toctree::\n\n   guide\n   new\n",
                                          "docs/new.rst": "New\n===\n"})
    git(repo, "tag", "v2.0")
    commit(repo, "2026-01-01T00:00:00Z", {"docs/guide.rst": "Guide\n=====\n\nAfter every tag.\n"})
    return repo


def build(multiversion, repo, *args: str) -> str:
    env = {**os.environ, "PATH": f"{multiversion}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run([str(multiversion / "sphinx-multiversion"), "docs", *args], cwd=repo, env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "Sphinx v8." in done.stdout
    return done.stdout + done.stderr


def check_versions(repo, out):
    """Each ref's sitemap: its pages under its own folder, dated from the ref's history."""
    pages = {"v1.0": ["index", "guide", "old"], "v2.0": ["index", "guide", "new"]}
    for ref, names in pages.items():
        assert lastmods(out / ref, f"{BASE}{ref}/") == {
            f"{BASE}{ref}/{name}.html": at(repo, ref, f"docs/{name}.rst") for name in names}
        assert not (out / ref / "robots.txt").exists()  # crawlers read it at the root only
    # the ref's history, not HEAD's (guide.rst changed after both tags) nor the build's time
    assert at(repo, "v1.0", "docs/guide.rst") == "2024-03-01T00:00:00Z"
    assert at(repo, "HEAD", "docs/guide.rst") == "2026-01-01T00:00:00Z"


def test_each_ref_lists_its_pages_in_its_folder_dated_from_its_history(tmp_path, multiversion):
    repo = project(tmp_path)
    log = build(multiversion, repo, str(tmp_path / "html"))
    # not .../proj/guide.html (html_baseurl, the same for every ref), but where each ref is built
    check_versions(repo, tmp_path / "html")
    assert "[robots-version-off]" in log
    assert ("html_baseurl: every page's canonical link is under https://example.org/proj/ (html_baseurl, the "
            "same for every ref), where no version is built: pages listed under https://example.org/proj/v1.0/; "
            "pass -D 'html_baseurl=https://example.org/proj/${name}/' to sphinx-multiversion") in log
    assert "[sitemapkit.canonical-unversioned]" in log


def test_the_recipe_as_written_validates_on_the_root(tmp_path, multiversion, monkeypatch, capsys):
    """docs/versions.md's sphinx-multiversion recipe: html_baseurl per ref (``-D``), then the
    root index, then ``validate`` on the root, each line run as a shell would."""
    lines = [shlex.split(line) for line in shell_lines(block("versions-multiversion-recipe").text)]
    assert [words[:2] for words in lines] == [["sphinx-multiversion", "docs"], ["sitemapkit", "build"],
                                              ["sitemapkit", "validate"]]
    repo = project(tmp_path)
    monkeypatch.chdir(repo)
    log = build(multiversion, repo, *lines[0][2:])
    out = repo / lines[0][2]
    check_versions(repo, out)
    assert "canonical-unversioned" not in log
    assert f'<link rel="canonical" href="{BASE}v1.0/guide.html"' in (out / "v1.0" / "guide.html").read_text()

    assert main(lines[1][1:]) == 0
    assert "2 versions (v1.0, v2.0) in sitemap.xml" in capsys.readouterr().out
    assert assert_valid(out / "sitemap.xml").tag.endswith("sitemapindex")
    assert sorted(locs(out / "sitemap.xml")) == [f"{BASE}v1.0/sitemap.xml", f"{BASE}v2.0/sitemap.xml"]
    children = assert_valid_tree(out, BASE)[1:]
    listed = [url for child in children for url in locs(child)]
    assert len(listed) == len(set(listed)) == 6
    assert robots_sitemaps(out / "robots.txt") == [f"{BASE}sitemap.xml"]
    capsys.readouterr()
    assert main(lines[2][1:]) == 0, capsys.readouterr().out
