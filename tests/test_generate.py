"""``generate``: the one call every adapter makes."""

from __future__ import annotations

import gc

from sitemapkit import Page, Settings, generate


def test_the_cycle_collector_waits_while_pages_stream_and_is_restored(tmp_path):
    seen = []

    def pages():
        for n in range(3):
            seen.append(gc.isenabled())
            yield Page(url=f"p{n}/", html="<main>x</main>")

    assert gc.isenabled()
    generate(pages(), tmp_path, Settings(base_url="https://example.com/"), project_dir=tmp_path)
    assert seen == [False, False, False] and gc.isenabled()
    gc.disable()
    try:
        generate(pages(), tmp_path, Settings(base_url="https://example.com/"), project_dir=tmp_path)
        assert not gc.isenabled()  # a host that turned it off keeps it off
    finally:
        gc.enable()


def test_an_info_reaches_the_adapter_but_never_fails_a_strict_build():
    from sitemapkit import Report

    seen = []
    report = Report(on_warning=seen.append)
    report.info("guide.md", "lastmod", "lastmod-git-shallow", "shallow clone")
    report.warn("a.md", "priority", "priority-range", "dropped")
    assert [p.level for p in seen] == ["info", "warning"]
    assert [p.rule for p in report.warnings] == ["priority-range"]
    assert [p.rule for p in report.notes] == ["lastmod-git-shallow"]
