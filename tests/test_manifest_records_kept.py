"""A manifest too large for memory keeps its records in SQLite beside it
(``manifest.records_file``), so that a rebuild does not read and insert the whole JSON file
again: they are taken only while that file is the very one they were kept with (size,
modification time, inode), and only in the shape the manifest's reader checks. Any doubt:
the JSON is read, as a build without them reads it, and the sitemap is the same."""

from __future__ import annotations

import os
import sqlite3

import pytest
from manifest_paths import manifest_of

from sitemapkit import Settings, generate
from sitemapkit.lastmod import manifest
from sitemapkit.lastmod.manifest import records_file
from sitemapkit.site.scan import pages_in

BASE = "https://example.com/"
OPTIONS = Settings(base_url=BASE, lastmod=("fingerprint",))


@pytest.fixture(autouse=True)
def _large(monkeypatch):
    monkeypatch.setattr(manifest, "_IN_MEMORY", 2)  # every manifest here is "large"


def write(site, pages: dict[str, str]) -> None:
    site.mkdir(exist_ok=True)
    for name, text in pages.items():
        (site / f"{name}.html").write_text(f"<html><head><title>{name}</title></head><body><main>{text}</main>"
                                           "</body></html>")


def build(project, clock: str):
    os.environ["SOURCE_DATE_EPOCH"] = clock
    try:
        report = generate(pages_in(project / "site"), project / "site", OPTIONS, project_dir=project)
    finally:
        del os.environ["SOURCE_DATE_EPOCH"]
    return report, (project / "site" / "sitemap.xml").read_bytes()


def dated_site(project):
    """A site built twice (its pages dated by the second build), then built on a later day."""
    write(project / "site", {f"p{n}": f"page {n}" for n in range(6)})
    build(project, "1767225600")  # 2026-01-01: the first build dates nothing
    build(project, "1767312000")  # 2026-01-02: each page first seen on the 1st... as of this build
    return manifest_of(project, BASE, project / "site")


def test_an_unchanged_manifest_is_not_read_again(tmp_path):
    state = dated_site(tmp_path)
    assert records_file(state).is_file()
    _, kept = build(tmp_path, "1767398400")
    # the records after the head rewritten, the file's size, time and inode put back: a build
    # that read them would warn (state-corrupt); one that takes the kept records does not
    status = state.stat()
    text = state.read_bytes()
    head = text.index(b'"pages": {\n') + len(b'"pages": {\n')
    with open(state, "r+b") as handle:
        handle.seek(head)
        handle.write(b"x" * (len(text) - head))
    os.utime(state, ns=(status.st_atime_ns, status.st_mtime_ns))
    report, again = build(tmp_path, "1767398400")
    assert not report.warnings
    assert again == kept


def test_an_edited_manifest_is_read(tmp_path):
    state = dated_site(tmp_path)
    _, before = build(tmp_path, "1767398400")
    text = state.read_text()
    assert text.count("2026-01-01T00:00:00Z") >= 6
    state.write_text(text.replace("2026-01-01T00:00:00Z", "2025-06-01T00:00:00Z", 1))  # one page seen earlier
    report, after = build(tmp_path, "1767398400")
    assert not report.warnings
    assert after.count(b"2025-06-01") == 1 and before.count(b"2025-06-01") == 0


@pytest.mark.parametrize("change", [
    "UPDATE previous SET first_seen = 'yesterday' WHERE rowid IN (SELECT rowid FROM previous LIMIT 1)",
    "UPDATE previous SET digest = x'00' WHERE loc = (SELECT min(loc) FROM previous)",
    "UPDATE previous SET loc = x'07' WHERE loc = (SELECT min(loc) FROM previous)",
    "UPDATE previous SET first_seen = '2020-01-01T00:00:00Z'",  # well shaped, but not the manifest's...
])
def test_kept_records_of_the_wrong_shape_or_another_manifest_are_not_taken(tmp_path, change):
    state = dated_site(tmp_path)
    report, before = build(tmp_path, "1767398400")
    with sqlite3.connect(records_file(state)) as db:
        db.execute(change.replace("rowid IN (SELECT rowid FROM previous LIMIT 1)",
                                  "loc = (SELECT min(loc) FROM previous)"))
        if "2020" in change:  # ...unless the manifest is edited too: then it is read
            state.write_text(state.read_text())
    report, after = build(tmp_path, "1767398400")
    assert not report.warnings
    assert after == before


def test_kept_records_follow_what_changed(tmp_path):
    """A page changed, one gone, one new: the kept records are this build's (the next build,
    which takes them, writes what a build reading the JSON writes)."""
    state = dated_site(tmp_path)
    site = tmp_path / "site"
    write(site, {"p1": "page 1, changed", "p9": "new"})
    (site / "p2.html").unlink()
    _, changed = build(tmp_path, "1767398400")
    assert b"p9.html" in changed and b"p2.html" not in changed
    write(site, {"p3": "page 3, changed too"})
    _, taken = build(tmp_path, "1767484800")
    kept_state = state.read_bytes()
    # the same build again, from the JSON alone
    write(site, {"p3": "page 3, changed"})
    build(tmp_path, "1767398400")
    records_file(state).unlink()
    write(site, {"p3": "page 3, changed too"})
    os.utime(state)  # (the JSON is read: the kept records' file is gone anyway)
    _, read = build(tmp_path, "1767484800")
    assert read == taken and state.read_bytes() == kept_state


def test_a_dry_run_writes_no_kept_records(tmp_path):
    write(tmp_path / "site", {f"p{n}": f"page {n}" for n in range(6)})
    os.environ["SOURCE_DATE_EPOCH"] = "1767225600"
    try:
        generate(pages_in(tmp_path / "site"), tmp_path / "site", OPTIONS, project_dir=tmp_path, dry_run=True)
    finally:
        del os.environ["SOURCE_DATE_EPOCH"]
    assert not list(tmp_path.rglob("*.records.sqlite"))
