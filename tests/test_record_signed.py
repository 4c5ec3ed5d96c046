"""Records that prove ownership (issue #34, 2): the record of sitemapkit's own files is signed
with a per-project key kept beside the manifest, outside the output folder; a record that key
did not sign is ignored, so no file is removed or replaced on the word of anything inside the
output folder alone. And a build records what it is about to put in place before it does, so
the next build removes what a killed one left."""

from __future__ import annotations

import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sitemapkit.site.owned import KEY_NAME, RECORD

pytestmark = pytest.mark.slow  # command-line builds and a child process killed mid-write

BASE = "https://example.com/"
NEWS = (f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        f"<url><loc>{BASE}from-another-tool/</loc></url>\n</urlset>\n").encode()


def build(site: Path, *flags: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``sitemapkit build`` run in the project folder, ``site``'s parent."""
    return subprocess.run([sys.executable, "-m", "sitemapkit", "build", str(site), "--base-url", BASE, *flags],
                          capture_output=True, text=True, timeout=120, cwd=site.parent, env=env)


def a_site(root: Path) -> Path:
    site = root / "site"
    site.mkdir(parents=True)
    (site / "index.html").write_text("<html><head><title>Home</title></head><body>home</body></html>")
    return site


def add_to_record(site: Path, *names: str) -> None:
    """What the issue's forger does: the record gets each file's true name, size and SHA-256."""
    data = json.loads((site / RECORD).read_text())
    for name in names:
        content = (site / name).read_bytes()
        data["files"][name] = [[len(content), hashlib.sha256(content).hexdigest()]]
    (site / RECORD).write_text(json.dumps(data))


def test_the_issue_a_forged_record_does_not_remove_the_users_news_sitemap(tmp_path):
    site = a_site(tmp_path)
    assert build(site).returncode == 0
    assert (tmp_path / ".cache" / "sitemapkit" / KEY_NAME).is_file()  # beside the manifest, outside site/
    (site / "sitemap-news.xml").write_bytes(NEWS)
    add_to_record(site, "sitemap-news.xml")
    again = build(site)
    assert again.returncode == 0, again.stderr
    assert (site / "sitemap-news.xml").read_bytes() == NEWS
    assert "[record-unsigned]" in again.stderr


def test_the_issue_a_forged_record_does_not_let_a_build_replace_the_users_files(tmp_path):
    site = a_site(tmp_path)
    assert build(site).returncode == 0
    mine = {"sitemap.txt": b"my notes, not a sitemap\n", "sitemap.html": b"<html>my own site map</html>",
            "sitemap-changes.atom": b"<feed>mine</feed>"}
    for name, content in mine.items():
        (site / name).write_bytes(content)
    add_to_record(site, *mine)
    again = build(site, "--txt", "--html-sitemap", "--changes-feed", "5")
    assert again.returncode == 2  # as the same build without a record
    assert "is not a file sitemapkit wrote" in again.stderr and "Traceback" not in again.stderr
    assert {name: (site / name).read_bytes() for name in mine} == mine


def test_a_record_copied_from_another_project_is_ignored(tmp_path):
    one, two = a_site(tmp_path / "one"), a_site(tmp_path / "two")
    assert build(one).returncode == 0 and build(two).returncode == 0
    (two / "sitemap-news.xml").write_bytes(NEWS)
    (one / "sitemap-news.xml").write_bytes(NEWS)
    add_to_record(one, "sitemap-news.xml")
    data = json.loads((one / RECORD).read_text())
    data.pop("signature")
    (one / RECORD).write_text(json.dumps(data))
    assert build(one).returncode == 0
    (two / RECORD).write_bytes((one / RECORD).read_bytes())  # signed by one's key, not two's
    assert "[record-unsigned]" in build(two).stderr
    assert (two / "sitemap-news.xml").read_bytes() == NEWS


def test_turning_an_option_off_and_news_running_out_still_work(tmp_path):
    site = a_site(tmp_path)
    (site / "news.html").write_text('<html><head><title>N</title><meta property="article:published_time" '
                                    'content="2026-01-15T10:00:00+00:00"></head><body>n</body></html>')
    env_now = {**os.environ, "SOURCE_DATE_EPOCH": str(1768471200)}  # 2026-01-15 10:00 UTC
    news = ["--news", "publication=Daily,language=en,match=news.html"]
    first = build(site, "--gzip", *news, env=env_now)
    assert first.returncode == 0, first.stderr
    assert (site / "sitemap-news.xml").is_file() and (site / "sitemap.xml.gz").is_file()
    later = {**os.environ, "SOURCE_DATE_EPOCH": str(1768471200 + 30 * 86400)}  # out of the news window
    second = build(site, *news, env=later)
    assert second.returncode == 0, second.stderr
    assert not (site / "sitemap-news.xml").exists()  # ours, no news left: removed
    assert (site / "sitemap.xml.gz").is_file()  # gzip turned off: left in place, with a note
    assert "[record-option-off]" in second.stdout + second.stderr and "record-unsigned" not in second.stderr


CHILD = """
import sys
from sitemapkit import Settings, write_sitemaps
settings = Settings(base_url="https://example.com/", gzip=True, max_urls=500, state_file=sys.argv[2])
write_sitemaps((("https://example.com/p%d" % i, None) for i in range(int(sys.argv[3]))), sys.argv[1], settings)
"""
CHILD_FILE = re.compile(r"sitemap-\d+-[0-9a-f]{12}\.xml(\.gz)?")


@pytest.mark.parametrize("when", ["temporary", "committed"])
def test_a_build_killed_mid_write_leaves_no_orphan_after_the_next(tmp_path, when):
    out, state = tmp_path / "out", str(tmp_path / "cache" / "state.json")
    out.mkdir()
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(out), state, "60000"])
    wanted = re.compile(r"\..+\.tmp") if when == "temporary" else CHILD_FILE
    try:
        while child.poll() is None and not any(wanted.fullmatch(name) for name in os.listdir(out)):
            time.sleep(0.002)
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    subprocess.run([sys.executable, "-c", CHILD, str(out), state, "100"], check=True, timeout=120)
    assert sorted(os.listdir(out)) == [RECORD, "sitemap.xml", "sitemap.xml.gz"]


def test_a_cleared_cache_does_not_fail_a_strict_mkdocs_build(tmp_path):
    """MkDocs empties site/ before each build but keeps its dot files, the record among them:
    with the key gone (``.cache/`` cleared), the record names only files no longer there, so
    ignoring it leaves nothing undone: a note, not a warning that fails ``--strict``. A record
    naming files that are there still warns (a copied or altered folder)."""
    mkdocs = str(Path(sys.executable).parent / "mkdocs")
    subprocess.run([mkdocs, "new", str(tmp_path / "p")], check=True, capture_output=True)
    project = tmp_path / "p"
    (project / "mkdocs.yml").write_text(f"site_name: Notes\nsite_url: {BASE}\nplugins:\n  - sitemapkit\n")
    strict = [mkdocs, "build", "--strict"]
    assert subprocess.run(strict, cwd=project, capture_output=True, text=True).returncode == 0
    assert (project / "site" / RECORD).is_file()
    for path in sorted((project / ".cache").rglob("*"), reverse=True):
        path.unlink() if path.is_file() else path.rmdir()
    again = subprocess.run(strict, cwd=project, capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    assert "[record-unsigned-moot]" in again.stderr and "[record-unsigned]" not in again.stderr
    # the same record, its files there (the output kept, the key lost): a warning
    (project / ".cache" / "sitemapkit" / KEY_NAME).unlink()
    copied = build(project / "site")
    assert "[record-unsigned]" in copied.stderr
