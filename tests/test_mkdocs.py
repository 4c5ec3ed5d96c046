"""The MkDocs adapter, through real `mkdocs build` runs on sites made in tmp_path; the output
is checked with the official XSDs (lxml), ultimate-sitemap-parser and protego."""

from __future__ import annotations

import gzip
import logging
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from lxml import etree
from manifest_paths import manifests_in
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.exceptions import Abort, ConfigurationError

from sitemap_checks import REPO, assert_valid, assert_valid_tree, locs, robots_sitemaps, usp_urls

pytestmark = pytest.mark.slow  # real generator runs (make test-fast leaves them out)

BASE = "https://example.org/docs/"
NS = {
    "s": "http://www.sitemaps.org/schemas/sitemap/0.9",
    "image": "http://www.google.com/schemas/sitemap-image/1.1",
    "video": "http://www.google.com/schemas/sitemap-video/1.1",
    "news": "http://www.google.com/schemas/sitemap-news/0.9",
    "xhtml": "http://www.w3.org/1999/xhtml",
}
SAMPLE = REPO / "sample_sites" / "mkdocs"
SAMPLE_EPOCH = "1795284000"  # 2026-11-21T18:00Z, the "now" the sample's news post was written for


def make_site(root: Path, pages: dict[str, str], **config) -> Path:
    """Write mkdocs.yml (default theme, sitemapkit enabled) and docs/; return mkdocs.yml."""
    options = config.pop("sitemapkit", {})
    settings = {
        "site_name": "Test",
        "site_url": BASE,
        "theme": {"name": "mkdocs"},
        "plugins": [{"sitemapkit": options}],
        **config,
    }
    for name, text in pages.items():
        path = root / "docs" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
    config_file = root / "mkdocs.yml"
    config_file.write_text(yaml.safe_dump(settings, sort_keys=False), encoding="utf-8")
    return config_file


def run_build(config_file: Path, **overrides) -> Path:
    config = load_config(str(config_file), **overrides)
    build(config)
    return Path(config.site_dir)


def urls(root: etree._Element) -> dict[str, etree._Element]:
    return {u.findtext("s:loc", namespaces=NS): u for u in root.iterfind("s:url", NS)}


def the_urlset(site: Path) -> etree._Element:
    """The urlset behind sitemap.xml (the entry itself, or the index's first child)."""
    root = assert_valid(site / "sitemap.xml")
    if root.tag.endswith("sitemapindex"):
        first = root.findtext("s:sitemap/s:loc", namespaces=NS).rsplit("/", 1)[1]
        return assert_valid(site / first)
    return root


def alternates(url: etree._Element) -> dict[str, str]:
    return {
        link.get("hreflang"): link.get("href")
        for link in url.iterfind("xhtml:link", NS)
        if link.get("rel") == "alternate"
    }


# ------------------------------------------------------------------ the sample site


@pytest.fixture(scope="module")
def sample_site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("sample")
    shutil.copytree(SAMPLE, root, dirs_exist_ok=True, ignore=shutil.ignore_patterns("site", ".cache"))
    mp = pytest.MonkeyPatch()
    mp.setenv("SOURCE_DATE_EPOCH", SAMPLE_EPOCH)
    try:
        return run_build(root / "mkdocs.yml", site_dir=str(root / "site"))
    finally:
        mp.undo()


def test_sample_site_is_valid_and_lists_every_indexable_page(sample_site):
    base = "https://example.org/sitemapkit-demo/"
    assert_valid_tree(sample_site, base)
    expected = {
        "", "changelog/", "blog/", "blog/2026/launch/", "blog/2026/autumn-notes/",
        "guide/install/", "guide/video-tour/",
    }
    expected = {base + path for path in expected} | {base + "fr/" + path for path in expected}
    assert set(usp_urls(sample_site, base)) == expected
    # left out: sitemap: false, exclude globs, the noindex page, the draft, 404.html
    text = (sample_site / "sitemap.txt").read_text()
    for gone in ("hidden/", "guide/internal/", "guide/members/", "drafts/", "404"):
        assert gone not in text


