"""``sitemapkit validate --format html``: one self-contained page that shows every URL of the
sitemaps checked (lastmod, images, alternates) and every problem, grouped by rule. The page
is read back with lxml.html and compared with what ``--format json`` says of the same files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import lxml.html

from sitemap_checks import locs

BIN = Path(sys.executable).parent

SITEMAP = """<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"
        xmlns:xhtml="http://www.w3.org/1999/xhtml">
<url><loc>https://example.com/</loc><lastmod>2026-01-02</lastmod>
  <image:image><image:loc>https://example.com/a.png</image:loc></image:image>
  <image:image><image:loc>https://example.com/b.png</image:loc></image:image>
  <xhtml:link rel="alternate" hreflang="en" href="https://example.com/"/>
  <xhtml:link rel="alternate" hreflang="fr" href="https://example.com/fr/"/></url>
<url><loc>https://example.com/fr/</loc><lastmod>2099-01-01</lastmod></url>
<url><loc>https://example.com/a?x=1&amp;y=&lt;2&gt;</loc><changefreq>Weekly</changefreq></url>
<url><loc>https://example.com/a?x=1&amp;y=&lt;2&gt;</loc></url>
<url><loc>https://example.com/b</loc><lastmod>2026-13-01</lastmod><priority>1.5</priority></url>
</urlset>
"""


def validate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BIN / "sitemapkit"), "validate", *args], capture_output=True, text=True,
                          check=False)


def test_the_html_report_shows_every_url_and_every_problem(tmp_path):
    sitemap = tmp_path / "sitemap.xml"
    sitemap.write_text(SITEMAP, encoding="utf-8")
    found = json.loads(validate(str(sitemap), "--format", "json").stdout)
    done = validate(str(sitemap), "--format", "html")
    assert done.returncode == 1  # as with every format: problems found
    page = lxml.html.fromstring(done.stdout)

    # every URL, in order, each with its lastmod, images and alternates
    rows = page.xpath("//table[@class='urls']/tbody/tr")
    assert [row.xpath("string(td[@class='loc'])") for row in rows] == locs(sitemap)
    first = rows[0]
    assert first.xpath("string(td[3])") == "2026-01-02"
    assert first.xpath(".//a[@class='image']/@href") == ["https://example.com/a.png", "https://example.com/b.png"]
    assert first.xpath(".//a[@class='alternate']/@href") == ["https://example.com/", "https://example.com/fr/"]

    # every problem, under its rule's heading, linked to the <url> it is about
    problems = found["problems"]
    assert len(problems) >= 5
    assert len({p["rule"] for p in problems}) >= 5
    for problem in problems:
        section = page.xpath(f"//section[@id='rule-{problem['rule']}']")
        assert len(section) == 1, problem
        messages = section[0].xpath(".//td[@class='message']/text()")
        assert problem["message"] in messages
        where = f"{problem['file']}:{problem['line']}"
        link = section[0].xpath(f".//td[@class='where']/a[text()='{where}']/@href")
        assert link and page.xpath(f"//tr[@id='{link[0][1:]}']"), where
    assert len(page.xpath("//tr[@class='problem']")) == len(problems)

    # self-contained: no script, no stylesheet or image to fetch
    assert not page.xpath("//script | //link | //img | //iframe")


def test_a_clean_sitemap_reports_no_problem_and_exits_0(tmp_path):
    sitemap = tmp_path / "sitemap.xml"
    sitemap.write_text(SITEMAP.split("<url><loc>https://example.com/fr/")[0].replace(
        '<xhtml:link rel="alternate" hreflang="fr" href="https://example.com/fr/"/>', "") + "</urlset>\n",
        encoding="utf-8")
    done = validate(str(sitemap), "--format", "html")
    assert done.returncode == 0, done.stdout
    page = lxml.html.fromstring(done.stdout)
    assert page.xpath("string(//span[contains(@class, 'verdict')])") == "OK"
    assert not page.xpath("//section[@class='rule']")
    assert [a.get("href") for a in page.xpath("//td[@class='loc']/a")] == ["https://example.com/"]
