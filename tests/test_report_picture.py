"""The picture at the top of ``validate --format html``: inline SVG bars of the URLs by
section, of their lastmod ages and, with ``--check-pages``, of what the pages answered
(against a real server on 127.0.0.1). The report is read back with lxml and each bar's
label and count (as text, readable without colour) compared with what the sitemap holds."""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import quote, urlsplit

import lxml.html
from fault_server import FaultServer, body, redirect
from hypothesis import given
from hypothesis import strategies as st

from sitemap_checks import locs
from sitemapkit.output.html_sitemap import POLICY
from sitemapkit.validate.glance import LABEL_ROOM, SECTIONS_KEPT, Tally, charts

BIN = Path(sys.executable).parent
SVG = "{http://www.w3.org/2000/svg}"


def validate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BIN / "sitemapkit"), "validate", *args, "--format", "html"],
                          capture_output=True, text=True, check=False)


def chart(page, title: str) -> tuple[str, list[tuple[str, str, int]]]:
    """The chart's caption and its bars: (label text, count text, data-count)."""
    figure = page.xpath(f"//figure[@class='chart'][starts-with(figcaption, '{title}')]")
    assert len(figure) == 1, title
    svg = figure[0].xpath("./svg")
    assert len(svg) == 1 and svg[0].get("width") == "100%"
    assert re.fullmatch(r"0 0 400 \d+", svg[0].get("viewbox"))  # lxml.html lowercases names
    bars = [(g.xpath("string(text[@class='label'])"), g.xpath("string(text[@class='count'])"),
             int(g.get("data-count"))) for g in svg[0].xpath("./g[@class='bar']")]
    return figure[0].xpath("string(figcaption)"), bars


def sitemap(tmp_path: Path, rows: list[tuple[str, str | None]]) -> Path:
    path = tmp_path / "sitemap.xml"
    urls = "".join(f"<url><loc>{loc}</loc>{f'<lastmod>{day}</lastmod>' if day else ''}</url>\n"
                   for loc, day in rows)
    path.write_text('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/'
                    f'schemas/sitemap/0.9">\n{urls}</urlset>\n', encoding="utf-8")
    return path


def html(title: str) -> str:
    return f"<!DOCTYPE html><html><head><title>{title}</title></head><body><p>{title}</p></body></html>"


def test_sections_chart_counts_the_urls_of_a_built_site(tmp_path):
    site = tmp_path / "public"
    sizes = {f"part{n:02d}": n for n in range(1, 14)}  # 13 sections: 10 drawn, 3 summed
    for name, size in sizes.items():
        for page in range(size):
            (site / name / f"p{page}").mkdir(parents=True)
            (site / name / f"p{page}" / "index.html").write_text(html(f"{name} {page}"))
    (site / "index.html").write_text(html("Home"))
    (site / "about.html").write_text(html("About"))
    subprocess.run([str(BIN / "sitemapkit"), "build", str(site), "--base-url", "https://example.org/"],
                   check=True, capture_output=True)
    listed = locs(site / "sitemap.xml")
    expected = Counter(urlsplit(loc).path.split("/")[1] + "/" if urlsplit(loc).path.count("/") > 1
                       else "/ (top level)" for loc in listed)
    ranked = sorted(expected.items(), key=lambda item: (-item[1], item[0]))

    done = validate(str(site / "sitemap.xml"))
    assert done.returncode == 0, done.stderr
    page = lxml.html.fromstring(done.stdout)
    caption, bars = chart(page, "URLs by section")
    assert caption == f"URLs by section ({len(listed)})"
    top, rest = ranked[:10], ranked[10:]
    assert [(label, count) for label, _, count in bars] == [*top, ("other sections", sum(n for _, n in rest))]
    assert sum(count for _, _, count in bars) == len(listed)
    for _, text, count in bars:  # the count is there as text, with its share
        assert text == f"{count} · {round(100 * count / len(listed))}%"


def test_lastmod_ages_against_a_pinned_now(tmp_path, pin_now):
    pin_now(datetime(2026, 6, 15, 12, 0, tzinfo=timezone.utc))
    rows = [
        ("https://example.org/", "2026-06-14"),
        ("https://example.org/a", "2026-06-08T12:00:01Z"),  # 6 days 23:59:59 ago
        ("https://example.org/b", "2026-06-08T12:00:00Z"),  # 7 days ago: past a week
        ("https://example.org/c", "2026-05-20"),
        ("https://example.org/d", "2026-01-01"),
        ("https://example.org/e", "2025-06-15T11:00:00+00:00"),  # a year and an hour
        ("https://example.org/f", "2016-01-01"),
        ("https://example.org/g", None),
        ("https://example.org/h", None),
        ("https://example.org/i", "2031-01-01"),
        ("https://example.org/j", "2026-13-01"),
    ]
    page = lxml.html.fromstring(validate(str(sitemap(tmp_path, rows))).stdout)
    caption, bars = chart(page, "lastmod age")
    assert caption == "lastmod age (11)"
    assert [(label, count) for label, _, count in bars] == [
        ("under a week", 2), ("a week to a month", 2), ("a month to a year", 1), ("over a year", 2),
        ("no lastmod", 2), ("in the future", 1), ("not a date", 1)]


