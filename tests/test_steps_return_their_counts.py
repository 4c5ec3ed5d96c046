"""The ``Report`` only reports: the listing returns how many pages it left out and why
(``Listed.counted``), the writer how many URLs it wrote (``Written.urls``), and the steps
after them decide from those. Whatever a report already holds changes no decision."""

from __future__ import annotations

from datetime import datetime, timezone

from sitemapkit import Page, Report, Settings
from sitemapkit.lastmod.sources import LastmodResolver
from sitemapkit.listing.entries import list_entries
from sitemapkit.output.write import write_sitemap_files

BASE = "https://example.org/"
NOINDEX = "<html><head><meta name='robots' content='noindex'></head><body>x</body></html>"


def entries(count: int):
    return iter([(f"{BASE}p{n}", None) for n in range(count)])


def test_the_listing_returns_what_it_left_out_by_reason(tmp_path):
    settings = Settings(base_url=BASE, lastmod=False, exclude=["private/"], transform="given:drop")
    report = Report()
    resolver = LastmodResolver(settings, tmp_path, report, datetime.now(timezone.utc))
    pages = [Page("kept/"), Page("hidden/", meta={"sitemap": False}), Page("private/a/"), Page("private/b/"),
             Page("quiet/", html=NOINDEX), Page("dropped/")]
    listed = list_entries(pages, settings, report, resolver,
                          transform=lambda entry: None if entry.loc.endswith("dropped/") else entry)
    assert listed.counted.left_out == {}  # nothing is read before the entries are asked for
    assert [entry.loc for entry in listed.entries] == [BASE + "kept/"]
    assert listed.counted.left_out == {"sitemap: false": 1, "exclude": 2, "noindex": 1, "transform": 1}
    assert report.left_out == listed.counted.left_out  # and the summary is told the same


def test_the_writer_returns_the_urls_it_wrote(tmp_path):
    settings = Settings(base_url=BASE, max_urls=2)
    assert write_sitemap_files(entries(5), tmp_path, settings, Report()).urls == 5
    assert write_sitemap_files(entries(0), tmp_path / "empty", settings, Report()).urls == 0


def test_what_a_report_already_holds_decides_nothing(tmp_path):
    report = Report(left_out={"noindex": 1000}, urls=0)  # as another step's (or a caller's) report might
    written = write_sitemap_files(entries(3), tmp_path, Settings(base_url=BASE), report)
    assert written.urls == 3 and not report.warnings


def test_the_writer_warns_from_the_counts_it_is_given(tmp_path):
    report = Report()
    write_sitemap_files(entries(3), tmp_path, Settings(base_url=BASE), report, left_out={"noindex": 5})
    [warning] = report.warnings
    assert warning.rule == "noindex-most" and "5 of 8 pages say noindex" in warning.message
