"""docs/versions.md's mike blocks, read from the page (``docs_blocks``) and run as written:
the one-line recipe and the check in a shell, the GitHub workflow's ``run:`` lines under
GitHub's ``bash -e``, each against a local bare repository standing in for GitHub (a
``file://`` remote), run twice and through a version deleted and one added; after each run,
the published gh-pages root names exactly the live versions and validates."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
import yaml
from docs_blocks import block, blocks, run_lines, shell_lines
from git_helpers import commit, git, init
from lxml import etree
from mike_helpers import BASE, BIN, run_mike

from sitemapkit.cli import main
from sitemapkit.protocol import SITEMAP_NS

pytestmark = pytest.mark.slow  # real mike deploys, MkDocs builds, git clones and pushes


def environment(home: Path) -> dict[str, str]:
    """A runner's shell: the tools on PATH, git's global settings in a home of its own."""
    home.mkdir(exist_ok=True)
    env = {key: value for key, value in os.environ.items() if not key.startswith("GIT_")}
    return {**env, "HOME": str(home), "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
            "GIT_CONFIG_NOSYSTEM": "1", "SOURCE_DATE_EPOCH": "1767225600"}


def bash(script: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """A script as GitHub's runner runs a ``run:`` step (``bash -e -o pipefail``)."""
    done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script], cwd=cwd, env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0, f"{script}\n{done.stdout}\n{done.stderr}"
    return done


def published(origin: Path) -> list[str]:
    """The children of the root index on the origin's gh-pages."""
    tree = etree.fromstring(git(origin, "show", "gh-pages:sitemap.xml").encode())
    return sorted(node.text for node in tree.iter(f"{{{SITEMAP_NS}}}loc"))


def validates(origin: Path, where: Path, capsys) -> None:
    subprocess.run(["git", "clone", "-q", "-b", "gh-pages", str(origin), str(where)], check=True)
    capsys.readouterr()
    assert main(["validate", str(where), "--site-dir", str(where), "--strict"]) == 0, capsys.readouterr().out


def github(tmp_path: Path) -> tuple[Path, Path]:
    """A bare origin holding a project whose mkdocs.yml is the page's, and a clone of it."""
    origin = tmp_path / "origin.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(origin)], check=True)
    repo = init(tmp_path / "repo")
    git(repo, "remote", "add", "origin", origin.as_uri())
    commit(repo, "2026-01-01T00:00:00", {"mkdocs.yml": block("versions-mike-mkdocs-yml").text,
                                          "docs/index.md": "# Home\n", "docs/guide.md": "# Guide\n"})
    git(repo, "push", "-q", "origin", "main")
    return repo, origin


def test_every_block_of_the_page_is_named():
    assert all(found.name for found in blocks("versions.md")), [b.line for b in blocks("versions.md") if not b.name]


def test_the_mike_recipe_and_check_as_written(tmp_path, capsys):
    repo, origin = github(tmp_path)
    env = environment(tmp_path / "home")
    recipe, check = block("versions-mike-recipe").text, block("versions-mike-check").text
    assert block("cli-branch-recipe").text == recipe  # the command line page shows the same step
    assert shell_lines(recipe) == [
        "mike deploy --update-aliases 2.0 latest && sitemapkit build --branch gh-pages --push"]
    run_mike(repo, "deploy", "--push", "1.0")  # an older version, published before
    for run in (1, 2):  # the second run changes no root: it still exits 0, and publishes mike's deploy
        out = bash(recipe, repo, env).stdout
        assert ("committed" if run == 1 else "root unchanged, nothing committed") in out, out
        assert published(origin) == [f"{BASE}1.0/sitemap.xml", f"{BASE}2.0/sitemap.xml"]
        assert git(origin, "rev-parse", "gh-pages") == git(repo, "rev-parse", "gh-pages")
    bash(check, repo, env)
    assert (tmp_path / "gh-pages-check" / "sitemap.xml").is_file()


def test_the_github_workflow_runs_as_written_twice_and_through_a_delete_and_a_new_version(tmp_path, capsys):
    workflow = yaml.safe_load(block("versions-mike-workflow").text)
    assert workflow["permissions"] == {"contents": "write"}
    steps = workflow["jobs"]["deploy"]["steps"]
    assert steps[0]["uses"].startswith("actions/checkout@") and steps[0]["with"]["fetch-depth"] == 0
    scripts = run_lines(block("versions-mike-workflow").text)
    # the install line is PyPI's published package: here, this checkout's is on PATH already
    assert scripts[0].startswith("pip install ") and "sitemapkit[mkdocs]" in scripts[0] and "mike" in scripts[0]
    scripts = scripts[1:]
    _, origin = github(tmp_path)
    runs = iter(range(100))

    def job(*, version: str = "2.0") -> str:
        """One workflow run: actions/checkout (a full clone), then each run: step; the last
        step's output."""
        run = next(runs)
        work = tmp_path / f"runner-{run}"
        env = environment(tmp_path / f"home-{run}")
        subprocess.run(["git", "clone", "-q", origin.as_uri(), str(work)], check=True, env=env)
        return "".join([bash(script.replace("2.0", version), work, env).stdout  # a release bumps the version
                        for script in scripts][-1:])

    def deploy_old(version: str) -> None:
        work = tmp_path / f"maintainer-{version}"
        subprocess.run(["git", "clone", "-q", origin.as_uri(), str(work)], check=True)
        for key, value in (("user.name", "M"), ("user.email", "m@example.com")):
            git(work, "config", key, value)
        run_mike(work, "deploy", "--push", version)

    deploy_old("1.0")
    job()
    assert published(origin) == [f"{BASE}1.0/sitemap.xml", f"{BASE}2.0/sitemap.xml"]
    validates(origin, tmp_path / "check-1", capsys)
    # a rerun: the root does not change, nothing to commit, and the step still succeeds (the
    # old recipe's `git commit` stopped bash -e here, and the push never ran)
    assert "root unchanged, nothing committed; pushed to origin" in job()
    assert published(origin) == [f"{BASE}1.0/sitemap.xml", f"{BASE}2.0/sitemap.xml"]
    validates(origin, tmp_path / "check-2", capsys)

    work = tmp_path / "maintainer-delete"
    subprocess.run(["git", "clone", "-q", origin.as_uri(), str(work)], check=True)
    for key, value in (("user.name", "M"), ("user.email", "m@example.com")):
        git(work, "config", key, value)
    run_mike(work, "delete", "--push", "1.0")  # the root still names 1.0 until the next run
    job()
    assert published(origin) == [f"{BASE}2.0/sitemap.xml"]
    validates(origin, tmp_path / "check-3", capsys)
    job(version="3.0")
    assert published(origin) == [f"{BASE}2.0/sitemap.xml", f"{BASE}3.0/sitemap.xml"]
    validates(origin, tmp_path / "check-4", capsys)
