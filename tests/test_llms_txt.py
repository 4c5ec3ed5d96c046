"""``llms_txt``: ``llms.txt`` links a Markdown mirror of exactly the pages the sitemap lists,
each once, in the site's navigation order; titles and descriptions from any input stay text
(read by the reference parser, ``llms-txt``, and by a CommonMark reader alike); the files are
sitemapkit's own (never a user's replaced, stale mirrors removed, left in place when the
option is turned off)."""

from __future__ import annotations

import html
import re
from urllib.parse import quote

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from llms_txt import parse_llms_file
from markdown_it import MarkdownIt

from sitemap_checks import locs
from sitemapkit import NavItem, Outline, Page, Settings, generate, validate
from sitemapkit.output.llms import link_line, mirror_name, mirror_url, mirrored_page
from sitemapkit.report import SitemapError
from sitemapkit.site.owned import RECORD

BASE = "https://example.org/"
PAGE = ("<!DOCTYPE html><html><head><title>{title}</title>{head}</head><body><nav><a href='/'>Home</a></nav>"
        "<main><h1>{title}</h1><p>About {title}.</p></main><footer>theme</footer></body></html>")
HOSTILE = [
    "Guide](javascript:alert(1))",
    "[x](javascript:alert(1)) <javascript:alert(2)>",
    "back\\slash \\] ends [it",
    "two\nlines\r\n- [fake](https://evil.example/)",
    "`code` and ` one tick",
    "<script>alert(1)</script> & &amp; &#93;",
    "a: b: c",
]


def site(tmp_path, pages: dict[str, tuple[str, str]]):
    """Write each page (URL path -> (title, extra head)) as the file that serves it."""
    for url, (title, head) in pages.items():
        path = tmp_path / (url + "index.html" if url == "" or url.endswith("/") else url)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(PAGE.format(title=html.escape(title), head=head), encoding="utf-8")
    return [Page(url, output=str(tmp_path / (url + "index.html" if url == "" or url.endswith("/") else url)))
            for url in pages]


def build(tmp_path, pages, outline=None, **options):
    warnings = []
    settings = Settings(base_url=BASE, lastmod=False, llms_txt=options.pop("llms_txt", True), **options)
    report = generate(pages, tmp_path, settings, project_dir=tmp_path, outline=outline, on_warning=warnings.append)
    return report, warnings


def linked(text: str) -> list[str]:
    """The URLs of every link of ``llms.txt`` as the reference parser reads them."""
    return [link["url"] for links in parse_llms_file(text).sections.values() for link in links]


def test_the_line_of_any_title_is_one_link_for_both_readers():
    md = MarkdownIt("commonmark")
    for title in HOSTILE:
        for description in (None, *HOSTILE):
            line = link_line(title, BASE + "a.html.md", description)
            assert "\n" not in line
            parsed = parse_llms_file(f"# Site\n\n> Summary.\n\n## Docs\n\n{line}\n").sections["Docs"]
            assert [link["url"] for link in parsed] == [BASE + "a.html.md"], line
            assert html.unescape(parsed[0]["title"]) == " ".join(title.split())
            if description:
                assert html.unescape(parsed[0]["desc"]) == " ".join(description.split())
            rendered = md.render(line)
            assert re.findall(r'href="([^"]*)"', rendered) == [BASE + "a.html.md"], rendered
            assert "<script" not in rendered


def test_mirror_names_follow_the_convention():
    assert mirror_name("") == "index.html.md"
    assert mirror_name("guide/") == "guide/index.html.md"
    assert mirror_name("a.html") == "a.html.md"
    assert mirror_name("caf%C3%A9/") == "café/index.html.md"
    assert mirror_url(BASE + "guide/") == BASE + "guide/index.html.md"
    assert mirror_url(BASE + "a.html") == BASE + "a.html.md"


