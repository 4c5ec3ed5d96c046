"""Versioned docs and ``llms_txt``: each version deployed by mike writes its own ``llms.txt``;
the root step (``sitemapkit build --branch gh-pages``, or on a folder) writes the root one,
which names the default version's first and the other versions' under ``Optional``, never an
alias's; it is sitemapkit's own file (rewritten the same, removed when no version has one,
never written over someone else's), and ``validate --site-dir`` reads it with the others."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from docs_blocks import block
from git_helpers import commit, git, init
from llms_txt import parse_llms_file
from mike_helpers import BASE, BIN, config, gh_pages, run_mike

from sitemapkit.cli import main

pytestmark = pytest.mark.slow  # real mike deploys, MkDocs builds, git commits and pushes

ENV = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}", "GIT_CONFIG_GLOBAL": os.devnull,
       "GIT_CONFIG_NOSYSTEM": "1", "SOURCE_DATE_EPOCH": "1767225600"}
DESCRIPTION = "The Project's manual and its API."


def mkdocs_yml(llms: bool) -> str:
    """mike and sitemapkit, with ``llms_txt`` on or off, and a description (the blockquote)."""
    return (config(["search", "mike"]) + "  - sitemapkit:\n" + f"      llms_txt: {str(llms).lower()}\n"
            + f"site_description: \"{DESCRIPTION}\"\n")


def project(tmp_path: Path, *, llms: bool = True) -> tuple[Path, Path]:
    origin = tmp_path / "origin.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(origin)], check=True, env=ENV)
    repo = init(tmp_path / "repo")
    git(repo, "remote", "add", "origin", origin.as_uri())
    commit(repo, "2026-01-01T00:00:00", {"mkdocs.yml": mkdocs_yml(llms), "docs/index.md": "# Home\n",
                                          "docs/guide.md": "# Guide\n"})
    return repo, origin


def root_step(repo: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    """The documented command, run as a shell runs it, in the repository."""
    return subprocess.run([str(BIN / "sitemapkit"), "build", "--branch", "gh-pages", "--push", *extra],
                          cwd=repo, env=ENV, capture_output=True, text=True)


def on_branch(repo: Path, name: str) -> str | None:
    """The file ``name`` on the branch gh-pages, or None when it has none."""
    done = subprocess.run(["git", "-C", str(repo), "show", f"gh-pages:{name}"], capture_output=True, text=True,
                          env=ENV)
    return done.stdout if done.returncode == 0 else None


def links(text: str) -> list[tuple[str, str]]:
    """``(section, URL)`` of each link, in order, as the reference parser reads them."""
    return [(section, link["url"]) for section, found in parse_llms_file(text).sections.items() for link in found]


def two_versions(tmp_path: Path) -> tuple[Path, Path]:
    """1.0, then 2.0 with the alias latest, each deployed by mike with llms_txt on."""
    repo, origin = project(tmp_path)
    run_mike(repo, "deploy", "1.0")
    commit(repo, "2026-02-01T00:00:00", {"docs/new.md": "# New\n"})
    run_mike(repo, "deploy", "--update-aliases", "2.0", "latest")
    return repo, origin


def test_the_root_llms_txt_names_the_default_versions_first_and_validates(tmp_path, capsys):
    repo, origin = two_versions(tmp_path)
    run_mike(repo, "set-default", "latest")  # mike's root redirect, through the alias
    done = root_step(repo)
    assert done.returncode == 0, done.stderr
    assert "llms.txt" in done.stdout and "warning:" not in done.stderr, done.stdout + done.stderr
    text = on_branch(origin, "llms.txt")
    assert text is not None
    parsed, default = parse_llms_file(text), parse_llms_file(on_branch(origin, "2.0/llms.txt"))
    assert (parsed.title, parsed.summary) == (default.title, default.summary)  # the default version's own
    assert parsed.title == "Project" and parsed.summary == DESCRIPTION
    assert text == block("llmsroot").text  # the file docs/llms.md shows, as written
    found = links(text)
    assert found[0][1] == f"{BASE}2.0/llms.txt" and found[0][0] != "Optional"
    assert found[1:] == [("Optional", f"{BASE}1.0/llms.txt")]  # never the alias latest/
    for _, url in found:  # each a file on the branch, each an llms.txt of its version's pages
        own = on_branch(origin, url.removeprefix(BASE))
        assert own is not None and parse_llms_file(own).title == "Project"
    assert f"{BASE}2.0/new/index.html.md" in [url for _, url in links(on_branch(origin, "2.0/llms.txt"))]

    site = tmp_path / "checkout"
    subprocess.run(["git", "clone", "-q", "-b", "gh-pages", str(origin), str(site)], check=True, env=ENV)
    capsys.readouterr()
    status = main(["validate", str(site), "--site-dir", str(site), "--strict"])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "0 errors, 0 warnings" in out

    # a second root step: the same bytes, nothing committed
    head = git(repo, "rev-parse", "gh-pages")
    again = root_step(repo)
    assert again.returncode == 0 and "root unchanged, nothing committed" in again.stdout, again.stdout + again.stderr
    assert on_branch(origin, "llms.txt") == text and git(repo, "rev-parse", "gh-pages") == head

    # the default moved to 1.0 by mike: its file comes first; a version left out by choice is never linked
    run_mike(repo, "set-default", "1.0")
    assert root_step(repo).returncode == 0
    assert links(on_branch(origin, "llms.txt"))[0][1] == f"{BASE}1.0/llms.txt"
    assert root_step(repo, "--exclude-version", "1.0").returncode == 0
    assert [url for _, url in links(on_branch(origin, "llms.txt"))] == [f"{BASE}2.0/llms.txt"]


def test_the_folder_form_writes_the_same_root_llms_txt_as_the_branch_form(tmp_path):
    repo, _ = two_versions(tmp_path)
    tree = gh_pages(repo, tmp_path)  # a checkout of the branch, as a CI job has it
    assert main(["build", str(tree), "--base-url", BASE, "--quiet"]) == 0
    folder = (tree / "llms.txt").read_text(encoding="utf-8")
    assert root_step(repo).returncode == 0  # on the branch itself, which the checkout's new files are not on
    assert on_branch(repo, "llms.txt") == folder
    assert links(folder)[0][1] == f"{BASE}2.0/llms.txt"  # no redirect: the alias latest names the default


def test_no_root_llms_txt_when_no_version_has_one(tmp_path):
    repo, origin = project(tmp_path)
    run_mike(repo, "deploy", "1.0")
    assert root_step(repo).returncode == 0
    assert on_branch(origin, "llms.txt") is not None
    # the option turned off and the version deployed again: its llms.txt is gone, so is the root's
    commit(repo, "2026-02-01T00:00:00", {"mkdocs.yml": mkdocs_yml(False)})
    run_mike(repo, "deploy", "1.0")
    assert on_branch(repo, "1.0/llms.txt") is None
    done = root_step(repo)
    assert done.returncode == 0, done.stderr
    assert on_branch(origin, "llms.txt") is None and on_branch(origin, "sitemap.xml") is not None


def test_a_root_llms_txt_someone_else_placed_is_left_alone_with_a_warning(tmp_path):
    repo, origin = project(tmp_path)
    run_mike(repo, "deploy", "1.0")
    tree = gh_pages(repo, tmp_path)
    mine = "# My own map\n\n## Docs\n\n- [Home](https://example.org/project/1.0/)\n"
    commit(tree, "2026-01-02T00:00:00", {"llms.txt": mine}, message="by hand")
    done = root_step(repo)
    assert done.returncode == 0, done.stderr
    assert "[llms-root-foreign]" in done.stderr and "gh-pages:llms.txt" in done.stderr, done.stderr
    assert "is not a file sitemapkit wrote" in done.stderr
    assert on_branch(origin, "llms.txt") == mine  # the root index still written beside it
    assert f"{BASE}1.0/sitemap.xml" in on_branch(origin, "sitemap.xml")
    assert root_step(repo, "--strict").returncode == 1  # a warning, a failure under --strict
