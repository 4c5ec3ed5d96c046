"""`sitemapkit build build --source-dir .` on a Docusaurus project and `sitemapkit build _site
--source-dir .` on an Eleventy one, each page dated from its own source.

Neither generator can be installed on the test machine (both come from npm), so the built
folders are hand-written as Docusaurus 3.5 (classic preset, ``trailingSlash: true``) and
Eleventy 3 write them: the file names, the heads (canonical, hreflang, generator) and
Docusaurus' own ``sitemap.xml``. The sources sit in a real git history."""

from __future__ import annotations

from pathlib import Path

import pytest
from git_helpers import commit, init
from project_checks import lastmods, validate_strict

from sitemapkit.cli import main

pytestmark = pytest.mark.slow  # real git histories (make test-fast leaves them out)

FIRST = "2023-05-05T12:00:00Z"
DOCUSAURUS = "https://docusaurus.example/"
ELEVENTY = "https://eleventy.example/"


def docusaurus_page(path: str, title: str) -> str:
    """A page as Docusaurus 3.5 writes it (the head trimmed to what matters, in its order)."""
    url = DOCUSAURUS + path
    return (
        '<!doctype html>\n<html lang="en" dir="ltr" class="plugin-docs" data-has-hydrated="false">\n<head>\n'
        '<meta charset="UTF-8">\n<meta name="generator" content="Docusaurus v3.5.2">\n'
        f'<title data-rh="true">{title} | My Site</title><meta data-rh="true" property="og:url" content="{url}">'
        f'<link data-rh="true" rel="icon" href="/img/favicon.ico"><link data-rh="true" rel="canonical" href="{url}">'
        f'<link data-rh="true" rel="alternate" href="{url}" hreflang="en">'
        f'<link data-rh="true" rel="alternate" href="{url}" hreflang="x-default">'
        '<link rel="alternate" type="application/rss+xml" href="/blog/rss.xml" title="My Site RSS Feed">\n'
        f'</head>\n<body><div id="__docusaurus"><main><article><h1>{title}</h1><p>Text.</p></article></main>'
        "</div></body>\n</html>\n"
    )


DOCUSAURUS_SOURCES = {
    "docusaurus.config.js": "export default {\n  url: 'https://docusaurus.example',\n  baseUrl: '/',\n"
                            "  trailingSlash: true,\n  presets: [['classic', {docs: {}, blog: {}}]],\n};\n",
    "src/pages/index.js": "export default function Home() { return null; }\n",
    "src/pages/markdown-page.md": "---\ntitle: Markdown page\n---\n# Markdown page\n",
    "docs/intro.md": "---\nsidebar_position: 1\nlast_update:\n  date: 2024-06-01\n  author: Ann\n---\n# Intro\n",
    "docs/01-guide/02-setup.md": "---\nlast_update:\n  date: 2024-05-01\n---\n# Setup\n",
    "docs/01-guide/index.md": "# Guide\n",
    "docs/reference.md": "---\nslug: /api\n---\n# API\n",
    "docs/_partial.md": "Included elsewhere, never a page.\n",
    "blog/2019-05-28-first-blog-post.md": "---\nslug: first-blog-post\ntitle: First\n---\nHello.\n",
    "blog/2021-08-26-welcome/index.md": "---\nslug: welcome\ntitle: Welcome\n---\nWelcome.\n",
    "blog/2024-01-02-no-slug.md": "---\ntitle: No slug\n---\nThe date is in the URL.\n",
    "blog/authors.yml": "ann:\n  name: Ann\n",
}
DOCUSAURUS_PAGES = {
    "": "Home", "markdown-page/": "Markdown page", "docs/intro/": "Intro", "docs/guide/": "Guide",
    "docs/guide/setup/": "Setup", "docs/api/": "API", "blog/": "Blog", "blog/first-blog-post/": "First",
    "blog/welcome/": "Welcome", "blog/2024/01/02/no-slug/": "No slug", "blog/archive/": "Archive",
    "blog/tags/": "Tags",
}


def docusaurus_project(tmp_path: Path, own_sitemap: bool) -> Path:
    root = init(tmp_path / "docusaurus")
    (root / ".gitignore").write_text("build/\n.cache/\n", encoding="utf-8")
    commit(root, FIRST, DOCUSAURUS_SOURCES)
    for path, title in DOCUSAURUS_PAGES.items():
        page = root / "build" / path / "index.html"
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(docusaurus_page(path, title), encoding="utf-8")
    (root / "build" / "404.html").write_text(
        '<!doctype html><html lang="en"><head><title>Page Not Found</title></head><body>Not found</body></html>',
        encoding="utf-8")
    if own_sitemap:  # as @docusaurus/plugin-sitemap writes it: one line, no lastmod
        urls = "".join(f"<url><loc>{DOCUSAURUS}{path}</loc><changefreq>weekly</changefreq><priority>0.5</priority>"
                       "</url>" for path in DOCUSAURUS_PAGES)
        (root / "build" / "sitemap.xml").write_text(
            '<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
            'xmlns:news="http://www.google.com/schemas/sitemap-news/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">'
            f"{urls}</urlset>", encoding="utf-8")
    return root