def test_sample_site_alternates_are_reciprocal_with_self_and_x_default(sample_site):
    entries = urls(the_urlset(sample_site))
    for loc, url in entries.items():
        links = alternates(url)
        assert set(links) == {"en", "fr", "x-default"}, loc
        assert loc in links.values()  # self included
        assert links["x-default"] == links["en"]
        for href in links.values():  # every alternate links back
            assert loc in alternates(entries[href]).values()


def test_sample_site_news_video_images_and_robots(sample_site):
    base = "https://example.org/sitemapkit-demo/"
    # sitemap.xml stays the pages' urlset (Material reads it); news is named in robots.txt.
    assert assert_valid(sample_site / "sitemap.xml").tag.endswith("urlset")
    assert base + "sitemap-news.xml" in robots_sitemaps(sample_site / "robots.txt")
    news = assert_valid(sample_site / "sitemap-news.xml")
    assert list(urls(news)) == [base + "blog/2026/launch/"]  # the autumn post is too old
    assert news.findtext(".//news:title", namespaces=NS) == "sitemapkit 0.1 is out"

    entries = urls(the_urlset(sample_site))
    video = entries[base + "guide/video-tour/"].find("video:video", NS)
    assert video.findtext("video:thumbnail_loc", namespaces=NS) == base + "img/tour-thumbnail.png"
    assert video.findtext("video:duration", namespaces=NS) == "125"
    images = entries[base + "blog/2026/launch/"].findall("image:image/image:loc", NS)
    assert [i.text for i in images] == [base + "img/launch.png"]

    robots = sample_site / "robots.txt"
    assert "Disallow: /sitemapkit-demo/guide/internal/" in robots.read_text()  # the site's own
    assert robots_sitemaps(robots) == [base + "sitemap.xml", base + "sitemap-news.xml"]
    # gzip: true in the sample: our twins, and nothing of MkDocs' template
    assert gzip.decompress((sample_site / "sitemap.xml.gz").read_bytes()) == (
        sample_site / "sitemap.xml"
    ).read_bytes()


def test_sample_site_dates_come_from_front_matter(sample_site):
    base = "https://example.org/sitemapkit-demo/"
    entries = urls(the_urlset(sample_site))

    def lastmod(path):
        return entries[base + path].findtext("s:lastmod", namespaces=NS)

    assert lastmod("guide/install/") == "2026-09-14"  # updated
    assert lastmod("fr/guide/install/") == "2026-09-20"  # the French file's own
    assert lastmod("changelog/") == "2026-11-02"  # date: {created, updated}
    assert lastmod("blog/2026/launch/") == "2026-11-21T09:30:00Z"  # date only


# ------------------------------------------------------------------ pages and URLs


@pytest.mark.parametrize("directory_urls", [True, False])
def test_every_written_page_not_in_nav_included_drafts_and_404_out(tmp_path, directory_urls):
    config_file = make_site(
        tmp_path,
        {
            "index.md": "# Home\n",
            "guide/setup.md": "# Setup\n",
            "extra.md": "# Not in nav\n",
            "drafts/wip.md": "# Draft\n",
        },
        nav=["index.md", "guide/setup.md"],
        not_in_nav="/extra.md\n",
        draft_docs="drafts/\n",
        use_directory_urls=directory_urls,
    )
    site = run_build(config_file)
    assert (site / "404.html").exists()
    found = set(usp_urls(site, BASE))
    if directory_urls:
        expected = {BASE, BASE + "guide/setup/", BASE + "extra/"}
    else:
        expected = {BASE + "index.html", BASE + "guide/setup.html", BASE + "extra.html"}
    assert found == expected


