"""The streaming writer: files, splitting, namespaces, order, escaping, gzip, txt, news,
stale files, atomic writes. Outputs are checked with the official XSDs (lxml) and
ultimate-sitemap-parser through tests/sitemap_checks.py."""

from __future__ import annotations

import gzip
import re
import tracemalloc
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import pytest
from lxml import etree

from sitemap_checks import SITEMAP_NS, assert_valid, assert_valid_tree, locs, usp_urls
from sitemapkit import Page, generate
from sitemapkit.model import Alternate, Entry, Image, NewsArticle, Video
from sitemapkit.output.names import own_names
from sitemapkit.output.render import escape, strip_forbidden
from sitemapkit.output.write import write_sitemap_files, write_sitemaps
from sitemapkit.report import Report
from sitemapkit.settings import Settings
from sitemapkit.site.files import OutputError, Sink
from sitemapkit.site.owned import RECORD, record_key, record_written
from sitemapkit.urls import encode_url

BASE = "https://example.com/"
IMAGE_NS = "http://www.google.com/schemas/sitemap-image/1.1"
VIDEO_NS = "http://www.google.com/schemas/sitemap-video/1.1"
NEWS_NS = "http://www.google.com/schemas/sitemap-news/0.9"
XHTML_NS = "http://www.w3.org/1999/xhtml"
UTC = timezone.utc


def pages(n: int, start: int = 0, **fields) -> list[Entry]:
    return [Entry(f"{BASE}page-{i}.html", **fields) for i in range(start, start + n)]


def write(entries, out: Path, **options) -> Report:
    return write_sitemaps(iter(entries), out, Settings(base_url=BASE, **options))


def names(folder: Path) -> set[str]:
    """The files in ``folder`` but the record of our own files; an index's children, named by
    their content (``sitemap-1-0123456789ab.xml``), as ``sitemap-1-#.xml``."""
    return {_shape(p.name) for p in folder.iterdir() if p.name != RECORD}


def _shape(name: str) -> str:
    return re.sub(r"-([1-9][0-9]*)-[0-9a-f]{12}\.xml", r"-\1-#.xml", name)


def child(folder: Path, number: int, stem: str = "sitemap") -> Path:
    """The index's child ``number`` (its name ends in a digest of its content)."""
    (found,) = folder.glob(f"{stem}-{number}-" + "[0-9a-f]" * 12 + ".xml")
    return found


def index_children(path: Path) -> list[tuple[str, str | None]]:
    """Each child's URL (its digest shown as ``#``) and lastmod; every child is on disk."""
    root = etree.parse(str(path)).getroot()
    assert root.tag == f"{{{SITEMAP_NS}}}sitemapindex"
    listed = [
        (item.findtext(f"{{{SITEMAP_NS}}}loc"), item.findtext(f"{{{SITEMAP_NS}}}lastmod"))
        for item in root
    ]
    assert all((path.parent / loc.rsplit("/", 1)[1]).is_file() for loc, _ in listed)
    return [(_shape(loc), lastmod) for loc, lastmod in listed]


def full_video(**changes) -> Video:
    fields = dict(
        thumbnail_loc=f"{BASE}thumb.jpg",
        title="Grilling steaks",
        description="How to grill steaks & keep them <juicy>",
        content_loc=f"{BASE}video.mp4",
        player_loc=f"{BASE}player?v=1&autoplay=0",
        duration=600,
        expiration_date=date(2030, 1, 1),
        rating=4.2,
        view_count=12345,
        publication_date=datetime(2024, 5, 1, 8, 30, tzinfo=UTC),
        tags=("steak", "meat"),
        family_friendly=True,
        restriction=("allow", ("IE", "GB")),
        requires_subscription=False,
        uploader="GrillyMcGrillerson",
        uploader_info=f"{BASE}users/grilly",
        platform=("deny", ("tv",)),
        live=False,
    )
    fields.update(changes)
    return Video(**fields)


# ---------------------------------------------------------------- one file