def test_llms_txt_links_a_mirror_of_exactly_the_sitemaps_pages_in_nav_order(tmp_path):
    pages = site(tmp_path, {
        "": ("My Site", '<meta name="description" content="All about the site.">'),
        "guide/install/": ("Install", '<meta name="description" content="How to install it.">'),
        "guide/use/": ("Use", ""),
        "about/": ("About", ""),
        "tags/": ("Tags", ""),
        "hidden/": ("Hidden", '<meta name="robots" content="noindex">'),
        "elsewhere/": ("Elsewhere", '<link rel="canonical" href="https://other.example/x/">'),
        "drafts/a/": ("Draft", ""),
        "404.html": ("Not found", ""),
    })
    pages.append(Page("off/", html=PAGE.format(title="Off", head=""), meta={"sitemap": False}))
    outline = Outline((NavItem("Welcome", ""), NavItem("Guide", None, (NavItem("Using", "guide/use/"),
                                                                         NavItem(None, "guide/install/"))),
                       NavItem(None, "about/")), site_name="My Site")
    report, warnings = build(tmp_path, pages, outline, exclude=["drafts/"])
    text = (tmp_path / "llms.txt").read_text(encoding="utf-8")
    parsed = parse_llms_file(text)
    assert parsed.title == "My Site" and parsed.summary == "All about the site."
    assert list(parsed.sections) == ["Pages", "Guide", "More pages", "Optional"]  # the nav's order
    assert [link["title"] for link in parsed.sections["Guide"]] == ["Using", "Install"]
    assert parsed.sections["Guide"][1]["desc"] == "How to install it."
    assert [link["url"] for link in parsed.sections["Optional"]] == [BASE + "tags/index.html.md"]
    listed = locs(tmp_path / "sitemap.xml")
    urls = linked(text)
    assert len(urls) == len(set(urls))  # each page once
    assert sorted(urls) == sorted(mirror_url(loc) for loc in listed)  # exactly the sitemap's pages
    for url in urls:  # each mirror is there, its page's main content without the theme
        mirror = (tmp_path / url[len(BASE):]).read_text(encoding="utf-8")
        assert mirror.startswith("# ") and "theme" not in mirror and "Home" not in mirror
    assert "llms.txt" in {path.name for path in report.files}
    assert [w.rule for w in warnings if w.severity == "warning"] == ["canonical-outside"]


def test_listing_pages_and_named_sections_go_under_optional_and_full_streams_every_mirror(tmp_path):
    pages = site(tmp_path, {"": ("Blog", ""), "posts/a/": ("Post A", ""), "posts/b/": ("Post B", ""),
                            "page/2/": ("Blog", ""), "archive/": ("Archive", ""), "tag/x.html": ("x", "")})
    pages.append(Page("lists/", html=PAGE.format(title="List", head=""), content=""))  # the generator says so
    (tmp_path / "lists").mkdir()
    (tmp_path / "lists/index.html").write_text(PAGE.format(title="List", head=""))
    posts = (NavItem(None, "posts/a/"), NavItem(None, "posts/b/"))
    outline = Outline((NavItem("Home", ""), NavItem("Posts", None, posts), NavItem("Archive", "archive/")),
                      site_name="Blog")
    build(tmp_path, pages, outline, llms_txt={"optional": ["Posts"], "full": True, "summary": "Short."})
    parsed = parse_llms_file((tmp_path / "llms.txt").read_text(encoding="utf-8"))
    assert parsed.summary == "Short."
    optional = {link["url"][len(BASE):] for link in parsed.sections["Optional"]}
    assert optional == {"posts/a/index.html.md", "posts/b/index.html.md", "page/2/index.html.md",
                        "archive/index.html.md", "tag/x.html.md", "lists/index.html.md"}
    assert "Posts" not in parsed.sections
    full = (tmp_path / "llms-full.txt").read_text(encoding="utf-8")
    assert full.startswith("# Blog\n\n> Short.\n\nEach link")
    order = [url for section in parsed.sections.values() for url in (link["url"] for link in section)]
    assert re.findall(r"<!-- (\S+) -->", full) == order
    assert "About Post B." in full