def test_builtin_sitemap_replaced_with_gzip_off_and_on(tmp_path):
    config_file = make_site(tmp_path, {"index.md": "# Home\n", "a.md": "# A\n"})
    site = run_build(config_file)
    assert not (site / "sitemap.xml.gz").exists()
    assert set(locs(site / "sitemap.xml")) == {BASE, BASE + "a/"}
    assert b"{%" not in (site / "sitemap.xml").read_bytes()

    config_file = make_site(tmp_path, {}, sitemapkit={"gzip": True})
    site = run_build(config_file)
    assert gzip.decompress((site / "sitemap.xml.gz").read_bytes()) == (site / "sitemap.xml").read_bytes()


def test_other_filename_leaves_no_sitemap_xml_of_mkdocs(tmp_path):
    config_file = make_site(
        tmp_path, {"index.md": "# Home\n"}, theme={"name": "material"}, sitemapkit={"filename": "map.xml"}
    )
    site = run_build(config_file)
    assert not (site / "sitemap.xml").exists()
    assert not (site / "sitemap.xml.gz").exists()
    assert_valid_tree(site, BASE, "map.xml")
    assert not (site / "robots.txt").exists()  # below the host's root: see test_robots_txt_kept_or_created


def test_changefreq_and_priority_from_keys_rules_and_settings_with_rules_on_and_off(tmp_path):
    """A page's own keys win, then the first matching rule, then the setting: with rules, each
    page is matched; without, a page with no keys of its own takes the settings' values (the
    entry maker decides that once a build, and asks no rule)."""
    pages = {
        "index.md": "# Home\n",
        "blog/post.md": "# Post\n",
        "blog/own.md": "---\nsitemap_changefreq: daily\n---\n# Own\n",
        "about.md": "# About\n",
    }
    rules = [{"match": "blog/*", "changefreq": "monthly", "priority": 0.3}]
    for with_rules in (True, False):
        root = tmp_path / ("rules" if with_rules else "none")
        settings = {"changefreq": "weekly", "priority": 0.5, **({"rules": rules} if with_rules else {})}
        entries = urls(the_urlset(run_build(make_site(root, pages, sitemapkit=settings))))
        fields = {path: (entries[BASE + path].findtext("s:changefreq", namespaces=NS),
                         entries[BASE + path].findtext("s:priority", namespaces=NS))
                  for path in ("blog/post/", "blog/own/", "about/")}
        assert fields["blog/post/"] == (("monthly", "0.3") if with_rules else ("weekly", "0.5"))
        assert fields["blog/own/"] == (("daily", "0.3") if with_rules else ("daily", "0.5"))
        assert fields["about/"] == ("weekly", "0.5")


def test_page_overrides_nested_and_flat_and_noindex_canonical(tmp_path):
    head = (  # front matter `robots:` and `canonical:` rendered into the page head
        '{% extends "base.html" %}{% block site_meta %}'
        '{% if page.meta.canonical %}<meta charset="utf-8">'
        '<link rel="canonical" href="{{ page.meta.canonical }}">{% else %}{{ super() }}{% endif %}'
        '{% if page.meta.robots %}<meta name="robots" content="{{ page.meta.robots }}">{% endif %}'
        "{% endblock %}"
    )
    config_file = make_site(
        tmp_path,
        {
            "index.md": "# Home\n",
            "nested.md": "---\nsitemap:\n  priority: 0.9\n  changefreq: daily\n  lastmod: 2024-05-06\n---\n# N\n",
            "flat.md": "---\nsitemap_priority: 0.2\nsitemap_changefreq: yearly\n---\n# F\n",
            "out.md": "---\nsitemap: false\n---\n# Out\n",
            "noindex.md": "---\nrobots: noindex\n---\n# No\n",
            "copy.md": f"---\ncanonical: {BASE}flat/\n---\n# Copy\n",
        },
        theme={"name": "mkdocs", "custom_dir": "overrides"},
        sitemapkit={"changefreq": "weekly"},
    )
    (tmp_path / "overrides").mkdir()
    (tmp_path / "overrides" / "main.html").write_text(head)
    site = run_build(config_file)
    entries = urls(the_urlset(site))
    assert set(entries) == {BASE, BASE + "nested/", BASE + "flat/"}

    def field(path, name):
        return entries[BASE + path].findtext(f"s:{name}", namespaces=NS)

    assert (field("nested/", "priority"), field("nested/", "changefreq")) == ("0.9", "daily")
    assert field("nested/", "lastmod") == "2024-05-06"
    assert (field("flat/", "priority"), field("flat/", "changefreq")) == ("0.2", "yearly")
    assert field("", "changefreq") == "weekly"


