"""``sections``: one sitemap per URL path prefix under an index, and where a theme reads
``sitemap.xml`` as a urlset (Material), that urlset kept and the index named otherwise."""

from __future__ import annotations

import pytest
from around_helpers import BASE, built_site, pages_of

from sitemap_checks import assert_valid, assert_valid_tree, locs, robots_sitemaps, usp_urls
from sitemapkit import Settings, SettingsError
from sitemapkit.cli import main
from sitemapkit.generate import generate
from sitemapkit.output.names import own_names

EVERY = {BASE, BASE + "blog/a/", BASE + "blog/b/", BASE + "docs/c/", BASE + "about/"}


def build(site, keep_urlset=False, **options):
    settings = Settings(base_url=BASE, lastmod=["meta"], **options)
    return generate(pages_of(site), site, settings, project_dir=site.parent, keep_urlset=keep_urlset)


def test_one_sitemap_per_section_under_the_index(tmp_path):
    site = built_site(tmp_path)
    report = build(site, sections=["blog", "/docs/"])
    assert assert_valid(site / "sitemap.xml").tag.endswith("sitemapindex")
    assert locs(site / "sitemap.xml") == [BASE + name for name in
                                          ("sitemap-blog.xml", "sitemap-docs.xml", "sitemap-other.xml")]
    assert set(locs(site / "sitemap-blog.xml")) == {BASE + "blog/a/", BASE + "blog/b/"}
    assert locs(site / "sitemap-docs.xml") == [BASE + "docs/c/"]
    assert set(locs(site / "sitemap-other.xml")) == {BASE, BASE + "about/"}
    assert_valid_tree(site, BASE)
    assert sorted(usp_urls(site, BASE)) == sorted(EVERY)
    assert robots_sitemaps(site / "robots.txt") == [BASE + "sitemap.xml"]
    assert report.urls == 5
    assert main(["validate", str(site), "--strict"]) == 0


def test_where_the_theme_reads_a_urlset_the_index_has_its_own_name(tmp_path):
    site = built_site(tmp_path)
    (site / "shop").mkdir()
    (site / "shop" / "sitemap.xml").write_text(  # another tool's, on the same host
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        "<url><loc>https://example.org/shop/item/</loc></url></urlset>\n")
    build(site, keep_urlset=True, sections=["blog/"], extra_sitemaps=[BASE + "shop/sitemap.xml"])
    assert assert_valid(site / "sitemap.xml").tag.endswith("urlset")
    assert set(locs(site / "sitemap.xml")) == EVERY
    index = locs(site / "sitemap-index.xml")
    assert index == [BASE + "sitemap-blog.xml", BASE + "sitemap-other.xml", BASE + "shop/sitemap.xml"]
    assert robots_sitemaps(site / "robots.txt") == [BASE + "sitemap-index.xml", BASE + "shop/sitemap.xml"]
    # each lists every page once (together, twice: robots.txt names only the index)
    assert main(["validate", str(site / "sitemap-index.xml"), "--strict"]) == 0
    assert main(["validate", str(site / "sitemap.xml"), "--strict"]) == 0


def test_a_section_past_max_urls_is_split_and_its_old_children_removed(tmp_path):
    site = built_site(tmp_path, ("index.html", *(f"blog/{n}/index.html" for n in range(5)), "docs/x/index.html"))
    build(site, sections=["blog/", "docs/"], max_urls=2)
    children = [url.rsplit("/", 1)[1] for url in locs(site / "sitemap.xml")]
    blog = [name for name in children if name.startswith("sitemap-blog-")]
    assert len(blog) == 3 and all(name.count("-") == 3 for name in blog)
    assert "sitemap-docs.xml" in children and "sitemap-other.xml" in children
    assert_valid_tree(site, BASE)
    (site / "blog" / "0" / "index.html").unlink()
    pages = [page for page in pages_of(site)]
    notes = []
    generate(pages, site, Settings(base_url=BASE, lastmod=["meta"], sections=["blog/"], max_urls=2),
             project_dir=tmp_path, on_warning=notes.append)
    now = {url.rsplit("/", 1)[1] for url in locs(site / "sitemap.xml")}
    assert not any((site / name).exists() for name in blog if name not in now)  # stale children removed
    assert BASE + "docs/x/" in locs(site / "sitemap-other.xml")
    # a section no longer named: its file is an option's that is now off, left with a note
    assert (site / "sitemap-docs.xml").exists() and "sitemap-docs.xml" not in now
    assert [note.rule for note in notes] == ["record-option-off"]


