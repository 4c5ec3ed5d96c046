"""IndexNow against a real HTTP server on 127.0.0.1 that answers as scripted."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from indexnow_endpoint import Engine

from sitemapkit import Page, Report, Settings, SitemapError, generate
from sitemapkit.lastmod.manifest import Changes
from sitemapkit.lastmod.state import load_state, save_state
from sitemapkit.output.indexnow import submit_changes
from sitemapkit.site.files import Sink

KEY = "0123456789abcdef"
BASE = "https://example.com/"


@pytest.fixture
def engine():
    engine = Engine()
    yield engine
    engine.close()


def settings(endpoint: str, base: str = BASE, **more) -> Settings:
    return Settings(base_url=base, indexnow={"key": KEY, "endpoint": endpoint}, **more)


def changes(tmp_path: Path, added=(), changed=(), removed=()) -> Changes:
    state = tmp_path / "state.json"
    save_state(state, {}, [])
    return Changes(list(added), list(changed), list(removed), state_file=state)


def submit(engine, tmp_path, change, **options):
    report = Report()
    site = tmp_path / "site"
    site.mkdir(exist_ok=True)
    sent = submit_changes(
        change, site, settings(engine.url, **options), report, backoff=0.001,
        sleep=lambda seconds: None,
    )
    return sent, report


def test_batches_of_ten_thousand_and_202_is_success(engine, tmp_path):
    urls = [f"{BASE}p{i:05d}" for i in range(25_000)]
    engine.statuses = [202, 202, 202]
    sent, report = submit(engine, tmp_path, changes(tmp_path, added=urls))
    assert sent == 25_000 and not report.warnings
    assert [len(r["json"]["urlList"]) for r in engine.requests] == [10_000, 10_000, 5_000]
    first = engine.requests[0]
    assert first["path"] == "/indexnow"
    assert first["type"] == "application/json; charset=utf-8"
    assert first["json"]["host"] == "example.com" and first["json"]["key"] == KEY
    assert "keyLocation" not in first["json"]
    assert [url for r in engine.requests for url in r["json"]["urlList"]] == urls
    key_file = tmp_path / "site" / f"{KEY}.txt"
    assert key_file.read_text() == KEY and key_file in report.files


def test_added_changed_removed_and_leftovers_are_sent_once_each(engine, tmp_path):
    change = changes(tmp_path, added=[BASE + "b"], changed=[BASE + "a"], removed=[BASE + "c"])
    change.unsent = [BASE + "a", BASE + "z"]
    submit(engine, tmp_path, change)
    assert engine.requests[0]["json"]["urlList"] == [BASE + u for u in "abcz"]


def test_403_is_explained_and_the_urls_are_kept(engine, tmp_path):
    engine.statuses = [403]
    change = changes(tmp_path, added=[BASE + "a", BASE + "b"])
    sent, report = submit(engine, tmp_path, change)
    assert sent == 0 and len(engine.requests) == 1
    (warning,) = report.warnings
    assert warning.rule == "indexnow-403" and "key is not valid" in warning.message
    assert f"{BASE}{KEY}.txt" in warning.message
    assert load_state(change.state_file).unsent == [BASE + "a", BASE + "b"]


def test_429_is_retried_then_200(engine, tmp_path):
    engine.statuses = [429, 429, 200]
    sent, report = submit(engine, tmp_path, changes(tmp_path, changed=[BASE + "a"]))
    assert sent == 1 and not report.warnings and len(engine.requests) == 3


def test_429_gives_up_after_bounded_retries(engine, tmp_path):
    engine.statuses = [429] * 10
    sent, report = submit(engine, tmp_path, changes(tmp_path, changed=[BASE + "a"]))
    assert sent == 0 and len(engine.requests) == 5  # one try and four retries
    assert report.warnings[0].rule == "indexnow-429"
    assert "after 4 retries" in report.warnings[0].message


def test_a_failed_batch_stops_the_rest(engine, tmp_path):
    engine.statuses = [200, 422]
    urls = [f"{BASE}p{i:05d}" for i in range(20_001)]
    change = changes(tmp_path, added=urls)
    sent, report = submit(engine, tmp_path, change)
    assert sent == 10_000 and len(engine.requests) == 2
    assert "do not belong to the host" in report.warnings[0].message
    assert load_state(change.state_file).unsent == urls[10_000:]


def test_site_below_the_host_root_names_its_key_location(engine, tmp_path):
    submit(engine, tmp_path, changes(tmp_path, added=[BASE + "docs/a"]), base=BASE + "docs/")
    assert engine.requests[0]["json"]["keyLocation"] == f"{BASE}docs/{KEY}.txt"
    assert (tmp_path / "site" / f"{KEY}.txt").read_text() == KEY


def test_network_failure_is_a_warning(tmp_path):
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    change = changes(tmp_path, added=[BASE + "a"])
    report = Report()
    sent = submit_changes(
        change, tmp_path, settings(f"http://127.0.0.1:{port}/indexnow"), report, timeout=5
    )
    assert sent == 0 and report.warnings[0].rule == "indexnow-network"
    assert load_state(change.state_file).unsent == [BASE + "a"]


def test_dry_run_prints_and_sends_nothing(engine, tmp_path, capsys):
    change = changes(tmp_path, added=[BASE + "new"], removed=[BASE + "gone"])
    report = Report()
    sink = Sink(dry_run=True)
    submit_changes(change, tmp_path, settings(engine.url), report, sink)
    printed = capsys.readouterr().out
    assert "would POST 2 URLs in 1 batch " in printed
    assert f"  {BASE}gone\n" in printed and f"  {BASE}new\n" in printed
    # The key file and the URLs kept for the next build are counted, not written.
    assert not engine.requests and not (tmp_path / f"{KEY}.txt").exists()
    assert set(sink.sizes) == {tmp_path / f"{KEY}.txt", change.state_file}
    assert load_state(change.state_file).unsent == []


# ---------------------------------------------------------------- through generate


def _pages(site: Path, texts: dict[str, str]) -> list[Page]:
    site.mkdir(exist_ok=True)
    for name, text in texts.items():
        (site / f"{name}.html").write_text(f"<html><body><main><p>{text}</p></main></body></html>")
    return [Page(url=f"{name}.html", output=site / f"{name}.html") for name in texts]


def test_generate_submits_what_changed_since_the_last_build(engine, tmp_path):
    site = tmp_path / "site"
    options = settings(engine.url, lastmod=("fingerprint",))
    generate(_pages(site, {"a": "1", "b": "2"}), site, options, project_dir=tmp_path)
    assert not engine.requests  # a first build knows of no change
    generate(_pages(site, {"a": "1", "b": "2"}), site, options, project_dir=tmp_path)
    assert not engine.requests
    (site / "b.html").unlink()
    generate(_pages(site, {"a": "edited", "c": "3"}), site, options, project_dir=tmp_path)
    assert engine.requests[0]["json"]["urlList"] == [BASE + "a.html", BASE + "b.html", BASE + "c.html"]


def test_network_failure_fails_the_build_only_under_strict(tmp_path):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    site = tmp_path / "site"
    options = settings(f"http://127.0.0.1:{port}/indexnow", lastmod=("fingerprint",))
    generate(_pages(site, {"a": "1"}), site, options, project_dir=tmp_path)
    report = generate(_pages(site, {"a": "2"}), site, options, project_dir=tmp_path)
    assert [w.rule for w in report.warnings] == ["indexnow-network"]
    with pytest.raises(SitemapError):
        generate(
            _pages(site, {"a": "3"}), site, options.replace(strict=True), project_dir=tmp_path
        )


def test_changes_are_tracked_even_with_lastmod_off(engine, tmp_path):
    site = tmp_path / "site"
    options = settings(engine.url, lastmod=False)
    generate(_pages(site, {"a": "1", "b": "2"}), site, options, project_dir=tmp_path)
    generate(_pages(site, {"a": "1", "b": "edited"}), site, options, project_dir=tmp_path)
    assert [r["json"]["urlList"] for r in engine.requests] == [[BASE + "b.html"]]
    assert "<lastmod>" not in (site / "sitemap.xml").read_text()


def test_key_hosted_elsewhere_is_named_not_written(engine, tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    options = Settings(base_url=BASE, indexnow={
        "key": KEY, "endpoint": engine.url, "key_location": "https://keys.example.net/k.txt"
    })
    submit_changes(changes(tmp_path, added=[BASE + "a"]), site, options, Report())
    assert engine.requests[0]["json"]["keyLocation"] == "https://keys.example.net/k.txt"
    assert not list(site.iterdir())


def test_command_line_dry_run(engine, tmp_path, capsys, monkeypatch):
    from sitemapkit.cli import main

    monkeypatch.chdir(tmp_path)
    site = tmp_path / "site"
    _pages(site, {"a": "1"})
    flags = ["build", str(site), "--base-url", BASE, "--indexnow", f"key={KEY},endpoint={engine.url}"]
    assert main(flags) == 0
    _pages(site, {"a": "2", "b": "new"})
    capsys.readouterr()
    assert main([*flags, "--dry-run"]) == 0
    printed = capsys.readouterr().out
    assert "would POST 2 URLs" in printed and f"  {BASE}b.html" in printed
    assert not engine.requests
    assert main(flags) == 0  # the real build sends what the dry run only showed
    assert engine.requests[0]["json"]["urlList"] == [BASE + "a.html", BASE + "b.html"]
