"""`sitemapkit build _site --source-dir .` on a Jekyll site whose pages are a collection's
documents, as choosealicense.com's licenses are (``_licenses/mit.txt`` with front matter,
``collections: {licenses: {output: true, permalink: /licenses/:path/}}``): each document is
matched to its page through the collection's permalink (or Jekyll's default, or its own
``permalink``, ``recipes/bread-loaf/`` without a leading slash as Jekyll reads it), and dated
by its front matter, else its last commit, never by jekyll-seo-tag's
``article:published_time``, which for a collection's document is the build's time. A file
that ``exclude`` names builds no page, so it dates none.

The built folder is Jekyll's own output (with jekyll-seo-tag), made by
tests/generator_output/make_fixtures.sh, which records Jekyll's version in GENERATED_BY; the
sources are committed into a real git history here."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from git_helpers import commit, init
from project_checks import fixture_sources, lastmods, validate_strict

from sitemapkit.cli import main

pytestmark = pytest.mark.slow  # real git histories (make test-fast leaves them out)

FIXTURE = Path(__file__).parent / "generator_output" / "jekyll-collection"
BASE = "https://jekyll-collection.example/"
FIRST = "2023-05-05T12:00:00Z"
SOUP_EDITED = "2024-02-02T02:02:02Z"


def collection_site(tmp_path: Path) -> Path:
    """The site's sources committed at FIRST (the soup recipe edited at SOUP_EDITED), and
    Jekyll's built folder as ``_site``."""
    assert (FIXTURE / "GENERATED_BY").read_text().startswith("jekyll 4.")
    root = init(tmp_path / "site")
    (root / ".gitignore").write_text("_site/\n.cache/\n", encoding="utf-8")
    sources = fixture_sources(FIXTURE, ('_site',))
    commit(root, FIRST, sources)
    commit(root, SOUP_EDITED, {"_recipes/soup.md": sources["_recipes/soup.md"] + "\nSalt it.\n"})
    shutil.copytree(FIXTURE / "_site", root / "_site")
    return root


def test_collection_documents_are_dated_by_their_sources(tmp_path, monkeypatch, capsys):
    root = collection_site(tmp_path)
    built = (root / "_site" / "licenses" / "mit" / "index.html").read_text(encoding="utf-8")
    assert 'property="article:published_time"' in built  # jekyll-seo-tag's: the build's time
    monkeypatch.chdir(root)
    assert main(["build", "_site", "--base-url", BASE, "--source-dir", "."]) == 0
    assert lastmods(root / "_site", BASE) == {
        BASE: "2024-07-07",  # the newest it lists, not index-old.html's 2019 (permalink: /, excluded)
        f"{BASE}about/": FIRST,
        f"{BASE}licenses/mit/": FIRST,  # _licenses/mit.txt: its commit, not the build's time
        f"{BASE}licenses/apache-2.0/": "2024-06-01",  # last_modified_at
        f"{BASE}recipes/soup/": SOUP_EDITED,  # Jekyll's default: /:collection/:path/ (permalink: pretty)
        f"{BASE}recipes/bread-loaf/": "2024-07-07",  # its own permalink: recipes/bread-loaf/
    }
    out = capsys.readouterr().out
    assert "lastmod: 3 meta, 3 git; 0 warnings" in out
    assert validate_strict(root / "_site") == 0
