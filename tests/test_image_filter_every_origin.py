"""One image filter, whatever the image's origin: badges from a Sphinx doctree, tracking
pixels and the theme's logo in a folder of HTML, badges named in page metadata are no page's
images; real content images stay listed."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree
from sphinx.cmd.build import build_main

from sitemap_checks import assert_valid_tree
from sitemapkit import Page, Settings, build_entries
from sitemapkit.cli import main
from sitemapkit.site.images import decorative

BASE = "https://docs.example.org/"
NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "image": "http://www.google.com/schemas/sitemap-image/1.1"}
SHIELD = "https://img.shields.io/badge/x-y-green"


def images_by_page(site: Path) -> dict[str, list[str]]:
    assert_valid_tree(site, BASE)
    root = etree.parse(str(site / "sitemap.xml")).getroot()
    return {url.findtext("s:loc", namespaces=NS): url.xpath("image:image/image:loc/text()", namespaces=NS)
            for url in root.iterfind("s:url", NS)}


def test_sphinx_doctree_badges_are_not_listed_and_content_images_are(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")
    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text(f'extensions = ["sitemapkit_sphinx"]\nhtml_baseurl = "{BASE}"\n', encoding="utf-8")
    (src / "index.rst").write_text(
        "Proj\n====\n\n"
        f".. image:: {SHIELD}\n   :alt: status\n\n"
        ".. image:: https://badge.fury.io/py/proj.svg\n\n"
        ".. image:: https://cdn.example.org/screenshot.png\n   :alt: a screenshot\n",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    assert build_main(["-b", "html", "-q", str(src), str(out)]) == 0
    assert SHIELD in (out / "index.html").read_text(encoding="utf-8")  # the page shows it
    assert images_by_page(out)[f"{BASE}index.html"] == ["https://cdn.example.org/screenshot.png"]


PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>{title}</title></head><body>
<div class="masthead"><a href="/"><img src="/assets/brand.png" alt="Example Blog"></a>
<img class="site-logo" src="/assets/mark.svg" alt=""></div>
<div class="post"><h1>{title}</h1><p>Text.</p><img src="/photos/{name}.jpg" alt="a photo">
<noscript><img src="/photos/{name}-full.jpg" alt="the photo without JavaScript"></noscript></div>
<noscript><img src="https://stats.example.net/matomo.php?idsite=1&amp;rec=1" style="border:0" alt=""></noscript>
<noscript><img height="1" width="1" style="display:none" src="https://px.example.net/tr?id=42&amp;ev=PageView"></noscript>
</body></html>"""


def test_cli_folder_pixels_and_logo_on_every_page_are_not_page_images(tmp_path):
    site = tmp_path / "site"
    for name in ("index", "first", "second"):
        path = site / ("index.html" if name == "index" else f"{name}/index.html")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(PAGE.format(title=name.title(), name=name), encoding="utf-8")
        for photo in (f"{name}.jpg", f"{name}-full.jpg"):  # a listed same-site image is a file of the site
            (site / "photos").mkdir(exist_ok=True)
            (site / "photos" / photo).write_bytes(b"\xff\xd8\xff")
    assert main(["build", str(site), "--base-url", BASE, "-q"]) == 0
    found = images_by_page(site)
    assert found == {
        f"{BASE}{url}": [f"{BASE}photos/{name}.jpg", f"{BASE}photos/{name}-full.jpg"]
        for url, name in (("", "index"), ("first/", "first"), ("second/", "second"))
    }
    text = (site / "sitemap.xml").read_text(encoding="utf-8")
    assert "brand.png" not in text and "mark.svg" not in text and "stats.example.net" not in text
    assert "px.example.net" not in text


def test_metadata_and_adapter_images_pass_the_same_filter():
    page = Page("a/", html="<html><body><main><p>text</p></main></body></html>",
                images=(SHIELD, "https://cdn.example.org/plot.png"),
                meta={"sitemap_images": "https://hits.seeyoufarm.com/api/count/incr/badge.svg, extra.png"})
    [entry] = list(build_entries([page], Settings(base_url=BASE, lastmod=False)))
    assert [image.loc for image in entry.images] == ["https://cdn.example.org/plot.png", f"{BASE}a/extra.png"]


HOSTS = ("img.shields.io", "cdn.example.org", "hits.seeyoufarm.com", "docs.example.org", "www.google-analytics.com")
PATHS = ("a.png", "badge.svg", "badges/x", "twemoji/1f600.svg", "matomo.php", "photos/logo.png", "b/c.jpg")


@given(host=st.sampled_from(HOSTS), path=st.sampled_from(PATHS), query=st.sampled_from(("", "?v=1", "?style=flat")))
@settings(max_examples=60, deadline=None)
def test_an_image_is_listed_from_html_exactly_when_it_is_listed_from_the_generator(host, path, query):
    src = f"https://{host}/{path}{query}"
    chosen = Settings(base_url=BASE, lastmod=False)
    from_html = Page("a/", html=f'<html><body><main><p><img src="{src}" alt="x"></p></main></body></html>')
    from_adapter = Page("a/", html="<html><body><main><p>text</p></main></body></html>", images=(src,))
    [html_entry] = list(build_entries([from_html], chosen))
    [adapter_entry] = list(build_entries([from_adapter], chosen))
    assert html_entry.images == adapter_entry.images


@pytest.mark.parametrize(("src", "attrs", "left_out"), [
    ("https://IMG.Shields.IO/badge/x-y-green", {}, True),  # a host, in any case
    ("https://img.shields.io.example.org/a.png", {}, False),  # a name that only begins as one does
    ("https://cdn.Coverage-Badge.workers.dev/a.png", {}, True),  # a name before the last names a badge
    ("https://badges.example.org/a.png", {}, True),
    ("https://example.badge/a.png", {}, False),  # the last name is no badge's
    ("https://cdn.example.org/Badges/Build.SVG", {}, True),  # a path naming a badge, in any case
    ("https://cdn.example.org/a/TWEMOJI/1f600.svg", {}, True),
    ("https://cdn.example.org/photo.jpg", {"class": "Site-LOGO"}, True),  # a class or id, in any case
    ("https://cdn.example.org/photo.jpg", {"id": "Avatar"}, True),
    ("https://cdn.example.org/photo.jpg", {"class": "Logos"}, False),  # another word
    ("https://cdn.example.org/photo.jpg", {"class": "TwEmoji"}, True),
    ("https://cdn.example.org/photo.jpg", {"width": "16PX"}, True),  # an icon's size, in any unit case
    ("https://cdn.example.org/photo.jpg", {"width": "640PX"}, False),
    ("https://cdn.example.org/photo.jpg", {"style": "Display: None"}, True),
    ("https://cdn.example.org/photo.jpg", {}, False),
])
def test_the_filter_reads_hosts_paths_and_attributes_in_any_case(src, attrs, left_out):
    assert decorative(src, attrs) is left_out


def test_a_host_of_many_names_is_read_once_not_once_a_name():
    # Hostile input: a src whose host has 200,000 names. Looked up by every suffix, it would
    # join 200,000 lists of up to 200,000 names (this test would not end); by its last names, at once.
    host = "a." * 200_000
    assert decorative(f"https://{host}shields.io/x.svg") is True
    assert decorative(f"https://{host}example.org/x.png") is False
