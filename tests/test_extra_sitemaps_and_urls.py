"""``extra_sitemaps`` (other tools' sitemaps on the same host: named in robots.txt and in the
index) and ``extra_urls`` (pages the generator does not build, checked like every page)."""

from __future__ import annotations

import pytest
from around_helpers import BASE, built_site, pages_of

from sitemap_checks import assert_valid, assert_valid_tree, locs, robots_sitemaps
from sitemapkit import Settings, SettingsError
from sitemapkit.cli import main
from sitemapkit.generate import generate

SHOP = BASE + "shop/sitemap.xml"
SHOP_SITEMAP = ('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/'
                'sitemap/0.9"><url><loc>https://example.org/shop/item/</loc></url></urlset>\n')


def build(site, warnings=None, **options):
    settings = Settings(base_url=BASE, lastmod=["meta"], **options)
    return generate(pages_of(site), site, settings, project_dir=site.parent,
                    on_warning=None if warnings is None else warnings.append)


# ---------------------------------------------------------------- extra_sitemaps


def test_named_in_robots_txt_and_taken_out_when_dropped(tmp_path):
    site = built_site(tmp_path)
    (site / "robots.txt").write_text("User-agent: *\nDisallow: /private/\nSitemap: https://example.org/mine.xml\n")
    build(site, extra_sitemaps=[SHOP, BASE + "forum/sitemap.xml"])
    assert robots_sitemaps(site / "robots.txt") == [
        "https://example.org/mine.xml", BASE + "sitemap.xml", SHOP, BASE + "forum/sitemap.xml"]
    assert assert_valid(site / "sitemap.xml").tag.endswith("urlset")  # no index to list them in
    assert SHOP not in locs(site / "sitemap.xml")
    build(site, extra_sitemaps=[SHOP])
    assert robots_sitemaps(site / "robots.txt") == ["https://example.org/mine.xml", BASE + "sitemap.xml", SHOP]
    build(site)
    assert robots_sitemaps(site / "robots.txt") == ["https://example.org/mine.xml", BASE + "sitemap.xml"]
    assert (site / "robots.txt").read_text().startswith("User-agent: *\nDisallow: /private/\n")


def test_listed_in_the_index_when_there_is_one(tmp_path):
    site = built_site(tmp_path)
    (site / "shop").mkdir()
    (site / "shop" / "sitemap.xml").write_text(SHOP_SITEMAP)
    build(site, extra_sitemaps=[SHOP], max_urls=2)
    root = assert_valid(site / "sitemap.xml")
    assert root.tag.endswith("sitemapindex")
    children = locs(site / "sitemap.xml")
    assert len(children) == 4 and children[-1] == SHOP
    assert_valid_tree(site, BASE)
    assert main(["validate", str(site / "sitemap.xml"), str(site / "robots.txt"), "--strict"]) == 0


def test_a_forged_record_cannot_take_out_another_sites_line(tmp_path):
    site = built_site(tmp_path)
    build(site, extra_sitemaps=[SHOP])
    record = site / ".sitemapkit-files.json"
    record.write_text(record.read_text().replace(SHOP, "https://other.example/sitemap.xml"))
    (site / "robots.txt").write_text((site / "robots.txt").read_text() + "Sitemap: https://other.example/sitemap.xml\n")
    build(site)
    assert "https://other.example/sitemap.xml" in robots_sitemaps(site / "robots.txt")


@pytest.mark.parametrize(("value", "words"), [
    ("https://other.example/sitemap.xml", "on the site's own host"),
    ("http://example.org/shop/sitemap.xml", "on the site's own host"),
    ("/shop/sitemap.xml", "absolute http(s) sitemap URLs"),
    ("ftp://example.org/s.xml", "absolute http(s) sitemap URLs"),
    ("https://example.org/shop/robots.txt", "is a robots.txt, not a sitemap"),
])
def test_another_host_or_a_relative_url_is_an_error_naming_option_and_value(value, words):
    with pytest.raises(SettingsError) as caught:
        Settings(base_url=BASE, extra_sitemaps=[value])
    assert "option 'extra_sitemaps'" in str(caught.value) and words in str(caught.value)
    assert value in str(caught.value)


def test_command_line_flag(tmp_path, monkeypatch):
    site = built_site(tmp_path)
    monkeypatch.chdir(tmp_path)  # in no project
    assert main(["build", str(site), "--base-url", BASE, "-q", "--extra-sitemap", SHOP]) == 0
    assert SHOP in robots_sitemaps(site / "robots.txt")
    assert main(["build", str(site), "--base-url", BASE, "-q", "--extra-sitemap",
                 "https://other.example/s.xml"]) == 2


# ------------------------------------------------------------------- extra_urls


