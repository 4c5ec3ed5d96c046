"""``sitemap.html`` in each theme the adapters name, from a real build of a quickstart-like
project with ``html_sitemap`` on: the links in the order of the site's own navigation (MkDocs'
``nav``, Sphinx's root toctree and its captions, Pelican's categories, pages and archives),
inside the theme's content element, titled as the site titles them (no site-name suffix), the
map absent from its own list, later pages of a list folded into the first, no theme error
text; a theme the adapter does not know gives sitemapkit's plain page and one warning."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import lxml.html
import pytest
import yaml

from sitemap_checks import assert_valid_tree, locs

pytestmark = pytest.mark.slow  # real generator runs

BIN = Path(sys.executable).parent
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "SOURCE_DATE_EPOCH": "1795262400"}
MAP = "//*[@class='sitemapkit-sections']"


def shown(page: lxml.html.HtmlElement, content: str) -> list[tuple[str, str]]:
    """(section heading, link text) of each link of the map inside the theme's ``content``
    element, in page order; a heading that is itself a link comes as ('', its text)."""
    found = []
    for section in page.xpath(f"{content}{MAP}/section"):
        heading = " ".join("".join(section.xpath("./h2//text()[not(ancestor::time)]")).split())
        found += [("", a.text_content()) for a in section.xpath("./h2/a")]
        found += [(heading, " ".join(a.text_content().split())) for a in section.xpath("./ul//a")]
    return found


def check_map(site: Path, base_url: str, content: str, expected: list[tuple[str, str]]) -> lxml.html.HtmlElement:
    page = lxml.html.parse(str(site / "sitemap.html")).getroot()
    assert page.xpath(content + MAP), f"the map is not inside the theme's content element {content}"
    assert shown(page, content) == expected
    hrefs = [a.get("href") for a in page.xpath(MAP + "//a")]
    assert "./sitemap.html" not in hrefs  # never in its own list ...
    listed = {loc for path in assert_valid_tree(site, base_url) for loc in locs(path)}
    assert base_url + "sitemap.html" in listed  # ... which the sitemap names
    assert {base_url + href[2:] for href in hrefs} <= listed  # only the sitemap's URLs are links
    text = page.text_content()
    assert "does not support" not in text and "ERROR" not in text  # no theme error text (Furo's)
    return page


# ---------------------------------------------------------------- MkDocs

MKDOCS_PAGES = {"index.md": "# Welcome", "install.md": "# Installing the tool", "usage.md": "# How to use it",
                "api.md": "# API reference", "about.md": "# About us", "extra.md": "# Extra page"}
MKDOCS_NAV = [{"Home": "index.md"}, {"Getting started": ["install.md", {"Usage": "usage.md"}]},
              {"Reference": ["api.md"]}, {"About": "about.md"}]
MKDOCS_EXPECTED = [("", "Home"), ("Getting started", "Installing the tool"), ("Getting started", "Usage"),
                   ("Reference", "API reference"), ("", "About"), ("Other pages", "Extra page")]
MKDOCS_THEMES = {"mkdocs": "//div[@role='main']", "readthedocs": "//div[@role='main']",
                 "material": "//article[contains(@class, 'md-content__inner')]"}


def mkdocs_project(tmp_path: Path, theme: dict, plugins: list | None = None, nav: list | None = None) -> Path:
    docs = tmp_path / "docs"
    docs.mkdir()
    for name, text in MKDOCS_PAGES.items():
        (docs / name).write_text(text + "\n\nSome text.\n", encoding="utf-8")
    config = {"site_name": "My Docs", "site_url": "https://example.org/docs/", "theme": theme,
              "nav": nav or MKDOCS_NAV, "plugins": [*(plugins or []), {"sitemapkit": {"html_sitemap": True}}]}
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    return docs


def mkdocs_build(tmp_path: Path) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(BIN / "mkdocs"), "build"], cwd=tmp_path, env=ENV, capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    return done


@pytest.mark.parametrize("theme", list(MKDOCS_THEMES))
def test_mkdocs_map_follows_nav_in_the_theme_content(tmp_path, theme):
    mkdocs_project(tmp_path, {"name": theme})
    done = mkdocs_build(tmp_path)
    assert "html-sitemap-theme" not in done.stderr
    page = check_map(tmp_path / "site", "https://example.org/docs/", MKDOCS_THEMES[theme], MKDOCS_EXPECTED)
    assert page.xpath("//title/text()") == ["Site map - My Docs"]


def test_material_blog_pagination_is_folded_and_posts_sit_under_the_blog(tmp_path):
    docs = mkdocs_project(tmp_path, {"name": "material"}, [{"blog": {"pagination_per_page": 2}}],
                          [{"Home": "index.md"}, {"Blog": ["blog/index.md"]}])
    (docs / "blog" / "posts").mkdir(parents=True)
    (docs / "blog" / "index.md").write_text("# Blog\n", encoding="utf-8")
    for n in (1, 2, 3):
        (docs / "blog" / "posts" / f"p{n}.md").write_text(f"---\ndate: 2026-0{n}-10\n---\n\n# Post {n}\n\nText.\n",
                                                          encoding="utf-8")
    mkdocs_build(tmp_path)
    site, base_url = tmp_path / "site", "https://example.org/docs/"
    listed = {loc for path in assert_valid_tree(site, base_url) for loc in locs(path)}
    assert base_url + "blog/page/2/" in listed  # the sitemap lists the later page ...
    page = check_map(site, base_url, MKDOCS_THEMES["material"], [
        ("", "Home"), ("Blog", "Blog"), ("Blog", "Post 3"), ("Blog", "Post 2"), ("Blog", "Post 1"), ("Blog", "2026"),
        ("Other pages", "About us"), ("Other pages", "API reference"), ("Other pages", "Extra page"),
        ("Other pages", "Installing the tool"), ("Other pages", "How to use it"),
    ])
    hrefs = [a.get("href") for a in page.xpath(MAP + "//a")]
    assert "./blog/page/2/" not in hrefs and "./blog/archive/2026/page/2/" not in hrefs  # ... the map folds it


def test_mkdocs_unknown_theme_gets_the_plain_page_and_one_warning(tmp_path):
    mkdocs_project(tmp_path, {"name": None, "custom_dir": "my_theme"})
    (tmp_path / "my_theme").mkdir()
    (tmp_path / "my_theme" / "main.html").write_text(
        "<html><head><title>{{ page.title }}</title></head><body><p>My theme shows no page content</p></body></html>",
        encoding="utf-8")
    done = mkdocs_build(tmp_path)
    assert done.stderr.count("[html-sitemap-theme]") == 1, done.stderr
    page = check_map(tmp_path / "site", "https://example.org/docs/", "//body", MKDOCS_EXPECTED)
    assert page.xpath("//meta[@http-equiv='Content-Security-Policy']")  # sitemapkit's own page
    assert "My theme shows" not in page.text_content()


def test_mkdocs_nav_titles_are_text_never_markup(tmp_path):
    """MkDocs' Jinja2 environment does not autoescape: the map escapes each title itself."""
    hostile = "<script>alert(1)</script><b>x</b>"
    mkdocs_project(tmp_path, {"name": "mkdocs"}, nav=[{"Home": "index.md"}, {hostile: "about.md"}])
    mkdocs_build(tmp_path)
    page = lxml.html.parse(str(tmp_path / "site" / "sitemap.html")).getroot()
    assert not page.xpath(MAP + "//script | " + MAP + "//b")
    assert hostile in [a.text_content() for a in page.xpath(MAP + "//a")]


