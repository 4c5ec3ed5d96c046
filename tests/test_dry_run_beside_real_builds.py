"""A dry run is a parameter of the build (a ``Sink`` made by ``generate``), not a state of the
thread: a build that runs while a dry run is going on writes its files, and a dry run writes
and removes nothing, whichever other build runs beside it."""

import os
from pathlib import Path

from sitemapkit import Page, Settings, generate
from sitemapkit.output.write import write_sitemap_files
from sitemapkit.report import Report
from sitemapkit.site.files import Sink

BASE = "https://example.org/"
OPTIONS = dict(base_url=BASE, gzip=True, txt=True, changes_feed=5, html_sitemap=True,
               lastmod=["fingerprint"], state_file="state.json")
INDEXNOW = {"key": "0123456789abcdef", "endpoint": "http://127.0.0.1:9/indexnow"}
"""A first build sends nothing (nothing is known to have changed): it only writes the key file."""
NOW = 1_780_000_000
"""The builds' "now": a fingerprint's first-seen time is a page's lastmod, so the sitemaps' bytes,
and the content-hashed names of an index's children, hold the build's time. A dry run and the
real build that follows must fall in the same second, whatever the machine's load."""


def site(folder: Path, count: int) -> list[Page]:
    folder.mkdir(parents=True, exist_ok=True)
    pages = []
    for n in range(count):
        path = folder / f"p{n}.html"
        path.write_text(f"<html><head><title>Page {n}</title></head><body><main>Text {n}</main></body></html>")
        pages.append(Page(f"p{n}.html", output=str(path)))
    return pages


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {path.relative_to(folder).as_posix(): (path.read_bytes(), path.stat().st_mtime_ns)
            for path in sorted(folder.rglob("*")) if path.is_file()}


def test_a_build_run_while_a_dry_run_streams_its_pages_writes_its_files(tmp_path, pin_now):
    pin_now(NOW)
    # A tool building two sites at once: the dry run's pages are read while the other site's
    # real build runs. A dry run held by the thread (a ContextVar) swallowed the real build's files.
    inner = tmp_path / "inner"
    inner_pages = site(inner, 3)
    outer = tmp_path / "outer"
    outer_pages = site(outer, 4)
    before = snapshot(outer)
    inner_report = []

    def pages():
        yield outer_pages[0]
        inner_report.append(generate(inner_pages, inner, Settings(**OPTIONS, indexnow=INDEXNOW),
                                     project_dir=tmp_path / "p-inner"))
        yield from outer_pages[1:]

    dry = generate(pages(), outer, Settings(**OPTIONS, indexnow=INDEXNOW), project_dir=tmp_path / "p-outer",
                   dry_run=True)
    assert snapshot(outer) == before  # nothing written, nothing removed
    assert not (tmp_path / "p-outer").exists()  # nor the manifest
    (real,) = inner_report
    written = {path.name for path in real.files}
    assert {"sitemap.xml", "sitemap.xml.gz", "sitemap.txt", "sitemap-changes.atom", "sitemap.html",
            "robots.txt", "0123456789abcdef.txt"} <= written
    assert all(path.is_file() for path in real.files)
    assert real.sizes == {path: path.stat().st_size for path in real.files}
    assert {path.name for path in dry.sizes} >= written  # counted as the real build wrote them
    assert any(path.name.startswith("state-") for path in dry.sizes)  # its manifest too


def test_a_dry_run_predicts_every_file_of_the_real_build_that_follows(tmp_path, pin_now):
    pin_now(NOW)
    pages = site(tmp_path / "site", 5)
    folder = tmp_path / "site"
    generate(pages, folder, Settings(**OPTIONS), project_dir=tmp_path)  # an earlier build
    site(folder, 2)
    (folder / "p4.html").unlink()
    (folder / "p3.html").unlink()
    (folder / "p0.html").write_text("<html><head><title>Page 0</title></head><body><main>New</main></body></html>")
    before = snapshot(folder)
    state = snapshot(tmp_path)
    dry = generate(pages[:3], folder, Settings(**OPTIONS, max_urls=2), project_dir=tmp_path, dry_run=True)
    assert snapshot(folder) == before and snapshot(tmp_path) == state
    real = generate(pages[:3], folder, Settings(**OPTIONS, max_urls=2), project_dir=tmp_path)
    assert dry.files == real.files
    # the manifest too, which the real build rewrote (page 0 changed)
    assert dry.sizes == {path: path.stat().st_size for path in dry.sizes}
    assert any(path.name.startswith("state-") for path in dry.sizes)


def test_the_writer_writes_where_its_sink_says(tmp_path):
    entries = [(f"{BASE}p{n}", None) for n in range(3)]
    counted = Sink(dry_run=True)
    dry = write_sitemap_files(iter(entries), tmp_path / "dry", Settings(base_url=BASE, gzip=True), Report(),
                              sink=counted)
    assert not (tmp_path / "dry").exists()
    real = write_sitemap_files(iter(entries), tmp_path / "real", Settings(base_url=BASE, gzip=True), Report())
    assert [path.name for path in dry.files] == [path.name for path in real.files] == ["sitemap.xml",
                                                                                        "sitemap.xml.gz"]
    assert {path.name: size for path, size in counted.sizes.items()} == {
        path.name: os.path.getsize(path) for path in real.files}