def test_listed_with_their_lastmod_absolute_or_site_relative(tmp_path):
    site = built_site(tmp_path)
    build(site, extra_urls=["/shop/", {"loc": BASE + "forum/", "lastmod": "2026-05-01"},
                            {"loc": "app/ü/", "lastmod": "2026-04-01T10:00:00+02:00"}])
    assert_valid_tree(site, BASE)
    text = (site / "sitemap.xml").read_text()
    assert f"<url><loc>{BASE}shop/</loc></url>" in text
    assert f"<url><loc>{BASE}forum/</loc><lastmod>2026-05-01</lastmod></url>" in text
    assert f"<url><loc>{BASE}app/%C3%BC/</loc><lastmod>2026-04-01T10:00:00+02:00</lastmod></url>" in text


def test_checked_like_every_page_with_warnings_naming_the_option(tmp_path):
    site = built_site(tmp_path)
    warnings = []
    build(site, warnings, exclude=["private/"], extra_urls=[
        "https://other.example/page/", "/private/x/", "/blog/a/",
        {"loc": "/late/", "lastmod": "not a date"}, {"loc": "/future/", "lastmod": "2999-01-01"}])
    found = {(problem.where, problem.rule) for problem in warnings}
    assert found == {
        ("extra_urls: https://other.example/page/", "loc-scope"),
        ("extra_urls: /blog/a/", "duplicate-url"),
        ("extra_urls: /late/", "date-format"),
        ("extra_urls: /future/", "lastmod-future"),
    }
    listed = locs(site / "sitemap.xml")
    assert BASE + "late/" in listed and BASE + "future/" in listed
    assert BASE + "private/x/" not in listed and listed.count(BASE + "blog/a/") == 1
    assert "2999" not in (site / "sitemap.xml").read_text()


@pytest.mark.parametrize(("value", "words"), [
    ([{"url": "/x/"}], "unknown key 'url'"),
    ([{"lastmod": "2026-01-01"}], "has no URL"),
    ([3], "has no URL"),
    ({"loc": "/x/"}, "must be a list of URLs"),
])
def test_a_wrong_shape_is_an_error_naming_the_option(value, words):
    with pytest.raises(SettingsError, match=rf"option 'extra_urls' must be a list of URLs.*{words}|{words}"):
        Settings(base_url=BASE, extra_urls=value)


def test_command_line_flag_with_a_lastmod(tmp_path, monkeypatch):
    site = built_site(tmp_path)
    monkeypatch.chdir(tmp_path)  # in no project
    assert main(["build", str(site), "--base-url", BASE, "-q", "--lastmod", "meta",
                 "--extra-url", "/shop/ 2026-05-01", "--extra-url", BASE + "forum/"]) == 0
    text = (site / "sitemap.xml").read_text()
    assert f"<loc>{BASE}shop/</loc><lastmod>2026-05-01</lastmod>" in text and f"<loc>{BASE}forum/</loc>" in text
    assert main(["validate", str(site / "sitemap.xml"), "--strict"]) == 0


def test_a_file_sitemapkit_writes_is_no_extra_sitemap():
    with pytest.raises(SettingsError, match="is a file sitemapkit writes itself"):
        Settings(base_url=BASE, extra_sitemaps=[BASE + "sitemap-other.xml"])


def test_validate_site_dir_expects_no_built_page_for_them(tmp_path, capsys):
    site = built_site(tmp_path)
    build(site, extra_urls=["/app/"])
    assert main(["validate", str(site / "sitemap.xml"), "--site-dir", str(site), "--strict"]) == 0
    (site / "sitemap.xml").write_text((site / "sitemap.xml").read_text().replace("/app/", "/gone/"))
    assert main(["validate", str(site / "sitemap.xml"), "--site-dir", str(site), "--strict"]) == 1
    assert "https://example.org/gone/ has no built page" in capsys.readouterr().out


def test_validate_never_takes_an_absent_extra_sitemap_for_one_of_ours(tmp_path, capsys):
    """The index lists /shop/sitemap.xml, which another deploy serves: validate says it is
    another tool's (the build recorded it), and does not check sitemap.xml (the tail of its URL)
    in its place; with --site-dir, it is not a missing page either."""
    site = built_site(tmp_path)
    settings = Settings(base_url=BASE, lastmod=False, sections=["blog/"], extra_sitemaps=[SHOP])
    generate(pages_of(site), site, settings, project_dir=tmp_path, keep_urlset=True)
    capsys.readouterr()
    assert main(["validate", str(site / "sitemap-index.xml")]) == 0
    out = capsys.readouterr().out
    assert "[sitemap-elsewhere]" in out and SHOP in out
    assert "loc-scope" not in out and "duplicate-url" not in out
    assert main(["validate", str(site / "sitemap-index.xml"), "--site-dir", str(site), "--strict"]) == 0
    out = capsys.readouterr().out
    assert "[sitemap-elsewhere]" in out and "page-missing" not in out and "loc-scope" not in out