def test_a_users_file_is_never_replaced(tmp_path):
    pages = site(tmp_path, {"": ("Home", ""), "a.html": ("A", "")})
    (tmp_path / "a.html.md").write_text("my own notes\n")
    _, warnings = build(tmp_path, pages)
    assert (tmp_path / "a.html.md").read_text() == "my own notes\n"
    assert [w.rule for w in warnings] == ["llms-mirror-foreign"]
    assert BASE + "a.html" in linked((tmp_path / "llms.txt").read_text())  # the page itself
    (tmp_path / "llms.txt").unlink()
    (tmp_path / "llms.txt").write_text("mine\n")
    with pytest.raises(SitemapError, match=r"llms\.txt"):
        build(tmp_path, pages)
    assert (tmp_path / "llms.txt").read_text() == "mine\n"


def test_stale_mirrors_are_removed_and_an_option_turned_off_leaves_its_files(tmp_path):
    pages = site(tmp_path, {"": ("Home", ""), "a/": ("A", ""), "b/": ("B", "")})
    build(tmp_path, pages)
    assert (tmp_path / "b/index.html.md").is_file()
    assert "b/index.html.md" in (tmp_path / RECORD).read_text()
    (tmp_path / "b/index.html").unlink()
    build(tmp_path, pages[:2])
    assert not (tmp_path / "b/index.html.md").exists()  # its page is gone
    assert (tmp_path / "a/index.html.md").is_file()
    report, _ = build(tmp_path, pages[:2], llms_txt=False)
    assert (tmp_path / "llms.txt").is_file() and (tmp_path / "a/index.html.md").is_file()
    assert [p.rule for p in report.notes] == ["record-option-off"]


def test_each_language_its_own_file_beside_its_pages(tmp_path):
    head = ('<link rel="alternate" hreflang="en" href="{BASE}{en}"><link rel="alternate" hreflang="fr" '
            'href="{BASE}{fr}">')
    pages = site(tmp_path, {
        "": ("Home", head.format(BASE=BASE, en="", fr="fr/")),
        "guide/": ("Guide", head.format(BASE=BASE, en="guide/", fr="fr/guide/")),
        "fr/": ("Accueil", head.format(BASE=BASE, en="", fr="fr/")),
        "fr/guide/": ("Guide (fr)", head.format(BASE=BASE, en="guide/", fr="fr/guide/")),
    })
    build(tmp_path, pages)
    root = linked((tmp_path / "llms.txt").read_text())
    french = linked((tmp_path / "fr/llms.txt").read_text())
    assert root == [BASE + "index.html.md", BASE + "guide/index.html.md"]
    assert french == [BASE + "fr/index.html.md", BASE + "fr/guide/index.html.md"]


def test_a_default_build_writes_none_of_it(tmp_path):
    pages = site(tmp_path, {"": ("Home", "")})
    build(tmp_path, pages, llms_txt=False)
    assert not list(tmp_path.rglob("*.md")) and not (tmp_path / "llms.txt").exists()


def llms_rules(tmp_path, text: str | None = None) -> list[tuple[str, int | None]]:
    """The llms rules ``validate --site-dir`` finds, with their line (``text``: llms.txt as given)."""
    if text is not None:
        (tmp_path / "llms.txt").write_text(text, encoding="utf-8")
    problems = validate([tmp_path / "sitemap.xml"], site_dir=tmp_path)
    return [(p.rule, p.line) for p in problems if p.rule.startswith("llms")]


