"""What ``sitemapkit`` prints reads as English and says what happened: plurals, one hint per
real cause, counts that add up, a closed pipe ended quietly, ``-q`` on both commands, and a
progress line drawn a few times a second with its rate and time left. Each test asserts the
exact line a user sees, from the command as typed (a subprocess) where the terminal matters."""

from __future__ import annotations

import io
import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest
from git_helpers import commit, init
from hypothesis import given
from hypothesis import strategies as st

from sitemap_checks import locs
from sitemapkit.cli import main
from sitemapkit.cli.progress import CLEAR, REDRAWS_PER_SECOND, ProgressLine, progress_text
from sitemapkit.cli.validate import file_progress

BASE = "https://site.example/"
SITEMAPKIT = [sys.executable, "-m", "sitemapkit"]


def page(site: Path, path: str, head: str = "") -> None:
    target = site / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(f"<!doctype html><html lang='en'><head><title>{path}</title>{head}</head>"
                      f"<body><main><p>{path}</p></main></body></html>", encoding="utf-8")


def dated(day: str) -> str:
    return f"<meta property='article:modified_time' content='{day}'>"


def outside_git(path: Path) -> None:
    """The tests about a folder outside git need tmp_path not to be inside a repository."""
    assert not any((folder / ".git").exists() for folder in (path, *path.parents)), path


# ---------------------------------------------------------------- closed pipe


