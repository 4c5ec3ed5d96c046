"""What each generator's user sees of sitemapkit at the generator's default log level, from the
command as typed (``pelican``, ``sphinx-build``, ``mkdocs build`` in a subprocess): the summary
beside the generator's own "Done" line, and a bad option value reported the generator's way,
one line, no traceback, no crash report."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # real generator runs (make test-fast leaves them out)

BASE = "https://example.org/"
SUMMARY = "sitemapkit: 3 URLs in sitemap.xml, robots.txt; lastmod: 3 meta; 0 warnings"


def run(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "250", "SOURCE_DATE_EPOCH": "1768435200"}
    return subprocess.run([sys.executable, "-m", *command], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300)


def no_crash(done: subprocess.CompletedProcess[str]) -> str:
    shown = done.stdout + done.stderr
    assert "Traceback" not in shown and "please open an issue" not in shown, shown
    return shown


# ------------------------------------------------------------------- Pelican


PELICAN_CONF = f"""\
SITEURL = "{BASE.rstrip('/')}"
SITENAME = "Blog"
PATH = "content"
OUTPUT_PATH = "output"
TIMEZONE = "UTC"
LOAD_CONTENT_CACHE = False
FEED_ALL_ATOM = CATEGORY_FEED_ATOM = TRANSLATION_FEED_ATOM = AUTHOR_FEED_ATOM = AUTHOR_FEED_RSS = None
ARCHIVES_SAVE_AS = AUTHORS_SAVE_AS = CATEGORIES_SAVE_AS = TAGS_SAVE_AS = ""
AUTHOR_SAVE_AS = CATEGORY_SAVE_AS = TAG_SAVE_AS = ""
PLUGINS = ["sitemapkit_pelican"]
"""


def pelican_site(root: Path, extra: str = "") -> Path:
    (root / "content").mkdir(parents=True)
    (root / "content" / "a.md").write_text("Title: A\nDate: 2026-01-10\n\nOne.\n", encoding="utf-8")
    (root / "content" / "b.md").write_text("Title: B\nDate: 2026-01-12\n\nTwo.\n", encoding="utf-8")
    (root / "pelicanconf.py").write_text(PELICAN_CONF + extra, encoding="utf-8")
    return root


def test_pelican_shows_the_summary_at_its_default_level_beside_its_done_line(tmp_path):
    done = run(["pelican", "content", "-s", "pelicanconf.py"], pelican_site(tmp_path))
    shown = no_crash(done)
    assert done.returncode == 0, shown
    lines = done.stdout.splitlines()
    assert SUMMARY in lines
    assert lines[lines.index(SUMMARY) + 1].startswith("Done: Processed 2 articles")


def test_pelican_reports_a_bad_value_in_one_line_and_stops(tmp_path):
    done = run(["pelican", "content", "-s", "pelicanconf.py"],
               pelican_site(tmp_path, 'SITEMAPKIT = {"max_urls": "10"}\n'))
    shown = no_crash(done)
    assert done.returncode == 1
    (line,) = [line for line in shown.splitlines() if line.strip()]
    # Pelican's own form for an error that stops it: "[time] CRITICAL Class: message   file:line"
    assert re.fullmatch(r"\[[\d:]+\] CRITICAL PelicanSitemapError: SITEMAPKIT: option 'max_urls' must be a "
                        r"whole number from 1 to 50000, got '10' +__init__\.py:\d+", line.rstrip()), line
    assert not (tmp_path / "output").exists()


# -------------------------------------------------------------------- Sphinx


SPHINX_CONF = f"""\
project = "Tiny"
extensions = ["sitemapkit_sphinx"]
html_baseurl = "{BASE}"
"""


def sphinx_project(root: Path, extra: str = "") -> Path:
    src = root / "src"
    src.mkdir(parents=True)
    (src / "conf.py").write_text(SPHINX_CONF + extra, encoding="utf-8")
    (src / "index.rst").write_text("Home\n====\n\n.. toctree::\n\n   a\n", encoding="utf-8")
    (src / "a.rst").write_text("A\n=\n\nOne.\n", encoding="utf-8")
    return root


def test_sphinx_shows_the_summary_at_its_default_level(tmp_path):
    done = run(["sphinx", "-b", "html", "src", "out"], sphinx_project(tmp_path))
    assert done.returncode == 0, no_crash(done)
    assert re.search(r"^sitemapkit: 2 URLs in sitemap\.xml, robots\.txt; "
                     r"left out: 2 generated indexes \(genindex\.html, search\.html\); "
                     r"lastmod: 2 none \(\S+ is not in a git repository\); 0 warnings$",
                     done.stdout, re.MULTILINE), done.stdout


def test_sphinx_warns_about_a_bad_value_as_it_does_for_its_own_and_builds_on(tmp_path):
    root = sphinx_project(tmp_path, "sitemapkit_max_urls = 0\n")
    done = run(["sphinx", "-b", "html", "src", "out"], root)
    no_crash(done)
    assert done.returncode == 0
    assert done.stderr.splitlines() == [
        "WARNING: sitemapkit: settings: sitemapkit_max_urls: must be a whole number from 1 to 50000, got 0; "
        "no sitemap written [sitemapkit.option-invalid]"]
    assert "build succeeded, 1 warning." in done.stdout
    assert (root / "out" / "index.html").is_file() and not (root / "out" / "sitemap.xml").exists()


def test_sphinx_W_makes_a_bad_value_fatal_without_a_crash_report(tmp_path):
    root = sphinx_project(tmp_path, "sitemapkit_gzp = True\n")
    done = run(["sphinx", "-b", "html", "-W", "src", "out"], root)
    no_crash(done)
    assert done.returncode == 1
    assert done.stderr.splitlines()[0] == (
        "WARNING: sitemapkit: settings: sitemapkit_gzp: is not an option of sitemapkit (did you mean "
        "sitemapkit_gzip?); no sitemap written [sitemapkit.option-invalid]")
    assert not (root / "out" / "sitemap.xml").exists()


# -------------------------------------------------------------------- MkDocs


def test_mkdocs_shows_the_summary_at_its_default_level(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Home\n", encoding="utf-8")
    (tmp_path / "docs" / "a.md").write_text("# A\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(f"site_name: Tiny\nsite_url: {BASE}\nplugins:\n  - sitemapkit\n",
                                         encoding="utf-8")
    done = run(["mkdocs", "build"], tmp_path)
    assert done.returncode == 0, no_crash(done)
    assert re.search(r"^INFO +- +sitemapkit: 2 URLs in sitemap\.xml, robots\.txt; "
                     r"left out: 1 error page \(404\.html\); "
                     r"lastmod: 2 none \(docs is not in a git repository\); 0 warnings$",
                     done.stderr, re.MULTILINE), done.stderr
