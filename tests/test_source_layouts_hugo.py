"""`sitemapkit build public --source-dir content` on what a real Hugo leaves: each page dated
from its own source (``about.fr.md`` -> ``/fr/about/``, ``_index.md``, page bundles, ``slug``,
``url``, a content folder per language; listing pages by the newest page they list), Hugo's
own per-language sitemaps named in a warning, and the documented recipe
(``disableKinds = ["sitemap"]``) validating clean.

The built folders are Hugo's own output, made by tests/generator_output/make_fixtures.sh,
which records Hugo's version in each fixture's GENERATED_BY; the sources are committed here
into a real git history."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from git_helpers import commit, init
from project_checks import lastmods, validate_strict

from sitemapkit.cli import main

pytestmark = pytest.mark.slow  # real git histories (make test-fast leaves them out)

FIXTURES = Path(__file__).parent / "generator_output"
BASE = "https://hugo.example/"
SOURCES_COMMITTED = "2023-05-05T12:00:00Z"
LATER = "2023-09-09T09:09:09Z"


# What the documented recipe (disableKinds = ["sitemap"]) leaves out of Hugo's output, and
# nothing else (make_fixtures.sh checks it against a real build of the recipe).
HUGO_SITEMAPS = ("sitemap.xml", "en/sitemap.xml", "fr/sitemap.xml")


def as_the_recipe_builds(site: Path, sitemaps: tuple[str, ...]) -> None:
    for name in sitemaps:
        (site / name).unlink()


def hugo_project(tmp_path: Path, name: str, *, recipe: bool = False) -> Path:
    """The fixture's sources in a git history (all at SOURCES_COMMITTED, the French about
    page edited at LATER), and Hugo's built folder beside them as ``public`` (as the
    documented recipe builds it, without Hugo's sitemaps, with ``recipe``)."""
    fixture = FIXTURES / name
    assert (fixture / "GENERATED_BY").read_text().startswith("hugo v0.")
    root = init(tmp_path / name)
    (root / ".gitignore").write_text("public/\n.cache/\n", encoding="utf-8")
    sources = {
        str(path.relative_to(fixture)): path.read_text(encoding="utf-8")
        for path in sorted(fixture.rglob("*"))
        if path.is_file() and path.relative_to(fixture).parts[0] in ("config.toml", "content", "layouts")
    }
    commit(root, SOURCES_COMMITTED, sources)
    if "content/about.fr.md" in sources:
        commit(root, LATER, {"content/about.fr.md": sources["content/about.fr.md"] + "\nEdited.\n"})
    shutil.copytree(fixture / "public", root / "public")
    if recipe:
        as_the_recipe_builds(root / "public", HUGO_SITEMAPS)
    return root


def html_pages(site: Path) -> set[str]:
    """Every page Hugo wrote, as its URL, but the alias pages (``/en/`` redirects to ``/``)."""
    found = set()
    for path in site.rglob("index.html"):
        if 'http-equiv="refresh"' in path.read_text(encoding="utf-8"):
            continue
        folder = path.parent.relative_to(site).as_posix()
        found.add(BASE if folder == "." else f"{BASE}{folder}/")
    return found


