"""Pelican with i18n_subsites: the French sub-site runs before the main run writes, and each
page is still taken for the run that wrote it (by its folder), so the English pages' hreflang
alternates name the French pages where they are (``fr/first.html``, not ``fr/fr/first.html``),
no page is reported as served nowhere, and ``validate --strict`` passes on the output. A real
``pelican`` run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from sitemap_checks import assert_valid

pytestmark = pytest.mark.slow  # a real pelican run (make test-fast leaves them out)

BIN = Path(sys.executable).parent
BASE = "https://example.org/"
NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}
CONF = """\
SITEURL = "https://example.org"
SITENAME = "Blog"
AUTHOR = "Ann"
PATH = "content"
OUTPUT_PATH = "output"
TIMEZONE = "UTC"
DEFAULT_LANG = "en"
LOAD_CONTENT_CACHE = False
FEED_ALL_ATOM = CATEGORY_FEED_ATOM = TRANSLATION_FEED_ATOM = None
AUTHOR_FEED_ATOM = AUTHOR_FEED_RSS = None
PLUGINS = ["pelican.plugins.i18n_subsites", "sitemapkit_pelican"]
I18N_SUBSITES = {"fr": {"SITENAME": "Blog FR"}}
"""
POSTS = {
    "first.md": "Title: First\nDate: 2026-01-10 10:00\nTags: a\nSlug: first\nLang: en\n\nOne.",
    "first-fr.md": "Title: Premier\nDate: 2026-01-10 10:00\nTags: a\nSlug: first\nLang: fr\n\nUn.",
    "second.md": "Title: Second\nDate: 2026-02-20 08:00\nCategory: Boats\nTags: b\nSlug: second\nLang: en\n\nTwo.",
    "pages/about.md": "Title: About\nSlug: about\nLang: en\n\nAbout us.",
    "pages/about-fr.md": "Title: A propos\nSlug: about\nLang: fr\n\nNous.",
}


def test_i18n_subsites_pages_are_taken_for_the_run_that_wrote_them(tmp_path):
    for name, text in POSTS.items():
        (tmp_path / "content" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "content" / name).write_text(text, encoding="utf-8")
    (tmp_path / "pelicanconf.py").write_text(CONF, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "SOURCE_DATE_EPOCH"}
    done = subprocess.run([sys.executable, "-m", "pelican", "content", "-s", "pelicanconf.py"], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    output = done.stdout + done.stderr
    assert "page-missing" not in output and "duplicate-url" not in output and "hreflang-no-return" not in output
    out = tmp_path / "output"
    root = assert_valid(out / "sitemap.xml")
    alternates = {url.findtext("s:loc", namespaces=NS): {(link.get("hreflang"), link.get("href"))
                                                          for link in url.iterfind("x:link", NS)}
                  for url in root.iterfind("s:url", NS)}
    pair = {("en", BASE + "first.html"), ("fr", BASE + "fr/first.html")}
    assert alternates[BASE + "first.html"] == alternates[BASE + "fr/first.html"] == pair
    about = {("en", BASE + "pages/about.html"), ("fr", BASE + "fr/pages/about.html")}
    assert alternates[BASE + "pages/about.html"] == alternates[BASE + "fr/pages/about.html"] == about
    assert BASE + "tag/b.html" in alternates and BASE + "fr/tag/a.html" in alternates
    checked = subprocess.run([str(BIN / "sitemapkit"), "validate", str(out / "sitemap.xml"), "--site-dir", str(out),
                              "--strict"], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
