"""``sitemapkit validate``: one small file per rule, a clean file with every extension, the
files the official XSDs reject, and the command line's output and exit status."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from lxml import etree
from validator_inputs import LINKS, NEWS_FULL, NOW, ROOT, VIDEO_FULL, rules, url, urlset, write

import sitemapkit
from sitemap_checks import assert_valid, schema
from sitemapkit.cli.validate import run_validate
from sitemapkit.protocol import RULES
from sitemapkit.validate import validate


@pytest.fixture(autouse=True)
def _fixed_now(pin_now):
    pin_now(NOW)


CLEAN = urlset(
    url("<lastmod>2025-12-01</lastmod><changefreq>weekly</changefreq><priority>0.8</priority>"
        "<image:image><image:loc>https://cdn.example.net/a.jpg</image:loc></image:image>"
        + VIDEO_FULL + NEWS_FULL + LINKS)
    + url("<lastmod>2025-12-01T10:00:00+01:00</lastmod>" + LINKS.replace(
        'rel="alternate" hreflang="de" href="https://example.com/de/a/"',
        'href="https://example.com/de/a/" hreflang="de" rel="alternate"'), ROOT + "de/a/")
)


def test_a_correct_file_with_every_extension_gives_nothing(tmp_path):
    path = write(tmp_path, CLEAN)
    assert_valid(path)  # the official XSDs agree that it is correct
    assert validate(path) == []
    assert validate([str(path)]) == []
    assert sitemapkit.validate is validate  # the package exports the function, eagerly


# (rule, body of a <urlset>) -- each has exactly one defect
URL_CASES = [
    ("loc-relative", url(loc="/a/page.html")),
    ("loc-scheme", url(loc="ftp://example.com/a/")),
    ("loc-length", url(loc=ROOT + "a" * 2048)),
    ("loc-length", url(loc="http://a.b/")),
    ("loc-escaping", url(loc=ROOT + "a b/")),
    ("loc-escaping", url(loc=ROOT + "ümlat.php")),
    ("loc-fragment", url(loc=ROOT + "a/#part")),
    ("loc-host", url() + url(loc="https://other.example.org/b/")),
    ("loc-missing", "<url><lastmod>2025-01-01</lastmod></url>"),
    ("duplicate-url", url() + url()),
    ("lastmod-format", url("<lastmod>2025-05</lastmod>")),
    ("lastmod-format", url("<lastmod>2025-05-01T10:00+01:00</lastmod>")),
    ("lastmod-format", url("<lastmod>2025-02-30</lastmod>")),
    ("date-timezone", url("<lastmod>2025-05-01T10:00:00</lastmod>")),
    ("lastmod-future", url("<lastmod>2031-01-01</lastmod>")),
    ("changefreq-value", url("<changefreq>Weekly</changefreq>")),
    ("changefreq-value", url("<changefreq>sometimes</changefreq>")),
    ("priority-range", url("<priority>1.5</priority>")),
    ("priority-format", url("<priority>high</priority>")),
    ("element-order", url("<changefreq>daily</changefreq><lastmod>2025-01-01</lastmod>")),
    ("element-order", url('<xhtml:link rel="alternate" hreflang="en" href="https://example.com/a/"/>'
                          "<lastmod>2025-01-01</lastmod>")),
    ("duplicate-element", url("<priority>0.5</priority><priority>0.6</priority>")),
    ("unknown-element", url("<title>no</title>")),
    ("unknown-element", "<foo/>" + url()),
    ("unknown-element", url('<m:mobile xmlns:m="http://www.google.com/schemas/sitemap-mobile/1.0"/>')),
    ("unknown-attribute", '<url id="1"><loc>https://example.com/a/</loc></url>'),
    ("stray-text", url("hello")),
    ("image-loc-missing", url("<image:image></image:image>")),
    ("image-deprecated", url("<image:image><image:loc>https://example.com/i.png</image:loc>"
                             "<image:title>t</image:title></image:image>")),
    ("image-count", url("<image:image><image:loc>https://example.com/i.png</image:loc>"
                        "</image:image>" * 1001)),
    ("loc-relative", url("<image:image><image:loc>i.png</image:loc></image:image>")),
    ("hreflang-self", url('<xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/"/>')),
    ("hreflang-code", url('<xhtml:link rel="alternate" hreflang="en_US" href="https://example.com/a/"/>')),
    ("hreflang-rel", url('<xhtml:link rel="alternative" hreflang="en" href="https://example.com/a/"/>')),
    ("hreflang-href", url('<xhtml:link rel="alternate" href="https://example.com/a/"/>')),
    ("hreflang-duplicate", url(
        '<xhtml:link rel="alternate" hreflang="en" href="https://example.com/a/"/>'
        '<xhtml:link rel="alternate" hreflang="en" href="https://example.com/en/a/"/>')),
    ("hreflang-no-return", url(LINKS) + url(
        '<xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/a/"/>',
        ROOT + "de/a/")),
]


def _video(**change: str | None) -> str:
    parts = []
    for line in VIDEO_FULL.splitlines()[1:-1]:
        tag = line.strip().split(">")[0].split()[0][len("<video:"):]
        if tag in change:
            if change[tag] is not None:
                parts.append(change.pop(tag))
            continue
        parts.append(line)
    return url("<video:video>" + "".join(parts) + "</video:video>")


VIDEO_CASES = [
    ("video-required", _video(title=None)),
    ("video-required", _video(thumbnail_loc=None)),
    ("video-location", _video(content_loc=None, player_loc=None)),
    ("video-location", _video(content_loc="<video:content_loc>https://example.com/a/</video:content_loc>")),
    ("video-title-length", _video(title=f"<video:title>{'t' * 101}</video:title>")),
    ("video-description-length", _video(
        description=f"<video:description>{'d' * 2049}</video:description>")),
    ("video-duration", _video(duration="<video:duration>28801</video:duration>")),
    ("video-duration", _video(duration="<video:duration>0</video:duration>")),
    ("video-rating", _video(rating="<video:rating>5.5</video:rating>")),
    ("video-view-count", _video(view_count="<video:view_count>-3</video:view_count>")),
    ("video-yes-no", _video(live="<video:live>true</video:live>")),
    ("video-restriction", _video(
        restriction='<video:restriction relationship="allow">ie gb</video:restriction>')),
    ("video-restriction", _video(restriction="<video:restriction>IE</video:restriction>")),
    ("video-platform", _video(platform='<video:platform relationship="allow">web desktop</video:platform>')),
    ("video-tag-count", _video(tag="".join(f"<video:tag>t{n}</video:tag>" for n in range(33)))),
    ("video-uploader", _video(uploader=f"<video:uploader>{'u' * 256}</video:uploader>")),
    ("video-uploader", _video(uploader='<video:uploader info="https://other.org/u">U</video:uploader>')),
    ("date-format", _video(publication_date="<video:publication_date>2025</video:publication_date>")),
    ("element-order", url(VIDEO_FULL.replace(
        "<video:title>Grilling steaks</video:title>", "").replace(
        "</video:description>", "</video:description><video:title>Grilling steaks</video:title>"))),
    ("duplicate-element", _video(live="<video:live>no</video:live><video:live>no</video:live>")),
]


def _news(**change: str | None) -> str:
    fields = {
        "publication": "<news:publication><news:name>The Example Times</news:name>"
                       "<news:language>en</news:language></news:publication>",
        "publication_date": "<news:publication_date>2026-01-15T08:00:00Z</news:publication_date>",
        "title": "<news:title>Merger talks</news:title>",
    }
    fields.update(change)
    return url("<news:news>" + "".join(v for v in fields.values() if v) + "</news:news>")


NEWS_CASES = [
    ("news-too-old", _news(publication_date="<news:publication_date>2026-01-10</news:publication_date>")),
    ("news-future", _news(publication_date="<news:publication_date>2026-03-01</news:publication_date>")),
    ("news-language", _news(publication="<news:publication><news:name>T</news:name>"
                                        "<news:language>en-US</news:language></news:publication>")),
    ("news-required", _news(title=None)),
    ("news-required", _news(publication="<news:publication><news:name>T</news:name>"
                                        "</news:publication>")),
    ("news-required", _news(title="<news:title> </news:title>")),
    ("news-deprecated", _news(title="<news:title>Merger talks</news:title>"
                                    "<news:keywords>business, merger</news:keywords>")),
    ("date-format", _news(publication_date="<news:publication_date>yesterday</news:publication_date>")),
    ("news-count", "".join(_news().replace("/a/", f"/a{n}/") for n in range(1001))),
]


@pytest.mark.parametrize(("rule", "body"), URL_CASES + VIDEO_CASES + NEWS_CASES,
                         ids=lambda value: value if value in RULES else "")
def test_each_defect_gives_exactly_its_rule(tmp_path, rule, body):
    problems = validate(write(tmp_path, urlset(body)))
    assert rules(problems) == {rule}, "\n".join(map(str, problems))
    assert all(p.severity == RULES[rule][0] or p.rule == "unknown-attribute" for p in problems)
    assert all(p.line and p.line >= 2 for p in problems if p.rule != "news-count")


FILE_CASES = [
    ("xml-syntax", urlset(url()).replace("</url>", "</ur>")),
    ("xml-syntax", "this is not xml"),
    ("doctype", urlset(url()).replace("<urlset", '<!DOCTYPE urlset SYSTEM "urlset.dtd">\n<urlset')),
    ("encoding", urlset(url()).replace("UTF-8", "ISO-8859-1")),
    ("encoding", urlset(url(loc=ROOT + "é/")).encode("latin-1")),
    ("root-element", '<?xml version="1.0"?><pages><url><loc>https://example.com/</loc></url></pages>'),
    ("namespace", '<urlset xmlns="https://www.sitemaps.org/schemas/sitemap/0.9">' + url() + "</urlset>"),
    ("namespace", "<urlset>" + url() + "</urlset>"),
    ("sitemap-empty", urlset("")),
    ("unknown-element", urlset("<sitemap><loc>https://example.com/s.xml</loc></sitemap>")),
]


@pytest.mark.parametrize(("rule", "text"), FILE_CASES, ids=[c[0] for c in FILE_CASES])
def test_file_level_defects(tmp_path, rule, text):
    problems = validate(write(tmp_path, text))
    assert rules(problems) == {rule}, "\n".join(map(str, problems))


def test_problem_format_and_lines(tmp_path):
    path = write(tmp_path, urlset(url() + "\n" + url("<priority>2</priority>", ROOT + "b/")))
    [problem] = validate(path)
    assert problem.line == 4
    assert str(problem) == (f"{path}:4: error: <priority> 2 is outside 0.0-1.0 [priority-range]")
    assert json.loads(json.dumps(problem.as_dict()))["rule"] == "priority-range"


def test_limits_on_url_count(tmp_path):
    body = "".join(f"<url><loc>https://example.com/p{n}</loc></url>\n" for n in range(50_001))
    problems = validate(write(tmp_path, urlset(body)))
    assert [p.rule for p in problems] == ["url-count"]
    assert problems[0].line == 50_001 + 2


# ----------------------------------------------------------------- the official XSDs' rejects

XSD_REJECTS = {
    "loc-too-short": url(loc="http://a.b/"),
    "lastmod-year-month": url("<lastmod>2024-05</lastmod>"),
    "lastmod-no-seconds": url("<lastmod>2024-05-01T10:00+01:00</lastmod>"),
    "changefreq-upper": url("<changefreq>DAILY</changefreq>"),
    "priority-too-big": url("<priority>1.1</priority>"),
    "priority-exponent": url("<priority>5e-1</priority>"),
    "order-core": url("<priority>0.1</priority><changefreq>daily</changefreq>"),
    "order-extension": url('<image:image><image:loc>https://e.com/i</image:loc></image:image>'
                           "<lastmod>2024-01-01</lastmod>"),
    "two-locs": url(f"<loc>{ROOT}b/</loc>"),
    "no-loc": "<url><priority>0.1</priority></url>",
    "empty-urlset": "",
    "unknown-namespace": url('<x:y xmlns:x="urn:example"/>'),
    "unknown-sitemap-element": url("<title>t</title>"),
    "attribute-on-loc": f'<url><loc type="page">{ROOT}</loc></url>',
    "text-in-url": url("loose text"),
    "image-no-loc": url("<image:image/>"),
    "image-order": url("<image:image><image:title>t</image:title><image:loc>https://e.com/i"
                       "</image:loc></image:image>"),
    "video-no-title": _video(title=None),
    "video-title-101": _video(title=f"<video:title>{'t' * 101}</video:title>"),
    "video-duration-big": _video(duration="<video:duration>30000</video:duration>"),
    "video-rating-big": _video(rating="<video:rating>6</video:rating>"),
    "video-tags-33": _video(tag="<video:tag>t</video:tag>" * 33),
    "video-restriction-lower": _video(
        restriction='<video:restriction relationship="allow">us</video:restriction>'),
    "video-restriction-no-relationship": _video(restriction="<video:restriction>US</video:restriction>"),
    "video-platform-other": _video(platform='<video:platform relationship="deny">pc</video:platform>'),
    "video-family-true": _video(family_friendly="<video:family_friendly>true</video:family_friendly>"),
    "video-order": url(VIDEO_FULL.replace("<video:live>no</video:live>", "").replace(
        "<video:duration>", "<video:live>no</video:live><video:duration>")),
    "video-price-currency": _video(
        requires_subscription='<video:price currency="usd">1</video:price>'),
    "news-language-region": _news(publication="<news:publication><news:name>T</news:name>"
                                              "<news:language>en-US</news:language></news:publication>"),
    "news-no-title": _news(title=None),
    "news-no-publication": _news(publication=None),
    "news-date-year": _news(publication_date="<news:publication_date>2026</news:publication_date>"),
    "news-genres-bad": _news(title="<news:genres>Gossip</news:genres><news:title>t</news:title>"),
    "xhtml-unknown-attribute": url('<xhtml:link rel="alternate" hreflang="en" '
                                   'href="https://example.com/a/" foo="1"/>'),
}


@pytest.mark.parametrize("name", sorted(XSD_REJECTS))
def test_what_the_xsd_rejects_the_validator_rejects(tmp_path, name):
    path = write(tmp_path, urlset(XSD_REJECTS[name]))
    document = etree.parse(str(path))
    assert not schema("sitemap-all.xsd").validate(document), "the case must break the XSD"
    problems = validate(path)
    assert any(p.severity == "error" for p in problems), name


def test_index_rejects_match_the_index_xsd(tmp_path):
    bad = ('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap>'
           "<lastmod>2024-01-01</lastmod><loc>https://example.com/s.xml</loc></sitemap></sitemapindex>")
    path = write(tmp_path, bad, "index.xml")
    assert not schema("siteindex.xsd").validate(etree.parse(str(path)))
    assert "element-order" in rules(validate(path))


# --------------------------------------------------------------------- indexes and other files


def index(*locs: str) -> str:
    items = "".join(f"<sitemap><loc>{loc}</loc><lastmod>2025-01-01</lastmod></sitemap>" for loc in locs)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex '
            f'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{items}</sitemapindex>\n')


def test_an_index_is_followed_to_its_local_children(tmp_path):
    write(tmp_path, index(ROOT + "sitemap-1.xml", ROOT + "sitemap-2.xml.gz"))
    write(tmp_path, urlset(url()), "sitemap-1.xml")
    write(tmp_path, urlset(url("<priority>7</priority>", ROOT + "b/")), "sitemap-2.xml.gz")
    problems = validate(tmp_path / "sitemap.xml")
    assert [(Path(p.where).name, p.rule) for p in problems] == [("sitemap-2.xml.gz", "priority-range")]


def test_an_index_in_an_index_and_a_missing_child(tmp_path):
    write(tmp_path, index(ROOT + "inner.xml", ROOT + "gone.xml"))
    write(tmp_path, index(ROOT + "sitemap-1.xml"), "inner.xml")
    problems = validate(tmp_path / "sitemap.xml")
    assert [(Path(p.where).name, p.line, p.rule) for p in problems] == [
        ("sitemap.xml", 2, "index-nested"), ("sitemap.xml", 2, "sitemap-not-found")]


def test_index_children_must_sit_in_its_scope(tmp_path):
    write(tmp_path / "docs", index("https://example.com/docs/s1.xml", "https://example.com/s2.xml"))
    write(tmp_path / "docs", urlset(url(loc=ROOT + "docs/a/")), "s1.xml")
    problems = validate(tmp_path / "docs" / "sitemap.xml", site_dir=tmp_path)
    assert "loc-scope" in rules(problems)


def test_a_folder_means_its_sitemaps_and_a_gzip_twin_is_compared(tmp_path):
    write(tmp_path, urlset(url()))
    (tmp_path / "sitemap.xml.gz").write_bytes(gzip.compress(urlset(url(loc=ROOT + "z/")).encode()))
    write(tmp_path, "<html></html>", "index.html")
    write(tmp_path, '<rss version="2.0"></rss>', "feed.xml")
    problems = validate(tmp_path)
    assert [(Path(p.where).name, p.rule) for p in problems] == [("sitemap.xml.gz", "gzip-twin-differs")]


def test_a_folder_without_a_sitemap_is_a_warning_not_an_ok(tmp_path):
    """`sitemapkit validate public/` on a site built without a sitemap says so."""
    write(tmp_path, "<html></html>", "index.html")
    (problem,) = validate(tmp_path)
    assert (problem.rule, problem.severity, problem.where) == ("folder-no-sitemap", "warning", str(tmp_path))
    write(tmp_path, "User-agent: *\nDisallow:\n", "robots.txt")
    assert rules(validate(tmp_path)) == {"folder-no-sitemap", "robots-no-sitemap"}
    write(tmp_path / "deep", urlset(url()))
    assert validate(tmp_path / "deep") == [] and rules(validate(tmp_path)) == {"robots-no-sitemap"}


def test_text_sitemaps(tmp_path):
    good = write(tmp_path, f"{ROOT}a/\n{ROOT}b/\n", "sitemap.txt")
    assert validate(good) == []
    bad = write(tmp_path, f"{ROOT}a/\n# comment\n/b/\n{ROOT}a/\nhttps://other.org/\n", "s2.txt")
    assert [(p.line, p.rule) for p in validate(bad)] == [
        (2, "txt-line"), (3, "txt-line"), (4, "duplicate-url"), (5, "loc-host")]
    packed = write(tmp_path, f"{ROOT}a b\n", "s3.txt.gz")
    assert rules(validate(packed)) == {"loc-escaping"}
    assert rules(validate(write(tmp_path, "\n", "empty.txt"))) == {"sitemap-empty"}


def test_robots_txt_lines_and_the_sitemaps_they_name(tmp_path):
    write(tmp_path, urlset(url("<changefreq>often</changefreq>")))
    robots = write(tmp_path, "User-agent: *\nDisallow:\nSitemap: /sitemap.xml\n"
                   f"sitemap: {ROOT}sitemap.xml\n", "robots.txt")
    problems = validate(robots)
    assert [(Path(p.where).name, p.line, p.rule) for p in problems] == [
        ("robots.txt", 3, "robots-sitemap-relative"), ("sitemap.xml", 3, "changefreq-value")]
    none = write(tmp_path / "other", "User-agent: *\nDisallow: /x\n", "robots.txt")
    assert rules(validate(none)) == {"robots-no-sitemap"}


# ----------------------------------------------------------------------------- --site-dir


def _page(tmp_path: Path, relative: str, head: str = "") -> None:
    write(tmp_path / "site", f"<!doctype html><html><head><title>t</title>{head}</head>"
          "<body><main><p>text</p></main></body></html>", relative)


def test_site_dir_cross_checks(tmp_path):
    site = tmp_path / "site"
    _page(tmp_path, "index.html")
    _page(tmp_path, "a/index.html")
    _page(tmp_path, "hidden/index.html", '<meta name="robots" content="noindex, follow">')
    _page(tmp_path, "copy/index.html", '<link rel="canonical" href="/a/">')
    _page(tmp_path, "forgotten.html")
    _page(tmp_path, "404.html")
    _page(tmp_path, "draft/index.html", '<meta name="robots" content="noindex">')
    body = "\n".join(url(loc=ROOT + path) for path in ("", "a/", "hidden/", "copy/", "gone/"))
    write(site, urlset(body))
    problems = validate(site / "sitemap.xml", site_dir=site)
    found = sorted((p.rule, p.line) for p in problems)
    assert found == [("page-canonical", 6), ("page-missing", 7), ("page-noindex", 5),
                     ("page-not-listed", None)]
    [unlisted] = [p for p in problems if p.rule == "page-not-listed"]
    assert unlisted.where.endswith("forgotten.html")


def test_site_dir_under_a_path_prefix_finds_the_root(tmp_path):
    _page(tmp_path, "index.html")
    _page(tmp_path, "guide/index.html")
    site = tmp_path / "site"
    write(site, urlset(url(loc="https://example.com/docs/") + url(loc="https://example.com/docs/guide/")))
    assert validate(site / "sitemap.xml", site_dir=site) == []
    write(site / "de", urlset(url(loc="https://example.com/docs/guide/")))
    problems = validate(site / "de" / "sitemap.xml", site_dir=site)
    assert "loc-scope" in rules(problems)
    assert "page-missing" not in rules(problems)


# ---------------------------------------------------------------------------- command line


def test_run_validate_exit_status_and_formats(tmp_path, capsys):
    clean = write(tmp_path, CLEAN, "clean.xml")
    warned = write(tmp_path, urlset(url() + url()), "warned.xml")
    broken = write(tmp_path, urlset(url("<priority>9</priority>", ROOT + "b/")), "broken.xml")

    assert run_validate([str(clean)], None, "text", False, False) == 0
    assert capsys.readouterr().out.strip() == "OK: 1 file checked, 0 errors, 0 warnings"
    assert run_validate([str(warned)], None, "text", False, False) == 0
    assert run_validate([str(warned)], None, "text", True, False) == 1
    capsys.readouterr()
    assert run_validate([str(broken), str(warned)], None, "jsonl", False, True) == 1
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(Path(x["file"]).name, x["rule"], x["severity"]) for x in lines] == [
        ("broken.xml", "priority-range", "error"), ("warned.xml", "duplicate-url", "warning")]
    assert run_validate([str(tmp_path / "missing.xml")], None, "text", False, False) == 2
    assert run_validate([str(clean)], str(tmp_path / "nowhere"), "text", False, False) == 2
    (tmp_path / "bad.xml.gz").write_bytes(b"\x1f\x8b\x08\x00garbage")
    assert run_validate([str(tmp_path / "bad.xml.gz")], None, "text", False, False) == 2
    assert "unreadable" in capsys.readouterr().out


def test_sitemapkit_validate_on_the_command_line(tmp_path):
    import subprocess
    import sys

    write(tmp_path, urlset(url("<lastmod>2025-13-01</lastmod>")))
    done = subprocess.run([sys.executable, "-m", "sitemapkit", "validate", str(tmp_path),
                           "--format", "jsonl"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    assert json.loads(done.stdout)["rule"] == "lastmod-format"


def test_what_the_writer_writes_validates_clean(tmp_path):
    from sitemapkit import Alternate, Entry, Image, NewsArticle, Settings, Video, write_sitemaps

    settings = Settings(base_url=ROOT, max_urls=2, gzip=True, txt=True)
    entries = [
        Entry(ROOT, lastmod=NOW.date(), changefreq="daily", priority=1.0,
              alternates=(Alternate("en", ROOT), Alternate("de", ROOT + "de/"))),
        Entry(ROOT + "de/", alternates=(Alternate("en", ROOT), Alternate("de", ROOT + "de/"))),
        Entry(ROOT + "a/", images=(Image(ROOT + "a.png"),),
              videos=(Video(ROOT + "t.jpg", "T", "D", content_loc=ROOT + "v.mp4", duration=60),),
              news=NewsArticle("Example", "en", NOW, "Title")),
    ]
    write_sitemaps(entries, tmp_path, settings)
    problems = validate(tmp_path)
    assert problems == [], "\n".join(map(str, problems))
    assert len([p for p in tmp_path.iterdir() if p.name.endswith(".xml")]) >= 3


MIXED_CASES = [
    ({"video-deprecated"}, _video(
        family_friendly="<video:category>cooking</video:category>"
                        "<video:family_friendly>yes</video:family_friendly>")),
    ({"video-deprecated", "video-value"}, _video(
        requires_subscription='<video:price currency="usd">1</video:price>')),
    ({"video-deprecated", "required-element"}, _video(
        platform="<video:tvshow><video:show_title>S</video:show_title></video:tvshow>")),
    ({"news-deprecated", "news-value"}, _news(
        publication_date="<news:access>Free</news:access>"
                         "<news:publication_date>2026-01-15</news:publication_date>")),
    ({"unknown-attribute"}, url('<xhtml:link rel="alternate" hreflang="en" href="https://example.com/a/" '
                                'title="English"/>')),
]


@pytest.mark.parametrize(("expected", "body"), MIXED_CASES)
def test_deprecated_tags_warn_and_their_bad_values_fail(tmp_path, expected, body):
    problems = validate(write(tmp_path, urlset(body)))
    assert rules(problems) == expected, "\n".join(map(str, problems))


@pytest.mark.slow  # an index of 50,001 sitemaps
def test_index_count(tmp_path):
    path = write(tmp_path, index(*(f"{ROOT}s{n}.xml" for n in range(50_001))), "index.xml")
    problems = [p for p in validate(path) if p.rule != "sitemap-not-found"]
    assert [p.rule for p in problems] == ["index-count"]


@pytest.mark.parametrize("order", ["return-link-listed-later", "return-link-listed-earlier"])
def test_hreflang_return_links_across_files(tmp_path, order):
    one_way = url('<xhtml:link rel="alternate" hreflang="en" href="https://example.com/a/"/>'
                  '<xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/a/"/>')
    no_links = url("", ROOT + "de/a/")
    first, second = (one_way, no_links) if order == "return-link-listed-later" else (no_links, one_way)
    write(tmp_path, index(ROOT + "s1.xml", ROOT + "s2.xml"))
    write(tmp_path, urlset(first), "s1.xml")
    write(tmp_path, urlset(second), "s2.xml")
    problems = validate(tmp_path / "sitemap.xml")
    assert [(Path(p.where).name, p.rule) for p in problems] == [
        ("s1.xml" if first is one_way else "s2.xml", "hreflang-no-return")]
    assert "https://example.com/de/a/" in problems[0].message


def test_progress_is_reported_for_big_files(tmp_path):
    body = "\n".join(url(loc=f"{ROOT}page-{n}/") for n in range(20_000))
    seen = []
    assert validate(write(tmp_path, urlset(body)), progress=lambda *a: seen.append(a)) == []
    assert seen and seen[-1][0].endswith("sitemap.xml") and 0 < seen[-1][1] <= seen[-1][2]


def test_site_dir_respects_the_sites_robots_txt(tmp_path):
    """A page robots.txt disallows is not "missing" from the sitemap, and listing one is flagged."""
    site = tmp_path / "site"
    for path in ("index.html", "private/index.html", "public/index.html"):
        (site / path).parent.mkdir(parents=True, exist_ok=True)
        (site / path).write_text("<html><head><title>t</title></head><body><main>x</main></body></html>")
    (site / "robots.txt").write_text("User-agent: *\nDisallow: /private/\n")
    sitemap = site / "sitemap.xml"
    sitemap.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        "<url><loc>https://ex.com/</loc></url>\n<url><loc>https://ex.com/public/</loc></url>\n</urlset>\n"
    )
    assert [p.rule for p in validate(sitemap, site_dir=site)] == []
    sitemap.write_text(sitemap.read_text().replace("/public/", "/private/"))
    assert sorted(p.rule for p in validate(sitemap, site_dir=site)) == ["page-blocked", "page-not-listed"]
