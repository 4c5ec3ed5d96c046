"""``include``: files that are not HTML (a PDF, an EPUB) in the built site are listed, dated by
the git history of their source or by the manifest's fingerprint of their bytes; never by the
build's clock (the builds run with SOURCE_DATE_EPOCH far away, where a build-time lastmod
would show)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from git_helpers import commit, init
from project_checks import lastmods

pytestmark = pytest.mark.slow  # real generator runs (make test-fast leaves them out)

BIN = Path(sys.executable).parent
SITE_URL = "https://docs.example.org/"
FAR_AWAY = "4102444800"  # 2100-01-01
HOME = "<!DOCTYPE html><html><head><title>Home</title></head><body><p>Welcome</p></body></html>"


def test_mkdocs_lists_included_pdfs_with_their_git_dates(tmp_path):
    root = tmp_path / "project"
    root.mkdir()
    subprocess.run([str(BIN / "mkdocs"), "new", "."], cwd=root, check=True, capture_output=True)
    with open(root / "mkdocs.yml", "a", encoding="utf-8") as config:
        config.write(f"site_url: {SITE_URL}\nplugins:\n  - sitemapkit:\n      include: ['*.pdf']\n")
    init(root)
    (root / ".gitignore").write_text("site/\n", encoding="utf-8")
    commit(root, "2024-03-04T05:06:07Z")
    commit(root, "2025-06-07T08:09:10Z", {"docs/papers/annual-report.pdf": "%PDF-1.4 report",
                                           "docs/papers/notes.txt": "not included"})
    env = {**os.environ, "SOURCE_DATE_EPOCH": FAR_AWAY, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run([str(BIN / "mkdocs"), "build"], cwd=root, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    found = lastmods(root / "site", SITE_URL)
    assert found[SITE_URL + "papers/annual-report.pdf"] == "2025-06-07T08:09:10Z"
    assert found[SITE_URL] == "2024-03-04T05:06:07Z"
    assert SITE_URL + "papers/notes.txt" not in found


def build(site: Path, epoch: str, *flags: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN / "sitemapkit"), "build", str(site), "--base-url", SITE_URL, "--lastmod", "fingerprint",
         "--include", "*.pdf", "--include", "books/", *flags],
        cwd=site.parent, env={**os.environ, "SOURCE_DATE_EPOCH": epoch}, capture_output=True, text=True)


def test_the_manifest_dates_included_files_by_when_their_bytes_were_first_seen(tmp_path):
    site = tmp_path / "public"
    (site / "books").mkdir(parents=True)
    (site / "index.html").write_text(HOME, encoding="utf-8")
    (site / "guide.pdf").write_bytes(b"%PDF-1.4 first")
    (site / "books" / "tides.epub").write_bytes(b"PK epub")
    (site / "logo.png").write_bytes(b"\x89PNG")
    pdf, epub = SITE_URL + "guide.pdf", SITE_URL + "books/tides.epub"

    assert build(site, "1767225600").returncode == 0  # 2026-01-01: the first build
    first = lastmods(site, SITE_URL)
    assert set(first) == {SITE_URL, pdf, epub}  # not logo.png, not the sitemap files
    assert first[pdf] is None  # a first build cannot tell when the bytes were new

    assert build(site, "1769904000").returncode == 0  # 2026-02-01, nothing changed
    assert lastmods(site, SITE_URL)[pdf] == "2026-01-01T00:00:00Z"

    (site / "guide.pdf").write_bytes(b"%PDF-1.4 second edition")
    assert build(site, "1772323200").returncode == 0  # 2026-03-01, the PDF changed
    assert build(site, "1775001600").returncode == 0  # 2026-04-01, nothing changed
    again = lastmods(site, SITE_URL)
    assert again[pdf] == "2026-03-01T00:00:00Z"
    assert again[epub] == "2026-01-01T00:00:00Z"


def test_exclude_wins_and_a_pattern_that_matches_nothing_is_a_warning(tmp_path):
    site = tmp_path / "public"
    site.mkdir()
    (site / "index.html").write_text(HOME, encoding="utf-8")
    (site / "guide.pdf").write_bytes(b"%PDF-1.4")
    (site / "draft.pdf").write_bytes(b"%PDF-1.4 draft")
    done = build(site, "1767225600", "--exclude", "draft.pdf", "--include", "*.docx")
    assert done.returncode == 0, done.stderr
    assert set(lastmods(site, SITE_URL)) == {SITE_URL, SITE_URL + "guide.pdf"}
    assert "pattern '*.docx' matched no file that is not HTML" in done.stderr
    assert "[include-unmatched]" in done.stderr