# ---------------------------------------------------------------- Sphinx

SPHINX_FILES = {
    "index.rst": "Welcome\n=======\n\nHello.\n\n.. toctree::\n   :caption: Getting started\n\n   install\n"
                 "   Using it <usage>\n\n.. toctree::\n   :caption: Reference\n   :maxdepth: 2\n\n   api\n",
    "install.rst": "Installing\n==========\n\nText.\n",
    "usage.rst": "Usage\n=====\n\nText.\n",
    "api.rst": "API\n===\n\nText.\n\n.. toctree::\n\n   api/functions\n",
    "api/functions.rst": "Functions\n=========\n\nText.\n",
    "extra.rst": ":orphan:\n\nExtra\n=====\n\nText.\n",
}
SPHINX_EXPECTED = [("", "Welcome"), ("Getting started", "Installing"), ("Getting started", "Using it"),
                   ("Reference", "API"), ("Reference", "Functions"), ("Other pages", "Extra")]
SPHINX_THEMES = {"alabaster": "//div[@class='body']", "sphinx_rtd_theme": "//div[@role='main']",
                 "furo": "//article", "pydata_sphinx_theme": "//article[contains(@class, 'bd-article')]",
                 "sphinx_book_theme": "//article[contains(@class, 'bd-article')]"}


