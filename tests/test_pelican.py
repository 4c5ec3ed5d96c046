"""The Pelican adapter, through real Pelican builds of small blogs made in tmp_path."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import textwrap
from datetime import datetime, timezone
from pathlib import Path

import pytest
from lxml import etree

from sitemap_checks import assert_valid, assert_valid_tree, locs, robots_sitemaps, usp_urls
from sitemapkit import SettingsError, SitemapError

pytestmark = pytest.mark.slow  # real generator runs (make test-fast leaves them out)

BASE = "https://example.org/"
NS = {
    "s": "http://www.sitemaps.org/schemas/sitemap/0.9",
    "x": "http://www.w3.org/1999/xhtml",
    "image": "http://www.google.com/schemas/sitemap-image/1.1",
    "video": "http://www.google.com/schemas/sitemap-video/1.1",
    "news": "http://www.google.com/schemas/sitemap-news/0.9",
}

CONF = """\
SITEURL = "https://example.org"
SITENAME = "Test blog"
AUTHOR = "Ann"
PATH = "content"
OUTPUT_PATH = "output"
CACHE_PATH = "cache"
TIMEZONE = "Europe/Paris"
DEFAULT_LANG = "en"
LOAD_CONTENT_CACHE = False
FEED_ALL_ATOM = CATEGORY_FEED_ATOM = TRANSLATION_FEED_ATOM = None
AUTHOR_FEED_ATOM = AUTHOR_FEED_RSS = None
PLUGINS = ["sitemapkit_pelican"]
"""

BLOG = {
    "first.md": "Title: First\nDate: 2026-01-10 10:00\nTags: a\nSlug: first\n\nOne.",
    "first-fr.md": "Title: Premier\nDate: 2026-01-10 10:00\nModified: 2026-02-01 09:00\n"
    "Tags: a\nSlug: first\nLang: fr\n\nUn.",
    "second.md": "Title: Second\nDate: 2026-02-20 08:00\nModified: 2026-03-05 18:30\n"
    "Category: Boats\nTags: b\nSlug: second\n\nTwo.",
    "third.md": "Title: Third\nDate: 2026-01-01 12:00\nSlug: third\n"
    "Save_as: special/third.html\nURL: special/third.html\n\nThree.",
    "draft.md": "Title: Draft\nDate: 2026-03-01\nSlug: draft\nStatus: draft\n\nNot yet.",
    "private.md": "Title: Members\nDate: 2025-12-01\nSlug: members\nPrivate: true\n\nShh.",
    "pages/about.md": "Title: About\nSlug: about\n\nAbout us.",
    "pages/about-fr.md": "Title: A propos\nSlug: about\nLang: fr\n\nNous.",
    "pages/thanks.md": "Title: Thanks\nSlug: thanks\nStatus: hidden\n\nThanks.",
}


@pytest.fixture(autouse=True, scope="module")
def _logging_restored():
    """Importing Pelican swaps the process's logger classes for ones that drop repeated
    messages (pelican.log); later test modules must see their repeated warnings."""
    logger_class, root_class = logging.getLoggerClass(), type(logging.getLogger())
    yield
    logging.setLoggerClass(logger_class)
    logging.getLogger().__class__ = root_class


def pelican(config: Path):
    """A Pelican instance for ``config``, imported here and not at collection (see above)."""
    from pelican import Pelican
    from pelican.settings import read_settings

    return Pelican(read_settings(str(config)))


def make_site(root: Path, files: dict[str, str], conf: str = "") -> Path:
    for name, text in files.items():
        path = root / "content" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
    config = root / "pelicanconf.py"
    config.write_text(CONF + textwrap.dedent(conf), encoding="utf-8")
    return config


def build(config: Path) -> Path:
    pelican(config).run()
    return config.parent / "output"


def tree(path: Path) -> etree._Element:
    return etree.parse(str(path)).getroot()


def url_element(root: etree._Element, loc: str) -> etree._Element:
    found = root.xpath("s:url[s:loc=$loc]", namespaces=NS, loc=loc)
    assert found, f"{loc} not in the sitemap"
    return found[0]


def lastmod(root: etree._Element, loc: str) -> str:
    return url_element(root, loc).findtext("s:lastmod", namespaces=NS)


def test_lists_what_pelican_publishes_at_the_urls_it_links(tmp_path):
    out = build(make_site(tmp_path, BLOG, "DEFAULT_PAGINATION = 2\n"))
    assert_valid_tree(out, BASE)
    urls = set(usp_urls(out, BASE))
    pages = {"first.html", "first-fr.html", "second.html", "special/third.html",
             "pages/about.html", "pages/about-fr.html"}
    indexes = {"", "index2.html", "archives.html", "tags.html", "categories.html",
               "authors.html", "tag/a.html", "tag/b.html", "category/boats.html",
               "category/misc.html", "category/misc2.html", "author/ann.html", "author/ann2.html"}
    assert urls == {BASE + p for p in pages | indexes}
    # Pelican did write what the sitemap leaves out.
    assert (out / "drafts/draft.html").exists() and (out / "pages/thanks.html").exists()
    assert (out / "members.html").exists()


def test_url_settings_pagination_patterns_and_period_archives_are_followed(tmp_path):
    conf = """\
    DEFAULT_PAGINATION = 1
    ARTICLE_URL = "{date:%Y}/{slug}/"
    ARTICLE_SAVE_AS = "{date:%Y}/{slug}/index.html"
    CATEGORY_URL = "category/{slug}/"
    CATEGORY_SAVE_AS = "category/{slug}/index.html"
    PAGINATION_PATTERNS = [
        (1, "{url}", "{save_as}"),
        (2, "{base_name}/page/{number}/", "{base_name}/page/{number}/index.html"),
    ]
    YEAR_ARCHIVE_URL = "{date:%Y}/"
    YEAR_ARCHIVE_SAVE_AS = "{date:%Y}/index.html"
    ARCHIVES_URL = "archive/"
    ARCHIVES_SAVE_AS = "archive/index.html"
    TAGS_SAVE_AS = ""
    """
    out = build(make_site(tmp_path, BLOG, conf))
    assert_valid_tree(out, BASE)
    urls = set(usp_urls(out, BASE))
    expected = {"2026/first/", "2026/second/", "2025/", "2026/", "archive/", "category/boats/",
                "category/misc/", "category/misc/page/2/", "page/2/", "special/third.html"}
    assert {BASE + u for u in expected} <= urls
    for url in urls:  # every listed URL is a file Pelican wrote
        path = url[len(BASE):]
        assert (out / path).is_file() or (out / path / "index.html").is_file() or path == "", url
    assert BASE + "tags.html" not in urls


@pytest.mark.parametrize("paginated", [True, False])
def test_urls_pelican_serves_elsewhere_than_it_saves_are_listed_as_linked(tmp_path, paginated):
    """Each page at the URL the site links it by: an article at its ARTICLE_URL, a tag's page
    at its TAG_URL, written by Pelican's paginator (page 1 where the tag is saved: its URL is
    the tag's) or, in a theme whose tag page needs none, without one."""
    conf = textwrap.dedent("""\
    ARTICLE_URL = "posts/{slug}"
    ARTICLE_SAVE_AS = "posts/{slug}.html"
    PAGE_URL = "{slug}/"
    PAGE_SAVE_AS = "{slug}/index.html"
    TAG_URL = "tag/{slug}"
    DEFAULT_PAGINATION = 1
    """)
    if not paginated:
        theme = tmp_path / "theme"  # a tag page that needs no paginator, as Pelican then writes it
        theme.mkdir()
        (theme / "tag.html").write_text("<html><head><title>{{ tag }}</title></head><body>"
                                        "{% for article in articles %}{{ article.title }}{% endfor %}</body></html>")
        conf += ('PAGINATED_TEMPLATES = {"index": None, "category": None, "author": None}\n'
                 f"THEME_TEMPLATES_OVERRIDES = [{str(theme)!r}]\n")
    out = build(make_site(tmp_path, BLOG, conf))
    assert (out / "posts/first.html").is_file()
    urls = set(usp_urls(out, BASE))
    assert {BASE + "posts/first", BASE + "posts/second", BASE + "about/"} <= urls
    assert BASE + "posts/first.html" not in urls
    # a tag's page at its TAG_URL; an author's where written (its URL the same)
    assert {BASE + "tag/a", BASE + "tag/b", BASE + "author/ann.html"} <= urls
    assert BASE + "tag/a.html" not in urls
    root = tree(out / "sitemap.xml")
    links = url_element(root, BASE + "posts/first").findall("x:link", NS)
    assert (("fr", BASE + "first-fr.html") in {(x.get("hreflang"), x.get("href")) for x in links})


