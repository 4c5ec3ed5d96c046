"""Pages git cannot date for want of a source file are counted, and the first few named, in
memory that does not grow with them: a folder of a million HTML pages given no source is a
count and three names, not a million strings kept to the end of the build."""

import tracemalloc
from datetime import datetime, timezone

from sitemapkit.lastmod.sources import LastmodResolver
from sitemapkit.model import Page
from sitemapkit.report import Report
from sitemapkit.settings import Settings

BASE = "https://site.example/"
PAGES = 20_000


def test_sourceless_pages_counted_and_named_in_flat_memory(tmp_path):
    sources = tmp_path / "content"
    sources.mkdir()
    report = Report()
    resolver = LastmodResolver(Settings(base_url=BASE, lastmod=("git",)), tmp_path, report,
                               datetime(2026, 1, 15, tzinfo=timezone.utc), source_dirs=[sources])
    # in an order that is not the names' (the note names the first three by name)
    names = [f"tags/t-{(i * 7919) % PAGES:05d}/" for i in range(PAGES)]
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    for name in names:
        assert resolver.lastmod(Page(url=name), BASE + name, None) is None
    grown = sum(stat.size_diff for stat in tracemalloc.take_snapshot().compare_to(before, "filename")
                if stat.traceback[0].filename.endswith("lastmod/sources.py"))
    tracemalloc.stop()
    assert grown < 10_000  # a list of 20,000 names is over 1 MB
    resolver.finish()
    [note] = [note for note in report.notes if note.rule == "lastmod-no-source"]
    assert "20000 pages match no source file" in note.message
    assert "(/tags/t-00000/, /tags/t-00001/, /tags/t-00002/ and 19997 more)" in note.message
