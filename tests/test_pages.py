"""What a page is (one definition for adapters, ``build`` and ``validate --site-dir``), file
names <-> URLs, gitignore-style ``exclude``, and which images are a page's own."""

from __future__ import annotations

import os
import string
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitemap_checks import assert_valid_tree, locs, usp_urls
from sitemapkit import Page, Settings, build_entries, validate
from sitemapkit.cli import main
from sitemapkit.report import Report
from sitemapkit.site.extract import read_page_html
from sitemapkit.site.pages import files_for_url, guess_not_a_page, not_a_page, url_for_file, urls_for_files
from sitemapkit.urls import encode_url

BASE = "https://example.com/"
RFC3986_PATH = set(string.ascii_letters + string.digits + "-._~!$&'()*+,;=:@/%")


def html(head: str = "", body: str = "<main><p>Text</p></main>") -> str:
    return f"<!doctype html><html lang='en'><head><title>T</title>{head}</head><body>{body}</body></html>"


def write(site: Path, name: str, text: str | None = None) -> None:
    path = site / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(html() if text is None else text, encoding="utf-8")


# ------------------------------------------------------------------ file name <-> URL

segment = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="/\x00"), min_size=1, max_size=12
).filter(lambda s: s not in (".", ".."))


@given(st.lists(segment, min_size=1, max_size=4))
def test_every_file_name_round_trips_through_its_url(segments):
    name = "/".join(segments)
    url = url_for_file(name)
    assert set(url) <= RFC3986_PATH
    assert name in files_for_url(url)
    # the core takes it as it is: nothing left for encode_url to change
    assert encode_url(BASE + url) == BASE + url


@given(st.binary(min_size=1, max_size=20).filter(lambda b: b"/" not in b and b"\x00" not in b
                                                 and b not in (b".", b"..")))
def test_names_the_file_system_cannot_decode_round_trip_as_bytes(raw):
    name = os.fsdecode(raw)
    assert name in files_for_url(url_for_file(name))


@pytest.mark.parametrize(("name", "url"), [
    ("hash#frag.html", "hash%23frag.html"),
    ("q?a=1.html", "q%3Fa=1.html"),
    ("pct%20x.html", "pct%2520x.html"),
    ("new\nline.html", "new%0Aline.html"),
    ("tab\there.html", "tab%09here.html"),
    ("café/index.html", "caf%C3%A9/"),
    ("index.html", ""),
    ("a(b)&c=d.html", "a(b)&c=d.html"),
    ("Az09/:@!$&'()*+,;=-._~.html", "Az09/:@!$&'()*+,;=-._~.html"),  # every byte a URL path keeps
    ("\u0663.html", "%D9%A3.html"),  # a digit, but not an ASCII one
    ("K\u212a.html", "K%E2%84%AA.html"),  # the Kelvin sign, which only an ASCII range leaves out
])
def test_odd_names(name, url):
    assert url_for_file(name) == url
    assert name in files_for_url(url)


file_name = st.one_of(segment, st.sampled_from(["index.html", "index.htm", "a.html", "Az09:@!$&'()*+,;=-._~.html"]))


@given(st.lists(file_name, max_size=6), st.sampled_from(["", "a/", "caf%C3%A9/"]))
def test_a_folders_urls_together_are_each_files_own(names, folder):
    """``urls_for_files`` checks a folder's names in one call: it must give what
    ``url_for_file`` gives each name, plain names and odd ones mixed."""
    assert urls_for_files(names, folder) == [url_for_file(name, folder) for name in names]


ODD_NAMES = ["hash#frag.html", "q?a=1.html", "pct%20x.html", "new\nline.html", "tab\there.html",
             "café/index.html", "sp ace.html", "a+b.html"]


