"""Two runs on one output folder at once, as real processes: a build waits for the build
already writing there (and says so), and ``validate`` waits for it too, so it never reads a
folder whose files are being replaced. The first build is held at a gate (its pages come
from an iterator that waits for a file), so the overlap is certain, not a matter of timing."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from sitemap_checks import assert_valid

pytestmark = pytest.mark.slow  # builds in child processes, side by side (make test-fast leaves them out)

BASE = "https://example.com/"
GATED_BUILD = """
import sys, time
from pathlib import Path
from sitemapkit import Page, Settings, generate

site, out, gate = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])

def pages():
    (gate.parent / "started").write_text("holding the folder")
    while not gate.exists():
        time.sleep(0.02)
    for path in sorted(site.glob("*.html")):
        yield Page(url=path.name, output=path)

# its manifest beside the command-line builds' (in the test's folder): one project's key signs every record
generate(pages(), out, Settings(base_url=sys.argv[4], max_urls=5, gzip=True,
                                state_file=str(gate.parent.parent / "gated-state.json")), project_dir=gate.parent)
"""


def site_of(folder: Path, prefix: str, count: int) -> Path:
    folder.mkdir(parents=True)
    for i in range(count):
        (folder / f"{prefix}{i}.html").write_text(f"<html><head><title>{prefix} {i}</title></head>"
                                                  f"<body>{prefix} {i}</body></html>")
    return folder


def start_gated_build(tmp_path: Path, site: Path, out: Path) -> tuple[subprocess.Popen, Path]:
    """A build into ``out`` that holds the folder until the gate file is made."""
    (tmp_path / "gated.py").write_text(GATED_BUILD)
    gate = tmp_path / "gate" / "open"
    gate.parent.mkdir()
    first = subprocess.Popen([sys.executable, str(tmp_path / "gated.py"), str(site), str(out), str(gate), BASE],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120  # a guard against a hang, not a measurement
    while not (gate.parent / "started").exists():
        assert first.poll() is None, first.communicate()
        assert time.monotonic() < deadline, "the gated build never started"
        time.sleep(0.02)
    return first, gate


def lines_of(stream) -> queue.Queue:
    """The lines of a child's pipe as they come (None at its end)."""
    lines: queue.Queue = queue.Queue()

    def pump() -> None:
        for line in stream:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    return lines


def wait_for_line(lines: queue.Queue, text: str) -> list[str]:
    seen = []
    while True:
        line = lines.get(timeout=120)
        assert line is not None, f"the process ended without saying {text!r}: {seen}"
        seen.append(line)
        if text in line:
            return seen


def test_a_second_build_waits_for_the_first_says_so_then_builds(tmp_path):
    out = tmp_path / "out"
    first_site = site_of(tmp_path / "a", "a", 12)
    second_site = site_of(tmp_path / "b", "b", 8)
    first, gate = start_gated_build(tmp_path, first_site, out)
    second = subprocess.Popen(
        [sys.executable, "-m", "sitemapkit", "build", str(second_site), "--out", str(out), "--base-url", BASE,
         "--max-urls", "3", "--gzip", "--state-file", str(tmp_path / "second-state.json")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        said = wait_for_line(lines_of(second.stderr), "[output-locked]")
        assert "waiting for it to finish" in said[-1] and str(out) in said[-1]
        assert second.poll() is None  # still waiting: the first build holds the folder
        assert not (out / "sitemap.xml").exists()
        gate.write_text("go")
        assert first.wait(timeout=120) == 0, first.communicate()
        assert second.wait(timeout=120) == 0
    finally:
        for process in (first, second):
            if process.poll() is None:
                process.kill()
                process.wait()
    # The second build ran after the first: its sitemap, nothing of the first's left over.
    index = assert_valid(out / "sitemap.xml")
    children = sorted(p.name for p in out.glob("sitemap-*.xml"))
    assert len(index) == len(children) == 3
    record = json.loads((out / ".sitemapkit-files.json").read_text())["files"]
    assert set(record) == {p.name for p in out.iterdir() if not p.name.startswith(".")} - {"robots.txt"}
    assert not list(out.glob(".*.tmp"))
    validated = subprocess.run([sys.executable, "-m", "sitemapkit", "validate", str(out)],
                               capture_output=True, text=True, timeout=120)
    assert validated.returncode == 0, validated.stdout
    assert "b7.html" in (out / "sitemap.xml").read_text() + "".join(
        (out / name).read_text() for name in children)


def test_validate_waits_for_a_build_and_never_sees_files_being_replaced(tmp_path):
    out = tmp_path / "out"
    subprocess.run([sys.executable, "-m", "sitemapkit", "build", str(site_of(tmp_path / "old", "old", 9)),
                    "--out", str(out), "--base-url", BASE, "--max-urls", "4", "--gzip",
                    "--state-file", str(tmp_path / "old-state.json")], check=True, timeout=120)
    old_children = sorted(p.name for p in out.glob("sitemap-*.xml*"))
    first, gate = start_gated_build(tmp_path, site_of(tmp_path / "new", "new", 12), out)
    checking = subprocess.Popen([sys.executable, "-m", "sitemapkit", "validate", str(out)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        said = wait_for_line(lines_of(checking.stderr), "waiting for it to finish")
        assert str(out) in said[-1]
        assert checking.poll() is None  # it reads nothing while the build holds the folder
        gate.write_text("go")
        assert first.wait(timeout=120) == 0, first.communicate()
        assert checking.wait(timeout=120) == 0, checking.stdout.read()
    finally:
        for process in (first, checking):
            if process.poll() is None:
                process.kill()
                process.wait()
    report = checking.stdout.read()
    assert report.startswith("OK: "), report
    # what it checked is the new build's output: the old children are gone, none reported
    assert not any((out / name).exists() for name in old_children)
    assert not any(name in report for name in old_children)