def test_a_theme_noindex_is_honoured_and_images_come_from_the_article_not_the_theme(tmp_path):
    theme = tmp_path / "theme/templates"
    theme.mkdir(parents=True)
    (theme / "article.html").write_text(
        "<html><head>{% if article.robots %}<meta name='robots' content='{{ article.robots }}'>"
        "{% endif %}</head><body><img src='/theme/logo.png'><article>{{ article.content }}</article>"
        "</body></html>", encoding="utf-8")
    files = {
        "kept.md": "Title: Kept\nDate: 2026-01-01\nSlug: kept\n\n![x](/images/a.png)",
        "hidden.md": "Title: Hidden\nDate: 2026-01-02\nSlug: hidden\nRobots: noindex, follow\n\nNo.",
    }
    (tmp_path / "content/images").mkdir(parents=True)
    (tmp_path / "content/images/a.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    settings = f"THEME_TEMPLATES_OVERRIDES = [{str(theme)!r}]\nSTATIC_PATHS = ['images']\n"
    out = build(make_site(tmp_path, files, settings))
    urls = set(usp_urls(out, BASE))
    assert BASE + "kept.html" in urls and BASE + "hidden.html" not in urls
    images = url_element(tree(out / "sitemap.xml"), BASE + "kept.html").xpath(
        "image:image/image:loc/text()", namespaces=NS)
    assert images == [BASE + "images/a.png"]


def test_pages_are_read_as_pelican_rendered_them_not_back_from_the_written_files(tmp_path, monkeypatch):
    """Each page's head (here a theme's noindex) is kept as Pelican renders it, and its content
    is Pelican's: no page file is opened again to make the sitemap, index pages included."""
    import sitemapkit.listing.entry_maker as entries

    theme = tmp_path / "theme/templates"
    theme.mkdir(parents=True)
    (theme / "article.html").write_text(
        "<html><head>{% if article.robots %}<meta name='robots' content='{{ article.robots }}'>"
        "{% endif %}</head><body><article>{{ article.content }}</article></body></html>", encoding="utf-8")
    files = {f"post-{n}.md": f"Title: Post {n}\nDate: 2026-01-0{n}\nSlug: post-{n}\n\nText {n}." for n in (1, 2)}
    files["hidden.md"] = "Title: Hidden\nDate: 2026-01-03\nSlug: hidden\nRobots: noindex\n\nNo."
    opened = []
    read = entries.read_page_file
    monkeypatch.setattr(entries, "read_page_file", lambda path, *a, **k: opened.append(path) or read(path, *a, **k))
    out = build(make_site(tmp_path, files, f"THEME_TEMPLATES_OVERRIDES = [{str(theme)!r}]\n"))
    urls = set(usp_urls(out, BASE))
    assert {BASE, BASE + "post-1.html", BASE + "post-2.html"} <= urls
    assert BASE + "hidden.html" not in urls
    assert opened == []


def test_translations_give_reciprocal_alternates_with_self_and_x_default(tmp_path):
    out = build(make_site(tmp_path, BLOG, 'SITEMAPKIT = {"x_default": "en"}\n'))
    root = tree(out / "sitemap.xml")
    for en, fr in (("first.html", "first-fr.html"), ("pages/about.html", "pages/about-fr.html")):
        expected = {("en", BASE + en), ("fr", BASE + fr), ("x-default", BASE + en)}
        for loc in (en, fr):
            links = url_element(root, BASE + loc).findall("x:link", NS)
            assert {(link.get("hreflang"), link.get("href")) for link in links} == expected
    assert url_element(root, BASE + "second.html").findall("x:link", NS) == []


def test_lastmod_is_modified_else_date_in_site_time_zone_and_indexes_take_the_newest(
    tmp_path, monkeypatch
):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1800000000")  # 2027: a build time to never see
    out = build(make_site(tmp_path, BLOG))
    root = tree(out / "sitemap.xml")
    assert lastmod(root, BASE + "first.html") == "2026-01-10T10:00:00+01:00"
    assert lastmod(root, BASE + "first-fr.html") == "2026-02-01T09:00:00+01:00"
    assert lastmod(root, BASE + "second.html") == "2026-03-05T18:30:00+01:00"
    assert lastmod(root, BASE) == "2026-03-05T18:30:00+01:00"
    assert lastmod(root, BASE + "tag/a.html") == "2026-01-10T10:00:00+01:00"
    assert lastmod(root, BASE + "category/boats.html") == "2026-03-05T18:30:00+01:00"
    # The undated pages get no lastmod on a first build (no manifest yet): never the build time.
    assert not root.xpath("s:url[starts-with(s:lastmod, '2027')]", namespaces=NS)
    assert lastmod(root, BASE + "pages/about.html") is None


def test_images_come_from_content_and_from_the_metadata_the_theme_shows(tmp_path):
    (tmp_path / "content/images").mkdir(parents=True)
    for name in ("in-text.png", "lead.png", "cover.png"):
        (tmp_path / "content/images" / name).write_bytes(b"\x89PNG\r\n\x1a\n")
    theme = tmp_path / "theme/templates"
    theme.mkdir(parents=True)
    # the theme shows Cover: as the article's header image, and never shows Image:
    (theme / "article.html").write_text(
        "<html><head></head><body><header><img src='{{ article.cover }}' alt='cover'></header>"
        "<article>{{ article.content }}</article></body></html>", encoding="utf-8")
    files = {
        "pics.md": "Title: Pics\nDate: 2026-01-01\nSlug: pics\nImage: {static}/images/lead.png\n"
        "Cover: https://cdn.example.org/cover.jpg\n\n![x]({static}/images/in-text.png) ![y](/images/gone.png)",
    }
    out = build(make_site(tmp_path, files, 'STATIC_PATHS = ["images"]\n'
                                           f"THEME_TEMPLATES_OVERRIDES = [{str(theme)!r}]\n"))
    assert_valid(out / "sitemap.xml")
    images = url_element(tree(out / "sitemap.xml"), BASE + "pics.html").xpath(
        "image:image/image:loc/text()", namespaces=NS
    )
    # lead.png is metadata the page never shows; gone.png is no file of the built site
    assert set(images) == {BASE + "images/in-text.png", "https://cdn.example.org/cover.jpg"}


def test_video_and_news_come_from_metadata(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(int(datetime(2026, 3, 1, 12, tzinfo=timezone.utc).timestamp())))
    files = {
        "film.md": "Title: Film\nDate: 2026-01-01\nSlug: film\nSitemap_video: title=Ferry; "
        "description=The ferry at dusk; thumbnail_loc=/t.png; content_loc=https://example.org/f.mp4\n\nA film.",
        "fresh.md": "Title: Fresh news\nDate: 2026-03-01 09:00\nSlug: fresh\n\nNew.",
        "fresh-fr.md": "Title: Nouvelle\nDate: 2026-03-01 09:00\nSlug: fresh\nLang: fr\n"
        "Sitemap_news: language=fr\n\nNeuf.",
        "stale.md": "Title: Old news\nDate: 2026-02-20 09:00\nSlug: stale\n\nOld.",
    }
    conf = 'SITEMAPKIT = {"news": {"publication": "Test Times", "language": "en"}}\n'
    out = build(make_site(tmp_path, files, conf))
    assert_valid_tree(out, BASE)
    root = tree(out / "sitemap.xml")  # the pages' urlset; news stands beside it
    video = url_element(root, BASE + "film.html").find("video:video", NS)
    assert video.findtext("video:title", namespaces=NS) == "Ferry"
    assert video.findtext("video:thumbnail_loc", namespaces=NS) == BASE + "t.png"
    news = tree(out / "sitemap-news.xml")
    assert set(locs(out / "sitemap-news.xml")) == {BASE + "fresh.html", BASE + "fresh-fr.html"}
    fr = url_element(news, BASE + "fresh-fr.html")
    assert fr.findtext("news:news/news:publication/news:language", namespaces=NS) == "fr"
    assert fr.findtext("news:news/news:publication/news:name", namespaces=NS) == "Test Times"
    assert fr.findtext("news:news/news:publication_date", namespaces=NS) == "2026-03-01T09:00:00+01:00"


def test_robots_txt_shipped_through_static_paths_keeps_its_bytes_and_gets_our_line(tmp_path):
    shipped = "# ours\nUser-agent: *\nDisallow: /drafts/\n"
    files = {**BLOG, "extra/robots.txt": shipped}
    conf = """\
    STATIC_PATHS = ["extra/robots.txt"]
    EXTRA_PATH_METADATA = {"extra/robots.txt": {"path": "robots.txt"}}
    """
    out = build(make_site(tmp_path, files, conf))
    text = (out / "robots.txt").read_text(encoding="utf-8")
    assert text.startswith(shipped)
    assert robots_sitemaps(out / "robots.txt") == [BASE + "sitemap.xml"]


def test_robots_txt_is_created_when_the_site_has_none(tmp_path):
    out = build(make_site(tmp_path, BLOG))
    assert robots_sitemaps(out / "robots.txt") == [BASE + "sitemap.xml"]


def test_pelican_sitemap_setting_keeps_its_meaning(tmp_path):
    files = {
        **BLOG,
        "pages/legacy.md": "Title: Legacy\nSlug: legacy\nChangeFreq: never\nPriority: 0.1\n\nOld keys.",
    }
    conf = """\
    SITEMAP = {
        "format": "txt",
        "priorities": {"articles": 0.9, "indexes": 0.2},
        "changefreqs": {"pages": "yearly"},
        "exclude": [r"^tag/", r"fr\\.html$"],
    }
    """
    out = build(make_site(tmp_path, files, conf))
    text_urls = (out / "sitemap.txt").read_text(encoding="utf-8").split()
    assert BASE + "first.html" in text_urls
    assert not [u for u in text_urls if "/tag/" in u or u.endswith("fr.html")]
    root = tree(out / "sitemap.xml")

    def fields(loc):
        element = url_element(root, BASE + loc)
        return element.findtext("s:changefreq", namespaces=NS), element.findtext("s:priority", namespaces=NS)

    assert fields("first.html") == ("monthly", "0.9")  # changefreqs not given: pelican-sitemap's
    assert fields("pages/about.html") == ("yearly", "0.5")  # priorities' own default for pages
    assert fields("") == ("daily", "0.2")
    assert fields("pages/legacy.html") == ("never", "0.1")  # ChangeFreq:/Priority: metadata


def test_sitemapkit_wins_over_sitemap_per_key(tmp_path):
    conf = """\
    SITEMAP = {"priorities": {"articles": 0.9}, "changefreqs": {"articles": "daily"}}
    SITEMAPKIT = {"priority": 0.4}
    """
    out = build(make_site(tmp_path, BLOG, conf))
    element = url_element(tree(out / "sitemap.xml"), BASE + "first.html")
    assert element.findtext("s:priority", namespaces=NS) == "0.4"
    assert element.findtext("s:changefreq", namespaces=NS) == "daily"
    assert not (out / "sitemap.txt").exists()


@pytest.mark.parametrize(
    ("conf", "message"),
    [
        ('SITEMAPKIT = {"gzipp": True}\n', "did you mean 'gzip'"),
        ('SITEMAPKIT = {"max_urls": "10"}\n', "max_urls"),
        ('SITEMAPKIT = {"base_url": "/blog"}\n', "base_url"),
        ('SITEMAPKIT = {"exclude": "drafts/"}\n', "must be a list of patterns, got the string 'drafts/'"),
        ('SITEMAP = {"format": "html"}\n', "SITEMAP['format']"),
        ('SITEMAP = {"exclude": ["("]}\n', "SITEMAP['exclude']"),
    ],
)
def test_wrong_settings_stop_pelican_at_start_up(tmp_path, conf, message):
    config = make_site(tmp_path, BLOG, conf)
    instance = pelican(config)  # made (--print-settings works), then stopped as its run starts
    with pytest.raises(SettingsError, match=message.replace("[", r"\[").replace("(", r"\(")):
        instance.run()
    assert not (tmp_path / "output").exists()


def test_problems_are_pelican_warnings_and_strict_fails_the_build(tmp_path, caplog):
    files = {**BLOG, "odd.md": "Title: Odd\nDate: 2026-01-01\nSlug: odd\nSitemap_priority: 2\n\nOdd."}
    out = build(make_site(tmp_path, files))
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert any("odd.md" in m and "sitemap_priority" in m for m in warnings)
    assert url_element(tree(out / "sitemap.xml"), BASE + "odd.html").find("s:priority", NS) is None

    config = make_site(tmp_path / "strict", files, 'SITEMAPKIT = {"strict": True}\n')
    with pytest.raises(SitemapError, match="strict"):
        build(config)


def test_a_rebuild_is_byte_identical_and_each_run_writes(tmp_path):
    config = make_site(tmp_path, BLOG, "DEFAULT_PAGINATION = 2\n")
    instance = pelican(config)
    instance.run()  # starts the manifest: the undated pages' first-seen times
    instance.run()
    out = tmp_path / "output"
    first = {p.name: p.read_bytes() for p in out.glob("sitemap*")}
    (out / "sitemap.xml").unlink()
    instance.run()  # what --autoreload does: the same instance runs again
    assert {p.name: p.read_bytes() for p in out.glob("sitemap*")} == first


def test_i18n_subsites_runs_make_one_complete_sitemap(tmp_path):
    conf = """\
    PLUGINS = ["pelican.plugins.i18n_subsites", "sitemapkit_pelican"]
    I18N_SUBSITES = {"fr": {"SITENAME": "Blog FR"}}
    SITEMAPKIT = {"x_default": "en"}
    """
    # Under i18n_subsites every language runs as a site of its own: each file names its own.
    files = {name: text.replace("\n\n", "\nLang: en\n\n", 1) if "Lang:" not in text else text
             for name, text in BLOG.items()}
    config = make_site(tmp_path, files, conf)
    env = {k: v for k, v in os.environ.items() if k != "SOURCE_DATE_EPOCH"}
    done = subprocess.run(
        [sys.executable, "-m", "pelican", "content", "-s", str(config)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    out = tmp_path / "output"
    assert (out / "fr/first.html").exists()
    assert not (out / "fr/sitemap.xml").exists()
    assert_valid_tree(out, BASE)
    urls = set(usp_urls(out, BASE))
    assert {BASE + "first.html", BASE + "fr/first.html", BASE + "fr/", BASE + "fr/pages/about.html"} <= urls
    assert BASE + "first-fr.html" not in urls  # i18n_subsites moved it into the fr site
    links = url_element(tree(out / "sitemap.xml"), BASE + "fr/first.html").findall("x:link", NS)
    assert {(link.get("hreflang"), link.get("href")) for link in links} == {
        ("en", BASE + "first.html"), ("fr", BASE + "fr/first.html"), ("x-default", BASE + "first.html")
    }


def test_what_is_kept_between_writes_stays_off_the_cycle_collectors_books(tmp_path, monkeypatch):
    """Every file Pelican writes is kept until the end as plain values, which Python's cycle
    collector stops tracking once it has looked at them (a tuple inside a tuple may take it
    two looks; Pelican's build makes hundreds). Kept tuples holding content objects made
    Pelican run one full collection more than it does alone on a 2,000-article blog."""
    import gc

    import sitemapkit_pelican

    seen = {}
    site_pages = sitemapkit_pelican.site_pages

    def inspect_then_make_pages(runs, *args):
        gc.collect()
        gc.collect()
        seen["files"] = {path: values for run in runs for path, values in run.files.items()}
        seen["tracked"] = [path for path, values in seen["files"].items() if gc.is_tracked(values)]
        return site_pages(runs, *args)

    monkeypatch.setattr(sitemapkit_pelican, "site_pages", inspect_then_make_pages)
    out = build(make_site(tmp_path, BLOG, "DEFAULT_PAGINATION = 1\n"))
    kinds = {values[0] is None for values in seen["files"].values()}
    assert len(seen["files"]) > 10 and kinds == {True, False}  # index pages and content pages
    assert seen["tracked"] == []
    assert_valid_tree(out, BASE)
