"""The listing step returns the entries and the pages the site's own settings left out, and the
writer records those it is given: nothing travels in the report."""

import dataclasses
import json
from datetime import datetime, timezone

from sitemapkit import Page, Report, Settings, generate
from sitemapkit.lastmod.sources import LastmodResolver
from sitemapkit.listing.entries import list_entries
from sitemapkit.site.owned import RECORD, chosen_out, url_key

BASE = "https://example.org/"


def listed(tmp_path, pages, **options):
    settings = Settings(base_url=BASE, lastmod=False, **options)
    report = Report()
    resolver = LastmodResolver(settings, tmp_path, report, datetime.now(timezone.utc))
    result = list_entries(pages, settings, report, resolver,
                          transform=lambda entry: None if entry.loc.endswith("dropped/") else entry)
    return result, report


PAGES = [
    Page("kept/"),
    Page("hidden/", meta={"sitemap": False}),
    Page("private/a/"),
    Page("genindex.html", not_page="generated index"),
    Page("dropped/"),
    Page("quiet/", html="<html><head><meta name='robots' content='noindex'></head><body>x</body></html>"),
]


def test_the_pages_left_out_on_purpose_come_back_with_the_entries(tmp_path):
    result, report = listed(tmp_path, PAGES, exclude=["private/"], transform="given:drop")
    assert result.chosen_out == set()  # nothing is read before the entries are asked for
    assert [entry.loc for entry in result.entries] == [BASE + "kept/"]
    assert result.chosen_out == {url_key(BASE + path) for path in ("hidden/", "private/a/", "genindex.html",
                                                                    "dropped/")}
    assert "noindex" in report.left_out  # left out, but not on purpose: validate may ask for it
    assert not hasattr(report, "chosen_out")


def test_a_build_records_the_pages_left_out_on_purpose(tmp_path):
    (tmp_path / "dropper.py").write_text(
        "def change(entry):\n    return None if entry.loc.endswith('dropped/') else entry\n")
    site = tmp_path / "site"
    pages = [dataclasses.replace(page, html=page.html or "<html><body>x</body></html>") for page in PAGES]
    report = generate(pages, site, Settings(base_url=BASE, exclude=["private/"], transform="dropper:change",
                                            lastmod=False), project_dir=tmp_path)
    assert not hasattr(report, "chosen_out")  # the report only reports
    assert chosen_out(site) == {url_key(BASE + path) for path in ("hidden/", "private/a/", "genindex.html",
                                                                   "dropped/")}
    assert json.loads((site / RECORD).read_text())["left_out"] == sorted(chosen_out(site))
