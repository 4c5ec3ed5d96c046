"""`sitemapkit build _site --source-dir .` on one Jekyll site built with each site-wide
``permalink:`` style (``date``, Jekyll's default, ``pretty``, ``ordinal``, ``none``): a post's
URL follows the style (its categories, its front matter's date), a page's only the style's
ending (``/docs/guide/`` or ``/docs/guide.html``), and a page's own permalink template
(``/more/:basename:output_ext``) is filled in. Every page is matched to its source and dated
by it.

The built folders are Jekyll's own output, one per style (``_site-STYLE``), made by
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

FIXTURE = Path(__file__).parent / "generator_output" / "jekyll-permalink-styles"
BASE = "https://jekyll-styles.example/"
FIRST = "2023-05-05T12:00:00Z"
GUIDE_EDITED = "2024-09-09T09:09:09Z"
POSTS = {  # style -> (the first post's URL, the second's), as Jekyll wrote them
    "date": ("notes/2024/03/10/first.html", "2024/06/02/second.html"),
    "pretty": ("notes/2024/03/10/first/", "2024/06/02/second/"),
    "ordinal": ("notes/2024/070/first.html", "2024/154/second.html"),
    "none": ("notes/first.html", "second.html"),
}


def styled_site(tmp_path: Path, style: str) -> Path:
    """The sources, with ``permalink: STYLE`` in ``_config.yml``, committed at FIRST (the
    guide edited at GUIDE_EDITED), and Jekyll's folder of that style as ``_site``."""
    assert (FIXTURE / "GENERATED_BY").read_text().startswith("jekyll 4.")
    root = init(tmp_path / "site")
    (root / ".gitignore").write_text("_site/\n.cache/\n", encoding="utf-8")
    sources = fixture_sources(FIXTURE, ('_site-',))
    sources["_config.yml"] += f"permalink: {style}\n"
    commit(root, FIRST, sources)
    commit(root, GUIDE_EDITED, {"docs/guide.md": sources["docs/guide.md"] + "\nRead on.\n"})
    shutil.copytree(FIXTURE / f"_site-{style}", root / "_site")
    return root


@pytest.mark.parametrize("style", sorted(POSTS))
def test_each_style_places_posts_and_pages_as_jekyll_does(tmp_path, monkeypatch, capsys, style):
    root = styled_site(tmp_path, style)
    monkeypatch.chdir(root)
    assert main(["build", "_site", "--base-url", BASE, "--source-dir", "."]) == 0
    first, second = POSTS[style]
    guide = "docs/guide/" if style == "pretty" else "docs/guide.html"
    assert lastmods(root / "_site", BASE) == {  # each listed URL a file Jekyll wrote
        BASE: "2024-08-01",  # the newest post it lists
        f"{BASE}{guide}": GUIDE_EDITED,
        f"{BASE}more/extra.html": FIRST,  # its own template, in every style
        f"{BASE}{first}": "2024-03-10",  # the file name's date
        f"{BASE}{second}": "2024-08-01",  # last_modified_at (its URL has its front matter's date)
    }
    assert "lastmod-no-source" not in capsys.readouterr().err
    assert validate_strict(root / "_site") == 0