def test_the_record_allows_exactly_the_names_these_sections_make():
    names = own_names(Settings(base_url=BASE, sections=["blog/", "docs/api/"], gzip=True))
    for name in ("sitemap-blog.xml", "sitemap-docs-api.xml.gz", "sitemap-other.xml", "sitemap-index.xml",
                 "sitemap-blog-2-0123456789ab.xml"):
        assert names.allows(name), name
    for name in ("sitemap-shop.xml", "sitemap-blog-2.xml", "index.html", "sitemap-blog.html"):
        assert not names.allows(name), name
    assert not own_names(Settings(base_url=BASE)).allows("sitemap-blog.xml")


def test_a_file_sitemapkit_did_not_write_under_a_section_name_stops_the_build(tmp_path):
    site = built_site(tmp_path)
    (site / "sitemap-blog.xml").write_text("my own notes")
    with pytest.raises(Exception, match="not a file sitemapkit wrote"):
        build(site, sections=["blog/"])
    assert (site / "sitemap-blog.xml").read_text() == "my own notes"


@pytest.mark.parametrize("value", [["news/"], ["blog/", "blog/2026/"], ["../x/"], [""], ["https://example.org/b/"],
                                   ["blog/*"], []])
def test_unusable_sections_are_errors_naming_the_option(value):
    with pytest.raises(SettingsError, match="option 'sections'"):
        Settings(base_url=BASE, sections=value)


def test_command_line_flag(tmp_path, monkeypatch):
    site = built_site(tmp_path)
    monkeypatch.chdir(tmp_path)  # in no project
    assert main(["build", str(site), "--base-url", BASE, "-q", "--section", "blog/", "--section", "docs/"]) == 0
    assert {url.rsplit("/", 1)[1] for url in locs(site / "sitemap.xml")} == {
        "sitemap-blog.xml", "sitemap-docs.xml", "sitemap-other.xml"}


def test_robots_txt_names_sitemap_xml_again_once_sections_are_off(tmp_path):
    site = built_site(tmp_path)
    build(site, keep_urlset=True, sections=["blog/"])
    assert robots_sitemaps(site / "robots.txt") == [BASE + "sitemap-index.xml"]
    build(site, keep_urlset=True)
    assert robots_sitemaps(site / "robots.txt") == [BASE + "sitemap.xml"]


@pytest.mark.parametrize(("config", "text", "urlset"), [
    ("mkdocs.yml", "site_name: T\nsite_url: https://example.org/\ntheme:\n  name: material\n", True),
    ("mkdocs.yml", "site_name: T\nsite_url: https://example.org/\ntheme: mkdocs\n", False),
    ("zensical.toml", '[project]\nsite_name = "T"\nsite_url = "https://example.org/"\n', True),
])
def test_command_line_in_a_project_keeps_the_urlset_its_theme_reads(tmp_path, monkeypatch, config, text, urlset):
    built_site(tmp_path)
    (tmp_path / "docs").mkdir()
    (tmp_path / config).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["build", "-q", "--section", "blog/", "--lastmod", "false"]) == 0
    site = tmp_path / "site"
    assert assert_valid(site / "sitemap.xml").tag.endswith("urlset" if urlset else "sitemapindex")
    assert (site / "sitemap-index.xml").exists() == urlset
    entry = "sitemap-index.xml" if urlset else "sitemap.xml"
    assert robots_sitemaps(site / "robots.txt") == [BASE + entry]
    assert_valid_tree(site, BASE, entry)


def test_sections_turned_off_on_the_command_line_is_one_note_not_a_warning(tmp_path, monkeypatch, capsys):
    site = built_site(tmp_path)
    monkeypatch.chdir(tmp_path)  # in no project
    assert main(["build", str(site), "--base-url", BASE, "-q", "--section", "blog/"]) == 0
    assert main(["build", str(site), "--base-url", BASE, "--strict"]) == 0  # the files left are ours: no warning
    err = capsys.readouterr().err
    assert "[record-option-off]" in err and "sitemap-blog.xml" in err
    assert "[sitemap-other]" not in err
