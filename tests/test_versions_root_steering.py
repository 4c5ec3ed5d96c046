"""The root of a versioned deployment follows and is steered by what it holds: mike's hidden
versions and ``exclude_versions`` left out, each child dated by its newest page, a version's
own index (its sections, or its parts) named child by child, ``extra_sitemaps`` named in the
root index and robots.txt, the flags the root step cannot honour refused; and ``validate``
reading the root as search engines do (every child found by its path, or reported)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sitemap_checks import assert_valid, locs, robots_sitemaps
from sitemapkit.cli import main

BASE = "https://example.org/docs/"
NS = "http://www.sitemaps.org/schemas/sitemap/0.9"


def urlset(urls: dict[str, str | None]) -> str:
    items = "".join(f"<url><loc>{loc}</loc>{f'<lastmod>{day}</lastmod>' if day else ''}</url>"
                    for loc, day in urls.items())
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{NS}">{items}</urlset>\n'


def index(children: list[str]) -> str:
    items = "".join(f"<sitemap><loc>{loc}</loc></sitemap>" for loc in children)
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="{NS}">{items}</sitemapindex>\n'


def deployment(root: Path, versions: dict[str, dict], days: dict[str, tuple[str, str]] | None = None) -> Path:
    """A mike-like root: ``versions.json`` from ``versions`` (name -> extra keys), each version
    with two pages and its sitemap, dated by ``days``."""
    items = []
    for name, extra in versions.items():
        items.append({"version": name, "title": name, "aliases": [], **extra})
        folder = root / name
        (folder / "guide").mkdir(parents=True)
        for file in ("index.html", "guide/index.html"):
            (folder / file).write_text(f"<!doctype html><title>{name}</title><p>{name}</p>", encoding="utf-8")
        first, second = (days or {}).get(name, (None, None))
        (folder / "sitemap.xml").write_text(urlset({f"{BASE}{name}/": first, f"{BASE}{name}/guide/": second}),
                                            encoding="utf-8")
    (root / "versions.json").write_text(json.dumps(items), encoding="utf-8")
    return root


def test_hidden_and_excluded_versions_leave_the_index_and_each_child_has_its_newest_lastmod(tmp_path, capsys):
    root = deployment(tmp_path / "site", {"2.0": {}, "1.0": {}, "0.9": {"properties": {"hidden": True}},
                                          "0.8": {"properties": ["hidden"]}, "dev": {}, "0.1": {}},
                      {"2.0": ("2026-03-01", "2026-03-05T10:00:00+00:00"), "1.0": ("2025-12-24", "2025-01-01")})
    assert main(["build", str(root), "--base-url", BASE, "--exclude-version", "dev",
                 "--exclude-version", "0.[0-5]"]) == 0
    err = capsys.readouterr().err
    assert sorted(locs(root / "sitemap.xml")) == [f"{BASE}1.0/sitemap.xml", f"{BASE}2.0/sitemap.xml"]
    assert "0.9: version: not listed in the root index: hidden in versions.json" in err
    assert "0.8: version: not listed in the root index: hidden in versions.json" in err
    assert "dev: version: not listed in the root index: exclude_versions 'dev' matches it" in err
    assert "0.1: version: not listed in the root index: exclude_versions '0.[0-5]' matches it" in err
    tree = assert_valid(root / "sitemap.xml")
    dated = {item.findtext(f"{{{NS}}}loc"): item.findtext(f"{{{NS}}}lastmod") for item in tree}
    assert dated == {f"{BASE}2.0/sitemap.xml": "2026-03-05T10:00:00Z", f"{BASE}1.0/sitemap.xml": "2025-12-24"}
    assert main(["validate", str(root), "--site-dir", str(root), "--strict"]) == 0, capsys.readouterr().out


def test_a_versions_own_index_is_named_child_by_child_never_nested(tmp_path, capsys):
    root = deployment(tmp_path / "site", {"2.0": {}, "1.0": {}})
    # 2.0 built with sections under Material: sitemap.xml stays a urlset, sitemap-index.xml
    # names its sections' sitemaps
    v2 = root / "2.0"
    (v2 / "sitemap-guide.xml").write_text(urlset({f"{BASE}2.0/guide/": "2026-02-02"}), encoding="utf-8")
    (v2 / "sitemap-other.xml").write_text(urlset({f"{BASE}2.0/": "2026-01-01"}), encoding="utf-8")
    (v2 / "sitemap-index.xml").write_text(index([f"{BASE}2.0/sitemap-guide.xml", f"{BASE}2.0/sitemap-other.xml"]),
                                          encoding="utf-8")
    # 1.0 split in parts: its sitemap.xml is an index
    v1 = root / "1.0"
    (v1 / "sitemap-1.xml").write_text(urlset({f"{BASE}1.0/": None, f"{BASE}1.0/guide/": None}), encoding="utf-8")
    (v1 / "sitemap.xml").write_text(index([f"{BASE}1.0/sitemap-1.xml"]), encoding="utf-8")
    assert main(["build", str(root), "--base-url", BASE, "-q"]) == 0
    assert sorted(locs(root / "sitemap.xml")) == [f"{BASE}1.0/sitemap-1.xml", f"{BASE}2.0/sitemap-guide.xml",
                                                  f"{BASE}2.0/sitemap-other.xml"]
    capsys.readouterr()
    # as search engines read it, from robots.txt (the whole folder would also hold 2.0's urlset
    # for Material's version selector, listing the pages its sections list)
    assert main(["validate", str(root / "robots.txt"), "--site-dir", str(root), "--strict"]) == 0, \
        capsys.readouterr().out


def test_extra_sitemaps_reach_the_root_index_and_robots_txt_and_leave_them(tmp_path, capsys):
    root = deployment(tmp_path / "site", {"1.0": {}})
    shop, blog = "https://example.org/docs/shop/sitemap.xml", "https://example.org/blog/sitemap.xml"
    assert main(["build", str(root), "--base-url", BASE, "--extra-sitemap", shop, "--extra-sitemap", blog,
                 "-q"]) == 0
    # an index names sitemaps at or below its own folder: the blog's is named in robots.txt only
    assert locs(root / "sitemap.xml") == [f"{BASE}1.0/sitemap.xml", shop]
    assert robots_sitemaps(root / "robots.txt") == [f"{BASE}sitemap.xml", shop, blog]
    capsys.readouterr()
    assert main(["validate", str(root), "--site-dir", str(root), "--strict"]) == 0, capsys.readouterr().out
    assert main(["build", str(root), "--base-url", BASE, "-q"]) == 0  # no longer given: gone from both
    assert locs(root / "sitemap.xml") == [f"{BASE}1.0/sitemap.xml"]
    assert robots_sitemaps(root / "robots.txt") == [f"{BASE}sitemap.xml"]


def test_extra_urls_are_written_once_at_the_root_where_the_user_said(tmp_path, capsys):
    root = deployment(tmp_path / "site", {"2.0": {}, "1.0": {}})
    assert main(["build", str(root), "--base-url", BASE, "--extra-url", "app/ 2026-04-01",
                 "--extra-url", f"{BASE}shop/", "-q"]) == 0
    assert locs(root / "sitemap.xml") == [f"{BASE}2.0/sitemap.xml", f"{BASE}1.0/sitemap.xml",
                                          f"{BASE}sitemap-extra.xml"]
    assert assert_valid(root / "sitemap-extra.xml").tag.endswith("urlset")
    assert sorted(locs(root / "sitemap-extra.xml")) == [f"{BASE}app/", f"{BASE}shop/"]  # not under 1.0/, 2.0/
    capsys.readouterr()
    # served by something else, as the record says: no page-missing
    assert main(["validate", str(root), "--site-dir", str(root), "--strict"]) == 0, capsys.readouterr().out
    assert main(["build", str(root), "--base-url", BASE, "-q"]) == 0
    assert not (root / "sitemap-extra.xml").exists()  # no longer asked for: removed
    assert locs(root / "sitemap.xml") == [f"{BASE}2.0/sitemap.xml", f"{BASE}1.0/sitemap.xml"]


@pytest.mark.parametrize("flags", [["--exclude", "guide/"], ["--section", "guide/"], ["--rule", "guide/*:priority=0.5"],
                                   ["--transform", "nomodule:nothing"], ["--txt", "--max-urls", "10"]])
def test_a_flag_the_root_step_cannot_honour_is_refused_in_one_line(tmp_path, capsys, flags):
    root = deployment(tmp_path / "site", {"1.0": {}})
    assert main(["build", str(root), "--base-url", BASE, *flags]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and flags[0] in err and "root of a versioned deployment" in err, err
    assert not (root / "sitemap.xml").exists()


def test_validate_finds_each_child_by_its_path_and_names_what_is_missing(tmp_path, capsys):
    root = deployment(tmp_path / "site", {"2.0": {}, "1.0": {}})
    # a stale root: names 0.9 (deleted), never 2.0 (deployed since)
    (root / "sitemap.xml").write_text(index([f"{BASE}1.0/sitemap.xml", f"{BASE}0.9/sitemap.xml"]), encoding="utf-8")
    (root / "robots.txt").write_text(f"Sitemap: {BASE}sitemap.xml\n", encoding="utf-8")
    assert main(["validate", str(root), "--site-dir", str(root)]) == 1
    out = capsys.readouterr().out
    assert f"{BASE}0.9/sitemap.xml is not in {root}; it would be a 404 [sitemap-missing]" in out
    assert "version 2.0 of versions.json has a sitemap of its own that sitemap.xml does not name" in out
    assert "loc-scope" not in out  # 0.9/sitemap.xml never taken for the root's sitemap.xml

    # an index whose only child is missing, checked alone: a warning without --site-dir
    lonely = tmp_path / "lonely"
    lonely.mkdir()
    (lonely / "sitemap.xml").write_text(index([f"{BASE}0.9/sitemap.xml"]), encoding="utf-8")
    assert main(["validate", str(lonely / "sitemap.xml")]) == 0
    out = capsys.readouterr().out
    assert "[sitemap-not-found]" in out and "0.9/sitemap.xml" in out
    assert main(["validate", str(lonely / "sitemap.xml"), "--strict"]) == 1
    capsys.readouterr()
    assert main(["validate", str(lonely / "sitemap.xml"), "--site-dir", str(lonely)]) == 1
    assert "[sitemap-missing]" in capsys.readouterr().out


def test_a_version_folder_canonical_elsewhere_is_told_without_mikes_words(tmp_path, capsys):
    root = deployment(tmp_path / "site", {"2.0": {}, "1.0": {}})
    (root / "versions.json").unlink()  # plain version folders, each built by sitemapkit
    for name in ("1.0", "2.0"):
        (root / name / ".sitemapkit-files.json").write_text("{}", encoding="utf-8")
    (root / "1.0" / "guide" / "index.html").write_text(
        f'<!doctype html><link rel="canonical" href="{BASE}2.0/guide/"><title>g</title><p>g</p>', encoding="utf-8")
    assert main(["build", str(root), "--base-url", BASE]) == 0
    err = capsys.readouterr().err
    assert locs(root / "sitemap.xml") == [f"{BASE}2.0/sitemap.xml"]
    told = [line for line in err.splitlines() if "[version-left-out]" in line]
    assert len(told) == 1 and "1 of its 2 pages name a canonical URL outside 1.0/" in told[0], err
    assert "mike" not in told[0] and "html_baseurl" in told[0]
