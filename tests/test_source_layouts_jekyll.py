"""`sitemapkit build _site --source-dir .` on what a real Jekyll (with jekyll-sitemap) leaves:
posts matched through their permalinks (``_posts/2024-01-15-hello-world.md`` ->
``/2024/01/15/hello-world.html``, categories, a front-matter date or permalink), dated by
``last_modified_at``, ``date``, the file name's date, else git; the home page by the newest
post it lists, never by a README; jekyll-sitemap's file replaced; the documented recipe validating clean.

The built folders are Jekyll's own output, made by tests/generator_output/make_fixtures.sh,
which records Jekyll's version in GENERATED_BY; the sources are committed into a real git
history here."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from git_helpers import commit, init
from project_checks import lastmods, validate_strict

from sitemapkit.cli import main

pytestmark = pytest.mark.slow  # real git histories (make test-fast leaves them out)

FIXTURE = Path(__file__).parent / "generator_output" / "jekyll-blog"
BASE = "https://jekyll.example/"
FIRST = "2023-05-05T12:00:00Z"
README_EDITED = "2025-01-01T00:00:00Z"


def jekyll_project(tmp_path: Path, *, recipe: bool = False) -> Path:
    """The blog's sources committed at FIRST (the README edited later, at README_EDITED),
    and Jekyll's built folder as ``_site`` (as the documented recipe builds it, without
    jekyll-sitemap's two files, with ``recipe``: make_fixtures.sh checks that they are the
    only difference)."""
    assert (FIXTURE / "GENERATED_BY").read_text().startswith("jekyll 4.")
    root = init(tmp_path / "blog")
    (root / ".gitignore").write_text("_site/\n.cache/\n", encoding="utf-8")
    sources = {
        str(path.relative_to(FIXTURE)): path.read_text(encoding="utf-8")
        for path in sorted(FIXTURE.rglob("*"))
        if path.is_file() and path.relative_to(FIXTURE).parts[0] not in ("_site", "GENERATED_BY")
    }
    commit(root, FIRST, sources)
    commit(root, README_EDITED, {"README.md": sources["README.md"] + "\nMore.\n"})
    shutil.copytree(FIXTURE / "_site", root / "_site")
    if recipe:
        for name in ("sitemap.xml", "robots.txt"):
            (root / "_site" / name).unlink()
    return root


def test_jekyll_posts_are_matched_through_their_permalinks(tmp_path, monkeypatch, capsys):
    root = jekyll_project(tmp_path)
    monkeypatch.chdir(root)
    assert main(["build", "_site", "--base-url", BASE, "--source-dir", "."]) == 0
    found = lastmods(root / "_site", BASE)
    assert found == {
        BASE: "2024-04-04",  # index.html lists the posts: the newest; never the README's 2025 commit
        f"{BASE}about.html": "2024-03-03",  # last_modified_at
        f"{BASE}archive/": FIRST,  # archive/index.md
        f"{BASE}2024/01/15/hello-world.html": "2024-01-15",  # the file name's date
        f"{BASE}news/releases/2024/02/01/updated-post.html": "2024-02-20T10:00:00Z",  # categories, last_modified_at
        f"{BASE}special/own/": "2024-02-10",  # permalink: /special/own/
        f"{BASE}2024/03/02/with-date.html": "2024-03-02T09:30:00+01:00",  # the URL's date is the front matter's
        f"{BASE}blog/2024/04/04/in-a-folder.html": "2024-04-04",  # blog/_posts: category "blog"
    }
    out, err = capsys.readouterr()
    assert "lastmod: 7 meta, 1 git; 1 warning" in out
    # jekyll-sitemap's sitemap.xml is at sitemapkit's own name: replaced, and named with its setting
    assert "sitemap.xml was written by another tool" in err and "jekyll-sitemap" in err
    assert err.count("[sitemap-other]") == 1


def test_the_documented_jekyll_recipe_validates_clean(tmp_path, monkeypatch):
    """docs/cli.md: jekyll-sitemap removed from plugins, `jekyll build`, then sitemapkit."""
    root = jekyll_project(tmp_path, recipe=True)
    assert not (root / "_site" / "sitemap.xml").exists()
    monkeypatch.chdir(root)
    assert main(["build", "_site", "--base-url", BASE, "--source-dir", ".", "--strict"]) == 0
    assert len(lastmods(root / "_site", BASE)) == 8
    assert validate_strict(root / "_site") == 0
