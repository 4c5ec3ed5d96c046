"""``transform``, ``extra_urls`` and ``sections`` in real builds of each generator: the same
option, the same result, checked by the XSDs and ``sitemapkit validate --strict``."""

from __future__ import annotations

import logging
import sys
import textwrap
from pathlib import Path

import pytest
import yaml

from sitemap_checks import assert_valid, assert_valid_tree, locs, robots_sitemaps
from sitemapkit.cli import main

pytestmark = pytest.mark.slow  # real generator runs

TRANSFORM = """\
import dataclasses

def change(entry):
    if "secret" in entry.loc:
        return None
    if "/blog/" in entry.loc:
        return dataclasses.replace(entry, changefreq="weekly", priority=0.8)
    if "broken" in entry.loc:
        return {"loc": entry.loc}  # neither an Entry nor None: the page left out, with a warning
    if "raising" in entry.loc:
        raise ValueError("cannot do this one")
    return entry
"""


@pytest.fixture(autouse=True)
def _fresh_import_path(monkeypatch, pin_now):
    """Each build imports its own ``site_hooks`` module from its own project folder."""
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.delitem(sys.modules, "site_hooks", raising=False)
    pin_now(1795284000)  # 2026-11-21T18:00Z
    yield
    sys.modules.pop("site_hooks", None)


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")


def validate_strict(*paths: Path) -> None:
    for path in paths:
        assert main(["validate", str(path), "--strict"]) == 0, path


def test_mkdocs_material_with_sections_transform_and_extra_urls(tmp_path, caplog):
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    base = "https://example.org/docs/"
    write(tmp_path, {
        "site_hooks.py": TRANSFORM,
        "docs/index.md": "# Home\n",
        "docs/guide.md": "# Guide\n",
        "docs/secret.md": "# Secret\n",
        "docs/broken.md": "# Broken\n",
        "docs/blog/one.md": "# One\n",
        "docs/blog/two.md": "# Two\n",
    })
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump({
        "site_name": "Around", "site_url": base, "theme": {"name": "material"},
        "plugins": [{"sitemapkit": {
            "sections": ["blog/"], "transform": "site_hooks:change", "lastmod": ["meta"],
            "extra_urls": ["/api/", {"loc": base + "shop/", "lastmod": "2026-05-01"}],
        }}],
    }), encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        build(load_config(str(tmp_path / "mkdocs.yml")))
    site = tmp_path / "site"
    # Material reads sitemap.xml: it stays a urlset of every page; the sections' index is beside it
    assert assert_valid(site / "sitemap.xml").tag.endswith("urlset")
    every = set(locs(site / "sitemap.xml"))
    assert every == {base, base + "guide/", base + "blog/one/", base + "blog/two/", base + "api/",
                     base + "shop/"}
    files = assert_valid_tree(site, base, "sitemap-index.xml")
    assert sorted(path.name for path in files) == ["sitemap-blog.xml", "sitemap-index.xml", "sitemap-other.xml"]
    assert set(locs(site / "sitemap-blog.xml")) == {base + "blog/one/", base + "blog/two/"}
    assert robots_sitemaps(site / "robots.txt") == [base + "sitemap-index.xml"]
    text = (site / "sitemap-blog.xml").read_text()
    assert text.count("<changefreq>weekly</changefreq><priority>0.8</priority>") == 2
    assert f"<loc>{base}shop/</loc><lastmod>2026-05-01</lastmod>" in (site / "sitemap-other.xml").read_text()
    warned = [record.getMessage() for record in caplog.records if "transform" in record.getMessage()]
    assert len(warned) == 1 and base + "broken/" in warned[0] and "returned a dict" in warned[0]
    assert "Traceback" not in caplog.text
    validate_strict(site / "sitemap-index.xml", site / "sitemap.xml", site / "robots.txt")


def test_mkdocs_a_transform_that_raises_fails_the_build_naming_the_page(tmp_path, caplog):
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    base = "https://example.org/docs/"
    write(tmp_path, {"site_hooks.py": TRANSFORM, "docs/index.md": "# Home\n", "docs/raising.md": "# R\n"})
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump({
        "site_name": "Around", "site_url": base, "plugins": [{"sitemapkit": {"transform": "site_hooks:change"}}],
    }), encoding="utf-8")
    with caplog.at_level(logging.WARNING), pytest.raises(MkDocsException):
        build(load_config(str(tmp_path / "mkdocs.yml")))
    said = [record.getMessage() for record in caplog.records if "transform" in record.getMessage()]
    assert len(said) == 1 and base + "raising/" in said[0] and "ValueError: cannot do this one" in said[0]
    assert "Traceback" not in caplog.text and not (tmp_path / "site" / "sitemap.xml").exists()