def test_small_site_is_one_urlset_with_exact_bytes(tmp_path):
    entries = [
        Entry(f"{BASE}", lastmod=date(2024, 1, 2), changefreq="daily", priority=1.0),
        Entry(f"{BASE}a/", lastmod=datetime(2024, 1, 2, 3, 4, 5, tzinfo=UTC), priority=0.85),
        Entry(f"{BASE}b.html"),
    ]
    report = write(entries, tmp_path)
    assert (tmp_path / "sitemap.xml").read_bytes() == (
        b'<?xml version="1.0" encoding="UTF-8"?>\n'
        b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        b"<url><loc>https://example.com/</loc><lastmod>2024-01-02</lastmod>"
        b"<changefreq>daily</changefreq><priority>1.0</priority></url>\n"
        b"<url><loc>https://example.com/a/</loc><lastmod>2024-01-02T03:04:05Z</lastmod>"
        b"<priority>0.85</priority></url>\n"
        b"<url><loc>https://example.com/b.html</loc></url>\n"
        b"</urlset>\n"
    )
    assert names(tmp_path) == {"sitemap.xml"}
    assert report.files == [tmp_path / "sitemap.xml"]
    assert report.urls == 3
    assert_valid(tmp_path / "sitemap.xml")
    assert usp_urls(tmp_path, BASE) == [e.loc for e in entries]


def test_empty_site_gets_no_file_and_a_warning(tmp_path):
    # sitemap.xsd wants at least one <url>: an empty <urlset> would be an invalid file.
    report = write([], tmp_path, txt=True, gzip=True, changes_feed=5,
                   news={"publication": "P", "language": "en"})
    assert names(tmp_path) == set()
    assert report.files == [] and report.urls == 0
    (problem,) = report.warnings
    assert (problem.where, problem.field, problem.rule) == (str(tmp_path / "sitemap.xml"), "pages", "no-pages")
    assert "no sitemap was written" in problem.message and "removed" not in problem.message


def _feed(folder: Path, settings: Settings) -> None:
    """A change feed as ``generate`` writes one after the sitemaps (its own writer's job)."""
    path = folder / "sitemap-changes.atom"
    path.write_text("<feed/>")
    record_written(folder, [path], (), BASE, own_names(settings), record_key(Path(settings.state_file)))


def test_empty_site_removes_what_an_earlier_build_wrote(tmp_path):
    article = NewsArticle("Daily", "en", date(2024, 6, 1), "Story")
    earlier = Settings(base_url=BASE, max_urls=5, gzip=True, txt=True, changes_feed=3)
    write_sitemaps(iter([*pages(12), Entry(f"{BASE}n", news=article)]), tmp_path, earlier)
    _feed(tmp_path, earlier)
    (tmp_path / ".sitemap-3.xml.77.0badc0de.tmp").write_text("killed build")
    ours = names(tmp_path)
    assert {"sitemap.xml", "sitemap-3-#.xml.gz", "sitemap-news.xml", "sitemap-3.txt"} <= ours
    foreign = {"sitemap-notes.xml", "sitemap.xsl", "robots.txt", "index.html"}
    for name in foreign:
        (tmp_path / name).write_text("not ours")

    report = Report()  # the listing's counts are given to the writer, not read back from the report
    write_sitemaps(iter([]), tmp_path, Settings(base_url=BASE, gzip=True, txt=True, changes_feed=5),
                   report=report, left_out={"noindex": 12, "exclude": 1})
    assert names(tmp_path) == foreign
    problem, cause = report.warnings  # most pages noindex: the documented warning too
    assert problem.rule == "no-pages" and cause.rule == "noindex-most"
    assert "(left out: 1 exclude, 12 noindex)" in problem.message
    assert f"removed the {len(ours) - 1} sitemap files an earlier build left" in problem.message


def test_a_feed_sitemapkit_did_not_write_is_neither_replaced_nor_removed(tmp_path):
    (tmp_path / "sitemap-changes.atom").write_text("<feed/>")
    report = write([], tmp_path)
    assert names(tmp_path) == {"sitemap-changes.atom"}
    assert "removed" not in report.warnings[0].message
    with pytest.raises(OutputError, match=r"sitemap-changes\.atom is not a file sitemapkit wrote"):
        write(pages(1), tmp_path, changes_feed=3)
    assert names(tmp_path) == {"sitemap-changes.atom"}


def test_change_feed_is_ours_only_while_it_is_on(tmp_path):
    earlier = Settings(base_url=BASE, changes_feed=3)
    write_sitemaps(iter(pages(1)), tmp_path, earlier)
    _feed(tmp_path, earlier)
    assert names(tmp_path) == {"sitemap.xml", "sitemap-changes.atom"}
    (tmp_path / ".sitemap-changes.atom.77.0badc0de.tmp").write_text("killed build")
    report = write(pages(1), tmp_path)
    # With changes_feed off the name is not ours: the record alone never removes it.
    assert names(tmp_path) == {"sitemap.xml", "sitemap-changes.atom"}
    assert [note.rule for note in report.notes] == ["record-option-off"]
    write(pages(1), tmp_path)  # said once: the record no longer names it
    assert names(tmp_path) == {"sitemap.xml", "sitemap-changes.atom"}