def _read_ten_bytes_then_close(command: list[str], cwd: Path) -> tuple[int, str]:
    """``command | head -c 10``: read 10 bytes, close the pipe, return the status and stderr."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd)
    assert len(process.stdout.read(10)) == 10
    process.stdout.close()
    errors = process.stderr.read().decode()
    process.stderr.close()
    return process.wait(timeout=120), errors


def test_build_json_into_a_closed_pipe_ends_quietly(tmp_path):
    site = tmp_path / "public"
    for n in range(800):  # one sitemap file per URL: a JSON document far past a pipe's 64 KiB
        page(site, f"p{n}.html")
    command = [*SITEMAPKIT, "build", str(site), "--base-url", BASE, "--max-urls", "1", "--format", "json"]
    status, errors = _read_ten_bytes_then_close(command, tmp_path)
    assert errors == ""  # no BrokenPipeError traceback, no "Exception ignored" at exit
    assert status == 141  # as a command SIGPIPE stopped (`yes | head`)
    assert (site / "sitemap.xml").is_file()  # the build itself was done


def test_validate_into_a_closed_pipe_ends_quietly(tmp_path):
    entries = "".join(f"<url><loc>{BASE}p{n}.html</loc><lastmod>yesterday</lastmod></url>\n" for n in range(200))
    targets = []
    for number in range(10):  # 10 files of 100-odd problem lines: far past a pipe's 64 KiB
        (tmp_path / f"sitemap-{number}.xml").write_text(
            '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
            f"{entries}</urlset>\n", encoding="utf-8")
        targets.append(f"sitemap-{number}.xml")
    status, errors = _read_ten_bytes_then_close([*SITEMAPKIT, "validate", *targets], tmp_path)
    assert errors == ""
    assert status == 141


# ------------------------------------------------------------------------ -q


def test_validate_takes_q_and_prints_the_problems_without_the_summary(tmp_path, capsys):
    (tmp_path / "sitemap.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        f"<url><loc>{BASE}a.html</loc><lastmod>yesterday</lastmod></url></urlset>\n", encoding="utf-8")
    target = str(tmp_path / "sitemap.xml")
    assert main(["validate", target]) == 1
    loud = capsys.readouterr().out.splitlines()
    assert loud[-1] == "FAILED: 1 file checked, 1 error, 0 warnings"
    assert main(["validate", "-q", target]) == 1
    quiet = capsys.readouterr().out.splitlines()
    assert quiet == loud[:-1] and len(quiet) == 1 and "lastmod" in quiet[0]
    assert main(["validate", "--quiet", "--format", "json", target]) == 1
    assert '"ok": false' in capsys.readouterr().out  # -q takes nothing from a JSON document


def test_build_q_prints_nothing(tmp_path, capsys):
    page(tmp_path / "public", "index.html")
    assert main(["build", str(tmp_path / "public"), "--base-url", BASE, "-q"]) == 0
    assert capsys.readouterr() == ("", "")


# ------------------------------------------------------------------ progress


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_progress_line_shows_the_rate_and_the_time_left():
    assert progress_text(2000, 20000, 2.0, "pages checked") == (
        "[###...........................] 2000/20000 pages checked, 1000/s, 18 s left")
    assert progress_text(300, 20000, 0.5, "pages checked") == (
        "[..............................] 300/20000 pages checked")  # too early for a rate
    assert progress_text(1000, 20000, 20.0, "pages checked") == (
        "[#.............................] 1000/20000 pages checked, 50/s, 6 min 20 s left")
    assert progress_text(20000, 20000, 40.0, "pages checked") == (
        "[##############################] 20000/20000 pages checked, 500/s")


def test_twenty_thousand_pages_redraw_a_few_times_a_second_not_every_page():
    """The run the issue measured: 20,000 URLs checked, here 256 a second (78 s; steps a
    float adds up exactly). Drawn on every page, that was 1.2 MB of terminal output; at four
    redraws a second it is one line every 64 pages, and the last."""
    clock, screen = Clock(), io.StringIO()
    line = ProgressLine("pages checked", stream=screen, clock=clock)
    for done in range(1, 20001):
        line(done, 20000)
        clock.now += 1 / 256
    drawn = screen.getvalue().split(CLEAR)[1:]
    assert 256 // REDRAWS_PER_SECOND == 64
    assert len(drawn) == 19999 // 64 + 2 == 314
    assert len(screen.getvalue()) < 30_000  # drawn on every page: 20,000 lines, about 1.2 MB
    assert drawn[32] == "[###...........................] 2049/20000 pages checked, 256/s, 1 min 10 s left"
    assert drawn[-1] == "[##############################] 20000/20000 pages checked, 256/s"


@given(st.lists(st.floats(min_value=0, max_value=2, allow_nan=False), min_size=1, max_size=300))
def test_redraws_are_bounded_by_the_time_passed_and_the_last_step_is_always_drawn(steps):
    clock, screen = Clock(), io.StringIO()
    line = ProgressLine("pages checked", stream=screen, clock=clock)
    total = len(steps)
    for done, step in enumerate(steps, 1):
        clock.now += step
        line(done, total)
    drawn = screen.getvalue().split(CLEAR)[1:]
    elapsed = sum(steps[1:])
    assert len(drawn) <= 2 + elapsed * REDRAWS_PER_SECOND
    assert drawn[-1].startswith(f"[{'#' * 30}] {total}/{total} pages checked")


def test_a_big_file_read_by_validate_shows_megabytes_and_a_small_one_nothing(capsys):
    show = file_progress()
    show("small.xml", 1_000_000, 2_000_000)
    show("big.xml", 4_000_000, 9_000_000)
    show("big.xml", 9_000_000, 9_000_000)  # the last step: drawn
    assert capsys.readouterr().err.split(CLEAR)[1:] == [
        "[#############.................] 4.0 MB/9.0 MB of big.xml read",
        "[##############################] 9.0 MB/9.0 MB of big.xml read",
    ]


def test_build_progress_on_a_terminal_is_the_new_line(tmp_path):
    site = tmp_path / "many"
    for n in range(250):
        page(site, f"p{n}.html")
    parent, child = pty.openpty()
    try:
        done = subprocess.run([*SITEMAPKIT, "build", str(site), "--base-url", BASE],
                              stdout=subprocess.PIPE, stderr=child, cwd=tmp_path, timeout=120)
        os.close(child)
        shown = b""
        try:
            while chunk := os.read(parent, 65536):
                shown += chunk
        except OSError:  # the terminal's end, once all is read
            pass
    finally:
        os.close(parent)
    assert done.returncode == 0
    last = shown.decode().replace("\r\n", "\n").split(CLEAR)[-1].splitlines()[0]
    assert last.startswith("[##############################] 250/250 pages read")


# ------------------------------------------------------------------ English


def test_one_warning_under_strict_is_one_warning(tmp_path, capsys):
    page(tmp_path / "public", "index.html")
    status = main(["build", str(tmp_path / "public"), "--base-url", BASE, "--strict", "--exclude", "nomatch/"])
    assert status == 1
    assert capsys.readouterr().err.splitlines()[-1] == (
        "sitemapkit: 1 sitemap warning and strict is on; the first: settings: exclude: pattern 'nomatch/' "
        "matched no page; check its spelling (gitignore-style) [exclude-unmatched]")


@pytest.mark.slow  # a real git history (make test-fast leaves it out)
def test_one_uncommitted_source_file_is_its_lastmod_and_the_hint_is_to_commit(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    repo = init(tmp_path / "repo")
    commit(repo, "2024-05-01T10:00:00", {"content/a.md": "a"})
    (repo / "content" / "b.md").write_text("b", encoding="utf-8")
    site = repo / "public"
    page(site, "a.html")
    page(site, "b.html")
    assert main(["build", str(site), "--base-url", BASE, "--source-dir", str(repo / "content"),
                 "--lastmod", "meta,git"]) == 0
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [
        f"info: {repo}: lastmod: 1 source file has no commit yet (content/b.md); its lastmod falls back "
        "to the next source in 'lastmod' [lastmod-git-untracked]"]
    assert captured.out.splitlines() == [
        "2 URLs in sitemap.xml, robots.txt; lastmod: 1 git, 1 none (for git dates, commit the pages); 0 warnings"]


def test_a_folder_outside_git_is_named_as_such_not_told_to_fetch_history(tmp_path, capsys, monkeypatch):
    outside_git(tmp_path)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "a.md").write_text("a", encoding="utf-8")
    page(tmp_path / "public", "a.html")
    assert main(["build", "public", "--base-url", BASE, "--source-dir", "content"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "1 URL in sitemap.xml, robots.txt; lastmod: 1 none (content is not in a git repository); 0 warnings"]


def test_pages_without_sources_are_told_where_git_dates_come_from(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    page(tmp_path / "public", "a.html")
    assert main(["build", "public", "--base-url", BASE]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "1 URL in sitemap.xml, robots.txt; lastmod: 1 none (git dates need the pages' source files, which "
        "sitemapkit build finds with --source-dir); 0 warnings"]


def test_the_summary_counts_sitemap_html_and_a_rebuild_lists_it_once(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    site = tmp_path / "public"
    for n in range(7):
        page(site, f"p{n}.html", dated(f"2025-01-0{n + 1}"))
    expected = ("8 URLs in sitemap.xml, sitemap.html, robots.txt; lastmod: 7 meta, sitemap.html by the newest "
                "page it lists; 0 warnings")
    for _ in range(2):  # the second build finds the first's sitemap.html among the pages
        assert main(["build", "public", "--base-url", BASE, "--html-sitemap"]) == 0
        assert capsys.readouterr().out.splitlines() == [expected]
        listed = locs(site / "sitemap.xml")
        assert len(listed) == len(set(listed)) == 8


@pytest.mark.parametrize(
    ("flag", "expected"),
    [
        ("--rule GLOB:KEY=VALUE,...", "changefreq and priority for the pages whose URL path matches a glob: the glob, "
         "a colon, then key=value pairs, as in --rule 'blog/*:changefreq=weekly,priority=0.7'; repeatable, and the "
         "first rule whose glob matches a page gives its values"),
        ("--news KEY=VALUE,...", "also list in sitemap-news.xml the pages whose URL path matches a glob and that "
         "were published in the last window_hours hours (default 48), under a publication's name and language, "
         "as in --news 'publication=The Daily,language=en,match=news/*'"),
    ],
)
def test_rule_and_news_help_is_plain_words_with_an_example(flag, expected, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "1000")  # no wrapping inside the help
    with pytest.raises(SystemExit):
        main(["build", "--help"])
    shown = " ".join(capsys.readouterr().out.split())  # the flag and its help, however laid out
    assert f"{flag} {expected}" in shown
    assert "{" not in expected and "[" not in expected


def test_the_help_examples_work_as_typed(tmp_path, capsys, monkeypatch, pin_now):
    monkeypatch.chdir(tmp_path)
    pin_now(1768435200)  # 2026-01-15T00:00:00Z
    site = tmp_path / "public"
    page(site, "blog/a.html")
    page(site, "news/today.html", "<meta property='article:published_time' content='2026-01-14T10:00:00Z'>")
    assert main(["build", "public", "--base-url", BASE, "--rule", "blog/*:changefreq=weekly,priority=0.7",
                 "--news", "publication=The Daily,language=en,match=news/*"]) == 0
    sitemap = (site / "sitemap.xml").read_text(encoding="utf-8")
    assert "<changefreq>weekly</changefreq><priority>0.7</priority>" in sitemap
    assert "<news:name>The Daily</news:name>" in (site / "sitemap-news.xml").read_text(encoding="utf-8")


def test_every_warning_is_printed_counted_and_in_the_json_past_what_a_report_keeps(tmp_path):
    """More warnings than a report keeps (``KEPT_PROBLEMS``, so that a million pages that each
    warn need no million problems alive): each is still printed, the summary counts them all,
    ``--format json`` lists them all, and strict fails naming the first."""
    from sitemapkit.report import KEPT_PROBLEMS

    site = tmp_path / "site"
    count = KEPT_PROBLEMS + 200
    for number in range(count):  # each page shows an image the site does not have
        page(site, f"p{number:04d}.html")
        (site / f"p{number:04d}.html").write_text(
            f"<!doctype html><html><head><title>{number}</title></head><body><main>"
            f"<img src='/img/{number}.png' alt='x'></main></body></html>", encoding="utf-8")
    command = [*SITEMAPKIT, "build", str(site), "--base-url", BASE]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    printed = [line for line in done.stderr.splitlines() if line.endswith("[image-missing]")]
    assert len(printed) == count and done.stdout.rstrip().endswith(f"; {count} warnings")
    as_json = subprocess.run([*command, "--format", "json"], capture_output=True, text=True, check=True)
    warnings = json.loads(as_json.stdout)["warnings"]
    assert [w["page"] for w in warnings] == [f"p{number:04d}.html" for number in range(count)]
    strict = subprocess.run([*command, "--strict", "-q"], capture_output=True, text=True)
    assert strict.returncode == 1
    assert f"{count} sitemap warnings and strict is on; the first: p0000.html: image:" in strict.stderr
