"""The change feed: Atom 1.0, the N most recently changed pages, the same bytes when
nothing changed."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime, timezone

from lxml import etree
from usp.tree import sitemap_from_str

from sitemap_checks import SITEMAP_NS, assert_valid_tree, robots_sitemaps, usp_urls
from sitemapkit import Page, Report, Settings, generate
from sitemapkit.dates import format_moment
from sitemapkit.lastmod.sources import LastmodResolver
from sitemapkit.output.feed import write_changes_feed
from sitemapkit.protocol import ATOM_NS as ATOM

BASE = "https://example.com/"
A = f"{{{ATOM}}}"


def build(tmp_path, pages, *, now, count=3, **options):
    """``pages``: (url, digest, title, modified) tuples through one resolver and the feed."""
    settings = Settings(base_url=BASE, changes_feed=count, **options)
    resolver = LastmodResolver(settings, tmp_path, Report(), now)
    for url, digest, title, modified in pages:
        resolver.lastmod(Page(url=url, modified=modified), BASE + url, digest, title)
    resolver.manifest.finish()
    site = tmp_path / "site"
    site.mkdir(exist_ok=True)
    path, updated = write_changes_feed(resolver.manifest, site, settings)
    assert format_moment(updated) == etree.parse(str(path)).getroot().findtext(f"{A}updated")
    return path


def entries(path):
    root = etree.parse(str(path)).getroot()
    return [
        (e.findtext(f"{A}id"), e.findtext(f"{A}title"), e.findtext(f"{A}updated"))
        for e in root.iter(f"{A}entry")
    ]


def test_newest_first_limited_to_n_ties_by_url(tmp_path):
    path = build(tmp_path, [
        ("old", "1", "Old", date(2020, 1, 1)),
        ("b", "2", "B", datetime(2024, 3, 1, 12, tzinfo=timezone.utc)),
        ("a", "3", "A", datetime(2024, 3, 1, 12, tzinfo=timezone.utc)),
        ("mid", "4", "Mid", date(2023, 1, 1)),
    ], now=datetime(2024, 6, 1, tzinfo=timezone.utc), lastmod=("meta",))
    assert path.name == "sitemap-changes.atom"
    assert entries(path) == [
        (BASE + "a", "A", "2024-03-01T12:00:00Z"),
        (BASE + "b", "B", "2024-03-01T12:00:00Z"),
        (BASE + "mid", "Mid", "2023-01-01T00:00:00Z"),  # a date becomes a full Atom date-time
    ]


def test_atom_structure_and_escaping(tmp_path):
    path = build(tmp_path, [("q?a=1&b=2", "1", "Fish & <chips>", None)],
                 now=datetime(2024, 1, 1, tzinfo=timezone.utc), filename="map.xml")
    assert path.name == "map-changes.atom"
    root = etree.parse(str(path)).getroot()
    assert root.tag == f"{A}feed"
    for required in ("id", "title", "updated", "author/" + A + "name"):
        assert root.find(A + required) is not None, required
    assert root.findtext(f"{A}updated") == "2024-01-01T00:00:00Z"
    (entry,) = root.iter(f"{A}entry")
    assert entry.findtext(f"{A}title") == "Fish & <chips>"
    assert entry.find(f"{A}link").get("href") == BASE + "q?a=1&b=2"
    assert [e.tag for e in entry] == [A + "id", A + "title", A + "link", A + "updated"]
    parsed = sitemap_from_str(path.read_text())
    (page,) = parsed.all_pages()
    assert page.url == BASE + "q?a=1&b=2"
    assert page.news_story.publish_date == datetime(2024, 1, 1, tzinfo=timezone.utc)


def test_unchanged_rebuild_same_bytes_edit_moves_page_to_the_top(tmp_path):
    jan, feb = (datetime(2024, m, 1, tzinfo=timezone.utc) for m in (1, 2))
    pages = [(f"p{i}", f"d{i}", f"P{i}", None) for i in range(5)]
    first = build(tmp_path, pages, now=jan, lastmod=("fingerprint",)).read_bytes()
    again = build(tmp_path, pages, now=feb, lastmod=("fingerprint",)).read_bytes()
    assert again == first
    pages[3] = ("p3", "edited", "P3", None)
    path = build(tmp_path, pages, now=feb, lastmod=("fingerprint",))
    assert entries(path)[0] == (BASE + "p3", "P3", "2024-02-01T00:00:00Z")
    assert [e[0] for e in entries(path)[1:]] == [BASE + "p0", BASE + "p1"]
    assert not [p for p in path.parent.iterdir() if p.name.endswith(".tmp")]


def test_empty_site_gives_a_valid_empty_feed(tmp_path):
    path = build(tmp_path, [], now=datetime(2024, 1, 1, tzinfo=timezone.utc))
    root = etree.parse(str(path)).getroot()
    assert root.findtext(f"{A}updated") == "1970-01-01T00:00:00Z" and not entries(path)


def test_generate_names_the_feed_in_robots_txt_beside_the_sitemap(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    site = tmp_path / "site"
    site.mkdir()
    pages = []
    for i in range(4):
        (site / f"{i}.html").write_text(f"<html><head><title>T{i}</title></head>"
                                        f"<body><main><p>{i}</p></main></body></html>")
        pages.append(Page(url=f"{i}.html", output=site / f"{i}.html"))
    settings = Settings(base_url=BASE, changes_feed=2, lastmod=("fingerprint",))
    report = generate(pages, site, settings, project_dir=tmp_path)
    feed = site / "sitemap-changes.atom"
    assert feed in report.files
    assert_valid_tree(site, BASE)
    # sitemap.xml stays the urlset of the pages (mkdocs-material reads it as one).
    assert etree.parse(str(site / "sitemap.xml")).getroot().tag == f"{{{SITEMAP_NS}}}urlset"
    assert robots_sitemaps(site / "robots.txt") == [BASE + "sitemap.xml", BASE + feed.name]
    assert sorted(usp_urls(site, BASE)) == sorted(BASE + p.url for p in pages)
    assert [e[1] for e in entries(feed)] == ["T0", "T1"]


def site_of(tmp_path, count):
    site = tmp_path / "site"
    site.mkdir(exist_ok=True)
    pages = []
    for i in range(count):
        (site / f"{i}.html").write_text(f"<html><head><title>T{i}</title></head>"
                                        f"<body><main><p>{i}</p></main></body></html>")
        pages.append(Page(url=f"{i}.html", output=site / f"{i}.html"))
    return site, pages


def test_the_feed_is_updated_at_its_newest_change(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # 2023-11-14T22:13:20Z
    site, pages = site_of(tmp_path, 3)
    pages[0] = replace(pages[0], modified=date(2023, 3, 1))
    pages[1] = replace(pages[1], modified=datetime(2023, 6, 1, 12, tzinfo=timezone.utc))
    # pages[2] has no date: the sitemap gives it no lastmod, the feed its first-seen time.
    settings = Settings(base_url=BASE, changes_feed=2, lastmod=("meta",))
    report = generate(pages, site, settings, project_dir=tmp_path)
    assert_valid_tree(site, BASE)
    feed = site / "sitemap-changes.atom"
    updated = etree.parse(str(feed)).getroot().findtext(f"{A}updated")
    assert updated == "2023-11-14T22:13:20Z"
    assert [e[0] for e in entries(feed)] == [BASE + "2.html", BASE + "1.html"]
    assert feed in report.files


def test_empty_site_gets_no_feed_and_loses_the_old_one(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    site, pages = site_of(tmp_path, 2)
    settings = Settings(base_url=BASE, changes_feed=5, lastmod=("fingerprint",))
    generate(pages, site, settings, project_dir=tmp_path)
    assert (site / "sitemap-changes.atom").exists()
    report = generate(pages, site, settings.replace(exclude=("*.html",)), project_dir=tmp_path)
    assert sorted(p.name for p in site.iterdir()) == ["0.html", "1.html", "robots.txt"]
    assert (site / "robots.txt").read_text() == "User-agent: *\nDisallow:\n\n"  # no Sitemap: line
    assert [p.rule for p in report.warnings] == ["no-pages"] and report.files == []