def test_site_whose_only_url_is_too_big_gets_no_invalid_file(tmp_path):
    big = Entry(f"{BASE}big", images=tuple(Image(f"{BASE}{i:04}.png") for i in range(40)))
    report = write([big], tmp_path, max_bytes=1024, txt=True)
    assert names(tmp_path) == set()
    assert [p.rule for p in report.warnings] == ["max-bytes", "no-pages"]


def test_children_in_xsd_order_and_valid(tmp_path):
    entry = Entry(
        f"{BASE}watch/",
        lastmod=datetime(2024, 5, 2, 10, 0, tzinfo=timezone(timedelta(hours=2))),
        changefreq="weekly",
        priority=0.5,
        images=(Image(f"{BASE}a.png"), Image(f"{BASE}b.png")),
        videos=(full_video(), full_video(content_loc=None, tags=(), uploader_info=None)),
        alternates=(Alternate("en", f"{BASE}watch/"), Alternate("x-default", f"{BASE}watch/")),
    )
    report = write([entry], tmp_path)
    root = assert_valid(tmp_path / "sitemap.xml")
    url = root[0]
    assert [etree.QName(c).localname for c in url] == [
        "loc", "lastmod", "changefreq", "priority", "image", "image", "video", "video", "link", "link",
    ]
    assert url.findtext(f"{{{SITEMAP_NS}}}lastmod") == "2024-05-02T10:00:00+02:00"
    assert [etree.QName(c).localname for c in url.find(f"{{{IMAGE_NS}}}image")] == ["loc"]
    video = url.find(f"{{{VIDEO_NS}}}video")
    assert [etree.QName(c).localname for c in video] == [
        "thumbnail_loc", "title", "description", "content_loc", "player_loc", "duration",
        "expiration_date", "rating", "view_count", "publication_date", "tag", "tag",
        "family_friendly", "restriction", "requires_subscription", "uploader", "platform", "live",
    ]
    v = {etree.QName(c).localname: c for c in video}
    assert v["description"].text == "How to grill steaks & keep them <juicy>"
    assert v["family_friendly"].text == "yes" and v["live"].text == "no"
    assert v["restriction"].get("relationship") == "allow" and v["restriction"].text == "IE GB"
    assert v["platform"].get("relationship") == "deny" and v["platform"].text == "tv"
    assert v["uploader"].get("info") == f"{BASE}users/grilly"
    assert v["rating"].text == "4.2" and v["duration"].text == "600"
    assert v["publication_date"].text == "2024-05-01T08:30:00Z"
    second = url.findall(f"{{{VIDEO_NS}}}video")[1]
    assert second.find(f"{{{VIDEO_NS}}}content_loc") is None
    assert second.find(f"{{{VIDEO_NS}}}uploader").get("info") is None
    link = url.find(f"{{{XHTML_NS}}}link")
    assert (link.get("rel"), link.get("hreflang"), link.get("href")) == ("alternate", "en", f"{BASE}watch/")
    assert (report.urls, report.images, report.videos) == (1, 2, 2)


def test_each_lastmod_keeps_its_own_offset(tmp_path):
    """The same instant in two offsets is written as given, not as the first one seen."""
    utc = datetime(2024, 1, 1, 12, 0, tzinfo=UTC)
    plus2 = datetime(2024, 1, 1, 14, 0, tzinfo=timezone(timedelta(hours=2)))
    write([Entry(f"{BASE}a", lastmod=utc), Entry(f"{BASE}b", lastmod=plus2)], tmp_path)
    root = assert_valid(tmp_path / "sitemap.xml")
    assert [u.findtext(f"{{{SITEMAP_NS}}}lastmod") for u in root] == [
        "2024-01-01T12:00:00Z",
        "2024-01-01T14:00:00+02:00",
    ]


def test_namespaces_declared_only_when_used(tmp_path):
    write(pages(2), tmp_path / "plain")
    root = assert_valid(tmp_path / "plain" / "sitemap.xml")
    assert root.nsmap == {None: SITEMAP_NS}

    write([*pages(2), Entry(f"{BASE}i", images=(Image(f"{BASE}i.png"),))], tmp_path / "img")
    root = assert_valid(tmp_path / "img" / "sitemap.xml")
    assert root.nsmap == {None: SITEMAP_NS, "image": IMAGE_NS}

    # Split files each declare what they use: the video page lands in the second file.
    write([*pages(2), Entry(f"{BASE}v", videos=(full_video(),))], tmp_path / "split", max_urls=2)
    assert assert_valid(child(tmp_path / "split", 1)).nsmap == {None: SITEMAP_NS}
    assert assert_valid(child(tmp_path / "split", 2)).nsmap == {
        None: SITEMAP_NS, "video": VIDEO_NS,
    }
    assert b"xmlns:video" not in (child(tmp_path / "split", 1)).read_bytes()