def test_build_and_validate_site_dir_agree_on_odd_names(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    site = tmp_path / "site"
    write(site, "index.html")
    for name in ODD_NAMES:
        write(site, name)
    assert main(["build", str(site), "--base-url", BASE, "-q"]) == 0
    assert_valid_tree(site, BASE)
    listed = usp_urls(site, BASE)
    assert sorted(listed) == sorted(BASE + url_for_file(name) for name in ["index.html", *ODD_NAMES])
    # every listed URL has its file, and every file is listed: strict validation is clean
    assert validate([site / "sitemap.xml"], site_dir=site) == []
    assert main(["validate", str(site / "sitemap.xml"), "--site-dir", str(site), "--strict"]) == 0


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(segment, min_size=1, max_size=3), st.sampled_from([".html", "/index.html"]))
def test_any_name_built_is_found_by_validate_site_dir(tmp_path_factory, segments, suffix):
    site = tmp_path_factory.mktemp("site")
    name = "/".join(segments) + suffix
    if guess_not_a_page(name, site) is not None:
        return  # e.g. drafts/x.html: not a page, rightly not listed
    folders = segments[:-1] if suffix == ".html" else segments
    if any(folder.startswith(".") for folder in folders):
        return  # hidden folders (.git, .cache ...) are never scanned for pages
    try:
        write(site, name)
    except OSError:  # a name this file system refuses (too long in bytes)
        return
    write(site, "index.html")
    assert main(["build", str(site), "--base-url", BASE, "-q", "--state-file", str(site.parent / "s.json"),
                 "--no-robots-txt"]) == 0
    assert BASE + url_for_file(name) in locs(site / "sitemap.xml")
    assert validate([site / "sitemap.xml"], site_dir=site) == []


# ------------------------------------------------------------------------ not a page

def sphinx_outputs(site: Path, *folders: str) -> Path:
    """``site`` with a Sphinx build's ``.buildinfo`` in each of ``folders`` ("" for the root)."""
    for folder in folders:
        write(site, f"{folder}.buildinfo", "# Sphinx build info version 1\n")
    return site


@pytest.mark.parametrize(("name", "sphinx", "reason"), [
    ("genindex.html", [""], "generated index"),
    ("genindex-A.html", [""], "generated index"),  # html_split_index
    ("genindex/index.html", [""], "generated index"),  # Sphinx dirhtml
    ("py-modindex.html", [""], "generated index"),
    ("search.html", [""], "generated index"),
    ("search/index.html", [""], "generated index"),
    ("_modules/lighthouse/lamp.html", [""], "generated index"),  # viewcode
    ("en/latest/genindex.html", ["en/latest/"], "generated index"),  # a Sphinx output in a folder
    ("en/latest/_modules/lamp.html", ["en/latest/"], "generated index"),
    ("_modules/new\nline.html", [""], "generated index"),  # any name under _modules/, a line break too
    ("404.html", [], "error page"),
    ("drafts/winter-plans.html", [], "draft"),
])
def test_generated_error_and_draft_pages_guessed_where_they_sit(tmp_path, name, sphinx, reason):
    assert guess_not_a_page(name, sphinx_outputs(tmp_path, *sphinx)) == reason


@pytest.mark.parametrize(("generator", "sphinx", "reason"), [
    ("Pelican", [], "draft"), (None, [], "draft"), ("MkDocs", [], None), ("Zensical", [], None), (None, [""], None),
])
def test_a_root_drafts_folder_is_pelicans_drafts_unless_another_generator_built_it(
        tmp_path, generator, sphinx, reason):
    assert guess_not_a_page("drafts/next.html", sphinx_outputs(tmp_path, *sphinx), generator) == reason


WALKED = {  # name: why it is no page, in a site with Sphinx outputs at the root and at en/latest/
    "404.html": "error page", "index.html": None, "genindex.html": "generated index", "x.html": None,
    "en/404.html": "error page", "en/search.html": None, "en/x.html": None,
    "en/latest/404.html": None, "en/latest/py-modindex.html": "generated index", "en/latest/x.html": None,
    "en/latest/genindex/index.html": "generated index", "en/latest/genindex/x.html": None,
    "en/latest/_modules/a/b.html": "generated index", "en/latest/_modules/index.html": "generated index",
    "en/_modules/x.html": None, "tag/404.html": None, "tag/search.html": None,
    "drafts/a.html": "draft", "drafts/old/b.html": "draft", "fr/drafts/x.html": None,
    "_modules/q?a=1.html": "generated index", "search/index.html": "generated index",
    "plugins/search/index.html": None,
}


