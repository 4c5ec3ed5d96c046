"""`sitemapkit build build --source-dir .` on a Docusaurus site in docs-only mode with its
folders renamed: the classic preset's ``docs: {path: 'guides', routeBasePath: '/'}`` (the doc
whose ``slug`` is ``/`` is the home page) and ``blog: {path: "news", routeBasePath:
"updates"}``, and a second docs plugin instance (``plugins:
[['@docusaurus/plugin-content-docs', {id: 'community', path: 'community', routeBasePath:
'community'}]]``), read from docusaurus.config.js as text (never run). Each page is matched
to the source Docusaurus built it from and dated by it (front matter, else git); every page
Docusaurus' own sitemap lists is listed.

The built folder is Docusaurus' own output, made by tests/generator_output/make_fixtures.sh,
which records Docusaurus' version in GENERATED_BY (and checks that the documented recipe,
``sitemap: false``, differs by its sitemap.xml only); the sources are committed into a real
git history here."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from git_helpers import commit, init
from hypothesis import given
from hypothesis import strategies as st
from lxml import etree
from project_checks import fixture_sources, lastmods, validate_strict

from sitemapkit.cli import main
from sitemapkit.sources import jsconfig
from sitemapkit.sources.generator import detect

pytestmark = pytest.mark.slow  # real git histories (make test-fast leaves them out)

FIXTURE = Path(__file__).parent / "generator_output" / "docusaurus-routes"
BASE = "https://docusaurus-routes.example/"
NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
FIRST = "2023-05-05T12:00:00Z"
SETTINGS_EDITED = "2024-06-06T06:06:06Z"
ABOUT_EDITED = "2024-07-07T07:07:07Z"


def routes_site(tmp_path: Path) -> tuple[Path, set[str]]:
    """The sources committed at FIRST (guides/setup/configure.md edited at SETTINGS_EDITED,
    src/pages/about.md at ABOUT_EDITED); Docusaurus' output as ``build`` without its own
    sitemap (the documented recipe), and the URLs that sitemap listed."""
    assert (FIXTURE / "GENERATED_BY").read_text().startswith("docusaurus 3.")
    root = init(tmp_path / "site")
    (root / ".gitignore").write_text("build/\n.cache/\n", encoding="utf-8")
    sources = fixture_sources(FIXTURE, ('build',))
    commit(root, FIRST, sources)
    settings = "guides/setup/configure.md"
    commit(root, SETTINGS_EDITED, {settings: sources[settings] + "\nEdited.\n"})
    commit(root, ABOUT_EDITED, {"src/pages/about.md": sources["src/pages/about.md"] + "\nEdited.\n"})
    shutil.copytree(FIXTURE / "build", root / "build")
    own = etree.parse(str(root / "build" / "sitemap.xml")).getroot()
    (root / "build" / "sitemap.xml").unlink()
    return root, {loc.text for loc in own.iterfind("s:url/s:loc", NS)}


def test_docs_and_blog_are_found_where_the_configuration_serves_them(tmp_path, monkeypatch, capsys):
    root, own = routes_site(tmp_path)
    monkeypatch.chdir(root)
    assert main(["build", "build", "--base-url", BASE, "--source-dir", "."]) == 0
    found = lastmods(root / "build", BASE)  # each listed URL a file Docusaurus wrote
    assert set(found) == own  # every page Docusaurus lists, as it spells it
    assert found == {
        BASE: FIRST,  # guides/intro.md, slug: / (routeBasePath: '/')
        f"{BASE}setup/install": "2024-04-04",  # guides/setup/01-install.md: its last_update
        f"{BASE}setup/settings": SETTINGS_EDITED,  # guides/setup/configure.md, slug: settings
        f"{BASE}about": ABOUT_EDITED,  # src/pages/about.md
        f"{BASE}community/support": "2024-05-20",  # community/support.md: its last_update
        f"{BASE}community/team": FIRST,  # the docs instance 'community'
        f"{BASE}updates/2024/02/10/launch": "2024-02-10",  # news/, served under /updates: its name's date
        f"{BASE}updates/2024/03/05/second": "2024-03-05",  # news/2024-03-05-second/index.md
        f"{BASE}updates": "2024-03-05",  # the blog's lists: the newest post
        f"{BASE}updates/archive": "2024-03-05",
    }
    assert "lastmod-no-source" not in capsys.readouterr().err
    assert validate_strict(root / "build") == 0


CONFIG = """
// docs: {path: 'commented'}
export default {
  themeConfig: {docs: {sidebar: {hideable: true}}, navbar: {items: [{to: '/docs/intro'}]}},
  presets: [['classic', {
    docs: {
      sidebarPath: './sidebars.js',
      editUrl: ({docPath}) => `https://x.org/${docPath}`,
      versions: {current: {path: 'next'}},  /* an inner object's path: not the folder's */
      "path": "./manual/",
      routeBasePath: 'guide',
    },
    blog: false,
  }]],
  plugins: [
    ["@docusaurus/plugin-content-docs", {id: 'api', path: 'reference', routeBasePath: 'api'}],
    ['content-docs', {id: 'default'}],  // the preset's own: nothing more
    ['@docusaurus/plugin-content-blog', {id: 'news', path: 'news'}],
  ],
};
"""


def test_the_preset_options_are_read_as_text(tmp_path):
    (tmp_path / "docusaurus.config.js").write_text(CONFIG, encoding="utf-8")
    for folder in ("manual", "blog", "src/pages", "reference", "news"):
        (tmp_path / folder).mkdir(parents=True)
    found = detect(tmp_path)
    assert [(str(path.relative_to(tmp_path)), prefix) for path, prefix, _lang in found.folders] == [
        ("manual", "guide"), ("src/pages", ""), ("reference", "api")]  # blog: false builds no blog
    assert found.templates == ()
    assert jsconfig.options(CONFIG, "docs")[1] == {
        "sidebarPath": "./sidebars.js", "path": "./manual/", "routeBasePath": "guide"}  # its own keys only


@given(st.text(alphabet="docs:{}[]()'\"`/*\\ \npathrouteBase,false", max_size=200))
def test_any_configuration_text_reads_without_error(text):
    for found in jsconfig.options(text, "docs"):
        assert all(isinstance(value, str | bool) for value in found.values())
