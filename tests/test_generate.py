"""``generate``: the one call every adapter makes."""

from __future__ import annotations

import pytest
from git_helpers import commit, init
from lxml import etree
from manifest_paths import manifest_of

from sitemap_checks import SITEMAP_NS
from sitemapkit import Page, Report, Settings, build_entries, generate
from sitemapkit.dates import format_moment
from sitemapkit.report import KEPT_PROBLEMS

BASE = "https://example.com/"


def test_an_info_reaches_the_adapter_but_never_fails_a_strict_build():
    from sitemapkit import Report

    seen = []
    report = Report(on_warning=seen.append)
    report.info("guide.md", "lastmod", "lastmod-git-shallow", "shallow clone")
    report.warn("a.md", "priority", "priority-range", "dropped")
    assert [p.severity for p in seen] == ["info", "warning"]
    assert [p.rule for p in report.warnings] == ["priority-range"]
    assert [p.rule for p in report.notes] == ["lastmod-git-shallow"]


def test_build_entries_dates_every_page_as_the_build_does(tmp_path):
    """The Python API gives the same lastmods as ``generate``: git for a committed page, the
    manifest's fingerprint for one without a date (read, never written, by build_entries)."""
    repo = init(tmp_path)
    commit(repo, "2020-01-01T00:00:00", {"docs/a.md": "a"})
    pages = [Page(url="a/", source=repo / "docs/a.md", content="A"), Page(url="b/", content="B")]
    settings = Settings(base_url=BASE)
    site = tmp_path / "site"
    for _ in range(2):  # the first build starts the manifest, the second dates b/ by it
        generate(pages, site, settings, project_dir=tmp_path, source_dirs=[repo / "docs"])
    manifest = manifest_of(tmp_path, BASE, site).read_bytes()
    built = {url.findtext(f"{{{SITEMAP_NS}}}loc"): url.findtext(f"{{{SITEMAP_NS}}}lastmod")
             for url in etree.parse(str(site / "sitemap.xml")).getroot()}

    entries = build_entries(pages, settings, project_dir=tmp_path, source_dirs=[repo / "docs"], site_dir=site)
    listed = {entry.loc: format_moment(entry.lastmod) for entry in entries}
    assert listed == built
    assert listed[BASE + "a/"] == "2020-01-01T00:00:00Z" and listed[BASE + "b/"] is not None
    assert manifest_of(tmp_path, BASE, site).read_bytes() == manifest


@pytest.mark.slow  # a large input: 40,000 pages
def test_duplicate_urls_are_found_among_many(tmp_path):
    """Duplicate detection keeps a fixed-size record a URL, and still finds every repeat."""
    pages = [Page(url=f"p{i % 30_000}.html") for i in range(40_000)]
    report = Report()
    entries = list(build_entries(pages, Settings(base_url=BASE, lastmod=()), report=report))
    assert [e.loc for e in entries] == [f"{BASE}p{i}.html" for i in range(30_000)]
    assert report.warning_count == 10_000 and {p.rule for p in report.warnings} == {"duplicate-url"}
    assert len(report.warnings) == KEPT_PROBLEMS  # the first: the rest were told, not kept
    assert report.warnings[0].message == f"{BASE}p0.html is listed already"


def test_the_generators_heap_is_unfrozen_after_and_a_callers_freeze_is_kept(tmp_path):
    """``generate`` freezes the heap it finds for the cycle collector while it works: after
    it, nothing stays frozen, also when it fails; a heap its caller froze stays frozen."""
    import gc

    import pytest

    from sitemapkit import SitemapError

    site = tmp_path / "site"
    site.mkdir()
    (site / "a.html").write_text("<html><head></head><body><main>A</main></body></html>")
    pages = [Page(url="a.html", output=site / "a.html")]
    assert gc.get_freeze_count() == 0
    generate(pages, site, Settings(base_url=BASE), project_dir=tmp_path)
    assert gc.get_freeze_count() == 0
    with pytest.raises(SitemapError):  # strict, and a warning: raised from inside the step
        generate([*pages, Page(url="a.html", output=site / "a.html")], site,
                 Settings(base_url=BASE, strict=True), project_dir=tmp_path)
    assert gc.get_freeze_count() == 0

    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        generate(pages, site, Settings(base_url=BASE), project_dir=tmp_path)
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()
