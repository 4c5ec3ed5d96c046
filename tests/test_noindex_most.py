"""A site whose pages mostly say noindex (Hugo's Ananke theme outside production, a staging
setting) gets one warning that says so and names the likely cause."""

from __future__ import annotations

from pathlib import Path

from sitemapkit.generate import generate
from sitemapkit.settings import Settings
from sitemapkit.site.scan import pages_in

BASE = "https://ananke.example/"
NOINDEX = '<meta name="robots" content="noindex, nofollow">'


def site(folder: Path, pages: int, noindex: int) -> Path:
    for number in range(pages):
        head = NOINDEX if number < noindex else ""
        page = folder / f"p{number}" / "index.html"
        page.parent.mkdir(parents=True)
        page.write_text(f"<!DOCTYPE html><html><head><title>P{number}</title>{head}</head>"
                        f"<body><main><p>Page {number}</p></main></body></html>", encoding="utf-8")
    return folder


def build(folder: Path):
    return generate(pages_in(folder), folder, Settings(base_url=BASE, lastmod=[]), project_dir=folder)


def test_most_pages_noindex_is_one_warning_naming_the_cause(tmp_path):
    report = build(site(tmp_path, pages=10, noindex=8))
    assert report.urls == 2 and report.left_out == {"noindex": 8}
    [warning] = [w for w in report.warnings if w.rule == "noindex-most"]
    assert "8 of 10 pages say noindex and are left out" in warning.message
    assert "a theme or a development setting" in warning.message
    assert "HUGO_ENV=production" in warning.message and "include_noindex" in warning.message
    assert len(report.warnings) == 1


def test_every_page_noindex_is_no_pages_and_the_documented_noindex_most_warning(tmp_path):
    report = build(site(tmp_path, pages=4, noindex=4))
    assert [w.rule for w in report.warnings] == ["no-pages", "noindex-most"]
    assert "most pages say noindex (see the noindex-most warning)" in report.warnings[0].message
    assert "4 of 4 pages say noindex" in report.warnings[1].message
    assert "a theme or a development setting" in report.warnings[1].message
    assert not (tmp_path / "sitemap.xml").exists()


def test_a_few_noindex_pages_are_no_warning(tmp_path):
    report = build(site(tmp_path, pages=10, noindex=5))
    assert report.left_out == {"noindex": 5} and not report.warnings
