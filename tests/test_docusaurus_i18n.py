"""`sitemapkit build build --source-dir .` on a Docusaurus site in two languages (``i18n:
{defaultLocale: 'en', locales: ['en', 'fr']}``, as web-map-doc of Maps4HTML has it): a French
page is dated by its translation (``i18n/fr/docusaurus-plugin-content-docs/current/intro.md``
builds ``/fr/docs/intro``), a page not translated by the English source Docusaurus builds it
from, a translated blog post by its own front matter, an HTML file of ``static/`` (copied into
``/`` and ``/fr/``) by itself; Docusaurus' two sitemaps are replaced or named.

The built folder is Docusaurus' own output, made by tests/generator_output/make_fixtures.sh,
which records Docusaurus' version in GENERATED_BY (and checks that the documented recipe,
``sitemap: false``, differs by the two sitemaps only); the sources are committed into a real
git history here."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from git_helpers import commit, init
from project_checks import fixture_sources, urlset, validate_strict

from sitemap_checks import assert_valid_tree
from sitemapkit.cli import main

pytestmark = pytest.mark.slow  # real git histories (make test-fast leaves them out)

FIXTURE = Path(__file__).parent / "generator_output" / "docusaurus-i18n"
BASE = "https://docusaurus-i18n.example/"
NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
FIRST = "2023-05-05T12:00:00Z"
FRENCH_EDITED = "2024-06-06T06:06:06Z"
GUIDE_EDITED = "2024-07-07T07:07:07Z"
SITEMAPS = ("sitemap.xml", "fr/sitemap.xml")
"""Docusaurus' own, one a locale: all the documented recipe leaves out (make_fixtures.sh checks it)."""


def i18n_site(tmp_path: Path, *, recipe: bool) -> Path:
    """The sources committed at FIRST, the French intro edited at FRENCH_EDITED and the
    English guide (not translated) at GUIDE_EDITED; Docusaurus' output as ``build`` (without
    its sitemaps, with ``recipe``)."""
    assert (FIXTURE / "GENERATED_BY").read_text().startswith("docusaurus 3.")
    root = init(tmp_path / "site")
    (root / ".gitignore").write_text("build/\n.cache/\n", encoding="utf-8")
    sources = fixture_sources(FIXTURE, ('build',))
    commit(root, FIRST, sources)
    french = "i18n/fr/docusaurus-plugin-content-docs/current/intro.md"
    commit(root, FRENCH_EDITED, {french: sources[french] + "\nModifié.\n"})
    commit(root, GUIDE_EDITED, {"docs/guide.md": sources["docs/guide.md"] + "\nEdited.\n"})
    shutil.copytree(FIXTURE / "build", root / "build")
    if recipe:
        for name in SITEMAPS:
            (root / "build" / name).unlink()
    return root


def test_each_locale_is_dated_by_the_source_it_is_built_from(tmp_path, monkeypatch, capsys):
    root = i18n_site(tmp_path, recipe=True)
    monkeypatch.chdir(root)
    assert main(["build", "build", "--base-url", BASE, "--source-dir", "."]) == 0
    assert [path.name for path in assert_valid_tree(root / "build", BASE)] == ["sitemap.xml"]
    fr = f"{BASE}fr/"
    assert urlset(root / "build", BASE) == {
        BASE: FIRST,  # src/pages/index.md, listing /docs/intro
        fr: FRENCH_EDITED,  # the same source, listing /fr/docs/intro
        f"{BASE}docs/intro": FIRST,
        f"{fr}docs/intro": FRENCH_EDITED,  # its translation
        f"{BASE}docs/guide": GUIDE_EDITED,
        f"{fr}docs/guide": GUIDE_EDITED,  # not translated: the English source
        f"{BASE}blog/2024/03/01/hello": "2024-03-01",  # the file name's date
        f"{fr}blog/2024/03/01/hello": "2024-05-05",  # the translation's last_update
        f"{BASE}blog": "2024-03-01",  # the blog's lists: the newest post
        f"{BASE}blog/archive": "2024-03-01",
        f"{fr}blog": "2024-05-05",
        f"{fr}blog/archive": "2024-05-05",
        f"{BASE}demo/map.html": FIRST,  # static/demo/map.html, copied into each locale
        f"{fr}demo/map.html": FIRST,
    }
    assert "lastmod-no-source" not in capsys.readouterr().err
    assert validate_strict(root / "build") == 0


def test_every_page_docusaurus_lists_is_listed_and_dated(tmp_path, monkeypatch, capsys):
    root = i18n_site(tmp_path, recipe=False)
    own = {url for name in SITEMAPS for url in urlset(root / "build", BASE, name)}
    monkeypatch.chdir(root)
    assert main(["build", "build", "--base-url", BASE, "--source-dir", "."]) == 0
    found = urlset(root / "build", BASE)
    # Docusaurus lists its routes; the HTML files of static/ are pages too
    assert set(found) - own == {f"{BASE}demo/map.html", f"{BASE}fr/demo/map.html"}
    assert own <= set(found)
    assert [url for url in own if found[url] is None] == []  # every page of both locales dated (Docusaurus: none)
    err = capsys.readouterr().err
    assert "fr/sitemap.xml" in err and "sitemap: false" in err  # named, with the setting
    assert (root / "build" / "fr" / "sitemap.xml").is_file()  # never deleted
