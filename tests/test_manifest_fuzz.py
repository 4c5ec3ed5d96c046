"""Whatever bytes the manifest holds (arbitrary, or a real manifest cut, spliced or flipped
at random), a build goes on: valid sitemaps, at most one ``state-corrupt`` warning naming
the file, a fresh manifest the next build reads, no traceback, no temporary file left. The
mutations start from what a real build wrote, so the test follows the manifest's format."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from manifest_paths import manifest_of

from sitemap_checks import assert_valid_tree
from sitemapkit import Page, Settings, generate
from sitemapkit.lastmod.state import StateError

BASE = "https://example.com/"
OPTIONS = Settings(base_url=BASE, lastmod=("fingerprint",), changes_feed=5)


def build(project: Path, texts: dict[str, str]):
    site = project / "site"
    site.mkdir(parents=True, exist_ok=True)
    pages = []
    for name, text in texts.items():
        (site / f"{name}.html").write_text(f"<html><head><title>{name}</title></head><body><main>{text}"
                                           "</main></body></html>")
        pages.append(Page(url=f"{name}.html", output=site / f"{name}.html"))
    return site, generate(pages, site, OPTIONS, project_dir=project)


def mutated(original: bytes, data: st.DataObject) -> bytes:
    kind = data.draw(st.sampled_from(["random", "cut", "flip", "splice"]))
    if kind == "random" or not original:
        return data.draw(st.binary(max_size=2048))
    at = data.draw(st.integers(0, len(original) - 1))
    if kind == "cut":
        return original[:at]
    if kind == "flip":
        return original[:at] + bytes([original[at] ^ data.draw(st.integers(1, 255))]) + original[at + 1:]
    return original[:at] + data.draw(st.binary(max_size=64)) + original[at:]


@pytest.mark.slow  # fuzz: a build for each of many examples
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_manifest_bytes_leave_the_build_whole(tmp_path_factory, data):
    project = tmp_path_factory.mktemp("fuzz")
    build(project, {"a": "first", "b": "second"})
    state = manifest_of(project, BASE, project / "site", OPTIONS.state_file)
    assert state.is_file()
    state.write_bytes(mutated(state.read_bytes(), data))

    site, report = build(project, {"a": "first", "b": "changed", "c": "new"})
    assert [w.rule for w in report.warnings] in ([], ["state-corrupt"])
    assert all(str(state) in w.where for w in report.warnings)
    assert_valid_tree(site, BASE)
    assert not list(project.rglob("*.tmp"))

    _, again = build(project, {"a": "first", "b": "changed", "c": "new"})  # the fresh manifest reads
    assert not again.warnings
    shutil.rmtree(project)


def test_a_first_seen_time_after_the_build_is_not_believed(tmp_path):
    """Found by the test above: one flipped bit made a page first seen in 3026, and the build
    then warned ``lastmod-future`` about a date no page had."""
    build(tmp_path, {"a": "first", "b": "second"})
    state = manifest_of(tmp_path, BASE, tmp_path / "site", OPTIONS.state_file)
    text = state.read_text()
    year = text.index('"20', text.index('"https://example.com/a.html"') + 30)
    state.write_text(text[:year + 1] + "3" + text[year + 2:])
    _, report = build(tmp_path, {"a": "first", "b": "changed", "c": "new"})
    assert not report.warnings


def _read(path: Path, *, whole: bool):
    """``read_state``'s answer (records and unsent, or the error) with the records parsed in
    blocks, as a build reads them, or one line a block."""
    from sitemapkit.lastmod import state as module

    saved = module._READ_LINES
    module._READ_LINES = saved if whole else 1
    records: list = []
    try:
        return module.read_state(path, records.extend), records
    except module.StateError as error:
        return type(error), []
    finally:
        module._READ_LINES = saved


@pytest.mark.slow  # fuzz: a build for each of many examples
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_manifest_read_whole_reads_as_it_does_a_line_at_a_time(tmp_path_factory, data):
    """The one reader gives the same answer whatever its blocks: a record line is read
    alike wherever a block starts or ends."""
    project = tmp_path_factory.mktemp("whole")
    build(project, {"a": "first", "b": "second", "c": "third"})
    build(project, {"a": "first", "b": "edited", "c": "third"})
    state = manifest_of(project, BASE, project / "site", OPTIONS.state_file)
    original = state.read_bytes()
    state.write_bytes(original if data.draw(st.booleans()) else mutated(original, data))
    whole, lines = _read(state, whole=True), _read(state, whole=False)
    assert whole == lines
    if state.read_bytes() == original:
        assert len(whole[1]) == 3 and whole[0] == []
    shutil.rmtree(project)


def test_a_record_line_without_its_comma_is_refused_however_it_is_read(tmp_path):
    """Found by the test above: a comma flipped to a tab read as valid one line at a time."""
    build(tmp_path, {"a": "first", "b": "second", "c": "third"})
    build(tmp_path, {"a": "first", "b": "edited", "c": "third"})
    state = manifest_of(tmp_path, BASE, tmp_path / "site", OPTIONS.state_file)
    lines = state.read_bytes().split(b"\n")
    lines[4] = lines[4].removesuffix(b",") + b"\t"
    state.write_bytes(b"\n".join(lines))
    assert _read(state, whole=True)[0] is _read(state, whole=False)[0] is StateError


def _two_records_a_line(text: bytes) -> bytes:
    first = text.index(b"\n", text.index(b'"pages"'))
    second = text.index(b"\n", first + 1)
    return text[:second] + b" " + text[second + 1:]


@pytest.mark.parametrize("change", [
    lambda text: text,
    lambda text: text.replace(b"\n", b"\r\n"),  # a checkout that turned line ends
    lambda text: text + b"\n\n",
    _two_records_a_line,  # still JSON, not one record a line
    lambda text: text.replace(b'"https://example.com/c.html"', b'"https://example.com/a.html"'),  # listed twice
    lambda text: text.replace(b"Z\"", b"Q\"", 1),  # a first-seen time that is not one
    lambda text: text.replace(b"{\"sitemapkit_state\": 1,", b"{\"sitemapkit_state\": 1, \"extra\": 2,"),
    lambda text: text.replace(b"]", b", null]", 1),  # five values
    lambda text: text.replace(b"null", b"1", 1),
    lambda text: text.replace(b"}}", b"}} {}"),
], ids=["as written", "crlf", "blank lines after", "two records a line", "listed twice",
        "bad first seen", "extra key", "five values", "a number", "more after"])
def test_crafted_manifests_read_whole_as_a_line_at_a_time(tmp_path, change):
    build(tmp_path, {"a": "first", "b": "second", "c": "third"})
    build(tmp_path, {"a": "first", "b": "edited", "c": "third"})
    state = manifest_of(tmp_path, BASE, tmp_path / "site", OPTIONS.state_file)
    state.write_bytes(change(state.read_bytes()))
    assert _read(state, whole=True) == _read(state, whole=False)


def test_a_recorded_lastmod_that_is_no_date_is_warned_of_and_written_again(tmp_path):
    """The reader checks each record's first-seen time, not its lastmod: one that is no date
    stopped the build with a traceback where a page dated by its HTML asks what the last build
    wrote for it (``LastmodResolver._unchanged``)."""
    options = Settings(base_url=BASE, lastmod=("meta", "fingerprint"))
    site = tmp_path / "site"
    site.mkdir()
    pages = []
    for day in (1, 2):
        (site / f"p{day}.html").write_text(
            f'<html><head><title>p{day}</title><meta property="article:modified_time" content="2026-01-0{day}">'
            f"</head><body><main>page {day}</main></body></html>")
        pages.append(Page(url=f"p{day}.html", output=site / f"p{day}.html"))
    generate(pages, site, options, project_dir=tmp_path)
    full = (site / "sitemap.xml").read_bytes()
    generate(pages, site, options, project_dir=tmp_path)  # now the manifest records those lastmods
    state = manifest_of(tmp_path, BASE, site, options.state_file)
    text = state.read_text()
    assert text.count('"2026-01-01"') == 1
    state.write_text(text.replace('"2026-01-01"', '"garbage"'))

    report = generate(pages, site, options, project_dir=tmp_path)
    assert [(w.rule, w.where) for w in report.warnings] == [("state-corrupt", str(state))]
    assert "https://example.com/p1.html" in report.warnings[0].message
    assert (site / "sitemap.xml").read_bytes() == full
    assert '"2026-01-01"' in state.read_text()  # written again
    assert not generate(pages, site, options, project_dir=tmp_path).warnings