def sphinx_build(tmp_path: Path, theme: str, extra_conf: str = "") -> subprocess.CompletedProcess[str]:
    src = tmp_path / "src"
    for name, text in SPHINX_FILES.items():
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        (src / name).write_text(text, encoding="utf-8")
    (src / "conf.py").write_text(f'project = "My Project"\nextensions = ["sitemapkit_sphinx"]\n'
                                 f'html_baseurl = "https://example.org/manual/"\nhtml_theme = "{theme}"\n'
                                 f"sitemapkit_html_sitemap = True\n{extra_conf}", encoding="utf-8")
    done = subprocess.run([str(BIN / "sphinx-build"), "-b", "html", str(src), str(tmp_path / "html")], env=ENV,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


@pytest.mark.parametrize("theme", list(SPHINX_THEMES))
def test_sphinx_map_follows_the_root_toctree_in_the_theme_content(tmp_path, theme):
    done = sphinx_build(tmp_path, theme)
    assert "sitemapkit" not in done.stderr  # no warning
    page = check_map(tmp_path / "html", "https://example.org/manual/", SPHINX_THEMES[theme], SPHINX_EXPECTED)
    assert page.xpath("//title/text()")[0].startswith("Site map")


BARE_THEMES = {  # a theme sitemapkit does not know: page.html with no place for a page's body, or one that fails
    "no-body": "<html><head><title>{{ title }}</title></head><body><p>Bare theme</p></body></html>",
    # fails on a page with no source document (as the map is), renders the others
    "failing": "<html><body>{% if not sourcename %}{{ no_such_function() }}{% endif %}{{ body }}</body></html>",
}


@pytest.mark.parametrize("kind", list(BARE_THEMES))
def test_sphinx_unknown_theme_gets_the_plain_page_and_one_warning(tmp_path, kind):
    theme = tmp_path / "themes" / "bare"
    theme.mkdir(parents=True)
    (theme / "theme.conf").write_text("[theme]\ninherit = basic\n", encoding="utf-8")
    (theme / "page.html").write_text(BARE_THEMES[kind], encoding="utf-8")
    done = sphinx_build(tmp_path, "bare", f"html_theme_path = [{str(tmp_path / 'themes')!r}]\n")
    assert done.stderr.count("[sitemapkit.html-sitemap-theme]") == 1, done.stderr
    page = check_map(tmp_path / "html", "https://example.org/manual/", "//body", SPHINX_EXPECTED)
    assert page.xpath("//meta[@http-equiv='Content-Security-Policy']")  # sitemapkit's own page
    assert "Bare theme" not in page.text_content()


# ---------------------------------------------------------------- Pelican

PELICAN_CONF = """\
AUTHOR = "Ann"
SITENAME = "My Blog"
SITEURL = "https://blog.example.org"
PATH = "content"
TIMEZONE = "UTC"
DEFAULT_LANG = "en"
FEED_ALL_ATOM = CATEGORY_FEED_ATOM = TRANSLATION_FEED_ATOM = AUTHOR_FEED_ATOM = AUTHOR_FEED_RSS = None
DEFAULT_PAGINATION = 2
PLUGINS = ["sitemapkit_pelican"]
SITEMAPKIT = {{"html_sitemap": True}}
THEME = "{theme}"
"""
PELICAN_ARTICLES = [("news", "2026-01-05", "First news"), ("news", "2026-03-01", "Second news"),
                    ("travel", "2026-02-01", "Lisbon"), ("travel", "2026-04-01", "Porto"),
                    ("news", "2026-02-15", "Third news")]
PELICAN_EXPECTED = [
    ("", "Home"),
    ("", "news"), ("news", "Second news"), ("news", "Third news"), ("news", "First news"),  # newest first
    ("", "travel"), ("travel", "Porto"), ("travel", "Lisbon"),
    ("Pages", "About me"), ("Pages", "Contact"),
    ("", "Archives"), ("Archives", "Categories"), ("Archives", "Tags"), ("Archives", "t0"), ("Archives", "t1"),
    ("Archives", "Authors"), ("Archives", "Ann"),
]
PELICAN_THEMES = {"notmyidea": "//section[@id='content']", "simple": "//main"}


@pytest.mark.parametrize("theme", list(PELICAN_THEMES))
def test_pelican_map_has_categories_pages_and_archives_in_the_theme_content(tmp_path, theme):
    content = tmp_path / "content"
    (content / "pages").mkdir(parents=True)
    for n, (category, date, title) in enumerate(PELICAN_ARTICLES):
        (content / f"a{n}.md").write_text(f"Title: {title}\nDate: {date}\nCategory: {category}\nTags: t{n % 2}\n\n"
                                          "Text.\n", encoding="utf-8")
    for title in ("About me", "Contact"):
        (content / "pages" / f"{title[:3]}.md").write_text(f"Title: {title}\n\nText.\n", encoding="utf-8")
    (tmp_path / "pelicanconf.py").write_text(PELICAN_CONF.format(theme=theme), encoding="utf-8")
    done = subprocess.run([str(BIN / "pelican"), "content", "-s", "pelicanconf.py", "-o", "output"], cwd=tmp_path,
                          env=ENV, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "WARNING" not in done.stdout + done.stderr
    site, base_url = tmp_path / "output", "https://blog.example.org/"
    page = check_map(site, base_url, PELICAN_THEMES[theme], PELICAN_EXPECTED)
    listed = {loc for path in assert_valid_tree(site, base_url) for loc in locs(path)}
    assert {base_url + "index2.html", base_url + "index3.html", base_url + "category/news2.html"} <= listed
    texts = [a.text_content() for a in page.xpath(MAP + "//a")]
    assert "My Blog" not in texts and not any("My Blog -" in text for text in texts)  # titles without the site name
    assert page.xpath("//title/text()") == ["Site map - My Blog"]


def test_pelican_theme_without_a_content_block_gets_the_plain_page_and_one_warning(tmp_path):
    # Pelican fills a theme's missing templates from its simple theme, so a theme always has a
    # base.html: this one's shows no content block, and the map would be lost in it.
    content = tmp_path / "content"
    content.mkdir()
    (content / "a.md").write_text("Title: Lisbon\nDate: 2026-02-01\nCategory: travel\n\nText.\n", encoding="utf-8")
    templates = tmp_path / "my_theme" / "templates"
    templates.mkdir(parents=True)
    (templates / "base.html").write_text(
        "<html><head><title>{{ SITENAME }}</title></head><body><p>My theme shows no page content</p></body></html>",
        encoding="utf-8")
    (tmp_path / "pelicanconf.py").write_text(PELICAN_CONF.format(theme="my_theme"), encoding="utf-8")
    done = subprocess.run([str(BIN / "pelican"), "content", "-s", "pelicanconf.py", "-o", "output"], cwd=tmp_path,
                          env=ENV, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    said = done.stdout + done.stderr
    assert said.count("[html-sitemap-theme]") == 1, said
    page = lxml.html.parse(str(tmp_path / "output" / "sitemap.html")).getroot()
    assert page.xpath("//meta[@http-equiv='Content-Security-Policy']")  # sitemapkit's own plain page
    assert "My theme shows" not in page.text_content()
    assert [a.text_content() for a in page.xpath(MAP + "//a")][:2] == ["Home", "travel"]
