"""Alternates come from the page's own ``hreflang`` links when it has them, and
``<html lang="fr-fr">`` never adds a second entry for the page itself: the two pages of a pair
list the same set. On Hugo's own multilingual output, as a theme that writes
``site.LanguageCode`` into ``<html lang>`` (Ananke does) leaves it."""

from __future__ import annotations

import shutil
from pathlib import Path

from lxml import etree

from sitemap_checks import assert_valid_tree
from sitemapkit import Page, Settings, build_entries
from sitemapkit.cli import main

FIXTURE = Path(__file__).parent / "generator_output" / "hugo-multilingual"
BASE = "https://hugo.example/"
NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}


def alternates_by_page(site: Path) -> dict[str, set[tuple[str, str]]]:
    assert_valid_tree(site, BASE)
    root = etree.parse(str(site / "sitemap.xml")).getroot()
    return {url.findtext("s:loc", namespaces=NS): {(link.get("hreflang"), link.get("href"))
                                                  for link in url.iterfind("x:link", NS)}
            for url in root.iterfind("s:url", NS)}


def test_hugo_pages_with_a_regional_html_lang_list_one_set_per_pair(tmp_path):
    site = tmp_path / "public"
    shutil.copytree(FIXTURE / "public", site)
    for name in ("sitemap.xml", "en/sitemap.xml", "fr/sitemap.xml"):  # Hugo's own, as the recipe leaves out
        (site / name).unlink()
    for page in site.rglob("*.html"):  # languageCode = 'en-us' / 'fr-fr', as Ananke writes it
        text = page.read_text(encoding="utf-8")
        for code, regional in (("en", "en-us"), ("fr", "fr-fr")):
            text = text.replace(f'<html lang="{code}">', f'<html lang="{regional}">')
        page.write_text(text, encoding="utf-8")
    assert main(["build", str(site), "--base-url", BASE, "-q"]) == 0
    found = alternates_by_page(site)
    pair = {("en", f"{BASE}posts/first-post/"), ("fr", f"{BASE}fr/posts/first-post/")}
    assert found[f"{BASE}posts/first-post/"] == found[f"{BASE}fr/posts/first-post/"] == pair
    assert not any(code in ("fr-fr", "en-us") for links in found.values() for code, _ in links)
    assert main(["validate", str(site / "sitemap.xml"), "--site-dir", str(site), "--strict"]) == 0


def test_the_pages_own_links_win_over_the_generators_translations():
    head = ('<html lang="fr-fr"><head><link rel="alternate" hreflang="fr" href="https://e.org/fr/a/">'
            '<link rel="alternate" hreflang="de" href="https://e.org/de/a/"></head><body><main>A</main></body></html>')
    page = Page("fr/a/", html=head, lang="fr-FR", translations={"en": "a/"})
    [entry] = list(build_entries([page], Settings(base_url="https://e.org/", lastmod=False)))
    assert [(a.hreflang, a.href) for a in entry.alternates] == [("de", "https://e.org/de/a/"),
                                                                 ("fr", "https://e.org/fr/a/")]
