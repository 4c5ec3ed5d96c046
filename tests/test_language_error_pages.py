"""A multilingual generator (Hugo) writes an error page per language, ``en/404.html``: on a
folder of HTML no adapter describes, that is the language's error page, left out and named;
a page called 404 anywhere else (Pelican's tag "404") is a page."""

from __future__ import annotations

from pathlib import Path

from sitemap_checks import locs
from sitemapkit.cli import main

BASE = "https://example.org/"


def test_each_languages_404_is_its_error_page_and_a_tag_named_404_is_listed(tmp_path, capsys):
    site = tmp_path / "public"
    for name in ("index.html", "en/index.html", "en/404.html", "fr/index.html", "fr/404.html",
                 "pt-br/404.html", "tag/404.html", "docs/404/index.html"):
        path = site / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"<html><head><title>{name}</title></head><body><main>{name}</main></body></html>")
    assert main(["build", str(site), "--base-url", BASE]) == 0
    listed = set(locs(site / "sitemap.xml"))
    assert {f"{BASE}tag/404.html", f"{BASE}docs/404/"} <= listed
    assert not {f"{BASE}en/404.html", f"{BASE}fr/404.html", f"{BASE}pt-br/404.html"} & listed
    out = capsys.readouterr().out
    assert "left out: 3 error pages (en/404.html, fr/404.html, pt-br/404.html)" in out
    assert main(["validate", str(site / "sitemap.xml"), "--site-dir", str(site), "--strict", "-q"]) == 0


def test_a_three_letter_folder_is_no_language(tmp_path):
    from sitemapkit.site.pages import guess_not_a_page

    assert guess_not_a_page("tag/404.html", Path(tmp_path)) is None
    assert guess_not_a_page("en/404.html", Path(tmp_path)) == "error page"
