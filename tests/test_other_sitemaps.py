"""Sitemap files another tool left in a folder of HTML are named in one warning, with the
settings that turn them off, and never removed; sitemapkit's own files are never named."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from sitemapkit.cli import main

BASE = "https://other.example/"
URLSET = ('<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
          f"<url><loc>{BASE}fr/</loc></url></urlset>")


def folder(root: Path) -> Path:
    for name in ("index.html", "a/index.html", "fr/index.html"):
        page = root / name
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(f"<html><head><title>{name}</title></head><body><main>{name}</main></body></html>")
    (root / "fr" / "sitemap.xml").write_text(URLSET)  # Hugo's per-language sitemap
    (root / "sitemap_index.xml").write_text(URLSET.replace("urlset", "sitemapindex"))
    (root / "sitemap-style.xml").write_text('<?xml version="1.0"?><xsl:stylesheet version="1.0"/>')  # no sitemap
    os.symlink(root / "fr" / "sitemap.xml", root / "a" / "sitemap.xml")  # a link is never read
    return root


def test_other_sitemaps_are_named_and_kept(tmp_path, capsys):
    site = folder(tmp_path / "site")
    before = {path: path.read_bytes() for path in site.rglob("*sitemap*") if not path.is_symlink()}
    assert main(["build", str(site), "--base-url", BASE, "--max-urls", "2"]) == 0  # an index and its children
    err = capsys.readouterr().err
    assert "2 sitemap files another tool wrote are in the site (fr/sitemap.xml, sitemap_index.xml)" in err
    assert 'disableKinds = ["sitemap"]' in err and "jekyll-sitemap" in err and "sitemap: false" in err
    assert err.count("[sitemap-other]") == 1
    assert all(path.read_bytes() == text for path, text in before.items())  # never removed nor changed
    # a second build names the same files, never sitemapkit's own index and children
    assert main(["build", str(site), "--base-url", BASE, "--max-urls", "2"]) == 0
    assert "2 sitemap files another tool wrote" in capsys.readouterr().err


def test_strict_fails_on_them(tmp_path, capsys):
    site = folder(tmp_path / "site")
    assert main(["build", str(site), "--base-url", BASE, "--strict"]) == 1
    assert "sitemap-other" in capsys.readouterr().err


def test_the_generators_own_sitemap_at_our_name_is_named_when_replaced(tmp_path, capsys):
    """Jekyll's jekyll-sitemap and Docusaurus write ``sitemap.xml``, sitemapkit's own name: the
    build replaces it (a sitemap already) and says so once, with the setting that turns it off;
    the next build, replacing its own file, says nothing."""
    site = tmp_path / "site"
    for name in ("index.html", "a/index.html"):
        page = site / name
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(f"<html><head><title>{name}</title></head><body><main>{name}</main></body></html>")
    (site / "sitemap.xml").write_text(URLSET.replace(f"{BASE}fr/", f"{BASE}a/"))
    assert main(["build", str(site), "--base-url", BASE]) == 0
    err = capsys.readouterr().err
    assert f"{site / 'sitemap.xml'}: sitemaps: sitemap.xml was written by another tool" in err
    assert "jekyll-sitemap" in err and "[sitemap-other]" in err
    assert f"<loc>{BASE}</loc>" in (site / "sitemap.xml").read_text()  # replaced by sitemapkit's
    assert main(["build", str(site), "--base-url", BASE]) == 0
    assert "sitemap-other" not in capsys.readouterr().err


def pages(site: Path) -> Path:
    for name in ("index.html", "a/index.html"):
        page = site / name
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(f"<html><head><title>{name}</title></head><body><main>{name}</main></body></html>")
    return site


def test_a_cleared_state_folder_does_not_fail_a_strict_build_of_a_kept_folder(tmp_path, capsys):
    """``.cache/`` (the key that signs the record) deleted, the output kept: the record is
    unsigned, but ``sitemap.xml`` is still the file it names, as the earlier build left it, so
    it is sitemapkit's own (a note, ``record-unsigned-moot``), not another tool's: ``--strict``
    passes. Another tool's sitemap at that name after the state folder went (a generator that
    rewrites ``sitemap.xml`` on each build), which the record does not name as it is, is still
    named, and replaced; one at another name is named and left as it is."""
    site = pages(tmp_path / "site")
    assert main(["build", str(site), "--base-url", BASE]) == 0
    capsys.readouterr()
    shutil.rmtree(tmp_path / ".cache")
    assert main(["build", str(site), "--base-url", BASE, "--strict"]) == 0
    err = capsys.readouterr().err
    assert "[record-unsigned-moot]" in err and "[sitemap-other]" not in err and "warning:" not in err

    shutil.rmtree(tmp_path / ".cache")
    theirs = URLSET.replace(f"{BASE}fr/", f"{BASE}a/")
    (site / "sitemap.xml").write_text(theirs)  # the generator's own, over sitemapkit's
    (site / "fr").mkdir()
    (site / "fr" / "sitemap.xml").write_text(URLSET)
    assert main(["build", str(site), "--base-url", BASE, "--strict"]) == 1
    err = capsys.readouterr().err
    assert f"{site / 'sitemap.xml'}: sitemaps: sitemap.xml was written by another tool" in err
    assert "1 sitemap file another tool wrote is in the site (fr/sitemap.xml)" in err
    assert f"<loc>{BASE}</loc>" in (site / "sitemap.xml").read_text()  # replaced, as a sitemap already
    assert (site / "fr" / "sitemap.xml").read_text() == URLSET
