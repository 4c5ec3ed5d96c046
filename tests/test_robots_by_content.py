"""A robots file given to ``sitemapkit validate`` under another name is known by its content
when most of its lines are ``field: value`` records and one is ``User-agent`` or ``Sitemap``:
records no crawler knows (``Content-Signal:``, ``Robot-version:``, ACAP's, a misspelt
``Desallow:``) are skipped by crawlers (RFC 9309, 2.2.4), so they do not make the file a text
sitemap of broken lines. Four files shaped like crawler-commons' valid test robots files,
read by protego as a crawler reads them, and checked by the real command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sitemap_checks import robots_sitemaps

BIN = Path(sys.executable).parent
SITEMAP_URL = "https://www.example.com/sitemap.xml"
SITEMAP = ('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
           "<url><loc>https://www.example.com/</loc></url></urlset>\n")

ROBOTS = {
    "robots-content-signal.txt": (
        "# As a condition of accessing this website, you agree to abide by the following\n"
        "# content signals:\n"
        "#   search:   building a search index and providing search results\n"
        "#   ai-train: training or fine-tuning AI models\n"
        "User-Agent: *\n"
        "Content-Signal: search=yes, ai-train=no\n"
        "Allow: /\n"
        "\n"
        f"Sitemap: {SITEMAP_URL}\n"
    ),
    "robots-version.txt": (
        "# robots.txt for http://www.example.com/\n"
        "Robot-version: 2.0.0\n"
        "User-agent: *\n"
        "Disallow: /cgi-bin/\n"
        "Disallow: /tmp/\n"
        "Request-rate: 1/5\n"
        "Visit-time: 0600-0845\n"
        f"Sitemap: {SITEMAP_URL}\n"
    ),
    "robots-typo.txt": (
        "User-agent: *\n"
        "Desallow: /private/\n"
        "Dissalow: /old/\n"
        "Disallow: /cgi-bin/\n"
        "Allow: /cgi-bin/public/\n"
        "\n"
        f"Sitemap: {SITEMAP_URL}\n"
    ),
    "robots-acap.txt": (
        "##ACAP version=1.0\n"
        "\n"
        "# Allow all\n"
        "User-agent: *\n"
        "Disallow: /search   # no search pages\n"
        "Noarchive: /\n"
        "\n"
        "ACAP-crawler: *\n"
        "ACAP-disallow-crawl: /private/\n"
        "ACAP-allow-crawl: /\n"
        "\n"
        "User-agent: Googlebot-Image\n"
        "Disallow:\n"
        "\n"
        "Host: www.example.com\n"
        f"Sitemap: {SITEMAP_URL}\n"
    ),
}


def validate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BIN / "sitemapkit"), "validate", *args, "--format", "json"],
                          capture_output=True, text=True, check=False)


@pytest.mark.parametrize("name", list(ROBOTS))
def test_robots_files_with_records_crawlers_skip_are_read_as_robots_files(tmp_path, name):
    (tmp_path / "sitemap.xml").write_text(SITEMAP, encoding="utf-8")
    robots = tmp_path / name
    robots.write_text(ROBOTS[name], encoding="utf-8")
    assert robots_sitemaps(robots) == [SITEMAP_URL]  # a crawler reads it as robots.txt
    done = validate(str(robots))
    found = json.loads(done.stdout)
    assert found["problems"] == [] and done.returncode == 0, done.stdout
    # read as robots.txt: the sitemap its Sitemap: line names was followed and checked
    assert sorted(Path(file).name for file in found["files"]) == [name, "sitemap.xml"]


def test_most_lines_decide_and_text_sitemaps_stay_text_sitemaps(tmp_path):
    (tmp_path / "sitemap.xml").write_text(SITEMAP, encoding="utf-8")
    records = f"User-agent: *\nDisallow: /tmp/\nSitemap: {SITEMAP_URL}\n"
    # three records of five lines: a robots file with two stray lines, which crawlers skip
    mostly = tmp_path / "robots-mostly.txt"
    mostly.write_text(records + "stray words\nmore stray words\n", encoding="utf-8")
    done = validate(str(mostly))
    assert json.loads(done.stdout)["problems"] == [] and done.returncode == 0, done.stdout
    # half the lines records: prose with a colon or two, no robots.txt; and with no URL in it,
    # no text sitemap either: one not-a-sitemap
    notes = tmp_path / "notes.txt"
    notes.write_text("Subject: the launch\nUser-agent: Mozilla\nwe ship on Monday\nand then rest\n",
                     encoding="utf-8")
    assert [p["rule"] for p in json.loads(validate(str(notes)).stdout)["problems"]] == ["not-a-sitemap"]
    # URLs are no records, whatever their scheme's colon
    urls = tmp_path / "urls.txt"
    urls.write_text("https://www.example.com/\nhttps://www.example.com/a\n", encoding="utf-8")
    done = validate(str(urls))
    assert json.loads(done.stdout)["problems"] == [] and done.returncode == 0
