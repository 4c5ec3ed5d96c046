"""One mapping between URLs and files (``pages.url_for_file``, ``pages.files_for_url``,
``pages.serving_file``), used by the Pelican adapter, ``build`` and ``validate --site-dir``:
what a build lists, the validator finds, whatever the names and the URL scheme; an
extension-less URL ``a`` is served by ``a.html``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from project_checks import pelican_conf

from sitemap_checks import assert_valid_tree, locs, usp_urls
from sitemapkit import Page, Settings, generate, validate
from sitemapkit.site.pages import files_for_url, serving_file, url_for_file
from sitemapkit.site.served import listed_url

BIN = Path(sys.executable).parent
BASE = "https://example.org/"
PAGE = "<!doctype html><html><head><title>T</title></head><body><main>x</main></body></html>"


def test_an_extension_less_url_is_served_by_its_html_file_before_a_folder(tmp_path):
    for name in ("a.html", "a/index.html", "b/index.html", "c.html"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(PAGE)
    assert files_for_url("a") == ("a", "a.html", "a/index.html", "a/index.htm")
    assert serving_file(tmp_path, "a") == "a.html"
    assert serving_file(tmp_path, "a/") == "a/index.html"
    assert serving_file(tmp_path, "b") == "b/index.html"
    assert serving_file(tmp_path, "c.html") == "c.html"
    assert serving_file(tmp_path, "c.html.html") is None  # .html is added to an extension-less name only
    assert serving_file(tmp_path, "../a.html") is None


@pytest.mark.slow  # a real Pelican run
def test_pelican_slug_urls_saved_as_html_pass_strict_validation(tmp_path):
    """``ARTICLE_URL = '{slug}'`` with ``ARTICLE_SAVE_AS = '{slug}.html'``: listed at the URL
    Pelican links (``/first``), which ``a.html`` serves, and ``validate --site-dir --strict``
    finds the file for it and misses no page."""
    (tmp_path / "content").mkdir()
    (tmp_path / "content/first.md").write_text("Title: First\nDate: 2026-01-10\nSlug: first\n\nOne.")
    (tmp_path / "content/second.md").write_text("Title: Second\nDate: 2026-01-12\nSlug: second\n\nTwo.")
    (tmp_path / "pelicanconf.py").write_text(
        pelican_conf(BASE, 'ARTICLE_URL = "{slug}"', 'ARTICLE_SAVE_AS = "{slug}.html"'))
    env = {**os.environ, "SOURCE_DATE_EPOCH": "1795262400"}
    done = subprocess.run([str(BIN / "pelican"), "content", "-s", "pelicanconf.py"], cwd=tmp_path, env=env,
                          text=True, capture_output=True, check=False)
    assert done.returncode == 0 and "page-missing" not in done.stdout + done.stderr, done.stdout + done.stderr
    site = tmp_path / "output"
    assert (site / "first.html").is_file() and not (site / "first").exists()
    assert_valid_tree(site, BASE)
    assert {BASE + "first", BASE + "second"} <= set(usp_urls(site, BASE))
    assert validate([site / "sitemap.xml", site / "robots.txt"], site_dir=site) == []
    strict = subprocess.run([str(BIN / "sitemapkit"), "validate", "sitemap.xml", "--site-dir", ".", "--strict"],
                            cwd=site, env=env, text=True, capture_output=True, check=False)
    assert strict.returncode == 0, strict.stdout + strict.stderr


# Each scheme: (the file a generator writes for a page called NAME, the URL it links it by)
SCHEMES = {
    "file": lambda name: (f"{name}.html", None),  # a.html at a.html
    "extension-less": lambda name: (f"{name}.html", url_for_file(name)),  # a.html at a (Pelican '{slug}')
    "folder": lambda name: (f"{name}/index.html", None),  # a/index.html at a/
    "folder without slash": lambda name: (f"{name}/index.html", url_for_file(name)),  # a/index.html at a
}

segment = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="/\x00"),
                  min_size=1, max_size=10).filter(lambda s: s not in (".", "..") and not s.startswith("."))
named_pages = st.dictionaries(st.lists(segment, min_size=1, max_size=3).map("/".join),
                              st.sampled_from(sorted(SCHEMES)), min_size=1, max_size=6)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(named_pages)
@example({"first": "extension-less", "a": "folder without slash", "a/b": "extension-less", "404": "file"})
@example({"A:": "extension-less", "b:c": "folder without slash"})  # no URL scheme, a path
@example({"v1.2": "extension-less", "x.html": "extension-less", "q?a=1 #x": "extension-less", "café": "folder"})
def test_what_a_build_lists_the_validator_finds(tmp_path_factory, pages):
    """Pages of arbitrary names under arbitrary URL schemes, listed as the Pelican adapter
    lists them (its link when a file serves it, else where the file was written): every
    listed URL has its file, and every page file maps to a listed URL."""
    site = tmp_path_factory.mktemp("site")
    written: dict[str, str | None] = {}
    for name, scheme in pages.items():
        file, linked = SCHEMES[scheme](name)
        try:
            (site / file).parent.mkdir(parents=True, exist_ok=True)
            (site / file).write_text(PAGE)
        except OSError:  # a name this file system refuses (too long in bytes), or a file where a folder is
            return
        written[file] = linked
    found = []
    for file, linked in written.items():
        # (x.html linked for x.html.html is served by no file: listed where written, with a warning)
        url, _ = listed_url(site, linked or url_for_file(file), url_for_file(file), generator="Gen", fix="-")
        found.append(Page(url=url, output=site / file, name=file))
    report = generate(found, site, Settings(base_url=BASE, robots_txt=False, lastmod=False),
                      project_dir=site.parent / f"{site.name}-state")
    problems = validate([site / "sitemap.xml"], site_dir=site) if report.urls else []
    assert [(p.rule, p.message) for p in problems] == []
    listed = locs(site / "sitemap.xml") if report.urls else []
    # every listed URL's file is a page written, and every page written not left out is listed
    assert sorted(serving_file(site, loc[len(BASE):]) for loc in listed) == sorted(
        file for file in written if file not in ("404.html",))