def test_status_codes_of_the_checked_pages(tmp_path):
    def hang_up(handler) -> None:
        handler.close_connection = True  # no status line: the page gives no answer

    page = body(b"<html><head><title>ok</title></head><body>ok</body></html>")
    routes = {"/robots.txt": body(b"User-agent: *\nDisallow: /private/\n", "text/plain"),
              "/": page, "/a": page, "/b": page, "/moved": redirect("/a", 301),
              "/gone": body(b"gone", status=404), "/teapot": body(b"no", status=418),
              "/broken": body(b"oops", status=500), "/drop": hang_up, "/private/x": page}
    with FaultServer(routes) as server:
        base = server.url()
        server.routes["/sitemap.xml"] = body(sitemap(tmp_path, [(base + path.lstrip("/"), None) for path in routes
                                                         if path != "/robots.txt"]).read_bytes(), "application/xml")
        done = validate(base + "sitemap.xml", "--check-pages")
        requested = server.paths()
    assert "/private/x" not in requested
    page = lxml.html.fromstring(done.stdout)
    caption, bars = chart(page, "Pages by status")
    assert caption == "Pages by status (9)"
    assert [(label, count) for label, _, count in bars] == [
        ("2xx", 3), ("3xx", 1), ("4xx", 2), ("5xx", 1), ("no answer", 1), ("not requested", 1)]


def test_no_status_chart_without_check_pages(tmp_path):
    page = lxml.html.fromstring(validate(str(sitemap(tmp_path, [("https://example.org/", None)]))).stdout)
    assert [f.xpath("string(figcaption)") for f in page.xpath("//figure[@class='chart']")] == [
        "URLs by section (1)", "lastmod age (1)"]


def test_hostile_section_names_stay_text_and_short(tmp_path):
    hostile = ["%3Cscript%3Ealert(1)%3C%2Fscript%3E", "%22%3E%3Cimg%20src=x%20onerror=alert(1)%3E",
               "a" * 5000, "%1B%5B31mred"]
    path = sitemap(tmp_path, [(f"https://example.org/{name}/page", None) for name in hostile])
    done = validate(str(path))
    assert "<script" not in done.stdout and "<img" not in done.stdout
    page = lxml.html.fromstring(done.stdout)
    assert page.xpath("//script") == [] and page.xpath("//img") == []
    assert page.xpath("//@*[starts-with(name(), 'on')]") == []
    assert page.xpath("//meta[@http-equiv='Content-Security-Policy']/@content") == [POLICY]
    _, bars = chart(page, "URLs by section")
    labels = {label for label, _, _ in bars}
    assert {"<script>alert(1)</script>/", "\\x1b[31mred/", "a" * 29 + "\u2026",
            '"><img src=x onerror=alert(1)\u2026'} == labels
    assert max(len(label) for label in labels) == LABEL_ROOM


def test_where_cells_wrap_inside_their_column(tmp_path):
    deep = tmp_path / ("very-long-folder-name-" * 6) / ("and-another-one-" * 6)
    deep.mkdir(parents=True)
    path = sitemap(deep, [("https://example.org/a", "not-a-date")])
    page = lxml.html.fromstring(validate(str(path)).stdout)
    where = page.xpath("//section[@class='rule']//td[@class='where']")
    assert where and str(path) in where[0].text_content()
    style = page.xpath("string(//style)")
    rules = {selector.strip(): declarations for selector, declarations
             in re.findall(r"([^{}@]+)\{([^{}]*)\}", style)}
    assert "overflow-wrap: anywhere" in rules["td.where"]
    assert not any("nowrap" in declarations for selector, declarations in rules.items()
                   if "td.where" in selector)
    assert "table-layout: fixed" in rules["table"]
    assert re.search(r"@media \(max-width: [\d.]+rem\)", style)


def test_section_names_kept_are_bounded():
    tally = Tally(datetime(2026, 1, 1, tzinfo=timezone.utc))
    for n in range(SECTIONS_KEPT + 500):
        tally.add(f"https://example.org/s{n}/", None)
    tally.add("https://example.org/s0/again", None)
    assert len(tally.sections.by_label) == SECTIONS_KEPT and tally.inner is None
    sections = charts(tally, None)[0]
    assert sections.bars[0].label == "s0/" and sections.bars[0].count == 2
    assert sections.bars[-1].label == "other sections"
    assert sections.bars[-1].count == SECTIONS_KEPT + 500 - 10
    assert sections.total == SECTIONS_KEPT + 501


def test_a_site_in_one_folder_is_shown_by_the_folders_inside_it(tmp_path):
    base = "https://example.github.io/project/"
    rows = [(base, None), (base + "guide/a/", None), (base + "guide/b/", None), (base + "blog/x.html", None)]
    (tmp_path / "inner").mkdir()
    page = lxml.html.fromstring(validate(str(sitemap(tmp_path / "inner", rows))).stdout)
    _, bars = chart(page, "URLs by section")
    assert [(label, count) for label, _, count in bars] == [
        ("project/guide/", 2), ("project/", 1), ("project/blog/", 1)]

    (tmp_path / "outer").mkdir()
    rows.append(("https://example.github.io/other.html", None))
    page = lxml.html.fromstring(validate(str(sitemap(tmp_path / "outer", rows))).stdout)
    _, bars = chart(page, "URLs by section")
    assert [(label, count) for label, _, count in bars] == [("project/", 4), ("/ (top level)", 1)]


@given(st.lists(st.tuples(st.lists(st.text(max_size=40), max_size=4), st.booleans()), max_size=60))
def test_every_url_is_in_one_bar_and_every_label_is_short(paths):
    tally = Tally(datetime(2026, 1, 1, tzinfo=timezone.utc))
    for parts, folder in paths:
        tally.add("https://example.org/" + "/".join(quote(part, safe="") for part in parts)
                  + ("/" if folder and parts else ""), None)
    sections, ages = charts(tally, None)
    assert sections.total == ages.total == len(paths)
    assert sum(bar.count for bar in sections.bars) == len(paths)
    assert len(sections.bars) <= 11
    assert all(len(bar.label) <= LABEL_ROOM and bar.label.isprintable() for bar in sections.bars)