def test_validate_reads_llms_txt_against_the_format_the_site_and_the_sitemap(tmp_path):
    pages = site(tmp_path, {"": ("Home", ""), "a/": ("A", ""), "b/": ("B", ""),
                            "hidden/": ("Hidden", '<meta name="robots" content="noindex">')})
    build(tmp_path, pages)
    assert llms_rules(tmp_path) == []  # as written: found in --site-dir, clean
    (tmp_path / "hidden/index.html.md").write_text("# Hidden\n")
    head = f"# Site\n\n> Summary.\n\n## Docs\n\n- [Home]({BASE}index.html.md)\n"
    assert llms_rules(tmp_path, head + f"- [A]({BASE}a/index.html.md): notes\n- [B]({BASE}b/index.html.md)\n") == []
    assert llms_rules(tmp_path, head + f"- [A]({BASE}a/index.html.md)\n- [B](b/index.html.md)\n"
                      f"- [Hidden]({BASE}hidden/index.html.md)\n- [Gone]({BASE}gone/index.html.md)\n"
                      f"- [A again]({BASE}a/)\nsome text\n- [x](javascript:alert(1))\n") == [
        ("llms-not-listed", 10), ("llms-link-missing", 11), ("llms-duplicate", 12), ("llms-line", 13),
        ("llms-link", 14)]
    found = llms_rules(tmp_path, f"Site\n\n- [Home]({BASE}index.html.md)\n\n# Again\n")
    assert sorted(found, key=lambda rule: (rule[0], rule[1] or 0)) == [
        ("llms-format", None), ("llms-format", 1), ("llms-format", 3), ("llms-format", 5),
        ("llms-page-missing", None), ("llms-page-missing", None), ("llms-page-missing", None)]


def test_a_page_no_file_serves_is_linked_as_html(tmp_path):
    pages = site(tmp_path, {"": ("Home", "")})
    report, _ = build(tmp_path, pages, extra_urls=["/shop/"])
    assert BASE + "shop/" in linked((tmp_path / "llms.txt").read_text())
    assert [note.rule for note in report.notes] == ["llms-mirror-missing"]


def test_a_hostile_page_is_linked_as_html_not_a_crash(tmp_path):
    pages = site(tmp_path, {"": ("Home", ""), "deep/": ("Deep", "")})
    (tmp_path / "deep/index.html").write_text("<html><body><main>" + "<div>" * 3000 + "x" + "</div>" * 3000
                                              + "</main></body></html>")
    report, _ = build(tmp_path, pages)
    assert linked((tmp_path / "llms.txt").read_text()) == [BASE + "index.html.md", BASE + "deep/"]
    assert [note.rule for note in report.notes] == ["llms-mirror-missing"]


def test_a_mirrors_page_is_the_mirror_name_undone():
    for path in ("", "guide/", "a.html", "guide/x.htm", "about"):
        assert mirrored_page(quote(mirror_name(path))) == path


def test_no_mirror_is_written_into_a_folder_linked_from_outside_the_site(tmp_path):
    outside = tmp_path / "notes"
    outside.mkdir()
    (outside / "index.html").write_text(PAGE.format(title="Notes", head=""))
    site_dir = tmp_path / "site"
    pages = site(site_dir, {"": ("Home", "")})
    (site_dir / "notes").symlink_to(outside, target_is_directory=True)
    pages.append(Page("notes/", output=str(site_dir / "notes/index.html")))
    report, _ = build(site_dir, pages)
    assert sorted(path.name for path in outside.iterdir()) == ["index.html"]
    assert BASE + "notes/" in linked((site_dir / "llms.txt").read_text())
    assert [note.rule for note in report.notes] == ["llms-mirror-missing"]


def test_what_a_transform_drops_is_not_linked(tmp_path):
    pages = site(tmp_path, {"": ("Home", ""), "kept/": ("Kept", ""), "dropped/": ("Dropped", "")})
    (tmp_path / "site_hooks.py").write_text("def drop(entry):\n    return None if 'dropped' in entry.loc else entry\n")
    build(tmp_path, pages, transform="site_hooks:drop")
    assert linked((tmp_path / "llms.txt").read_text()) == [BASE + "index.html.md", BASE + "kept/index.html.md"]
    assert not (tmp_path / "dropped/index.html.md").exists()


