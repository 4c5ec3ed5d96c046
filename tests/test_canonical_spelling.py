"""A canonical link that names the same page in another spelling (no trailing slash, with or
without ``index.html``, the same file behind it) is that page: listed, as the site names it,
and ``validate --site-dir --strict`` agrees (issue 28, Docusaurus' ``docs/intro/index.html``
whose canonical is ``https://x.org/docs/intro``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitemap_checks import assert_valid_tree, locs
from sitemapkit.cli import main

BASE = "https://x.org/"


def page(site: Path, name: str, canonical: str | None = None) -> None:
    link = f'<link rel="canonical" href="{canonical}">' if canonical else ""
    (site / name).parent.mkdir(parents=True, exist_ok=True)
    (site / name).write_text(f"<!doctype html><html><head><title>{name}</title>{link}</head>"
                             "<body><main>x</main></body></html>")


def test_the_issue_repro_lists_the_page_at_its_canonical_spelling(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    site = tmp_path / "s"
    page(site, "a/index.html", BASE + "a")
    assert main(["build", str(site), "--base-url", BASE, "--dry-run"]) == 0
    summary = capsys.readouterr().out
    assert "canonical elsewhere" not in summary and "1 URL in sitemap.xml" in summary


@pytest.mark.parametrize(("name", "canonical", "listed"), [
    ("docs/intro/index.html", "docs/intro", "docs/intro"),  # Docusaurus: no trailing slash
    ("docs/intro/index.html", "docs/intro/index.html", "docs/intro/index.html"),  # Sphinx: the file
    ("docs/intro/index.html", "docs/intro/", "docs/intro/"),  # its own spelling
    ("post.html", "post", "post"),  # an extension-less canonical, served by post.html
    ("post/index.html", "post", "post"),
])
def test_a_canonical_naming_the_same_file_lists_the_page_as_the_site_names_it(tmp_path, monkeypatch, name,
                                                                              canonical, listed):
    monkeypatch.chdir(tmp_path)
    site = tmp_path / "s"
    page(site, "index.html")
    page(site, name, BASE + canonical)
    assert main(["build", str(site), "--base-url", BASE, "-q"]) == 0
    assert_valid_tree(site, BASE)
    assert sorted(locs(site / "sitemap.xml")) == [BASE, BASE + listed]
    assert main(["validate", str(site / "sitemap.xml"), "--site-dir", str(site), "--strict"]) == 0


def test_a_canonical_naming_another_file_still_leaves_the_page_out(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    site = tmp_path / "s"
    page(site, "index.html")
    page(site, "a/index.html")
    page(site, "a.html", BASE + "a/")  # a.html and a/index.html are two files: a.html defers to a/
    page(site, "print/a/index.html", BASE + "a")  # a is served by a.html, not by this file
    assert main(["build", str(site), "--base-url", BASE]) == 0
    assert sorted(locs(site / "sitemap.xml")) == [BASE, BASE + "a/"]
    assert "2 canonical elsewhere" in capsys.readouterr().out
    assert main(["validate", str(site / "sitemap.xml"), "--site-dir", str(site), "--strict"]) == 0

