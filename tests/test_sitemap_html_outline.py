"""``sitemap.html`` follows the site's own navigation (the ``Outline`` an adapter hands to
``generate``): its sections in the site's order with the site's titles, the sitemap's other
URLs in a last section, the map never in its own list, later pages of a list folded into the
first, HTML titles without the site's name; a theme that cannot render the map gives
sitemapkit's plain page and one warning."""

from __future__ import annotations

import re

import lxml.html
from hypothesis import given, settings
from hypothesis import strategies as st

from sitemap_checks import locs
from sitemapkit import NavItem, Outline, Page, Settings, generate
from sitemapkit.output.map_sections import Link, arrange, own_title
from sitemapkit.protocol import RULES

BASE = "https://example.org/"
HEAD = "<!DOCTYPE html><html><head><title>{}</title></head><body><p>text</p></body></html>"


def pages() -> list[Page]:
    titled = {"": "My Site", "guide/install/": "Install - My Site", "guide/use/": "Use - My Site",
              "about/": "My Site | About us", "blog/": "Blog - My Site", "blog/page/2/": "Blog - My Site",
              "blog/page/3/": "Blog - My Site", "zeta/": "Zeta - My Site", "alpha.html": "Alpha - My Site"}
    return [Page(url, html=HEAD.format(title)) for url, title in titled.items()]


OUTLINE = Outline((
    NavItem("Welcome", ""),
    NavItem("Guide", None, (NavItem(url="guide/use/"), NavItem("Installing", "guide/install/"))),
    NavItem(url="blog/", later=("blog/page/2/",)),
    NavItem("Not built", "nowhere/"),
    NavItem(None, "about/"),
), site_name="My Site")


def build(tmp_path, outline, render=None):
    warnings = []
    report = generate(pages(), tmp_path, Settings(base_url=BASE, html_sitemap=True, lastmod=False),
                      project_dir=tmp_path, outline=outline, render_html=render, on_warning=warnings.append)
    return report, lxml.html.parse(str(tmp_path / "sitemap.html")).getroot(), warnings


def shown(page) -> list[tuple[str, str]]:
    """(heading or '', link text) in page order."""
    found = []
    for section in page.xpath("//*[@class='sitemapkit-sections']/section"):
        heading = "".join(section.xpath("./h2//text()")).strip()
        found += [(heading, a.text_content()) for a in section.xpath("./ul//a")]
    return found


def test_sections_follow_the_outline_then_the_other_pages(tmp_path):
    _, page, warnings = build(tmp_path, OUTLINE)
    assert not warnings
    assert shown(page) == [
        ("", "Welcome"),
        ("Guide", "Use"), ("Guide", "Installing"),
        ("", "Blog"), ("", "About us"),
        ("Other pages", "Alpha"), ("Other pages", "Zeta"),
    ]
    hrefs = [a.get("href") for a in page.xpath("//*[@class='sitemapkit-sections']//a")]
    assert "./sitemap.html" not in hrefs  # the map never lists itself ...
    assert BASE + "sitemap.html" in locs(tmp_path / "sitemap.xml")  # ... which the sitemap lists
    assert "./blog/page/2/" not in hrefs and "./blog/page/3/" not in hrefs  # folded (marked; by pattern)
    assert "./nowhere/" not in hrefs and "Not built" not in page.text_content()  # only what the sitemap lists


def test_without_an_outline_by_folder_with_titles_without_the_site_name(tmp_path):
    _, page, _ = build(tmp_path, None)
    texts = [text for _, text in shown(page)]
    assert "Install" in texts and "About us" in texts and "Install - My Site" not in texts
    assert texts.count("Blog") == 1  # page/2/, page/3/ folded
    # a folder holding only its own page is no section of its own
    assert "Zeta" not in page.xpath("//*[@class='sitemapkit-sections']/section/h2//text()")


