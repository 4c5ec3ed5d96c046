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
from quickstarts import pelican_quickstart

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
    # it names sitemap.xml alone, which two's build writes again: ignoring it leaves nothing undone
    assert "[record-unsigned-moot]" in build(two).stderr
    data = json.loads((one / RECORD).read_text())
    data["files"]["sitemap-news.xml"] = [[len(NEWS), hashlib.sha256(NEWS).hexdigest()]]
    (two / RECORD).write_text(json.dumps(data))  # and two's news sitemap: a warning
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
    naming a file that is there and that the build does not write again still warns (a copied
    or altered folder)."""
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
    # the same record, its files there (the output kept, the key lost): a note while the build
    # writes them again, a warning when it does not
    (project / ".cache" / "sitemapkit" / KEY_NAME).unlink()
    kept = build(project / "site")
    assert "[record-unsigned-moot]" in kept.stderr and "[record-unsigned]" not in kept.stderr
    (project / ".cache" / "sitemapkit" / KEY_NAME).unlink()
    renamed = build(project / "site", "--filename", "map.xml")
    assert "[record-unsigned]" in renamed.stderr
    assert (project / "site" / "sitemap.xml").is_file()  # not removed on the unsigned record's word


def test_a_cleared_cache_does_not_fail_a_strict_pelican_build(tmp_path):
    """Pelican keeps its output folder (pelicanconf.py sets no DELETE_OUTPUT_DIRECTORY), so after
    ``.cache/`` is cleared the unsigned record still names files that are there: the sitemap
    this very build writes again. Ignoring the record leaves nothing undone and removes
    nothing, so it is a note and ``"strict": True`` passes."""
    project = strict_blog(tmp_path)
    first = pelican(project)
    assert first.returncode == 0, first.stdout + first.stderr
    assert {RECORD, "sitemap.xml", "robots.txt"} <= set(os.listdir(project / "output"))
    for path in sorted((project / ".cache").rglob("*"), reverse=True):
        path.unlink() if path.is_file() else path.rmdir()
    again = pelican(project)
    told = again.stdout + again.stderr
    assert again.returncode == 0, told
    assert "[record-unsigned-moot]" in told and "[record-unsigned]" not in told
    third = pelican(project)  # the fresh record is signed with the new key: nothing to say
    assert third.returncode == 0 and "record-unsigned" not in third.stdout + third.stderr


def test_a_planted_record_naming_another_file_there_still_fails_a_strict_pelican_build(tmp_path):
    """The same project, its key kept, with a record planted in output/ that names the sitemap
    and another tool's news sitemap: ignoring it leaves that file where it is, which a signed
    record's word would have removed, so it is a warning (strict fails) and the file is untouched."""
    project = strict_blog(tmp_path)
    assert pelican(project).returncode == 0
    out = project / "output"
    (out / "sitemap-news.xml").write_bytes(NEWS)
    data = json.loads((out / RECORD).read_text())
    data.pop("signature")
    add = {name: [[len(body), hashlib.sha256(body).hexdigest()]]
           for name in ("sitemap.xml", "sitemap-news.xml") for body in [(out / name).read_bytes()]}
    (out / RECORD).write_text(json.dumps({**data, "files": add}))
    again = pelican(project)
    told = again.stdout + again.stderr
    assert again.returncode != 0, told
    assert "[record-unsigned]" in told
    assert (out / "sitemap-news.xml").read_bytes() == NEWS


def strict_blog(root: Path) -> Path:
    """pelican-quickstart's project with sitemapkit on, strict, built with pelicanconf.py."""
    project = pelican_quickstart(root / "blog", Path(sys.executable).parent, BASE,
                                 {"hello.md": "Title: Hello\nDate: 2026-01-01\n\nHi."})
    with open(project / "pelicanconf.py", "a", encoding="utf-8") as conf:
        conf.write(f'PLUGINS = ["sitemapkit_pelican"]\nSITEMAPKIT = {{"strict": True, "base_url": "{BASE}"}}\n')
    return project


def pelican(project: Path) -> subprocess.CompletedProcess[str]:
    """``pelican content --verbose`` (notes shown) from the project folder, with pelicanconf.py
    (its output kept)."""
    env = {**os.environ, "COLUMNS": "1000"}  # log lines unwrapped
    return subprocess.run([str(Path(sys.executable).parent / "pelican"), "content", "-v"], cwd=project, env=env,
                          capture_output=True, text=True, timeout=180)


def test_a_cleared_cache_with_extra_sitemaps_named_in_robots_txt_still_warns(tmp_path):
    """An unsigned record that names ``extra_sitemaps`` lines, with robots.txt there: the line of
    one dropped from the option is taken out only on a signed record's word, so ignoring the
    record may leave it: a warning, though every file it names is written again."""
    site = a_site(tmp_path)
    extra = f"{BASE}shop/sitemap.xml"
    assert build(site, "--extra-sitemap", extra).returncode == 0
    (tmp_path / ".cache" / "sitemapkit" / KEY_NAME).unlink()
    again = build(site, "--extra-sitemap", extra)
    assert "[record-unsigned]" in again.stderr and "[record-unsigned-moot]" not in again.stderr
