"""`sitemapkit build _site --source-dir .` on a Jekyll site whose URLs come from its
configuration rather than its file names: ``defaults:`` in ``_config.yml`` that set a
``permalink`` for a scope (the posts under ``_posts/releases``, the pages under ``docs/``,
every document of a collection), a site-wide ``permalink:`` template (the posts' whole URL,
the pages' ending only), a post's own permalink template, and ``collections_dir: content``
(the posts in ``content/_posts`` and ``content/news/_posts``, whose folder is its category).
Each built page is matched to the source Jekyll built it from and dated by it.

The built folder is Jekyll's own output, made by tests/generator_output/make_fixtures.sh,
which records Jekyll's version in GENERATED_BY; the sources are committed into a real git
history here."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from git_helpers import commit, init
from project_checks import fixture_sources, lastmods, validate_strict

from sitemapkit.cli import main
from sitemapkit.sources.generator import detect
from sitemapkit.sources.jekyll import default_permalink
from sitemapkit.sources.matching import Sources

pytestmark = pytest.mark.slow  # real git histories (make test-fast leaves them out)

FIXTURE = Path(__file__).parent / "generator_output" / "jekyll-defaults"
BASE = "https://jekyll-defaults.example/"
FIRST = "2023-05-05T12:00:00Z"
ABOUT_EDITED = "2024-08-08T08:08:08Z"
GUIDE_EDITED = "2024-09-09T09:09:09Z"


def defaults_site(tmp_path: Path) -> Path:
    """The site's sources committed at FIRST (the about page edited at ABOUT_EDITED, the
    guide at GUIDE_EDITED), and Jekyll's built folder as ``_site``."""
    assert (FIXTURE / "GENERATED_BY").read_text().startswith("jekyll 4.")
    root = init(tmp_path / "site")
    (root / ".gitignore").write_text("_site/\n.cache/\n", encoding="utf-8")
    sources = fixture_sources(FIXTURE, ('_site',))
    commit(root, FIRST, sources)
    commit(root, ABOUT_EDITED, {"about.md": sources["about.md"] + "\nSince 2020.\n"})
    guide = "content/_guides/start.md"
    commit(root, GUIDE_EDITED, {guide: sources[guide] + "\nRead on.\n"})
    shutil.copytree(FIXTURE / "_site", root / "_site")
    return root


def test_each_page_is_found_where_the_configuration_puts_it():
    found = detect(FIXTURE)
    sources = Sources(FIXTURE, found=found)
    built = {key: str(Path(path).relative_to(FIXTURE)) for key, (path, _meta) in sources.by_key.items()}
    assert built == {
        "": "index.html",
        "about": "about.md",  # the site's template ends in "/": /about/
        "manual/setup": "docs/setup.md",  # defaults for the pages under docs/
        "2024/hello": "content/_posts/2024-01-15-hello.md",  # /:categories/:year/:title/
        "news/2024/event": "content/news/_posts/2024-05-05-event.md",  # its folder is its category
        "releases/2024/v1": "content/_posts/releases/2024-03-01-v1.md",  # defaults: path and type
        "special/02/20/moved": "content/_posts/2024-02-20-moved.md",  # its own permalink template
        "handbook/start": "content/_guides/start.md",  # defaults for the type guides
    }
    for key in built:  # each a page Jekyll wrote
        assert any((FIXTURE / "_site" / name).is_file()
                   for name in (f"{key}/index.html", f"{key}.html", "index.html" if not key else "-"))


def test_the_most_specific_default_wins_as_jekyll_picks_it():
    defaults = (("", None, "/everything/:basename/"), ("", "pages", "/pages/:basename/"),
                ("docs", None, "/docs-any/:basename/"), ("docs", "pages", "/docs-pages/:basename/"),
                ("docs/*/api", None, "/api/:basename/"))
    assert default_permalink(defaults, "about.md", "pages") == "/pages/:basename/"  # a type beats none
    assert default_permalink(defaults, "about.md", "posts") == "/everything/:basename/"
    assert default_permalink(defaults, "docs/a.md", "pages") == "/docs-pages/:basename/"  # the longer path
    assert default_permalink(defaults, "docs/v1/api/b.md", "pages") == "/api/:basename/"  # a glob
    assert default_permalink(defaults[2:4], "other/a.md", "pages") is None


def test_pages_placed_by_configuration_are_dated_by_their_sources(tmp_path, monkeypatch, capsys):
    root = defaults_site(tmp_path)
    monkeypatch.chdir(root)
    assert main(["build", "_site", "--base-url", BASE, "--source-dir", "."]) == 0
    assert lastmods(root / "_site", BASE) == {
        BASE: "2024-05-05",  # the newest post it lists
        f"{BASE}about/": ABOUT_EDITED,
        f"{BASE}manual/setup/": "2024-04-04",  # last_modified_at
        f"{BASE}2024/hello/": "2024-01-15",  # the posts: their file names' dates
        f"{BASE}news/2024/event/": "2024-05-05",
        f"{BASE}releases/2024/v1.html": "2024-03-01",
        f"{BASE}special/02/20/moved/": "2024-02-20",
        f"{BASE}handbook/start/": GUIDE_EDITED,  # the guide's last commit
    }
    out = capsys.readouterr()
    assert "lastmod-no-source" not in out.err
    assert validate_strict(root / "_site") == 0