@settings(max_examples=300, deadline=None)
@given(st.text(min_size=1), st.one_of(st.none(), st.text()))
def test_any_text_stays_the_text_of_one_link(title, description):
    line = link_line(title, BASE + "a.html.md", description)
    parsed = parse_llms_file(f"# Site\n\n> Summary.\n\n## Docs\n\n{line}\n").sections["Docs"]
    assert [link["url"] for link in parsed] == [BASE + "a.html.md"]
    assert html.unescape(parsed[0]["title"]) == (" ".join(title.split()) or "/")
    assert re.findall(r'href="([^"]*)"', MarkdownIt("commonmark").render(line)) == [BASE + "a.html.md"]


def versioned_root(tmp_path):
    """Two versions built with llms_txt on, mike's versions.json naming 2.0 latest, the alias
    a copy of 2.0 (as mike copies it), and the root step run on the folder."""
    import json
    import shutil

    from sitemapkit.cli import main

    root = tmp_path / "gh-pages"
    for version in ("1.0", "2.0"):
        folder = root / version
        (folder / "guide").mkdir(parents=True)
        for path, title in (("", f"Home {version}"), ("guide/", "Guide")):  # as mike builds: canonical its own
            canonical = f'<link rel="canonical" href="{BASE}{version}/{path}">'
            (folder / path / "index.html").write_text(PAGE.format(title=title, head=canonical))
        assert main(["build", str(folder), "--base-url", f"{BASE}{version}/", "--llms-txt", "--no-robots-txt",
                     "--quiet"]) == 0
    shutil.copytree(root / "2.0", root / "latest")
    (root / "versions.json").write_text(json.dumps([{"version": "2.0", "title": "2.0", "aliases": ["latest"]},
                                                    {"version": "1.0", "title": "1.0", "aliases": []}]))
    assert main(["build", str(root), "--base-url", BASE, "--quiet"]) == 0
    return root


def test_validate_on_a_versioned_root_reads_each_versions_file_never_an_aliass(tmp_path):
    """mike copies a version into its alias folder (``latest/``): the copy's llms.txt links the
    version's mirrors again, and would be read as a second link to every page."""
    from sitemapkit.cli import main

    root = versioned_root(tmp_path)
    assert main(["validate", str(root), "--site-dir", str(root), "--strict"]) == 0


def test_validate_checks_the_root_llms_txts_links_to_each_versions(tmp_path):
    """The root llms.txt links the versions' own: each must be a file, and not an alias's copy."""
    root = versioned_root(tmp_path)
    text = (root / "llms.txt").read_text()
    assert linked(text) == [f"{BASE}2.0/llms.txt", f"{BASE}1.0/llms.txt"]
    assert validate([root], site_dir=root) == []
    (root / "llms.txt").write_text(text.replace("1.0/llms.txt", "latest/llms.txt"))
    assert [(p.rule, p.line) for p in validate([root], site_dir=root)] == [("llms-link-index", 11)]
    (root / "llms.txt").write_text(text.replace("1.0/llms.txt", "3.0/llms.txt"))
    assert [(p.rule, p.line) for p in validate([root], site_dir=root)] == [("llms-link-missing", 11)]


def test_the_root_llms_txt_reads_the_versions_as_hostile_input(tmp_path):
    """A version's llms.txt whose heading would make links, another that is a symbolic link,
    and a root redirect out of the deployment: the root's heading stays text, the link is not
    read, the redirect does not choose the default."""
    from sitemapkit.cli import main

    root = versioned_root(tmp_path)
    (root / "2.0" / "llms.txt").write_text("# Evil](javascript:alert(1)) <b>\n\n> two [x](javascript:y)\n"
                                           "> lines\n\n## A\n")
    (root / "1.0" / "llms.txt").unlink()
    (root / "1.0" / "llms.txt").symlink_to("../2.0/llms.txt")
    (root / "index.html").write_text('<meta http-equiv="refresh" content="0; url=https://evil.example/1.0/">')
    assert main(["build", str(root), "--base-url", BASE, "--quiet"]) == 0
    text = (root / "llms.txt").read_text()
    assert linked(text) == [f"{BASE}2.0/llms.txt"]  # 1.0's is a link: not its own file
    rendered = MarkdownIt("commonmark").render(text)
    assert re.findall(r'href="([^"]*)"', rendered) == [f"{BASE}2.0/llms.txt"] and "<b>" not in rendered
    parsed = parse_llms_file(text)
    assert html.unescape(parsed.title) == "Evil](javascript:alert(1)) <b>"
    assert html.unescape(parsed.summary) == "two [x](javascript:y) lines"
    # mike's own redirect, to a version of the deployment, chooses the default
    (root / "1.0" / "llms.txt").unlink()
    (root / "1.0" / "llms.txt").write_text("# One\n\n## A\n")
    (root / "index.html").write_text('<noscript><meta http-equiv="refresh" content="1; url=1.0/" /></noscript>')
    assert main(["build", str(root), "--base-url", BASE, "--quiet"]) == 0
    text = (root / "llms.txt").read_text()
    assert linked(text) == [f"{BASE}1.0/llms.txt", f"{BASE}2.0/llms.txt"]
    assert parse_llms_file(text).title == "One"


