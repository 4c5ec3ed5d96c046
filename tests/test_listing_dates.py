"""A listing page's dates are those of the same site's dated pages its main content links
to: not the theme's navigation, not another host, not a script URL."""

from __future__ import annotations

from datetime import date

from sitemapkit.lastmod.listings import with_listed
from sitemapkit.model import Page

BASE = "https://list.example/"


def page(tmp_path, url: str, body: str, source: str | None = None, modified=None) -> Page:
    name = (url or "") + "index.html"
    output = tmp_path / name
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(f"<!DOCTYPE html><html><head><title>t</title></head><body>{body}</body></html>")
    return Page(url=url, output=output, source=source, modified=modified, name=name)


def test_main_content_links_of_the_same_site_only(tmp_path):
    listing = page(tmp_path, "", (
        '<nav><a href="/c/">newest, but in the theme</a></nav><main>'
        '<a href="/a/">A</a> <a href="b/#top">B</a> <a href="https://list.example/a/?x=1">A again</a>'
        '<a href="//evil.example/c/">other host</a> <a href="javascript:alert(1)">js</a>'
        '<a href="https://other.example/c/">other</a><!-- <a href="/c/">in a comment</a> --></main>'))
    pages = [listing,
             page(tmp_path, "a/", "A", source="a.md", modified=date(2024, 1, 1)),
             page(tmp_path, "b/", "B", source="b.md"),  # dated by its source's commit
             page(tmp_path, "c/", "C", source="c.md", modified=date(2030, 1, 1))]
    commits = {"b.md": date(2024, 2, 2)}
    found = {p.url: p for p in with_listed(pages, BASE, commits.get)}
    assert found[""].listed == (None, date(2024, 1, 1), date(2024, 2, 2))
    assert all(not found[url].listed for url in ("a/", "b/", "c/"))


def test_no_dated_link_is_no_listing_and_a_dated_page_keeps_its_date(tmp_path):
    pages = [page(tmp_path, "", '<main><a href="/x/">no such page</a><a href="/u/">undated</a></main>'),
             page(tmp_path, "p/", '<main><a href="/a/">A</a><a href="/b/">B</a></main>',
                  source="p.md", modified=date(2020, 1, 1)),
             page(tmp_path, "a/", "A", source="a.md", modified=date(2024, 1, 1)),
             page(tmp_path, "b/", "B", source="b.md", modified=date(2024, 1, 2)),
             page(tmp_path, "u/", "U", source="u.md")]
    assert [p.listed for p in with_listed(pages, BASE, lambda path: None)] == [(), (), (), (), ()]


def test_a_section_is_dated_before_the_home_page_that_lists_it(tmp_path):
    pages = [page(tmp_path, "", '<main><a href="/s/">Section</a></main>'),
             page(tmp_path, "s/", '<main><a href="/s/a/">A</a></main>', source="s/_index.md"),
             page(tmp_path, "s/a/", "A", source="s/a.md", modified=date(2024, 5, 5))]
    found = with_listed(pages, BASE, lambda path: date(2023, 1, 1))
    assert found[1].listed == (date(2023, 1, 1), date(2024, 5, 5))
    assert found[0].listed == (None, date(2024, 5, 5))  # no source of its own