def test_docusaurus_docs_blog_and_pages_are_dated_by_their_sources(tmp_path, monkeypatch, capsys):
    root = docusaurus_project(tmp_path, own_sitemap=True)
    monkeypatch.chdir(root)
    assert main(["build", "build", "--base-url", DOCUSAURUS, "--source-dir", "."]) == 0
    found = lastmods(root / "build", DOCUSAURUS)
    assert set(found) == {DOCUSAURUS + path for path in DOCUSAURUS_PAGES}  # every page, each a file
    assert found == {
        DOCUSAURUS: FIRST,  # src/pages/index.js
        f"{DOCUSAURUS}markdown-page/": FIRST,
        f"{DOCUSAURUS}docs/intro/": "2024-06-01",  # last_update: {date: ...}
        f"{DOCUSAURUS}docs/guide/": FIRST,  # docs/01-guide/index.md, its number prefix dropped
        f"{DOCUSAURUS}docs/guide/setup/": "2024-05-01",
        f"{DOCUSAURUS}docs/api/": FIRST,  # slug: /api
        f"{DOCUSAURUS}blog/first-blog-post/": "2019-05-28",  # slug, the file name's date
        f"{DOCUSAURUS}blog/welcome/": "2021-08-26",  # a folder with index.md
        f"{DOCUSAURUS}blog/2024/01/02/no-slug/": "2024-01-02",  # no slug: the date in the URL
        f"{DOCUSAURUS}blog/": None, f"{DOCUSAURUS}blog/archive/": None, f"{DOCUSAURUS}blog/tags/": None,
    }
    out = capsys.readouterr().out
    assert "3 pages with no source file (/blog/, /blog/archive/, /blog/tags/)" in out


def test_the_documented_docusaurus_recipe_validates_clean(tmp_path, monkeypatch):
    """docs/cli.md: `sitemap: false` in the classic preset, `docusaurus build`, then sitemapkit."""
    root = docusaurus_project(tmp_path, own_sitemap=False)
    monkeypatch.chdir(root)
    assert main(["build", "build", "--base-url", DOCUSAURUS, "--source-dir", ".", "--strict"]) == 0
    assert validate_strict(root / "build") == 0


ELEVENTY_SOURCES = {
    ".eleventy.js": 'module.exports = function (eleventyConfig) {\n'
                    '  return { dir: { input: "src", output: "_site" } };\n};\n',
    "package.json": '{"name": "blog", "scripts": {"build": "eleventy"}}\n',
    "README.md": "# How to build\n",
    "src/_includes/base.njk": "<!doctype html><html><body>{{ content | safe }}</body></html>\n",
    "src/index.md": "---\nlayout: base.njk\ntitle: Home\n---\n# Home\n",
    "src/about.md": "---\nlayout: base.njk\nupdated: 2024-07-07\n---\n# About\n",
    "src/blog/first.md": "---\nlayout: base.njk\ndate: 2024-02-02\n---\n# First\n",
    "src/blog/second.md": "---\nlayout: base.njk\npermalink: /writing/second/\n---\n# Second\n",
    "src/notes/note.md": "---\nlayout: base.njk\ndate: git Last Modified\n---\n# Note\n",
    "src/feed.njk": "---\npermalink: false\n---\nnot written\n",
}
ELEVENTY_PAGES = ("", "about/", "blog/first/", "writing/second/", "notes/note/")


def test_eleventy_input_folder_and_permalinks(tmp_path, monkeypatch, capsys):
    root = init(tmp_path / "eleventy")
    (root / ".gitignore").write_text("_site/\nnode_modules/\n.cache/\n", encoding="utf-8")
    commit(root, FIRST, ELEVENTY_SOURCES)
    commit(root, "2024-09-09T09:09:09Z", {"src/notes/note.md": ELEVENTY_SOURCES["src/notes/note.md"] + "More.\n",
                                          "README.md": "# How to build, edited\n"})
    for path in ELEVENTY_PAGES:  # as Eleventy writes them: a folder and index.html per page
        page = root / "_site" / path / "index.html"
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(f"<!doctype html><html><body><h1>{path or 'Home'}</h1></body></html>\n", encoding="utf-8")
    monkeypatch.chdir(root)
    assert main(["build", "_site", "--base-url", ELEVENTY, "--source-dir", ".", "--strict"]) == 0
    assert lastmods(root / "_site", ELEVENTY) == {
        ELEVENTY: FIRST,  # src/index.md, never the README edited later
        f"{ELEVENTY}about/": "2024-07-07",
        f"{ELEVENTY}blog/first/": "2024-02-02",
        f"{ELEVENTY}writing/second/": FIRST,  # permalink
        f"{ELEVENTY}notes/note/": "2024-09-09T09:09:09Z",  # date: git Last Modified
    }
    assert "date-format" not in capsys.readouterr().err
    assert validate_strict(root / "_site") == 0
