"""``sitemapkit build --html-sitemap`` in an MkDocs (ProperDocs, Zensical) project folder: the
map follows the project's ``nav`` (sections, order, titles) and takes the site's name off the
titles it reads from the pages' HTML."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import lxml.html
import pytest

BIN = Path(sys.executable).parent
PAGES = {"index.html": "My Docs", "install/index.html": "Installing - My Docs", "usage/index.html": "Usage - My Docs",
         "guide/api/index.html": "API - My Docs", "extra/index.html": "Extra - My Docs"}
CONFIGS = {
    "mkdocs.yml": "site_name: My Docs\nsite_url: https://example.org/\nnav:\n  - Home: index.md\n"
                  "  - Getting started:\n      - install.md\n      - How to use it: usage.md\n"
                  "  - Reference:\n      - guide/api.md\n",
    "zensical.toml": '[project]\nsite_name = "My Docs"\nsite_url = "https://example.org/"\nnav = [\n'
                     '  { "Home" = "index.md" },\n'
                     '  { "Getting started" = ["install.md", { "How to use it" = "usage.md" }] },\n'
                     '  { "Reference" = ["guide/api.md"] },\n]\n',
}


@pytest.mark.parametrize("config", list(CONFIGS))
def test_cli_map_follows_the_projects_nav(tmp_path, config):
    (tmp_path / config).write_text(CONFIGS[config], encoding="utf-8")
    for name, title in PAGES.items():
        (tmp_path / "site" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "site" / name).write_text(f"<!DOCTYPE html><html><head><title>{title}</title></head>"
                                              "<body><p>Text.</p></body></html>", encoding="utf-8")
    done = subprocess.run([str(BIN / "sitemapkit"), "build", "--html-sitemap", "-q"], cwd=tmp_path,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    page = lxml.html.parse(str(tmp_path / "site" / "sitemap.html")).getroot()
    shown = [("".join(a.xpath("ancestor::section[1]/h2//text()")).strip(), a.text_content(), a.get("href"))
             for a in page.xpath("//*[@class='sitemapkit-sections']//a")]
    assert shown == [("", "Home", "./"), ("Getting started", "Installing", "./install/"),
                     ("Getting started", "How to use it", "./usage/"), ("Reference", "API", "./guide/api/"),
                     ("Other pages", "Extra", "./extra/")]