def test_multilingual_hugo_pages_are_dated_by_their_own_sources(tmp_path, monkeypatch, capsys):
    root = hugo_project(tmp_path, "hugo-multilingual")
    monkeypatch.chdir(root)
    assert main(["build", "public", "--base-url", BASE, "--source-dir", "content"]) == 0
    found = lastmods(root / "public", BASE)
    assert set(found) == html_pages(root / "public")  # every page listed, each a file
    git = SOURCES_COMMITTED
    assert found == {
        # listing pages: the newest of the pages their main content links to, and their own source
        BASE: "2024-03-01",  # _index.md, no date of its own; lists about/ and posts/
        f"{BASE}fr/": "2024-01-12",  # _index.fr.md; lists fr/about/ (LATER) and fr/posts/
        f"{BASE}about/": "2024-03-01",  # lastmod
        f"{BASE}fr/about/": LATER,  # about.fr.md, edited later
        f"{BASE}posts/": "2024-02-20",  # lists the bundle, the newest of its posts
        f"{BASE}fr/posts/": "2024-01-12",  # lists first-post.fr.md
        f"{BASE}posts/first-post/": "2024-01-10",
        f"{BASE}fr/posts/first-post/": "2024-01-12",  # first-post.fr.md
        f"{BASE}posts/second-post/": "2024-02-05T08:30:00Z",  # "Second Post.md", TOML front matter
        f"{BASE}posts/bundle/": "2024-02-20",  # a page bundle's index.md
        f"{BASE}posts/renamed/": git,  # slug: renamed
        f"{BASE}special/place/": git,  # url: /special/place/
        f"{BASE}tags/hello/": "2024-02-20",  # lists first-post/ and bundle/
        f"{BASE}tags/bundles/": "2024-02-20", f"{BASE}tags/": "2024-02-20",  # lists the tags above
        # taxonomy pages that list nothing: no source file builds them
        f"{BASE}categories/": None, f"{BASE}fr/tags/": None, f"{BASE}fr/categories/": None,
    }
    out, err = capsys.readouterr()
    # the summary says which pages found no source, not "fix git"
    assert "3 pages with no source file (/categories/, /fr/categories/, /fr/tags/)" in out
    assert "full clone" not in out
    # Hugo's own per-language sitemaps are named, with the setting that stops them, and kept
    assert "2 sitemap files another tool wrote are in the site (en/sitemap.xml, fr/sitemap.xml)" in err
    assert 'disableKinds = ["sitemap"]' in err and "[sitemap-other]" in err
    assert (root / "public" / "en" / "sitemap.xml").is_file() and (root / "public" / "fr" / "sitemap.xml").is_file()


def test_hugo_content_folder_per_language(tmp_path, monkeypatch):
    root = hugo_project(tmp_path, "hugo-language-folders")
    monkeypatch.chdir(root)
    assert main(["build", "public", "--base-url", BASE, "--source-dir", "."]) == 0  # the project's root
    found = lastmods(root / "public", BASE)
    assert set(found) == html_pages(root / "public")
    assert found[f"{BASE}docs/setup/"] == "2024-04-04"  # content/english/docs/setup.md
    assert found[f"{BASE}fr/docs/setup/"] == SOURCES_COMMITTED  # content/french/docs/setup.md
    assert found[f"{BASE}docs/"] == found[BASE] == "2024-04-04"  # listings: the newest page they list
    assert found[f"{BASE}fr/docs/"] == found[f"{BASE}fr/"] == SOURCES_COMMITTED  # each language's _index.md


def test_the_documented_hugo_recipe_validates_clean(tmp_path, monkeypatch, capsys):
    """docs/cli.md: `hugo` with disableKinds = ["sitemap"], then sitemapkit, then validate."""
    root = hugo_project(tmp_path, "hugo-multilingual", recipe=True)
    monkeypatch.chdir(root)
    assert main(["build", "public", "--base-url", BASE, "--source-dir", "content", "--strict"]) == 0
    assert "sitemap-other" not in capsys.readouterr().err
    assert validate_strict(root / "public") == 0


def test_without_source_dir_the_hint_asks_for_it(tmp_path, monkeypatch, capsys):
    root = hugo_project(tmp_path, "hugo-multilingual", recipe=True)
    monkeypatch.chdir(root)
    assert main(["build", "public", "--base-url", BASE]) == 0
    out = capsys.readouterr().out
    assert "lastmod: 18 none (git dates need the pages' source files, which sitemapkit build finds with " \
           "--source-dir)" in out
    assert "full clone" not in out


def test_sources_outside_git_are_said_to_be_so(tmp_path, monkeypatch, capsys):
    fixture = FIXTURES / "hugo-multilingual"
    root = tmp_path / "not-in-git"
    root.mkdir()
    for part in ("config.toml", "content", "public"):
        copy = shutil.copytree if (fixture / part).is_dir() else shutil.copy
        copy(fixture / part, root / part)
    as_the_recipe_builds(root / "public", HUGO_SITEMAPS)
    monkeypatch.chdir(root)
    assert main(["build", "public", "--base-url", BASE, "--source-dir", "content"]) == 0
    out = capsys.readouterr().out
    assert "; content is not in a git repository)" in out and "full clone" not in out