def test_ümlat_example_escaped_as_sitemaps_org_shows(tmp_path):
    loc = encode_url("http://www.example.com/ümlat.php&q=name")
    write_sitemaps([Entry(loc)], tmp_path, Settings(base_url="http://www.example.com/"))
    data = (tmp_path / "sitemap.xml").read_bytes()
    assert b"<loc>http://www.example.com/%C3%BCmlat.php&amp;q=name</loc>" in data
    assert locs(tmp_path / "sitemap.xml") == ["http://www.example.com/%C3%BCmlat.php&q=name"]


def test_escape_removes_characters_xml_forbids():
    assert escape("a&b<c>d\"e'f") == "a&amp;b&lt;c&gt;d&quot;e&apos;f"
    assert escape("bell\x07 nul\x00 ff\x0c \ufffe\uffff \ud800 ok\tnl\n") == "bell nul ff   ok\tnl\n"
    assert escape("cr\r\n") == "cr&#13;\n"
    assert escape("plain text ü 😀") == "plain text ü 😀"
    assert strip_forbidden("\x16") == "" and strip_forbidden("a\x16<") == "a<"


def test_forbidden_characters_in_text_fields_give_valid_xml(tmp_path):
    video = full_video(title="A\x00B\x1f <C> & 'D'\r\n", tags=("x\x0by", "😀"), uploader="\ufffeme")
    write([Entry(f"{BASE}v/", videos=(video,))], tmp_path)
    root = assert_valid(tmp_path / "sitemap.xml")
    found = root[0].find(f"{{{VIDEO_NS}}}video")
    assert found.findtext(f"{{{VIDEO_NS}}}title") == "AB <C> & 'D'\r\n"
    assert [t.text for t in found.findall(f"{{{VIDEO_NS}}}tag")] == ["xy", "😀"]
    assert found.findtext(f"{{{VIDEO_NS}}}uploader") == "me"


# ---------------------------------------------------------------- splitting


def test_split_at_max_urls_into_index(tmp_path):
    entries = pages(25, lastmod=date(2024, 1, 1))
    report = write(entries, tmp_path, max_urls=10)
    files = assert_valid_tree(tmp_path, BASE)
    shapes = ["sitemap.xml", "sitemap-1-#.xml", "sitemap-2-#.xml", "sitemap-3-#.xml"]
    assert [_shape(f.name) for f in files] == shapes
    assert [len(locs(f)) for f in files[1:]] == [10, 10, 5]
    assert [loc for loc, _ in index_children(tmp_path / "sitemap.xml")] == [
        f"{BASE}sitemap-{i}-#.xml" for i in (1, 2, 3)
    ]
    assert usp_urls(tmp_path, BASE) == [e.loc for e in entries]
    assert report.files == files  # the index first, then its children in order
    assert report.urls == 25


def test_exactly_max_urls_stays_one_file(tmp_path):
    write(pages(10), tmp_path, max_urls=10)
    assert etree.parse(str(tmp_path / "sitemap.xml")).getroot().tag == f"{{{SITEMAP_NS}}}urlset"
    assert names(tmp_path) == {"sitemap.xml"}


def test_split_at_max_bytes_exactly(tmp_path):
    entries = pages(30, lastmod=date(2024, 3, 1))
    write(entries, tmp_path / "whole")
    size = (tmp_path / "whole" / "sitemap.xml").stat().st_size
    assert size > 1024

    write(entries, tmp_path / "fits", max_bytes=size)
    assert names(tmp_path / "fits") == {"sitemap.xml"}
    assert (tmp_path / "fits" / "sitemap.xml").stat().st_size == size

    write(entries, tmp_path / "over", max_bytes=size - 1)
    files = assert_valid_tree(tmp_path / "over", BASE)
    assert len(files) == 3  # index + 2 children
    assert all(f.stat().st_size <= size - 1 for f in files[1:])
    assert usp_urls(tmp_path / "over", BASE) == [e.loc for e in entries]


def test_byte_budget_counts_the_head_the_file_will_need(tmp_path):
    """The last URL brings the image namespace; its declaration counts against max_bytes."""
    entries = [*pages(30), Entry(f"{BASE}pic", images=(Image(f"{BASE}pic.png"),))]
    write(entries, tmp_path / "whole")
    size = (tmp_path / "whole" / "sitemap.xml").stat().st_size
    write(entries, tmp_path / "fits", max_bytes=size)
    assert names(tmp_path / "fits") == {"sitemap.xml"}

    write(entries, tmp_path / "over", max_bytes=size - 1)
    files = assert_valid_tree(tmp_path / "over", BASE)
    assert all(f.stat().st_size <= size - 1 for f in files)
    last = assert_valid(files[-1])
    assert locs(files[-1])[-1] == f"{BASE}pic" and last.nsmap["image"] == IMAGE_NS


