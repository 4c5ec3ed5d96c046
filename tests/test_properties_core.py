"""Arbitrary Unicode through the whole core, Page to files: the output always validates
against the official XSDs and reads back, through ultimate-sitemap-parser, to the URLs listed."""

import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from page_strategies import BASE, pages

from sitemap_checks import as_usp_reads, assert_valid_tree, usp_urls
from sitemapkit import Report, Settings, build_entries, write_sitemaps


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(pages(), min_size=1, max_size=8), st.sampled_from([2, 50_000]))
def test_arbitrary_unicode_gives_valid_files_that_read_back(page_list, max_urls):
    options = Settings(base_url=BASE, max_urls=max_urls, news={"publication": "P", "language": "en"})
    report = Report()
    entries = list(build_entries(page_list, options, report=report))
    out = Path(tempfile.mkdtemp())
    try:
        write_sitemaps(iter(entries), out, options, report=report)
        assert_valid_tree(out, BASE)
        assert usp_urls(out, BASE) == [as_usp_reads(entry.loc) for entry in entries]
        assert report.news == sum(1 for entry in entries if entry.news)
    finally:
        shutil.rmtree(out)
