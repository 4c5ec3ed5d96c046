"""Inputs sitemapkit cannot use are said, with the documented exit status: a robots.txt over
the read cap (a warning; the summary does not claim robots.txt), a validate target that is not
a regular file (``unreadable``, exit 2), a gzip cut before its CRC and size trailer (an error,
exit 2, whichever way validate reaches it)."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sitemapkit.protocol import ROBOTS_READ_BYTES

BASE = "https://example.com/"
URLSET = ('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
          + "".join(f"<url><loc>{BASE}p{i}.html</loc></url>\n" for i in range(200)) + "</urlset>\n")


def sitemapkit(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sitemapkit", *args], capture_output=True, text=True,
                          timeout=120)


def test_a_robots_txt_over_the_cap_is_a_warning_and_not_claimed(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<html><head><title>Home</title></head><body>home</body></html>")
    big = b"User-agent: *\nDisallow:\n" + b"# padding\n" * (ROBOTS_READ_BYTES // 10 + 1)
    (site / "robots.txt").write_bytes(big)
    done = sitemapkit("build", str(site), "--base-url", BASE)
    assert done.returncode == 0, done.stderr
    assert "[robots-too-large]" in done.stderr and "robots.txt" in done.stderr
    assert (site / "robots.txt").read_bytes() == big  # left as it was
    summary = done.stdout.strip().splitlines()[-1]
    assert "in sitemap.xml;" in summary and "robots.txt" not in summary and "1 warning" in summary
    as_json = json.loads(sitemapkit("build", str(site), "--base-url", BASE, "--format", "json").stdout)
    assert "robots.txt" not in json.dumps(as_json["files"])
    assert [w["rule"] for w in as_json["warnings"]] == ["robots-too-large"]
    assert sitemapkit("build", str(site), "--base-url", BASE, "--strict").returncode == 1


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_a_target_that_is_not_a_regular_file_is_unreadable_exit_2(tmp_path, kind):
    if kind == "fifo":
        target = tmp_path / "sitemap.xml"
        os.mkfifo(target)
    else:
        target = Path("/dev/zero")
    done = sitemapkit("validate", str(target))
    assert done.returncode == 2, done.stdout
    assert f"{target}: error: {target} is " in done.stdout and "[unreadable]" in done.stdout
    assert "FAILED: 1 file checked, 1 error" in done.stdout
    as_json = json.loads(sitemapkit("validate", str(target), "--format", "json").stdout)
    assert [(p["rule"], p["severity"]) for p in as_json["problems"]] == [("unreadable", "error")]


def _cut(data: str) -> bytes:
    return gzip.compress(data.encode(), mtime=0)[:-8]  # the CRC-32 and size trailer cut off


@pytest.mark.parametrize("layout", ["file", "folder", "twin", "index-child", "text"])
def test_a_gzip_without_its_trailer_is_an_error_exit_2(tmp_path, layout):
    if layout == "text":
        target = tmp_path / "sitemap.txt.gz"
        target.write_bytes(_cut("".join(f"{BASE}p{i}.html\n" for i in range(200))))
        broken = target
    else:
        broken = tmp_path / "sitemap.xml.gz"
        broken.write_bytes(_cut(URLSET))
        target = broken if layout == "file" else tmp_path
    if layout == "twin":
        (tmp_path / "sitemap.xml").write_text(URLSET)
    if layout == "index-child":
        broken = broken.rename(tmp_path / "child.xml.gz")
        target = tmp_path / "sitemap.xml"
        target.write_text('<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/'
                          f'schemas/sitemap/0.9">\n<sitemap><loc>{BASE}child.xml.gz</loc></sitemap>\n</sitemapindex>\n')
    done = sitemapkit("validate", str(target))
    assert done.returncode == 2, done.stdout
    line = next(line for line in done.stdout.splitlines() if "[unreadable]" in line)
    assert line.startswith(f"{broken}: error: ") and ("cut short" in line or "decompress" in line)