def test_a_theme_that_cannot_render_the_map_gives_the_plain_page_and_one_warning(tmp_path):
    def no_block(sections):
        return "<html><body><p>This theme shows only its own layout</p></body></html>"

    def failing(sections):
        raise RuntimeError("template 'main.html' not found")

    for render, why in ((no_block, "does not show the map"), (failing, "RuntimeError")):
        _, page, warnings = build(tmp_path, OUTLINE, render)
        assert [(w.rule, w.where) for w in warnings] == [("html-sitemap-theme", "sitemap.html")]
        assert why in warnings[0].message
        assert page.xpath("//meta[@http-equiv='Content-Security-Policy']")  # sitemapkit's plain page
        assert shown(page)[0] == ("", "Welcome")
    assert "html-sitemap-theme" in RULES


def test_own_title_takes_off_only_the_site_name():
    assert own_title("Install - My Docs", "My Docs") == "Install"
    assert own_title("Intro \u2014 Project 1.0 documentation", "Project 1.0 documentation") == "Intro"
    assert own_title("My Blog - Authors", "My Blog") == "Authors"
    assert own_title("My Blog", "My Blog") == "My Blog"
    assert own_title("Install - Other", "My Docs") == "Install - Other"


paths = st.lists(st.from_regex(r"(?:[a-z]{1,3}/){0,2}[a-z0-9]{0,3}(?:\.html)?", fullmatch=True), max_size=12,
                 unique=True)


@st.composite
def outlines(draw, urls: list[str]) -> Outline:
    """Outlines naming some of ``urls`` (and others), nested, in any order, some twice."""
    names = st.one_of(st.sampled_from(urls) if urls else st.nothing(), st.just("elsewhere/"), st.none())
    # (items and later given: hypothesis fills a named tuple's fields that have defaults too)
    item = st.recursive(st.builds(NavItem, st.one_of(st.none(), st.text(max_size=5)), names, items=st.just(()),
                                  later=st.just(())),
                        lambda children: st.builds(NavItem, st.text(max_size=5), names,
                                                   st.lists(children, max_size=3).map(tuple), later=st.just(())),
                        max_leaves=10)
    return Outline(tuple(draw(st.lists(item, max_size=6))), draw(st.one_of(st.none(), st.text(max_size=5))))


@settings(max_examples=150, deadline=None)
@given(st.data(), paths)
def test_every_listed_url_is_shown_once_whatever_the_outline(data, found):
    links = [Link(path, "./" + path, BASE + path, path or "Home", None) for path in found]
    outline = data.draw(st.one_of(st.none(), outlines(found)))
    sections = arrange(links, outline, BASE)
    shown_locs = []
    pending = [item for section in sections for item in section.items]
    shown_locs += [section.link.loc for section in sections if section.link is not None]
    while pending:
        item = pending.pop()
        pending.extend(item.items)
        if item.link is not None:
            shown_locs.append(item.link.loc)
    assert len(shown_locs) == len(set(shown_locs))  # each URL once
    paged = {link.loc for link in links if re.fullmatch(r"(?:.*/)?page/[0-9]+/(?:index\.html?)?", link.path)}
    assert {link.loc for link in links} - paged <= set(shown_locs) <= {link.loc for link in links}


def test_pages_the_outline_leaves_out_follow_by_folder(tmp_path):
    """Another language's pages (``fr/``) after "Other pages", under their folder's own page, not
    mixed in with pages of the same titles; a heading already used names its folder."""
    titled = {"": "My Site", "about/": "About - My Site", "alpha.html": "Alpha - My Site",
              "fr/": "Accueil - My Site", "fr/about/": "About - My Site", "news/": "Guide - My Site",
              "news/a/": "A - My Site"}
    report = generate([Page(url, html=HEAD.format(title)) for url, title in titled.items()], tmp_path,
                      Settings(base_url=BASE, html_sitemap=True, lastmod=False), project_dir=tmp_path,
                      outline=Outline((NavItem("Welcome", ""), NavItem("Guide", None, (NavItem(url="about/"),))),
                                      "My Site"))
    assert not report.warnings
    page = lxml.html.parse(str(tmp_path / "sitemap.html")).getroot()
    assert shown(page) == [("", "Welcome"), ("Guide", "About"), ("Other pages", "Alpha"),
                           ("Accueil", "About"), ("Guide (news/)", "A")]
    headings = page.xpath("//*[@class='sitemapkit-sections']/section/h2/a/@href")
    assert headings == ["./fr/", "./news/"]  # each folder's own page heads its section
