"""Whatever bytes the manifest holds (arbitrary, or a real manifest cut, spliced or flipped
at random), a build goes on: valid sitemaps, at most one ``state-corrupt`` warning naming
the file, a fresh manifest the next build reads, no traceback, no temporary file left. The
mutations start from what a real build wrote, so the test follows the manifest's format."""

from __future__ import annotations

import shutil
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitemap_checks import assert_valid_tree
from sitemapkit import Page, Settings, generate

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


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_manifest_bytes_leave_the_build_whole(tmp_path_factory, data):
    project = tmp_path_factory.mktemp("fuzz")
    build(project, {"a": "first", "b": "second"})
    state = project / OPTIONS.state_file
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
