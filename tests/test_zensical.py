"""Zensical (from PyPI, in a venv of its own) runs no MkDocs plugin: a project as `zensical new`
makes it is built with `zensical build`, then `sitemapkit build` in the same folder, as one
step. sitemapkit takes the site URL and folders from zensical.toml and dates each page from
its Markdown source; its sitemap.xml replaces Zensical's and stays a urlset."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from git_helpers import commit, init
from lxml import etree
from project_checks import NS, committed, lastmods, validate_strict
from tool_venvs import tool_venv

pytestmark = pytest.mark.slow  # real generator runs (make test-fast leaves them out)


@pytest.fixture(scope="module")
def zensical(request):
    return tool_venv(request.config, ["zensical"], sitemapkit=True)


def test_zensical_build_then_sitemapkit_build(tmp_path, zensical):
    root = tmp_path / "project"
    root.mkdir()
    subprocess.run([str(zensical / "zensical"), "new", "."], cwd=root, check=True, capture_output=True)
    config = (root / "zensical.toml").read_text(encoding="utf-8")
    site_url = next(line.split('"')[1] for line in config.splitlines() if line.startswith("site_url"))
    init(root)
    (root / ".gitignore").write_text("site/\n", encoding="utf-8")
    commit(root, "2024-03-04T05:06:07Z")
    commit(root, "2025-01-02T03:04:05Z", {"docs/guide.md": "# Guide\n\nText.\n"})
    commit(root, "2025-06-07T08:09:10Z", {"docs/news.md": "---\ndate: 2023-05-06\n---\n# News\n"})
    path = os.pathsep.join([str(zensical), str(Path(sys.executable).parent), os.environ["PATH"]])
    env = {**os.environ, "SOURCE_DATE_EPOCH": "4102444800", "PATH": path}

    subprocess.run(["zensical", "build"], cwd=root, env=env, check=True, capture_output=True)
    theirs = etree.parse(str(root / "site" / "sitemap.xml")).getroot()
    assert theirs.find("s:url/s:lastmod", NS) is None  # Zensical's own: <loc> only

    done = subprocess.run("zensical build --clean && sitemapkit build", shell=True, cwd=root, env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    # Zensical's own sitemap, back after each --clean, is replaced as the docs say: one note, no warning
    said = [line for line in done.stderr.splitlines() if line.startswith(("warning:", "info:"))]
    assert said == [f"info: {root / 'site' / 'sitemap.xml'}: sitemaps: sitemap.xml was Zensical's own sitemap, "
                    "written on every build: replaced by sitemapkit's [generator-sitemap]"], done.stderr
    assert done.stdout.rstrip().endswith("; 0 warnings")
    again = subprocess.run("zensical build --clean && sitemapkit build --strict", shell=True, cwd=root, env=env,
                           capture_output=True, text=True)
    assert again.returncode == 0, again.stderr  # --clean empties .cache/: the manifest and key live elsewhere
    assert "warning" not in again.stderr and (root / ".sitemapkit").is_dir()
    site = root / "site"
    pages = {"index.md": site_url, "markdown.md": site_url + "markdown/", "guide.md": site_url + "guide/"}
    assert lastmods(site, site_url) == {
        **{url: committed(root, f"docs/{source}") for source, url in pages.items()},
        site_url + "news/": "2023-05-06",  # front matter wins over git
    }
    assert (site / "robots.txt").read_text(encoding="utf-8").endswith(f"Sitemap: {site_url}sitemap.xml\n")
    assert validate_strict(site) == 0
    # The quickstart's home page shows emoji as twemoji SVGs from a CDN: decoration, not images
    # of the page. The page does reference them, so the test would mean nothing without that.
    assert "twemoji" in (site / "index.html").read_text(encoding="utf-8")
    image_ns = {**NS, "i": "http://www.google.com/schemas/sitemap-image/1.1"}
    images = etree.parse(str(site / "sitemap.xml")).xpath("//i:image/i:loc/text()", namespaces=image_ns)
    assert not [image for image in images if "emoji" in image]