def test_images_from_rendered_content(tmp_path):
    png = (SAMPLE / "docs" / "img" / "diagram.png").read_bytes()
    config_file = make_site(
        tmp_path,
        {
            "index.md": "# Home\n\n![a](img/a.png)\n",
            "sub/page.md": "---\nsitemap_images: [https://cdn.example.org/b.png]\n---\n# P\n\n![a](../img/a.png)\n",
            "img/a.png": png,
        },
    )
    site = run_build(config_file)
    entries = urls(the_urlset(site))
    assert [i.text for i in entries[BASE].iterfind("image:image/image:loc", NS)] == [BASE + "img/a.png"]
    assert {i.text for i in entries[BASE + "sub/page/"].iterfind("image:image/image:loc", NS)} == {
        BASE + "img/a.png",
        "https://cdn.example.org/b.png",
    }


HOOKS = """\
from pathlib import Path

from mkdocs.plugins import event_priority

NOINDEX = '<meta name="robots" content="noindex">'


def on_post_page(output, page, config):  # rewrites a page, as a minifier would
    if page.file.src_uri == "rewritten.md":
        return output.replace("<head>", "<head>" + NOINDEX, 1)
    return output


@event_priority(50)
def on_post_build(config):  # touches a written file after MkDocs handed the page over
    path = Path(config.site_dir, "touched", "index.html")
    path.write_text(path.read_text(encoding="utf-8").replace("<head>", "<head>" + NOINDEX, 1))
"""


def test_pages_are_read_as_mkdocs_hands_them_over_not_from_the_written_file(tmp_path):
    """The page's head comes from the output MkDocs gives ``on_post_page``, after other
    plugins' rewrites (their noindex counts); the written file is not read back, so a later
    change to it does not reach the sitemap."""
    (tmp_path / "hooks.py").write_text(HOOKS, encoding="utf-8")
    pages = {"index.md": "# Home\n", "rewritten.md": "# R\n", "touched.md": "# T\n"}
    site = run_build(make_site(tmp_path, pages, hooks=["hooks.py"]))
    assert 'content="noindex"' in (site / "touched" / "index.html").read_text(encoding="utf-8")
    assert_valid(site / "sitemap.xml")
    assert locs(site / "sitemap.xml") == [BASE, BASE + "touched/"]


def test_theme_parts_of_the_main_region_are_not_the_pages_content(tmp_path, monkeypatch):
    """The page's own rendered Markdown is its content: a banner and a build stamp the theme
    puts into the main region neither add an image nor move a fingerprint lastmod."""
    png = (SAMPLE / "docs" / "img" / "diagram.png").read_bytes()
    config_file = make_site(
        tmp_path,
        {"index.md": "# Home\n\n![a](img/a.png)\n", "img/a.png": png, "img/banner.png": png},
        theme={"name": "mkdocs", "custom_dir": "overrides"},
        sitemapkit={"lastmod": ["fingerprint"]},
    )
    (tmp_path / "overrides").mkdir()
    (tmp_path / "overrides" / "main.html").write_text(
        '{% extends "base.html" %}{% block content %}<div role="main">'
        "<p>Built {{ build_date_utc }}</p><img src=\"{{ 'img/banner.png'|url }}\">"
        "{{ page.content }}</div>{% endblock %}"
    )
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767268800")  # 2026-01-01T12:00Z
    site = run_build(config_file)
    home = urls(the_urlset(site))[BASE]
    assert [i.text for i in home.iterfind("image:image/image:loc", NS)] == [BASE + "img/a.png"]
    assert home.findtext("s:lastmod", namespaces=NS) is None  # a first build: no manifest yet

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767355200")  # a day later, nothing edited
    site = run_build(config_file)
    assert "2026-01-02" in (site / "index.html").read_text()  # the theme's part did change
    home = urls(the_urlset(site))[BASE]
    assert home.findtext("s:lastmod", namespaces=NS) == "2026-01-01T12:00:00Z"