REBUILD = """
import sys
from pathlib import Path
from sitemapkit import Page, Settings, generate
site = Path(sys.argv[1])
pages = [Page(url, output=str(site / (url + "index.html" if url == "" or url.endswith("/") else url)))
         for url in sys.argv[2:]]
settings = Settings(base_url="{base}", lastmod=("fingerprint",), llms_txt={{"full": True}}, robots_txt=False)
generate(pages, site, settings, project_dir=site.parent)
print("markdownify" in sys.modules)
"""


def test_an_unchanged_pages_mirror_is_not_converted_again_and_stays_byte_identical(tmp_path):
    """Each mirror is kept beside the manifest with the fingerprint of the content it was made
    from: a rebuild whose pages did not change loads no converter at all, even when the mirror
    files are gone; a changed page, or a kept mirror that is not what sitemapkit keeps, is
    converted again; every file is byte for byte what a fresh build makes."""
    import subprocess
    import sys

    def rebuild(folder, urls):
        done = subprocess.run([sys.executable, "-c", REBUILD.format(base=BASE), str(folder), *urls],
                              capture_output=True, text=True, check=True)
        return done.stdout.split()[-1] == "True"  # whether markdownify was loaded: a page was converted

    def files(folder):
        return {path.relative_to(folder).as_posix(): path.read_bytes() for path in folder.rglob("*")
                if path.is_file() and path.name.endswith((".md", "llms.txt", "llms-full.txt"))}

    pages = {"": ("Home", ""), "a/": ("A <b>", ""), "b.html": ("B", "")}
    built, fresh = tmp_path / "one" / "site", tmp_path / "two" / "site"
    for folder in (built, fresh):
        site(folder, pages)
    assert rebuild(built, list(pages))  # first build: every page converted
    assert not rebuild(built, list(pages))  # nothing changed: none converted
    assert rebuild(fresh, list(pages)) and files(built) == files(fresh) and len(files(built)) == 5

    site(built, {**pages, "a/": ("A changed", "")})  # one page's content changes
    assert rebuild(built, list(pages))
    assert "A changed" in (built / "a" / "index.html.md").read_text()
    assert not rebuild(built, list(pages))
    (built / "b.html.md").unlink()  # removed (MkDocs empties its site folder): written again, not converted
    assert not rebuild(built, list(pages)) and (built / "b.html.md").is_file()
    facts = next((tmp_path / "one" / ".cache" / "sitemapkit").glob("*.facts.sqlite"))
    import sqlite3

    for lie in ("UPDATE mirrors SET text = x'00ff'", "UPDATE mirrors SET source = 'other'"):  # not ours: converted
        with sqlite3.connect(facts) as db:
            db.execute(lie)
        db.close()
        assert rebuild(built, list(pages))
    last = tmp_path / "three" / "site"  # a build from nothing: every mirror converted now
    site(last, {**pages, "a/": ("A changed", "")})
    assert rebuild(last, list(pages)) and files(built) == files(last)