def test_bytes_are_counted_encoded(tmp_path):
    """Non-ASCII text takes several bytes: the split must count bytes, not characters."""
    video = full_video(title="ü" * 100)
    entries = [Entry(f"{BASE}v{i}", videos=(video,)) for i in range(8)]
    write(entries, tmp_path / "whole")
    size = (tmp_path / "whole" / "sitemap.xml").stat().st_size
    write(entries, tmp_path / "over", max_bytes=size - 1)
    files = assert_valid_tree(tmp_path / "over", BASE)
    assert len(files) == 3
    assert all(f.stat().st_size <= size - 1 for f in files)


def test_url_too_big_for_any_file_is_left_out_with_warning(tmp_path):
    huge = Entry(f"{BASE}gallery", images=tuple(Image(f"{BASE}img/{i}.png") for i in range(60)))
    report = write([*pages(2), huge, *pages(2, start=2)], tmp_path, max_bytes=1024)
    assert f"{BASE}gallery" not in usp_urls(tmp_path, BASE)
    assert len(usp_urls(tmp_path, BASE)) == 4
    assert report.urls == 4 and report.images == 0
    assert [(w.where, w.field, w.rule) for w in report.warnings] == [(f"{BASE}gallery", "url", "max-bytes")]


# ---------------------------------------------------------------- index details


def test_index_lastmod_is_newest_of_each_child(tmp_path):
    entries = [
        Entry(f"{BASE}a", lastmod=date(2024, 1, 5)),
        Entry(f"{BASE}b", lastmod=datetime(2024, 1, 5, 12, 0, tzinfo=UTC)),
        Entry(f"{BASE}c", lastmod=date(2023, 1, 1)),
        Entry(f"{BASE}d", lastmod=datetime(2024, 2, 1, 1, 0, tzinfo=timezone(timedelta(hours=3)))),
        Entry(f"{BASE}e"),
        Entry(f"{BASE}f"),
    ]
    write(entries, tmp_path, max_urls=2)
    assert_valid_tree(tmp_path, BASE)
    assert [lastmod for _, lastmod in index_children(tmp_path / "sitemap.xml")] == [
        "2024-01-05T12:00:00Z",
        "2024-02-01T01:00:00+03:00",
        None,
    ]
    third = f"<sitemap><loc>{BASE}{child(tmp_path, 3).name}</loc></sitemap>"
    assert third.encode() in (tmp_path / "sitemap.xml").read_bytes()


def test_custom_filename_names_children(tmp_path):
    write(pages(3), tmp_path, filename="sitemap_index.xml", max_urls=2)
    assert names(tmp_path) == {"sitemap_index.xml", "sitemap_index-1-#.xml", "sitemap_index-2-#.xml"}
    assert_valid_tree(tmp_path, BASE, "sitemap_index.xml")


def test_stylesheet_in_every_xml_file(tmp_path):
    news = NewsArticle("The Times", "en", date(2024, 1, 1), "Hello")
    write([*pages(3), Entry(f"{BASE}n", news=news)], tmp_path, max_urls=2,
          stylesheet="/sitemap.xsl?a=1&b=2")
    files = [*assert_valid_tree(tmp_path, BASE), tmp_path / "sitemap-news.xml"]
    assert len(files) == 4
    for file in files:
        lines = file.read_bytes().split(b"\n")
        assert lines[1] == b'<?xml-stylesheet type="text/xsl" href="/sitemap.xsl?a=1&amp;b=2"?>'


def test_change_feed_never_turns_the_sitemap_into_an_index(tmp_path):
    """mkdocs-material reads url > loc from sitemap.xml: it stays the pages' urlset."""
    def build(entries):  # as generate runs them: the writer, then the feed from the manifest
        return generate([Page(url=e.loc.removeprefix(BASE), modified=e.lastmod) for e in entries],
                        tmp_path, Settings(base_url=BASE, changes_feed=20, robots_txt=False),
                        project_dir=tmp_path.parent / f"{tmp_path.name}-project")

    report = build(pages(3, lastmod=date(2024, 5, 1)))
    assert etree.parse(str(tmp_path / "sitemap.xml")).getroot().tag == f"{{{SITEMAP_NS}}}urlset"
    assert locs(tmp_path / "sitemap.xml") == [e.loc for e in pages(3)]
    assert names(tmp_path) == {"sitemap.xml", "sitemap-changes.atom"}
    assert report.files == [tmp_path / "sitemap.xml", tmp_path / "sitemap-changes.atom"]
    assert build([]).files == [] and not names(tmp_path)


