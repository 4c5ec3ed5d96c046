"""Hostile input stays cheap: no entity expansion, no DTD or external fetch, decompression
stopped past the 50 MiB limit, memory flat. Each case runs in a child process that reports
its peak RSS (VmHWM); the timeout is only a guard against a hang, not a timing assertion."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest

CHILD = """
import json, sys
from sitemapkit.validate import validate
problems = validate(sys.argv[1])
peak = 0
with open("/proc/self/status") as status:
    for line in status:
        if line.startswith("VmHWM:"):
            peak = int(line.split()[1]) * 1024
print(json.dumps({"rules": sorted({p.rule for p in problems}),
                  "text": "\\n".join(map(str, problems)), "peak": peak}))
"""
PEAK_LIMIT = 100 * 2**20
HEAD = (b'<?xml version="1.0" encoding="UTF-8"?>\n'
        b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
        b'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">\n')


def check_in_child(path: Path) -> dict:
    done = subprocess.run([sys.executable, "-c", CHILD, str(path)], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["peak"] < PEAK_LIMIT, f"peak RSS {result['peak'] / 2**20:.0f} MiB"
    return result


def padded_urls(count: int, padding: int = 1 << 20):
    """``count`` <url>s, each carrying ``padding`` bytes of blank space: cheap to make and to
    compress, and as many bytes as a real sitemap would need to reach the size limit."""
    blank = b" " * padding
    for n in range(count):
        yield b"<url><loc>https://example.com/p%d</loc>%s</url>\n" % (n, blank)


def with_doctype(path: Path, subset: str, entity: str) -> Path:
    """A one-URL sitemap whose DOCTYPE declares ``subset`` and whose loc uses ``&entity;``."""
    path.write_text(f'<?xml version="1.0"?>\n<!DOCTYPE urlset [{subset}]>\n'
                    + HEAD.decode().split("\n", 1)[1]
                    + f"<url><loc>https://example.com/&{entity};</loc></url></urlset>\n")
    return path


def test_external_entities_are_never_read(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-VALUE")
    path = with_doctype(tmp_path / "xxe.xml", f'<!ENTITY x SYSTEM "file://{secret}">', "x")
    result = check_in_child(path)
    assert "doctype" in result["rules"]
    assert "TOP-SECRET" not in result["text"]


def test_billion_laughs_is_not_expanded(tmp_path):
    entities = ['<!ENTITY l0 "lol">'] + [
        f'<!ENTITY l{n} "{("&l" + str(n - 1) + ";") * 10}">' for n in range(1, 10)]
    result = check_in_child(with_doctype(tmp_path / "laughs.xml", "".join(entities), "l9"))
    assert "doctype" in result["rules"]


@pytest.mark.slow  # a large input: tens of MiB written and read
def test_a_gzip_bomb_is_stopped_at_the_size_limit(tmp_path):
    path = tmp_path / "bomb.xml.gz"
    # A gzip file may be several members end to end: one small member, written many times.
    member = gzip.compress(next(padded_urls(1)), mtime=0)
    with open(path, "wb") as out:
        out.write(gzip.compress(HEAD, mtime=0))
        out.write(member * 4096)  # 4 GiB once inflated
        out.write(gzip.compress(b"</urlset>\n", mtime=0))
    assert path.stat().st_size < 8 * 2**20
    result = check_in_child(path)
    assert "size-limit" in result["rules"], result["text"]
    assert set(result["rules"]) <= {"size-limit", "duplicate-url"}


@pytest.mark.slow  # a large input: tens of MiB written and read
def test_a_huge_plain_file_is_read_flat_and_stopped(tmp_path):
    path = tmp_path / "huge.xml"
    with open(path, "wb") as out:
        out.write(HEAD)
        out.writelines(padded_urls(70))
        out.write(b"</urlset>\n")
    assert path.stat().st_size > 70 * 10**6
    result = check_in_child(path)
    assert result["rules"] == ["size-limit"], result["text"]


@pytest.mark.slow  # a large input: tens of MiB written and read
@pytest.mark.parametrize("what", ["endless-url", "junk-before-urls"])
def test_an_endless_entry_is_stopped(tmp_path, what):
    path = tmp_path / f"{what}.xml"
    with open(path, "wb") as out:
        out.write(HEAD)
        item = (b"<image:image><image:loc>https://example.com/i.png</image:loc></image:image>"
                if what == "endless-url" else b"<junk/>")
        out.write(b"<url><loc>https://example.com/</loc>" if what == "endless-url" else b"")
        out.write(item * (40 * 2**20 // len(item)))
        out.write(b"</url></urlset>\n" if what == "endless-url" else b"</urlset>\n")
    result = check_in_child(path)
    assert "entry-size" in result["rules"], result["text"]


def test_deep_nesting_is_refused(tmp_path):
    path = tmp_path / "deep.xml"
    path.write_bytes(HEAD + b"<url><loc>https://example.com/</loc>" + b"<a>" * 100_000
                     + b"</a>" * 100_000 + b"</url></urlset>")
    result = check_in_child(path)
    assert "xml-syntax" in result["rules"]
