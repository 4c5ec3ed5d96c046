"""The writer returns what it wrote and what it removed, and spares exactly the names its caller
gives (the files written beside the sitemaps next: the change feed, sitemap.html)."""

from pathlib import Path

import pytest

from sitemapkit.output.names import own_names
from sitemapkit.output.write import Written, write_sitemap_files
from sitemapkit.report import Report
from sitemapkit.settings import Settings
from sitemapkit.site.owned import record_key, record_written

BASE = "https://example.org/"


def entries(count: int):
    return iter([(f"{BASE}p{n}", None) for n in range(count)])


def test_a_rebuild_returns_its_files_entry_point_first_and_the_stale_ones_it_removed(tmp_path):
    settings = Settings(base_url=BASE, max_urls=2, gzip=True)
    first = write_sitemap_files(entries(5), tmp_path, settings, Report())
    assert isinstance(first, Written) and first.removed == ()
    assert [path.name for path in first.files[:2]] == ["sitemap.xml", "sitemap.xml.gz"]
    children = {path.name for path in first.files[2:]}
    assert len(children) == 6 and all(path.is_file() for path in first.files)

    second = write_sitemap_files(entries(1), tmp_path, settings, Report())
    assert [path.name for path in second.files] == ["sitemap.xml", "sitemap.xml.gz"]
    assert {path.name for path in second.removed} == children
    assert not any(path.exists() for path in second.removed)


@pytest.mark.parametrize("spared", [True, False])
def test_the_names_it_spares_are_the_ones_it_is_given(tmp_path, spared):
    settings = Settings(base_url=BASE, changes_feed=3, html_sitemap=True)
    write_sitemap_files(entries(2), tmp_path, settings, Report())
    beside = [tmp_path / "sitemap-changes.atom", tmp_path / "sitemap.html"]
    for path in beside:
        path.write_text("written beside the sitemaps")
    record_written(tmp_path, beside, (), BASE, own_names(settings), record_key(Path(settings.state_file)))

    spare = ["sitemap-changes.atom", "sitemap.html"] if spared else []
    written = write_sitemap_files(entries(2), tmp_path, settings, Report(), spare=spare)
    assert all(path.exists() == spared for path in beside)
    assert {path.name for path in written.removed} == (set() if spared else {"sitemap-changes.atom", "sitemap.html"})


def test_a_spared_name_held_by_a_file_it_did_not_write_stops_the_build_before_a_byte_is_written(tmp_path):
    (tmp_path / "notes.html").write_text("mine")
    with pytest.raises(OSError, match=r"notes\.html is not a file sitemapkit wrote"):
        write_sitemap_files(entries(2), tmp_path, Settings(base_url=BASE), Report(), spare=["notes.html"])
    assert sorted(path.name for path in Path(tmp_path).iterdir()) == ["notes.html"]
