"""Pages for people carry no script from input: every link that ``sitemap.html`` and the
validator's HTML report make is an absolute http(s) URL or a ``./``-relative path. Page files
and folders named ``javascript:...``, ``Page(url="javascript:...")``, and a sitemap whose
``<loc>``, ``image:loc`` or hreflang ``href`` is a ``javascript:``, ``vbscript:`` or ``data:``
URL are built and validated for real; the pages are read back with lxml."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import lxml.html
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mkdocs.commands.build import build as mkdocs_build
from mkdocs.config import load_config
from project_checks import pelican_conf
from sphinx.cmd.build import build_main

from sitemapkit import Page, Settings
from sitemapkit.generate import generate

BIN = Path(sys.executable).parent
BASE = "https://example.com/"
HOSTILE = ["javascript:alert(1)-x", "vbscript:msgbox(1)", "data:text,x", "JaVaScRiPt:alert(2)"]
PAGE = "<!DOCTYPE html><html><head><title>{0}</title></head><body><p>{0}</p></body></html>"


def hrefs(page: lxml.html.HtmlElement, where: str = "") -> list[str]:
    return [a.get("href") for a in page.xpath(f"{where}//a[@href]")]


def assert_safe(href: str) -> None:
    """An absolute http(s) URL or a ``./``-relative path, and so, resolved as a browser
    resolves it against the page's own https URL, an http(s) URL."""
    assert href.startswith(("https://", "http://", "./")), href
    assert not any(ord(c) <= 0x20 or c == "\x7f" for c in href), href
    assert urlsplit(urljoin(BASE + "sitemap.html", href)).scheme in ("http", "https"), href


def csp(page: lxml.html.HtmlElement) -> dict[str, str]:
    """The page's Content-Security-Policy meta, directive -> its sources; the meta must come
    before anything it governs."""
    head = page.find("head")
    metas = head.xpath("meta[@http-equiv='Content-Security-Policy']")
    assert len(metas) == 1
    assert not head.xpath("meta[@http-equiv='Content-Security-Policy']/preceding-sibling::*[not(self::meta)]")
    policy = {}
    for part in metas[0].get("content").split(";"):
        name, _, sources = part.strip().partition(" ")
        policy[name] = sources
    return policy


def assert_no_script_allowed(page: lxml.html.HtmlElement) -> None:
    policy = csp(page)
    assert policy["default-src"] == "'none'"
    assert "script-src" not in policy and "script-src-elem" not in policy  # so: 'none'
    assert policy["base-uri"] == "'none'" and policy["form-action"] == "'none'"
    assert not page.xpath("//script | //*[@*[starts-with(name(), 'on')]]")