def test_change_feed_beside_an_index_is_not_listed_by_it(tmp_path):
    write(pages(3), tmp_path, changes_feed=20, max_urls=2)
    assert index_children(tmp_path / "sitemap.xml") == [
        (f"{BASE}sitemap-1-#.xml", None), (f"{BASE}sitemap-2-#.xml", None),
    ]


# ---------------------------------------------------------------- news


def test_news_goes_to_its_own_file_and_stays_in_the_main_one(tmp_path):
    article = NewsArticle("The Times", "zh-cn", datetime(2024, 6, 1, 9, 0, tzinfo=UTC), "A & B")
    entries = [*pages(2), Entry(f"{BASE}news/1", lastmod=date(2024, 6, 2), news=article)]
    report = write(entries, tmp_path)
    # sitemap.xml stays the urlset of the pages; the news sitemap stands beside it.
    assert names(tmp_path) == {"sitemap.xml", "sitemap-news.xml"}
    assert_valid_tree(tmp_path, BASE)
    main = assert_valid(tmp_path / "sitemap.xml")
    assert main.nsmap == {None: SITEMAP_NS}
    assert locs(tmp_path / "sitemap.xml") == [e.loc for e in entries]
    news = assert_valid(tmp_path / "sitemap-news.xml")
    assert news.nsmap == {None: SITEMAP_NS, "news": NEWS_NS}
    (url,) = news
    assert [etree.QName(c).localname for c in url] == ["loc", "news"]
    block = url[1]
    assert [etree.QName(c).localname for c in block] == ["publication", "publication_date", "title"]
    assert [c.text for c in block[0]] == ["The Times", "zh-cn"]
    assert block[1].text == "2024-06-01T09:00:00Z" and block[2].text == "A & B"
    assert report.news == 1 and report.urls == 3
    assert report.files[0] == tmp_path / "sitemap.xml"


def test_news_split_at_1000(tmp_path):
    article = NewsArticle("Daily", "en", date(2024, 6, 1), "Story")
    write(pages(1001, news=article), tmp_path)
    assert names(tmp_path) == {"sitemap.xml", "sitemap-news.xml", "sitemap-news-2.xml"}
    assert len(locs(tmp_path / "sitemap.xml")) == 1001
    assert len(locs(tmp_path / "sitemap-news.xml")) == 1000
    assert len(locs(tmp_path / "sitemap-news-2.xml")) == 1
    assert_valid(tmp_path / "sitemap-news-2.xml")


# ---------------------------------------------------------------- gzip, txt, determinism


def test_gzip_twins_decompress_to_the_same_bytes_and_are_deterministic(tmp_path):
    article = NewsArticle("Daily", "en", date(2024, 6, 1), "Story")
    entries = [*pages(5, lastmod=date(2024, 1, 1)), Entry(f"{BASE}n", news=article)]
    report = write(entries, tmp_path / "a", max_urls=4, gzip=True, txt=True)
    write(entries, tmp_path / "b", max_urls=4, gzip=True, txt=True)
    plain = sorted(p for p in (tmp_path / "a").iterdir() if p.suffix != ".gz" and p.name != RECORD)
    assert [_shape(p.name) for p in plain] == [
        "sitemap-1-#.xml", "sitemap-2-#.xml", "sitemap-2.txt", "sitemap-news.xml", "sitemap.txt",
        "sitemap.xml",
    ]
    for file in plain:
        twin = file.with_name(file.name + ".gz")
        data = twin.read_bytes()
        assert gzip.decompress(data) == file.read_bytes()
        assert data[4:8] == b"\0\0\0\0"  # header mtime 0
        assert not data[3] & 0x08  # no file name in the header
        assert data == (tmp_path / "b" / twin.name).read_bytes()
    assert [loc for loc, _ in index_children(tmp_path / "a" / "sitemap.xml")] == [
        f"{BASE}sitemap-1-#.xml", f"{BASE}sitemap-2-#.xml",
    ]
    assert report.files[:2] == [tmp_path / "a" / "sitemap.xml", tmp_path / "a" / "sitemap.xml.gz"]
    assert report.files[:2] == [tmp_path / "a" / "sitemap.xml", tmp_path / "a" / "sitemap.xml.gz"]
    assert len(report.files) == 12