@pytest.mark.parametrize("generator", [None, "MkDocs", "Pelican"])
def test_a_walk_decides_by_folder_what_each_file_alone_gives(tmp_path, generator):
    from sitemapkit.site.scan import pages_in

    site = sphinx_outputs(tmp_path, "", "en/latest/")
    for name in WALKED:
        write(site, name)
    walked = {page.name: page.not_page for page in pages_in(site, generator)}
    # drafts/ are Pelican's drafts, MkDocs' pages; the root is a Sphinx output, so an unknown generator's are pages
    drafts = "draft" if generator == "Pelican" else None
    assert walked == {name: drafts if name.startswith("drafts/") else why for name, why in WALKED.items()}
    assert walked == {name: guess_not_a_page(name, site, generator) for name in WALKED}
    (site / ".buildinfo").unlink()  # the root no Sphinx output: an unknown generator's drafts/ are Pelican's
    walked = {page.name: page.not_page for page in pages_in(site, generator)}
    drafts = "draft" if generator in (None, "Pelican") else None
    assert {name: walked[name] for name in ("drafts/a.html", "drafts/old/b.html", "genindex.html")} == {
        "drafts/a.html": drafts, "drafts/old/b.html": drafts, "genindex.html": None}
    assert walked == {name: guess_not_a_page(name, site, generator) for name in WALKED}


@pytest.mark.parametrize(("name", "sphinx"), [
    ("index.html", [""]), ("guide/index.html", [""]), ("searching.html", [""]), ("research/index.html", [""]),
    ("blog/drafts-of-a-novel/index.html", []), ("modules/x.html", [""]), ("404-reasons.html", []),
    ("my-genindex-notes.html", [""]),
    # names that mean nothing away from where the generator puts them
    ("genindex.html", []), ("search.html", []), ("_modules/x.html", []), ("en/genindex.html", [""]),
    ("fr/genindex.html", ["en/"]), ("plugins/search/index.html", [""]), ("blog/category/search/index.html", []),
    ("tag/404.html", []), ("404/index.html", []), ("fr/drafts/x.html", []),
])
def test_pages_by_path(tmp_path, name, sphinx):
    assert guess_not_a_page(name, sphinx_outputs(tmp_path, *sphinx)) is None
    assert not_a_page(html().encode().split(b"<body")[0]) is None


@pytest.mark.parametrize(("text", "reason"), [
    ("<!DOCTYPE html><html><head><meta http-equiv='refresh' content='0; url=new/'></head><body></body></html>",
     "redirect"),
    ('<html><head><META HTTP-EQUIV="Refresh" CONTENT="0;URL=/x"></head><body>Moved</body></html>', "redirect"),
    ('<html><head><meta http-equiv="rEfResh" content="0; url=/x"></head><body></body></html>', "redirect"),
    ("<div class='footer'><p>© Harbour</p></div>", "fragment"),
    ("{% block content %}<p>x</p>{% endblock %}", "fragment"),
    ("<nav><ul><li><a href='/'>Home</a></li></ul></nav>\n", "fragment"),
])
def test_redirect_stubs_and_fragments_by_their_head(text, reason):
    facts = read_page_html(text, BASE + "x.html")
    assert not_a_page(facts.head) == reason


def test_the_core_leaves_them_out_for_every_adapter():
    """Adapters pass pages to ``build_entries``: what the generator says is no page
    (``not_page``), redirect stubs and fragments by their head, and the root 404 page are left
    out; a name alone elsewhere leaves nothing out."""
    pages = [
        Page("", html=html()),
        Page("genindex.html", html=html(), not_page="generated index"),
        Page("_modules/x.html", html=html(), not_page="generated index"),
        Page("404.html", html=html()),
        Page("fr/404.html", html=html()),
        Page("old.html", html=html("<meta http-equiv='refresh' content='0; url=new.html'>")),
        Page("partials/footer.html", html="<footer>© Harbour</footer>"),
        Page("drafts/a.html", html=html()),
        Page("from-content-only.html", content="<p>An adapter's own content, no markup.</p>"),
    ]
    report = Report()
    entries = list(build_entries(pages, Settings(base_url=BASE), report=report))
    assert [e.loc for e in entries] == [BASE, BASE + "fr/404.html", BASE + "drafts/a.html",
                                        BASE + "from-content-only.html"]
    assert report.left_out == {"generated index": 2, "error page": 1, "redirect": 1, "fragment": 1}
    assert report.not_pages == {"generated index": ["genindex.html", "_modules/x.html"], "error page": ["404.html"]}
    assert report.warnings == []