def test_lastmod_from_dates_never_the_build_date(tmp_path):
    config_file = make_site(
        tmp_path,
        {
            "index.md": "# Home\n",
            "dated.md": "---\ndate: 2025-02-03\n---\n# D\n",
            "updated.md": "---\ndate: 2025-02-03\nupdated: 2025-04-05 10:00:00\n---\n# U\n",
        },
        sitemapkit={"lastmod": ["meta"]},
    )
    site = run_build(config_file)
    entries = urls(the_urlset(site))
    assert entries[BASE].find("s:lastmod", NS) is None
    assert entries[BASE + "dated/"].findtext("s:lastmod", namespaces=NS) == "2025-02-03"
    assert entries[BASE + "updated/"].findtext("s:lastmod", namespaces=NS) == "2025-04-05T10:00:00Z"


def test_material_blog_posts_dates_and_news(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767268800")  # 2026-01-01T12:00Z
    config_file = make_site(
        tmp_path,
        {
            "index.md": "# Home\n",
            "blog/index.md": "# Blog\n",
            "blog/posts/new.md": "---\ndate: 2026-01-01\n---\n# New post\n\nText.\n",
            "blog/posts/old.md": (
                "---\ndate:\n  created: 2025-06-01\n  updated: 2025-07-02\n---\n# Old post\n\nText.\n"
            ),
            "blog/posts/draft.md": "---\ndate: 2025-12-31\ndraft: true\n---\n# Draft post\n",
        },
        theme={"name": "material"},
        plugins=[
            {"blog": {"post_url_format": "{slug}"}},
            {"sitemapkit": {"news": {"publication": "Test", "language": "en", "match": "blog/*"}}},
        ],
    )
    site = run_build(config_file)
    entries = urls(the_urlset(site))
    assert BASE + "blog/new-post/" in entries
    assert not any("draft" in loc for loc in entries)
    # Material's blog plugin turns post dates into datetimes (midnight) before we see them
    assert entries[BASE + "blog/old-post/"].findtext("s:lastmod", namespaces=NS) == "2025-07-02T00:00:00Z"
    # Archive and index pages are dated by the newest post they list, not by the build
    dated = {loc: url.findtext("s:lastmod", namespaces=NS) for loc, url in entries.items()}
    assert dated[BASE + "blog/"] == dated[BASE + "blog/archive/2026/"] == "2026-01-01"  # built at 12:00Z
    assert dated[BASE + "blog/archive/2025/"] == dated[BASE + "blog/old-post/"]
    news = assert_valid(site / "sitemap-news.xml")
    assert list(urls(news)) == [BASE + "blog/new-post/"]


# ------------------------------------------------------------------ translations


@pytest.mark.parametrize("sitemapkit_first", [False, True])
def test_i18n_folder_layout_alternates(tmp_path, sitemapkit_first):
    i18n = {
        "i18n": {
            "docs_structure": "folder",
            "fallback_to_default": False,
            "languages": [
                {"locale": "en", "name": "English", "default": True},
                {"locale": "de", "name": "Deutsch"},
            ],
        }
    }
    ours = {"sitemapkit": {"x_default": "en"}}
    config_file = make_site(
        tmp_path,
        {
            "en/index.md": "# Home\n",
            "en/guide.md": "# Guide\n",
            "en/only-en.md": "# English only\n",
            "de/index.md": "# Start\n",
            "de/guide.md": "# Anleitung\n",
        },
        plugins=[ours, i18n] if sitemapkit_first else [i18n, ours],
    )
    site = run_build(config_file)
    entries = urls(the_urlset(site))
    assert set(entries) == {BASE, BASE + "guide/", BASE + "only-en/", BASE + "de/", BASE + "de/guide/"}
    assert alternates(entries[BASE + "de/guide/"]) == {
        "de": BASE + "de/guide/", "en": BASE + "guide/", "x-default": BASE + "guide/",
    }
    assert alternates(entries[BASE + "guide/"]) == alternates(entries[BASE + "de/guide/"])
    assert alternates(entries[BASE + "only-en/"]) == {}  # nothing to alternate with


def test_no_i18n_plugin_no_alternates(tmp_path):
    config_file = make_site(tmp_path, {"index.md": "# Home\n", "index.fr.md": "# Accueil\n"})
    site = run_build(config_file)
    assert b"xhtml:link" not in (site / "sitemap.xml").read_bytes()


# ------------------------------------------------------------------ robots.txt


def test_robots_txt_kept_or_created(tmp_path):
    own = "User-agent: *\r\nDisallow: /private/\r\n"
    config_file = make_site(tmp_path / "a", {"index.md": "# Home\n", "robots.txt": own})
    site = run_build(config_file)
    robots = site / "robots.txt"
    assert robots.read_bytes().startswith(own.encode())
    assert robots_sitemaps(robots) == [BASE + "sitemap.xml"]

    # none of its own, below the host's root (BASE): crawlers would never read one made here
    config_file = make_site(tmp_path / "b", {"index.md": "# Home\n"})
    site = run_build(config_file)
    assert not (site / "robots.txt").exists()
    config_file = make_site(tmp_path / "root", {"index.md": "# Home\n"}, site_url="https://example.org/")
    site = run_build(config_file)
    assert robots_sitemaps(site / "robots.txt") == ["https://example.org/sitemap.xml"]

    config_file = make_site(tmp_path / "c", {"index.md": "# Home\n"}, sitemapkit={"robots_txt": False})
    assert not (run_build(config_file) / "robots.txt").exists()


# ------------------------------------------------------------------ warnings and errors


def test_warnings_go_to_mkdocs_log_and_strict_fails(tmp_path, caplog):
    config_file = make_site(
        tmp_path,
        {
            "index.md": "---\ndate: someday\n---\n# Home\n",
            "bad.md": "---\nsitemap_priority: 7\n---\n# B\n",
        },
    )
    with caplog.at_level(logging.WARNING, logger="mkdocs"):
        site = run_build(config_file)
    messages = [r.getMessage() for r in caplog.records]
    assert any("bad.md: sitemap_priority" in m and "[priority-range]" in m for m in messages)
    assert any("index.md: date:" in m and "[date-format]" in m for m in messages)
    assert BASE + "bad/" in locs(site / "sitemap.xml")  # the value is dropped, the page stays
    with pytest.raises(Abort, match="in strict mode"):
        run_build(config_file, strict=True)


def test_sitemapkit_strict_option_fails_the_build(tmp_path, caplog):
    config_file = make_site(
        tmp_path, {"index.md": "---\nsitemap_changefreq: sometimes\n---\n# H\n"}, sitemapkit={"strict": True}
    )
    with pytest.raises(Abort):
        run_build(config_file)
    assert any("strict is on" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"gzip": "yes"}, "Plugin 'sitemapkit' option 'gzip': Expected type"),
        ({"gzipp": True}, "Plugin 'sitemapkit' option 'gzipp': unknown option 'gzipp'; did you mean 'gzip'"),
        ({"priority": 1.5}, "option 'priority': option 'priority' must be a number from 0.0"),
        ({"news": {"language": "en"}}, "option 'news': option 'news' must be {publication"),
    ],
)
def test_bad_options_fail_with_mkdocs_config_errors(tmp_path, caplog, options, message):
    config_file = make_site(tmp_path, {"index.md": "# Home\n"}, sitemapkit=options)
    with caplog.at_level(logging.ERROR, logger="mkdocs"), pytest.raises((Abort, ConfigurationError)):
        load_config(str(config_file))
    assert any(message in r.getMessage() for r in caplog.records), [r.getMessage() for r in caplog.records]