def test_cli_site_map_links_hostile_page_names_as_relative_paths(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text(PAGE.format("Home"), encoding="utf-8")
    for name in HOSTILE:
        (site / f"{name}.html").write_text(PAGE.format(name), encoding="utf-8")
        (site / name).mkdir()
        (site / name / "index.html").write_text(PAGE.format(name + " folder"), encoding="utf-8")
    for _ in range(2):  # a rebuild reads the first build's sitemap.html among the pages
        done = subprocess.run([str(BIN / "sitemapkit"), "build", str(site), "--base-url", BASE,
                               "--html-sitemap", "-q"], capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
    page = lxml.html.parse(str(site / "sitemap.html")).getroot()
    links = hrefs(page)
    for href in links:
        assert_safe(href)
    for name in HOSTILE:  # each hostile page still listed, as a path below the site
        assert f"./{name}.html" in links and f"./{name}/" in links
    assert "./sitemap.html" not in links  # the map never lists itself
    assert_no_script_allowed(page)


def test_api_page_urls_with_a_scheme_become_paths_below_the_site(tmp_path):
    pages = [Page("", html=PAGE.format("Home"))]
    pages += [Page(url, html=PAGE.format(f"p{n}"), title=f"p{n}")
              for n, url in enumerate(["javascript:alert(1)", "vbscript:msgbox(1)", "data:text/html,<b>"])]
    generate(pages, tmp_path, Settings(base_url=BASE, html_sitemap=True, lastmod=False), project_dir=tmp_path)
    page = lxml.html.parse(str(tmp_path / "sitemap.html")).getroot()
    links = hrefs(page)
    assert len(links) == 1 + 1 + 3  # the site's own URL, home, three pages (the map never lists itself)
    for href in links:
        assert_safe(href)
    assert "./javascript:alert(1)" in links


names = st.text(st.characters(codec="utf-8", exclude_characters="\x00/"), min_size=1, max_size=40)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(names, min_size=1, max_size=6, unique=True),
       st.sampled_from(["", "javascript:", "data:", " vbscript:"]))
def test_no_page_name_makes_a_link_with_another_scheme(tails, head):
    urls = [head + tail for tail in tails]
    with tempfile.TemporaryDirectory() as folder:
        pages = [Page(url, html=PAGE.format("x")) for url in urls]
        report = generate(pages, folder, Settings(base_url=BASE, html_sitemap=True, lastmod=False),
                          project_dir=folder)
        if not report.urls:
            return
        page = lxml.html.parse(str(Path(folder) / "sitemap.html")).getroot()
        links = hrefs(page)
        assert links  # each page listed is there as a link
        for href in links:
            assert_safe(href)


def test_mkdocs_theme_site_map_links_are_relative_paths(tmp_path):
    docs = tmp_path / "docs"
    (docs / "javascript:alert(1)").mkdir(parents=True)
    (docs / "index.md").write_text("# Home\n", encoding="utf-8")
    (docs / "javascript:alert(1)-x.md").write_text("# X\n", encoding="utf-8")
    (docs / "javascript:alert(1)" / "index.md").write_text("# Folder\n", encoding="utf-8")
    config = {"site_name": "T", "site_url": BASE, "theme": {"name": "mkdocs"},
              "plugins": [{"sitemapkit": {"html_sitemap": True}}]}
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    loaded = load_config(str(tmp_path / "mkdocs.yml"))
    mkdocs_build(loaded)
    page = lxml.html.parse(str(Path(loaded.site_dir) / "sitemap.html")).getroot()
    links = hrefs(page, "//*[@class='sitemapkit-sections']")
    for href in links:
        assert_safe(href)
    assert sorted(links) == ["./", "./javascript%3Aalert%281%29-x/", "./javascript%3Aalert%281%29/"]


def test_sphinx_theme_site_map_links_are_relative_paths(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text(f'extensions = ["sitemapkit_sphinx"]\nhtml_baseurl = "{BASE}"\n'
                                 "sitemapkit_html_sitemap = True\n", encoding="utf-8")
    (src / "index.rst").write_text("Home\n====\n\n.. toctree::\n\n   javascript:alert(1)-x\n", encoding="utf-8")
    (src / "javascript:alert(1)-x.rst").write_text("X\n=\n\nText.\n", encoding="utf-8")
    out = tmp_path / "html"
    assert build_main(["-b", "html", "-q", str(src), str(out)]) == 0
    page = lxml.html.parse(str(out / "sitemap.html")).getroot()
    links = hrefs(page, "//*[@class='sitemapkit-sections']")
    for href in links:
        assert_safe(href)
    assert sorted(links) == ["./index.html", "./javascript%3Aalert%281%29-x.html"]


PELICAN_CONF = pelican_conf(BASE, 'SITEMAPKIT = {"html_sitemap": True}')


def test_pelican_theme_site_map_links_are_relative_paths(tmp_path):
    (tmp_path / "content").mkdir()
    (tmp_path / "pelicanconf.py").write_text(PELICAN_CONF, encoding="utf-8")
    (tmp_path / "content" / "a.md").write_text(
        "Title: A\nDate: 2026-01-10\nSlug: a\nURL: javascript:alert(1)-x.html\n"
        "Save_as: javascript:alert(1)-x.html\n\nText.", encoding="utf-8")
    done = subprocess.run([str(BIN / "pelican"), "content", "-s", "pelicanconf.py"], cwd=tmp_path,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    page = lxml.html.parse(str(tmp_path / "output" / "sitemap.html")).getroot()
    links = hrefs(page, "//*[@class='sitemapkit-sections']")
    for href in links:
        assert_safe(href)
    assert "./javascript:alert(1)-x.html" in links


REPORTED = """<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"
        xmlns:xhtml="http://www.w3.org/1999/xhtml">
<url><loc>javascript:alert(1)</loc>
  <image:image><image:loc>data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;</image:loc></image:image>
  <image:image><image:loc>https://example.com/a.png</image:loc></image:image>
  <xhtml:link rel="alternate" hreflang="en" href="vbscript:msgbox(1)"/>
  <xhtml:link rel="alternate" hreflang="fr" href="https://example.com/fr/"/></url>
<url><loc>java&#9;script:alert(3)</loc></url>
<url><loc> JAVASCRIPT:alert(4)</loc></url>
<url><loc>//evil.example/</loc></url>
<url><loc>https://example.com/</loc></url>
</urlset>
"""


def test_html_report_shows_other_schemes_as_text_under_a_strict_policy(tmp_path):
    sitemap = tmp_path / "sitemap.xml"
    sitemap.write_text(REPORTED, encoding="utf-8")
    done = subprocess.run([str(BIN / "sitemapkit"), "validate", str(sitemap), "--format", "html"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 1
    page = lxml.html.fromstring(done.stdout)
    for href in hrefs(page):
        if not href.startswith("#L"):  # the report's own anchors, to a row of the same page
            assert_safe(href)
    assert hrefs(page, "//table[@class='urls']") == [
        "https://example.com/a.png", "https://example.com/fr/", "https://example.com/"]
    shown = page.xpath("//table[@class='urls']//span[contains(@class, 'unlinked')]/text()")
    assert shown == ["javascript:alert(1)", "data:text/html,<script>alert(1)</script>", "vbscript:msgbox(1)",
                     "java\tscript:alert(3)", "JAVASCRIPT:alert(4)", "//evil.example/"]
    assert_no_script_allowed(page)
