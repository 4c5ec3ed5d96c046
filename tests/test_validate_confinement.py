"""``validate`` opens only what it is given: the targets and files inside their folders (or
``--site-dir``), after ``..``, percent-encoded dots and symlinks are resolved; only regular
files (a named pipe never hangs it); a broken gzip is one clear problem, never a traceback.
And its command line: one JSON document, or one JSON line per problem; URLs refused clearly."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from validator_inputs import ROOT, url, urlset, write

from sitemapkit.cli.validate import run_validate
from sitemapkit.validate import validate

SECRET = "TOP-SECRET-LINE-42"


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A file beside the folder validate is given, whose content must never show up."""
    secret = tmp_path / "outside" / "secret.txt"
    secret.parent.mkdir()
    secret.write_text(f"{SECRET}\nhttps://example.com/leak/\n")
    return secret


def _opened(problems) -> str:
    return "\n".join(map(str, problems))


@pytest.mark.parametrize(("line", "rule"), [
    ("Sitemap: https://example.com/../outside/secret.txt", "sitemap-not-found"),
    ("Sitemap: https://example.com/%2e%2e/%2E%2E/outside/secret.txt", "sitemap-not-found"),
    ("Sitemap: https://example.com/link/secret.txt", "outside-targets"),
    ("Sitemap: https://example.com/dir/secret.txt", "outside-targets"),
])
def test_robots_sitemap_lines_that_map_outside_are_never_opened(tmp_path, outside, line, rule):
    """``..`` (plain or percent-encoded) is removed from the URL as RFC 3986 says, so it names
    a file inside the site (not there here); a symlink that leads out is reported as such."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "link").symlink_to(outside.parent)
    (site / "dir").mkdir()
    (site / "dir" / "secret.txt").symlink_to(outside)
    robots = write(site, f"User-agent: *\n{line}\n", "robots.txt")
    for site_dir in (None, site):
        problems = validate(robots, site_dir=site_dir)
        assert SECRET not in _opened(problems) and "leak" not in _opened(problems)
        assert [(Path(p.where).name, p.line, p.rule) for p in problems if p.rule != "page-not-listed"
                ] == [("robots.txt", 2, rule if rule != "sitemap-not-found" or site_dir is None
                       else "sitemap-missing")]
        if rule == "outside-targets":
            assert str(outside) in problems[0].message
        else:
            assert "https://example.com/outside/secret.txt" in problems[0].message


def test_index_locs_that_map_outside_are_never_opened(tmp_path, outside):
    site = tmp_path / "site"
    (site / "docs").mkdir(parents=True)
    (site / "docs" / "s.xml").symlink_to(outside)
    items = "".join(f"<sitemap><loc>{loc}</loc></sitemap>" for loc in (
        "https://example.com/docs/../../outside/secret.txt",
        "https://example.com/docs/%2e%2e/outside/secret.txt",
        "https://example.com/docs/s.xml"))
    write(site / "docs", '<?xml version="1.0"?>\n<sitemapindex xmlns="http://www.sitemaps.org/'
          f'schemas/sitemap/0.9">\n{items}\n</sitemapindex>\n')
    problems = validate(site / "docs" / "sitemap.xml")
    assert SECRET not in _opened(problems)
    assert [p.rule for p in problems] == ["sitemap-not-found", "sitemap-not-found",
                                          "outside-targets"]


def test_a_symlink_in_a_folder_target_pointing_outside_is_not_opened(tmp_path, outside):
    site = tmp_path / "site"
    write(site, urlset(url()))
    (site / "sitemap-2.txt").symlink_to(outside)
    problems = validate(site)
    assert SECRET not in _opened(problems)
    assert [(Path(p.where).name, p.rule) for p in problems] == [("sitemap-2.txt", "outside-targets")]
    # a target given by name is opened wherever its link leads: the user named it
    linked = tmp_path / "outside" / "sitemap.txt"
    linked.write_text(f"{ROOT}a/\n")
    (site / "sitemap-3.txt").symlink_to(linked)
    assert validate(site / "sitemap-3.txt") == []


def test_files_inside_the_given_folders_are_still_followed(tmp_path):
    site = tmp_path / "site"
    write(site / "en", urlset(url(loc=ROOT + "en/a/")))
    robots = write(site, f"User-agent: *\nSitemap: {ROOT}sub/../en/sitemap.xml\n", "robots.txt")
    assert validate(robots) == []


@pytest.mark.parametrize("where", ["target", "folder"])
def test_a_named_pipe_is_skipped_with_a_warning_never_hangs(tmp_path, where):
    site = tmp_path / "site"
    write(site, urlset(url()))
    pipe = site / "sitemap-pipe.xml"
    os.mkfifo(pipe)
    target = str(pipe) if where == "target" else str(site)
    code = ("import sys, json; from sitemapkit.validate import validate; "
            "print(json.dumps([(p.rule, p.severity) for p in validate(sys.argv[1])]))")
    done = subprocess.run([sys.executable, "-c", code, target], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    # a pipe given as the target is input that cannot be read; one met in a folder is skipped
    expected = ["unreadable", "error"] if where == "target" else ["not-regular-file", "warning"]
    assert json.loads(done.stdout) == [expected]


def test_a_named_pipe_named_by_robots_txt_is_skipped(tmp_path):
    write(tmp_path, f"User-agent: *\nSitemap: {ROOT}pipe.xml\n", "robots.txt")
    os.mkfifo(tmp_path / "pipe.xml")
    code = ("import sys, json; from sitemapkit.validate import validate; "
            "print(json.dumps([p.rule for p in validate(sys.argv[1])]))")
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "robots.txt")],
                          capture_output=True, text=True, timeout=60)
    assert json.loads(done.stdout) == ["not-regular-file"], done.stderr


def _gzips(tmp_path: Path) -> dict[str, Path]:
    packed = gzip.compress(urlset(url()).encode(), mtime=0)
    cases = {
        "corrupt.xml.gz": packed[:12] + b"\x00" * 6 + packed[18:],   # a bad deflate block
        "no-trailer.xml.gz": packed[:-8],                               # CRC and size cut off
        "bad-crc.xml.gz": packed[:-8] + b"\x00" * 8,
        "garbage.xml.gz": b"\x1f\x8b\x08\x00garbage",
        "corrupt.txt.gz": gzip.compress(f"{ROOT}a/\n".encode())[:12] + b"\xff" * 8,
    }
    for name, data in cases.items():
        (tmp_path / name).write_bytes(data)
    return {name: tmp_path / name for name in cases}


def test_a_malformed_gzip_is_one_clear_problem(tmp_path, capsys):
    for name, path in _gzips(tmp_path).items():
        problems = validate(path)
        assert [p.rule for p in problems] == ["unreadable"], (name, problems)
        assert "gzip" in problems[0].message or "decompress" in problems[0].message
        assert run_validate([str(path)], None, "text", False, False) == 2
        assert "Traceback" not in capsys.readouterr().err


def test_a_malformed_gzip_twin_in_a_folder_is_one_clear_problem(tmp_path):
    write(tmp_path, urlset(url()))
    packed = gzip.compress(urlset(url()).encode(), mtime=0)
    (tmp_path / "sitemap.xml.gz").write_bytes(packed[:12] + b"\x00" * 6 + packed[18:])
    assert [(Path(p.where).name, p.rule) for p in validate(tmp_path)] == [
        ("sitemap.xml.gz", "unreadable")]


# ---------------------------------------------------------------------------- command line


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sitemapkit", "validate", *args],
                          capture_output=True, text=True, timeout=120)


def test_format_json_is_one_document_even_when_clean(tmp_path):
    clean = write(tmp_path, urlset(url(loc=ROOT + "clean/")), "clean.xml")
    done = _cli(str(clean), "--format", "json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report == {"files": [str(clean)], "problems": [],
                      "totals": {"files": 1, "errors": 0, "warnings": 0}, "ok": True}
    broken = write(tmp_path, urlset(url("<priority>9</priority>") + url()), "broken.xml")
    done = _cli(str(broken), str(clean), "--format", "json")
    assert done.returncode == 1
    report = json.loads(done.stdout)
    assert report["totals"] == {"files": 2, "errors": 1, "warnings": 1} and not report["ok"]
    assert [(p["rule"], p["severity"], p["line"], Path(p["file"]).name)
            for p in report["problems"]] == [("priority-range", "error", 3, "broken.xml"),
                                             ("duplicate-url", "warning", 3, "broken.xml")]
    assert set(report["problems"][0]) == {"file", "line", "rule", "severity", "message"}


def test_format_jsonl_streams_one_problem_per_line(tmp_path):
    broken = write(tmp_path, urlset(url("<priority>9</priority>") + url()), "broken.xml")
    done = _cli(str(broken), "--format", "jsonl")
    assert [json.loads(line)["rule"] for line in done.stdout.splitlines()] == [
        "priority-range", "duplicate-url"]
    clean = write(tmp_path, urlset(url()), "clean.xml")
    assert _cli(str(clean), "--format", "jsonl").stdout == ""


def test_a_url_target_of_another_scheme_is_refused_clearly(tmp_path):
    """http(s) targets are fetched (tests/test_validate_live.py); file: and others never."""
    for target in ("file:///etc/passwd", "ftp://example.com/sitemap.xml"):
        done = _cli(target)
        assert done.returncode == 2
        assert target in done.stderr and "only http:// and https:// URLs" in done.stderr
        assert done.stdout == ""