def test_same_input_gives_byte_identical_files(tmp_path):
    entries = [
        *pages(7, lastmod=datetime(2024, 1, 1, 12, tzinfo=UTC)),
        Entry(f"{BASE}v", videos=(full_video(),), alternates=(Alternate("de", f"{BASE}de/v"),)),
    ]
    write(entries, tmp_path / "a", max_urls=3, txt=True)
    write(entries, tmp_path / "b", max_urls=3, txt=True)
    assert names(tmp_path / "a") == names(tmp_path / "b")
    for file in (tmp_path / "a").iterdir():
        assert file.read_bytes() == (tmp_path / "b" / file.name).read_bytes()


def test_txt_one_loc_a_line_split_like_the_xml(tmp_path):
    entries = [*pages(5), Entry(f"{BASE}q?a=1&b=2")]
    write(entries, tmp_path / "one", txt=True)
    assert (tmp_path / "one" / "sitemap.txt").read_text(encoding="utf-8") == "".join(
        f"{e.loc}\n" for e in entries
    )
    write(entries, tmp_path / "urls", txt=True, max_urls=4)
    assert (tmp_path / "urls" / "sitemap.txt").read_text().splitlines() == [e.loc for e in entries[:4]]
    assert (tmp_path / "urls" / "sitemap-2.txt").read_text().splitlines() == [e.loc for e in entries[4:]]

    many = pages(60)
    text = "".join(f"{e.loc}\n" for e in many).encode()
    write(many, tmp_path / "fits", txt=True, max_bytes=len(text))
    assert (tmp_path / "fits" / "sitemap.txt").read_bytes() == text
    write(many, tmp_path / "bytes", txt=True, max_bytes=len(text) - 1)
    first = (tmp_path / "bytes" / "sitemap.txt").read_bytes()
    second = (tmp_path / "bytes" / "sitemap-2.txt").read_bytes()
    assert first + second == text and len(first) <= len(text) - 1


# ---------------------------------------------------------------- our files, and only ours


def test_stale_files_of_ours_removed_and_others_kept(tmp_path):
    article = NewsArticle("Daily", "en", date(2024, 6, 1), "Story")
    write([*pages(20), Entry(f"{BASE}n", news=article)], tmp_path, max_urls=5, gzip=True, txt=True)
    assert {"sitemap-5-#.xml", "sitemap-news.xml.gz", "sitemap-4.txt.gz"} <= names(tmp_path)
    foreign = ["sitemap-notes.xml", "sitemap-01.xml", "other.xml", "sitemap-1.xml.bak",
               "sitemap-changes.atom", "robots.txt", "sitemap.xsl"]
    for name in foreign:
        (tmp_path / name).write_text("not ours")

    write(pages(12), tmp_path, max_urls=5, gzip=True, txt=True)
    twins = {"sitemap.xml", "sitemap-1-#.xml", "sitemap-2-#.xml", "sitemap-3-#.xml", "sitemap.txt", "sitemap-2.txt",
             "sitemap-3.txt"}
    assert names(tmp_path) == {*twins, *(name + ".gz" for name in twins), *foreign}

    write(pages(3), tmp_path, gzip=True, txt=True)
    assert names(tmp_path) == {"sitemap.xml", "sitemap.xml.gz", "sitemap.txt", "sitemap.txt.gz", *foreign}
    # Turned off, gzip and txt no longer make those names: the record alone removes none of them.
    report = write(pages(3), tmp_path)
    assert names(tmp_path) == {"sitemap.xml", "sitemap.xml.gz", "sitemap.txt", "sitemap.txt.gz", *foreign}
    assert [note.rule for note in report.notes] == ["record-option-off"]
    for name in foreign:
        assert (tmp_path / name).read_text() == "not ours"


def test_dry_run_names_content_named_files_and_removals_exactly_and_touches_nothing(tmp_path):
    write(pages(7), tmp_path, max_urls=5, gzip=True, txt=True)  # an earlier build: 2 children
    (tmp_path / "other.xml").write_text("not ours")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    sink, report = Sink(dry_run=True), Report()
    dry = write_sitemap_files(iter(pages(12)), tmp_path, Settings(base_url=BASE, max_urls=5, gzip=True), report,
                              sink=sink)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before  # the record too
    assert not list(tmp_path.glob(".*.tmp"))

    real = write(pages(12), tmp_path, max_urls=5, gzip=True)
    assert list(dry.files) == real.files
    gone = {p.name for p in dry.removed}
    assert gone == set(before) - {p.name for p in tmp_path.iterdir()}  # what the real build removed
    assert len(gone) == 2 and all(name.startswith("sitemap-2-") for name in gone)  # the old child 2, twinned
    assert report.files == real.files  # the same content-named children, index last renamed
    assert sink.sizes == {path: path.stat().st_size for path in real.files}
    assert report.url_counts == real.url_counts
    assert real.url_counts[tmp_path / "sitemap.xml"] == 3 and real.url_counts[child(tmp_path, 3)] == 2
    assert names(tmp_path) == {"sitemap.xml", "sitemap.xml.gz", "sitemap-1-#.xml", "sitemap-1-#.xml.gz",
                               "sitemap-2-#.xml", "sitemap-2-#.xml.gz", "sitemap-3-#.xml",
                               "sitemap-3-#.xml.gz", "other.xml", "sitemap.txt", "sitemap.txt.gz",
                               "sitemap-2.txt", "sitemap-2.txt.gz"}  # txt off: not ours to remove