def test_cli_build_and_validate_site_dir_share_the_definition(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    site = tmp_path / "site"
    write(site, "index.html")
    write(site, "guide/index.html")
    write(site, ".buildinfo", "# Sphinx build info version 1\n")
    write(site, "genindex.html")
    write(site, "py-modindex.html")
    write(site, "_modules/pkg/mod.html")
    write(site, "404.html")
    write(site, "drafts/next.html")
    write(site, "moved.html", "<html><head><meta http-equiv='refresh' content='0; url=guide/'></head></html>")
    write(site, "old.html", "<html><head><meta http-equiv='rEfResh' content='0; url=guide/'></head></html>")
    write(site, "_static/partials/header.html", "<header><a href='/'>Home</a></header>")
    assert main(["build", str(site), "--base-url", BASE, "-q"]) == 0
    # a Sphinx output's (.buildinfo) drafts/ is a folder of pages: Pelican's drafts are guessed elsewhere
    assert sorted(usp_urls(site, BASE)) == [BASE, BASE + "drafts/next.html", BASE + "guide/"]
    assert main(["validate", str(site / "sitemap.xml"), "--site-dir", str(site), "--strict"]) == 0


# ------------------------------------------------------------------------- exclude

def entries_of(paths: list[str], exclude: list[str]) -> tuple[list[str], Report]:
    report = Report()
    settings = Settings(base_url=BASE, exclude=exclude)
    found = [e.loc[len(BASE):] for e in build_entries([Page(p, html=html()) for p in paths], settings,
                                                     report=report)]
    return found, report


PATHS = ["", "blog/", "blog/archive/", "blog/archive/one.html", "archive/", "archive/two/", "a/b/print/",
         "print/", "notes.html", "guide/notes.html", "guide/deep/page.html", "caf%C3%A9/"]


@pytest.mark.parametrize(("pattern", "left_out"), [
    ("archive/", ["blog/archive/", "blog/archive/one.html", "archive/", "archive/two/"]),  # any depth
    ("/archive/", ["archive/", "archive/two/"]),  # anchored at the site root
    ("blog/archive/", ["blog/archive/", "blog/archive/one.html"]),  # a middle slash anchors too
    ("**/print/", ["a/b/print/", "print/"]),
    ("guide/*", ["guide/notes.html", "guide/deep/page.html"]),  # a folder under guide/ goes whole
    ("guide/*.html", ["guide/notes.html"]),  # * stops at /
    ("guide/**/*.html", ["guide/notes.html", "guide/deep/page.html"]),
    ("notes.html", ["notes.html", "guide/notes.html"]),  # no slash: a name at any depth
    ("café/", ["caf%C3%A9/"]),  # patterns are written as the names are, not percent-encoded
])
def test_exclude_reads_patterns_as_gitignore_does(pattern, left_out):
    found, report = entries_of(PATHS, [pattern])
    assert sorted(set(PATHS) - set(found)) == sorted(left_out)
    assert report.warnings == []


def test_a_negated_pattern_brings_a_page_back():
    found, _ = entries_of(PATHS, ["archive/", "!blog/archive/one.html"])
    assert "blog/archive/one.html" in found and "archive/two/" not in found


def test_a_pattern_that_matches_nothing_is_one_warning_at_the_end():
    _, report = entries_of(PATHS, ["archive/", "archives/*", "*.htm"])
    assert [(w.where, w.field, w.rule) for w in report.warnings] == [
        ("settings", "exclude", "exclude-unmatched"), ("settings", "exclude", "exclude-unmatched")]
    assert "'archives/*'" in report.warnings[0].message and "'*.htm'" in report.warnings[1].message


def test_old_fnmatch_patterns():
    """How patterns written for fnmatch read now (the README's table)."""
    found, _ = entries_of(PATHS, ["blog/*"])  # was: blog/ and everything below; now below only
    assert [p for p in found if p.startswith("blog/")] == ["blog/"]
    found, _ = entries_of(PATHS, ["blog/"])  # blog/ and everything below
    assert not any(p.startswith("blog/") for p in found)
    found, _ = entries_of(PATHS, ["*/print/"])  # was: any depth; now one level only
    assert "a/b/print/" in found and "print/" in found
    found, _ = entries_of(PATHS, ["*.html"])  # was and is: every .html file at any depth
    assert not any(p.endswith(".html") for p in found)


# -------------------------------------------------------------------------- images

MATERIAL_LIKE = """<!doctype html><html><head><title>T</title></head><body>
<header class="md-header"><a class="md-logo"><img src="/assets/logo.png" alt="logo"></a></header>
<main class="md-main"><div class="md-main__inner">
<div class="md-sidebar"><nav class="md-nav md-nav--primary"><label class="md-nav__title">
<a class="md-nav__button md-logo"><img src="/assets/logo.png" alt="logo"></a></label></nav></div>
<div class="md-content"><article class="md-content__inner md-typeset">
<h1>Home <img alt="🚀" class="twemoji"
 src="https://cdn.jsdelivr.net/gh/jdecked/twemoji@15.0.3/assets/svg/1f680.svg" title=":rocket:"></h1>
<p><img alt="😀" class="emojione" src="https://cdn.jsdelivr.net/emojione/assets/4.5/png/64/1f600.png"></p>
<p><img src="https://img.shields.io/pypi/v/sitemapkit.svg" alt="PyPI">
<img src="https://github.com/o/r/actions/workflows/ci.yml/badge.svg?branch=main" alt="CI">
<img src="https://badge.fury.io/py/sitemapkit.svg" alt="version">
<img src="https://readthedocs.org/projects/sitemapkit/badge/?version=latest" alt="docs">
<img src="https://codecov.io/gh/o/r/branch/main/graph/badge.svg" alt="coverage"></p>
<header><img src="hero.jpg" alt="the article's own header image"></header>
<figure><img src="diagram.png"></figure><p><img src="badger.jpg" alt="a badger, not a badge"></p>
</article></div></div></main>
<footer><img src="/assets/sponsor.png"></footer></body></html>"""


def test_badges_emoji_and_theme_images_are_not_page_images():
    facts = read_page_html(MATERIAL_LIKE, BASE + "guide/")
    assert list(facts.images) == [BASE + "guide/hero.jpg", BASE + "guide/diagram.png", BASE + "guide/badger.jpg"]


def test_a_header_in_main_is_the_pages_own_and_the_sites_header_is_not():
    own = "<!doctype html><html><head></head><body><main><header><img src='hero.jpg'></header></main></body></html>"
    assert list(read_page_html(own, BASE).images) == [BASE + "hero.jpg"]
    site = "<!doctype html><html><head></head><body><header><img src='logo.png'></header><p><img src='a.png'></body>"
    assert list(read_page_html(site, BASE).images) == [BASE + "a.png"]


def test_cli_build_lists_no_badge_or_emoji(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    site = tmp_path / "site"
    write(site, "guide/index.html", MATERIAL_LIKE)
    (site / "guide" / "diagram.png").write_bytes(b"\x89PNG\r\n\x1a\n")  # a listed image is a built file
    assert main(["build", str(site), "--base-url", BASE, "-q"]) == 0
    text = (site / "sitemap.xml").read_text()
    assert "diagram.png" in text and "shields" not in text and "twemoji" not in text and "logo" not in text


def test_a_pattern_git_refuses_is_an_error_at_start_up_and_one_pathspec_ignores_is_unmatched(tmp_path):
    with pytest.raises(ValueError, match=r"'!' is not a gitignore-style pattern"):
        Settings(base_url=BASE, exclude=["blog/", "!"])
    assert main(["build", str(tmp_path), "--base-url", BASE, "--exclude", "\\"]) == 2
    _, report = entries_of(PATHS, ["a[b", "# a comment", ""])
    assert [w.message.split("'")[1] for w in report.warnings] == ["a[b"]


@pytest.mark.parametrize(("name", "text", "reason"), [
    ("moved.html", "<html><head><meta http-equiv='refresh' content='0; url=/'></head><body></body></html>",
     "redirect"),
    ("404.html", html(), "error page"),  # the root's: what static hosts serve for a missing URL
    ("footer.html", "<footer>© Harbour</footer>", "fragment"),
])
def test_validate_site_dir_flags_a_listed_file_that_is_no_page(tmp_path, name, text, reason):
    site = tmp_path / "site"
    write(site, "index.html")
    write(site, name, text)
    (site / "sitemap.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        f"<url><loc>{BASE}</loc></url><url><loc>{BASE}{name}</loc></url></urlset>\n")
    problems = validate([site / "sitemap.xml"], site_dir=site)
    assert [(p.rule, p.severity) for p in problems] == [("page-not-a-page", "warning")]
    assert f"({reason})" in problems[0].message and name in problems[0].message