def test_no_site_url_builds_on_with_one_warning_and_base_url_fills_in(tmp_path, caplog):
    config_file = make_site(tmp_path, {"index.md": "# Home\n"}, site_url=None)
    with caplog.at_level(logging.WARNING, logger="mkdocs"):
        site = run_build(config_file)
    assert (site / "index.html").exists()
    assert not (site / "sitemap.xml").exists() and not (site / "robots.txt").exists()
    warned = [r.getMessage() for r in caplog.records if "sitemapkit" in r.getMessage()]
    assert len(warned) == 1 and "no sitemap" in warned[0] and "set 'site_url'" in warned[0], warned
    strict = [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config_file)]
    failed = subprocess.run(strict, capture_output=True, text=True)
    assert failed.returncode != 0 and "set 'site_url'" in failed.stderr
    config_file = make_site(tmp_path, {}, site_url=None, sitemapkit={"base_url": "https://other.example/"})
    assert locs(run_build(config_file) / "sitemap.xml") == ["https://other.example/"]


def test_rebuild_with_the_same_config_starts_clean(tmp_path):
    """`mkdocs serve` rebuilds with the same plugin object: no page of the last build stays."""
    config_file = make_site(tmp_path, {"index.md": "# Home\n", "gone.md": "# Gone\n"})
    config = load_config(str(config_file))
    build(config)
    assert BASE + "gone/" in locs(tmp_path / "site" / "sitemap.xml")
    (tmp_path / "docs" / "gone.md").unlink()
    build(config)
    assert locs(tmp_path / "site" / "sitemap.xml") == [BASE]