def test_dry_run_refuses_a_name_held_by_a_file_we_did_not_write_as_the_build_would(tmp_path):
    (tmp_path / "sitemap.xml").write_text("my own notes")
    with pytest.raises(OutputError, match="not a file sitemapkit wrote"):
        write_sitemaps(iter(pages(2)), tmp_path, Settings(base_url=BASE), sink=Sink(dry_run=True))
    with pytest.raises(OutputError, match="not a file sitemapkit wrote"):
        write(pages(2), tmp_path)
    assert (tmp_path / "sitemap.xml").read_text() == "my own notes"


def test_temporaries_of_a_killed_build_removed(tmp_path):
    (tmp_path / ".sitemap-2.xml.4242.0badc0de.tmp").write_text("half")
    (tmp_path / ".sitemap.xml.gz.17.deadbeef.tmp").write_text("half")
    (tmp_path / ".editor.swp.1.deadbeef.tmp").write_text("not ours")
    write(pages(2), tmp_path)
    assert names(tmp_path) == {"sitemap.xml", ".editor.swp.1.deadbeef.tmp"}


def test_failed_build_leaves_old_files_whole_and_no_temporaries(tmp_path):
    write(pages(4), tmp_path)
    before = (tmp_path / "sitemap.xml").read_bytes()

    def broken():
        yield from pages(3, start=100)
        raise RuntimeError("generator failed")

    with pytest.raises(RuntimeError):
        write(broken(), tmp_path, gzip=True)
    assert (tmp_path / "sitemap.xml").read_bytes() == before
    assert names(tmp_path) == {"sitemap.xml"}


@pytest.mark.slow  # 50,000 entries and more
def test_streams_a_generator_without_keeping_entries(tmp_path):
    seen_on_disk = []

    def entries(n):
        for i in range(n):
            if i == 25_000:  # finished files wait under temporary names for the index
                seen_on_disk.append(any(tmp_path.glob(".sitemap-1-*.xml.*.tmp")))
            yield Entry(f"{BASE}p/{i}", lastmod=date(2024, 1, 1) + timedelta(days=i % 400))

    tracemalloc.start()
    try:
        report = write_sitemaps(entries(60_000), tmp_path, Settings(base_url=BASE, max_urls=10_000))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert report.urls == 60_000
    assert seen_on_disk == [True]  # finished files are on disk while entries still come
    assert peak < 4_000_000, f"peak traced memory {peak} bytes for 60,000 entries"


def test_loc_lastmod_pairs_write_the_same_bytes_as_entries(tmp_path):
    """The bulk form: ``(loc, lastmod)`` pairs, mixed with entries, give the files that the
    same ``Entry`` objects give, split, escaped, dated and indexed alike."""
    when = (date(2024, 3, 1), datetime(2024, 3, 2, 8, tzinfo=timezone(timedelta(hours=2))), None)
    records = [(encode_url(f"{BASE}ä/page-{i}.html?a=1&b=2"), when[i % 3]) for i in range(25)]
    entries = [Entry(loc, lastmod) for loc, lastmod in records]
    mixed = [record if i % 2 else entries[i] for i, record in enumerate(records)]
    reports = {
        name: write(given, tmp_path / name, max_urls=10, txt=True, gzip=True)
        for name, given in (("entries", entries), ("pairs", records), ("mixed", mixed))
    }
    expected = {p.name: p.read_bytes() for p in (tmp_path / "entries").iterdir()}
    assert len(expected) > 5  # an index, its children, text files, gzip twins
    for name in ("pairs", "mixed"):
        assert {p.name: p.read_bytes() for p in (tmp_path / name).iterdir()} == expected
        assert reports[name].urls == 25
    files = assert_valid_tree(tmp_path / "pairs", BASE)
    assert [loc for file in files[1:] for loc in locs(file)] == [loc for loc, _ in records]
