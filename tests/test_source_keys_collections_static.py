"""Which source builds which page, for the files the name-for-name match does not reach: a
Jekyll collection's documents (its permalink, Jekyll's default after the site's style, a date
the document does not give), and the HTML files Hugo and Docusaurus copy from ``static/``."""

from __future__ import annotations

from pathlib import Path

from sitemapkit.model import Page
from sitemapkit.sources.generator import detect
from sitemapkit.sources.matching import Sources


def tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def sources_of(root: Path, *urls: str) -> list[str | None]:
    sources = Sources(root, found=detect(root))
    return [page.name for page in sources.attach(Page(url=url) for url in urls)]


def test_a_collection_follows_the_sites_permalink_style_unless_it_has_its_own(tmp_path):
    root = tree(tmp_path / "site", {
        "_config.yml": "collections:\n  recipes:\n    output: true\n  events:\n    output: true\n"
                       "    permalink: /events/:year/:name/\n  drafts:\n    output: false\n",
        "_recipes/soup.md": "---\ntitle: Soup\n---\n",
        "_recipes/notes.txt": "no front matter: copied as it is\n",
        "_events/meetup.md": "---\ndate: 2024-05-06\n---\n",
        "_events/undated.md": "---\ntitle: When?\n---\n",  # Jekyll takes the build's time
        "_drafts/idea.md": "---\ntitle: Idea\n---\n",
    })
    assert sources_of(root, "recipes/soup.html", "events/2024/meetup/", "events/undated/", "drafts/idea.html",
                      "recipes/notes.txt") == [
        "_recipes/soup.md", "_events/meetup.md", None, None, None]


def test_static_html_files_are_their_own_sources(tmp_path):
    hugo = tree(tmp_path / "hugo", {"hugo.toml": "title = 't'\n", "content/a.md": "# a\n",
                                     "static/demo/map.html": "<!DOCTYPE html><title>m</title>\n"})
    assert sources_of(hugo, "demo/map.html", "a/") == ["static/demo/map.html", "content/a.md"]
    docusaurus = tree(tmp_path / "docusaurus", {
        "docusaurus.config.js": "export default {i18n: {defaultLocale: 'en', locales: ['en', 'fr']}};\n",
        "docs/intro.md": "# intro\n", "static/demo/index.html": "<!DOCTYPE html><title>d</title>\n",
    })
    assert sources_of(docusaurus, "demo/", "fr/demo/", "fr/docs/intro") == [
        "static/demo/index.html", "static/demo/index.html", "docs/intro.md"]