def test_a_dirty_build_writes_the_full_builds_sitemap_reading_only_the_pages_it_rendered(tmp_path, pin_now):
    """`mkdocs build --dirty` renders only the pages that changed: the sitemap still lists every
    page, byte for byte as a full build does. The first after a full build (which keeps no
    facts) reads the others from their written files, their fingerprint the last build's; the
    next reads them no more (a written page changed behind MkDocs' back, same size, time and
    inode, would be left out as noindex if it were read). Front matter comes from the sources."""
    config_file = make_site(tmp_path, {
        "index.md": "# Home\n",
        "a.md": "# A\n\nFirst words.\n",
        "b.md": "---\nsitemap_changefreq: weekly\n---\n# B\n\n![A figure](figure.png)\n",
        "c.md": "---\nsitemap: false\n---\n# C\n",
        "figure.png": b"\x89PNG\r\n\x1a\n", "new.png": b"\x89PNG\r\n\x1a\n",
    })
    mkdocs = [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config_file)]
    site = tmp_path / "site"
    pin_now(1795284000)
    subprocess.run(mkdocs, check=True)
    assert locs(site / "sitemap.xml") == [BASE, BASE + "a/", BASE + "b/"]
    # sources and pages written a while ago (MkDocs renders again a source newer than its page)
    for old, files in ((100, (tmp_path / "docs").glob("*.md")), (50, site.glob("**/index.html"))):
        for file in files:
            os.utime(file, (file.stat().st_mtime - old,) * 2)

    def edit_a(text: str, now: int) -> etree._Element:
        (tmp_path / "docs" / "a.md").write_text(f"# A\n\n{text}\n\n![New](new.png)\n")
        pin_now(now)
        subprocess.run([*mkdocs, "--dirty"], check=True)
        assert_valid(site / "sitemap.xml")
        return etree.parse(str(site / "sitemap.xml")).getroot()

    def field(listed: dict[str, etree._Element], url: str, name: str) -> list[str | None]:
        return [found.text for found in listed[url].iterfind(name, NS)]

    listed = urls(edit_a("New words, and a picture.", 1795370400))  # a day later
    assert list(listed) == [BASE, BASE + "a/", BASE + "b/"]
    assert field(listed, BASE + "a/", "image:image/image:loc") == [BASE + "new.png"]  # its new facts
    assert field(listed, BASE + "a/", "s:lastmod") == ["2026-11-22T18:00:00Z"]  # changed now
    assert field(listed, BASE + "b/", "s:lastmod") == ["2026-11-21T18:00:00Z"]  # first seen, not read as changed
    assert field(listed, BASE + "b/", "s:changefreq") == ["weekly"]  # its front matter
    assert field(listed, BASE + "b/", "image:image/image:loc") == [BASE + "figure.png"]

    written = site / "b" / "index.html"
    before = written.stat()
    noindex = b'<html><head><meta name="robots" content="noindex"></head></html>'
    written.write_bytes(noindex.ljust(before.st_size))  # in place: the same inode
    os.utime(written, ns=(before.st_atime_ns, before.st_mtime_ns))
    listed = urls(edit_a("Other words.", 1795456800))
    assert written.read_bytes().startswith(noindex)  # MkDocs did not render b again
    assert list(listed) == [BASE, BASE + "a/", BASE + "b/"]  # nor was it read: it would be noindex
    assert field(listed, BASE + "a/", "s:lastmod") == ["2026-11-23T18:00:00Z"]
    dirty = (site / "sitemap.xml").read_bytes()

    subprocess.run(mkdocs, check=True)  # a full build of the same sources, at the same time
    assert (site / "sitemap.xml").read_bytes() == dirty