def test_sphinx_with_transform_and_extra_urls(tmp_path):
    from sphinx.cmd.build import build_main

    base = "https://example.org/proj/"
    write(tmp_path, {
        "src/site_hooks.py": TRANSFORM,
        "src/conf.py": f"""\
            project = "Around"
            extensions = ["sitemapkit_sphinx"]
            html_baseurl = "{base}"
            sitemapkit_transform = "site_hooks:change"
            sitemapkit_lastmod = ["meta"]
            sitemapkit_extra_urls = ["api/", {{"loc": "{base}shop/", "lastmod": "2026-05-01"}}]
            """,
        "src/index.rst": "Home\n====\n\n.. toctree::\n\n   guide\n   secret\n   blog/one\n",
        "src/guide.rst": "Guide\n=====\n\nText.\n",
        "src/secret.rst": "Secret\n======\n\nText.\n",
        "src/blog/one.rst": "One\n===\n\nText.\n",
    })
    out = tmp_path / "out"
    assert build_main(["-b", "html", "-q", str(tmp_path / "src"), str(out)]) == 0
    assert_valid_tree(out, base)
    listed = locs(out / "sitemap.xml")
    assert sorted(listed) == sorted([base + "index.html", base + "guide.html", base + "blog/one.html",
                                     base + "api/", base + "shop/"])
    text = (out / "sitemap.xml").read_text()
    assert f"<loc>{base}blog/one.html</loc><changefreq>weekly</changefreq><priority>0.8</priority>" in text
    assert f"<loc>{base}shop/</loc><lastmod>2026-05-01</lastmod>" in text
    validate_strict(out / "sitemap.xml", out / "robots.txt")


def test_pelican_with_transform_and_extra_urls(tmp_path):
    from pelican import Pelican
    from pelican.settings import read_settings

    write(tmp_path, {
        "site_hooks.py": TRANSFORM,
        "content/one.md": "Title: One\nDate: 2026-01-10 10:00\nSlug: one\n\nOne.",
        "content/secret.md": "Title: Secret\nDate: 2026-01-11 10:00\nSlug: secret\n\nShh.",
        "pelicanconf.py": """\
            SITEURL = "https://example.org"
            SITENAME = "Around"
            PATH = "content"
            OUTPUT_PATH = "output"
            CACHE_PATH = "cache"
            TIMEZONE = "UTC"
            LOAD_CONTENT_CACHE = False
            FEED_ALL_ATOM = CATEGORY_FEED_ATOM = TRANSLATION_FEED_ATOM = None
            AUTHOR_FEED_ATOM = AUTHOR_FEED_RSS = None
            ARTICLE_URL = ARTICLE_SAVE_AS_PATTERN = "blog/{slug}.html"
            ARTICLE_SAVE_AS = "blog/{slug}.html"
            PLUGINS = ["sitemapkit_pelican"]
            SITEMAPKIT = {"transform": "site_hooks:change", "lastmod": ["meta"],
                          "extra_urls": ["/shop/", {"loc": "https://example.org/forum/", "lastmod": "2026-05-01"}]}
            """,
    })
    logger_class, root_class = logging.getLoggerClass(), type(logging.getLogger())
    try:
        Pelican(read_settings(str(tmp_path / "pelicanconf.py"))).run()
    finally:  # Pelican swaps the logger classes (see test_pelican.py)
        logging.setLoggerClass(logger_class)
        logging.getLogger().__class__ = root_class
    out = tmp_path / "output"
    base = "https://example.org/"
    assert_valid_tree(out, base)
    listed = locs(out / "sitemap.xml")
    assert base + "blog/one.html" in listed and base + "shop/" in listed and base + "forum/" in listed
    assert not any("secret" in url for url in listed)
    text = (out / "sitemap.xml").read_text()
    assert f"<loc>{base}blog/one.html</loc><lastmod>2026-01-10T10:00:00Z</lastmod><changefreq>weekly</changefreq>" \
        "<priority>0.8</priority>" in text
    assert f"<loc>{base}forum/</loc><lastmod>2026-05-01</lastmod>" in text
    validate_strict(out / "sitemap.xml", out / "robots.txt")