def test_every_sitemapkit_option_is_a_plugin_option():
    from sitemapkit import OPTION_NAMES
    from sitemapkit_mkdocs.options import SitemapkitConfig

    assert {name for name, _ in SitemapkitConfig._schema} == set(OPTION_NAMES)


def test_drafts_asked_of_in_serve_only_are_never_listed(tmp_path):
    """Whether a page is a draft is asked only where MkDocs renders drafts (`serve`), decided
    once a build: `serve` writes the draft and leaves it out; `build` writes no draft."""
    config_file = make_site(tmp_path, {"index.md": "# Home\n", "drafts/wip.md": "# Draft\n"}, draft_docs="drafts/\n")
    config = load_config(str(config_file))
    plugin = config.plugins["sitemapkit"]
    plugin.on_startup(command="serve", dirty=False)
    build(config, serve_url="http://127.0.0.1:8000/")
    plugin.on_shutdown()
    site = tmp_path / "site"
    assert (site / "drafts" / "wip" / "index.html").is_file()  # rendered for serve...
    assert locs(site / "sitemap.xml") == [BASE]  # ...and not listed
    shutil.rmtree(site)
    run_build(config_file)
    assert not (site / "drafts").exists()
    assert locs(site / "sitemap.xml") == [BASE]


def test_serve_keeps_the_project_manifest_untouched(tmp_path):
    """`mkdocs serve` pages carry the dev server's URLs: they must not replace the real
    manifest (the lastmod and IndexNow memory of real builds)."""
    config_file = make_site(tmp_path, {"index.md": "# Home\n"})
    state = tmp_path / ".cache" / "sitemapkit"
    config = load_config(str(config_file))
    plugin = config.plugins["sitemapkit"]
    plugin.on_startup(command="serve", dirty=False)
    build(config, serve_url="http://127.0.0.1:8000/")
    assert locs(tmp_path / "site" / "sitemap.xml") == [BASE]
    assert not manifests_in(state)
    plugin.on_shutdown()
    run_build(config_file)
    assert manifests_in(state)
