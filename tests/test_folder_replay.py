"""A second ``sitemapkit build`` of a folder whose files are all unchanged replays its pages'
entries together, from one row of the facts file (issue 36), and writes the sitemap and the
manifest a build that read every page writes, byte for byte: whatever changed in a folder
(a page, an image file, robots.txt, the manifest, the row itself) sends its pages the
per-page way, or asks again what the row does not fix."""

import json
import sqlite3
from contextlib import redirect_stdout
from io import StringIO
from pathlib import Path

import pytest
from written_pages import page

from sitemap_checks import assert_valid_tree
from sitemapkit.cli import main

pytestmark = pytest.mark.slow  # builds of a few dozen pages, several times

BASE = "https://site.example/"
FOLDERS = ("alpha", "beta", "gamma")


def make_site(site: Path) -> None:
    """Three folders of 12 pages each, with the same names: alpha's pages show an image each
    (its file there), beta's are dated by their fingerprint alone, gamma's by their HTML's date."""
    for i in range(12):
        page(site, f"alpha/page-{i:02d}.html", f"<p>Alpha {i}.</p><img src='/img/{i}.png'>")
        (site / "img").mkdir(exist_ok=True)
        (site / "img" / f"{i}.png").write_bytes(b"\x89PNG")
        page(site, f"beta/page-{i:02d}.html", f"<p>Beta {i}.</p>")
        page(site, f"gamma/page-{i:02d}.html", f"<p>Gamma {i}.</p>",
             head=f"<meta property='article:modified_time' content='2024-03-{i + 1:02d}T10:00:00+02:00'>")


def build(site: Path, state: Path, *options: str) -> dict:
    """``sitemapkit build --format json``: its report."""
    out = StringIO()
    with redirect_stdout(out):
        assert main(["build", str(site), "--base-url", BASE, "--state-file", str(state), "--format", "json",
                     *options]) == 0
    return json.loads(out.getvalue())


def facts_file(state: Path) -> Path:
    [facts] = state.parent.glob("*.facts.sqlite")
    return facts


def manifest(state: Path) -> bytes:
    [path] = state.parent.glob("state-*.json")
    return path.read_bytes()


def equals_full(site: Path, state: Path, *options: str) -> dict:
    """A build, then the same build from the same manifest with no facts kept: the same
    sitemap, valid, and the same manifest. The first build's report."""
    kept = {path: path.read_bytes() for path in state.parent.iterdir()}
    report = build(site, state, *options)
    sitemap, written = (site / "sitemap.xml").read_bytes(), manifest(state)
    assert_valid_tree(site, BASE)
    for path in state.parent.iterdir():
        path.unlink()
    for path, data in kept.items():
        path.write_bytes(data)
    facts_file(state).unlink()
    full = build(site, state, *options)
    assert full["page_facts"]["kept"] == 0
    assert (site / "sitemap.xml").read_bytes() == sitemap
    assert manifest(state) == written
    return report


@pytest.fixture
def built(tmp_path: Path, pin_now) -> tuple[Path, Path]:
    """The site built twice (the second keeps each folder's row), the clock a day on each time."""
    pin_now(1_768_435_200)
    site, state = tmp_path / "site", tmp_path / "state" / "state.json"
    make_site(site)
    assert build(site, state)["page_facts"]["read"] == 36
    pin_now(1_768_521_600)
    assert build(site, state)["page_facts"]["kept"] == 36
    pin_now(1_768_608_000)
    return site, state


def test_an_unchanged_folder_is_replayed_together(built):
    site, state = built
    report = equals_full(site, state)
    assert report["page_facts"] == {"kept": 36, "read": 0, "folders": 3}
    assert report["lastmod_sources"] == {"fingerprint": 24, "meta": 12}
    assert report["urls"] == 36 and report["images"] == 12
    sitemap = (site / "sitemap.xml").read_text()
    assert "<lastmod>2024-03-05T10:00:00+02:00</lastmod>" in sitemap


def test_one_page_changed_sends_its_folder_the_per_page_way(built):
    site, state = built
    page(site, "gamma/page-04.html", "<p>Gamma 4, rewritten.</p>",
         head="<meta property='article:modified_time' content='2024-06-01T10:00:00+02:00'>")
    report = equals_full(site, state)
    assert report["page_facts"] == {"kept": 35, "read": 1, "folders": 2}
    assert "<lastmod>2024-06-01T10:00:00+02:00</lastmod>" in (site / "sitemap.xml").read_text()
    assert build(site, state)["page_facts"] == {"kept": 36, "read": 0, "folders": 3}  # its row kept again


def test_a_page_changed_after_its_folder_was_replayed_is_read_alone(built):
    """A build that reads a page of one folder forgets the facts of the pages it did not see:
    those of a folder replayed together are seen, so the next change in that folder is read
    alone, its other pages made from their own rows."""
    site, state = built
    page(site, "beta/page-05.html", "<p>Beta 5, rewritten.</p>")
    assert build(site, state)["page_facts"] == {"kept": 35, "read": 1, "folders": 2}  # alpha, gamma together
    page(site, "alpha/page-02.html", "<p>Alpha 2, rewritten.</p><img src='/img/2.png'>")
    report = equals_full(site, state)
    assert report["page_facts"] == {"kept": 35, "read": 1, "folders": 2}  # not alpha's 12 read again


def test_the_rows_of_pages_gone_are_forgotten_those_replayed_together_kept(built):
    site, state = built
    (site / "beta" / "page-03.html").unlink()
    assert build(site, state)["page_facts"] == {"kept": 35, "read": 0, "folders": 2}
    with sqlite3.connect(facts_file(state)) as db:
        paths = {Path(path).relative_to(site).as_posix() for (path,) in db.execute("SELECT path FROM facts")}
    db.close()
    assert "beta/page-03.html" not in paths
    assert len(paths) == 35 and {f"alpha/page-{i:02d}.html" for i in range(12)} <= paths


def test_a_page_added_or_removed(built):
    site, state = built
    page(site, "alpha/page-99.html", "<p>New.</p>")
    (site / "beta" / "page-03.html").unlink()
    report = equals_full(site, state)
    assert report["page_facts"] == {"kept": 35, "read": 1, "folders": 1}
    sitemap = (site / "sitemap.xml").read_text()
    assert "alpha/page-99.html" in sitemap and "beta/page-03.html" not in sitemap


def test_an_image_file_removed_leaves_its_page_entry(built):
    site, state = built
    (site / "img" / "3.png").unlink()
    report = equals_full(site, state)
    assert report["page_facts"] == {"kept": 36, "read": 0, "folders": 3}
    assert report["images"] == 11
    assert [warning["rule"] for warning in report["warnings"]] == ["image-missing"]
    assert "img/3.png" not in (site / "sitemap.xml").read_text()


def test_robots_txt_disallowing_a_folder(built):
    site, state = built
    (site / "robots.txt").write_text("User-agent: *\nDisallow: /beta/\n", encoding="utf-8")
    report = equals_full(site, state)
    assert report["page_facts"] == {"kept": 24, "read": 0}
    assert report["left_out"] == {"robots.txt": 12}
    assert "beta/" not in (site / "sitemap.xml").read_text()


def test_the_manifest_deleted(built):
    """No manifest: the pages dated by their fingerprint have no lastmod, as a full build
    gives them; those dated by their HTML are replayed with their folder."""
    site, state = built
    [path] = state.parent.glob("state-*.json")
    path.unlink()
    report = equals_full(site, state)
    assert report["page_facts"] == {"kept": 36, "read": 0, "folders": 1}
    assert report["lastmod_sources"] == {"none": 24, "meta": 12}


def test_the_manifest_edited(built):
    """A page's first-seen time edited in the manifest: its lastmod is the edited one, as a
    full build gives it (the row keeps the source, which is asked again, not the date)."""
    site, state = built
    [path] = state.parent.glob("state-*.json")
    text = path.read_text()
    loc = f'"{BASE}beta/page-05.html": ['
    start = text.index(loc) + len(loc)
    record = json.loads("[" + text[start:text.index("]", start)] + "]")
    record[1] = "2025-01-02T03:04:05Z"
    path.write_text(text[:start] + json.dumps(record)[1:-1] + text[text.index("]", start):])
    report = equals_full(site, state)
    assert report["page_facts"] == {"kept": 36, "read": 0, "folders": 3}
    assert "<lastmod>2025-01-02T03:04:05Z</lastmod>" in (site / "sitemap.xml").read_text()


@pytest.mark.parametrize("column, value", [
    ("entries", "[[1, 2, 3, 4]]"),
    ("entries", "not json"),
    ("files", "x'00'"),
    ("made", "'soon'"),
])
def test_a_hostile_folder_row(built, column, value):
    site, state = built
    with sqlite3.connect(facts_file(state)) as db:
        db.execute(f"UPDATE folders SET {column} = {value if column in ('made', 'files') else '?'}"
                   f" WHERE run LIKE '%beta/page-00.html'", () if column in ("made", "files") else (value,))
    db.close()
    report = equals_full(site, state)
    assert [warning["rule"] for warning in report["warnings"]] == ["state-corrupt"]


@pytest.mark.parametrize("files", [
    '[["page-00.html", "big", 0, 0]]',
    json.dumps([[f"page-{i:02d}.html", "big", 0, 0] for i in range(12)]),
    "",
])
def test_a_folder_row_of_other_files(built, files):
    """A row's files are compared whole with the run's, never read: files that are not the
    run's (any text) only send beta's pages the per-page way."""
    site, state = built
    with sqlite3.connect(facts_file(state)) as db:
        db.execute("UPDATE folders SET files = ? WHERE run LIKE '%beta/page-00.html'", (files,))
    db.close()
    report = equals_full(site, state)
    assert report["page_facts"] == {"kept": 36, "read": 0, "folders": 2}
    assert report["warnings"] == []


def test_a_row_for_another_folder(built):
    """Alpha's row put in beta's place (the same names, other files): beta's pages go the
    per-page way, as they are."""
    site, state = built
    with sqlite3.connect(facts_file(state)) as db:
        [row] = db.execute("SELECT key, made, files, entries FROM folders WHERE run LIKE '%alpha/page-00.html'")
        db.execute("UPDATE folders SET key = ?, made = ?, files = ?, entries = ?"
                   " WHERE run LIKE '%beta/page-00.html'", row)
    db.close()
    report = equals_full(site, state)
    assert report["page_facts"] == {"kept": 36, "read": 0, "folders": 2}
    assert report["images"] == 12


def test_a_folder_past_the_bound_is_replayed_page_by_page(built, monkeypatch):
    """Memory stays flat: a folder of more pages than a run holds is not replayed together."""
    from sitemapkit.listing import entries

    site, state = built
    monkeypatch.setattr(entries, "_RUN_MOST", 11)
    report = equals_full(site, state)
    assert report["page_facts"] == {"kept": 36, "read": 0}
    monkeypatch.setattr(entries, "_RUN_MOST", 12)  # (the build before kept no rows)
    assert build(site, state)["page_facts"] == {"kept": 36, "read": 0}
    assert build(site, state)["page_facts"] == {"kept": 36, "read": 0, "folders": 3}


def test_exclude_patterns_are_asked_of_each_page(built):
    """A pattern that matches a page it lets through (a negation) matched something: a folder
    replayed together does not say it matched nothing."""
    site, state = built
    options = ("--exclude", "!alpha/page-03.html")
    build(site, state, *options)
    report = build(site, state, *options)
    assert report["page_facts"] == {"kept": 36, "read": 0, "folders": 3}
    assert "exclude-unmatched" not in {warning["rule"] for warning in report["warnings"]}


def test_a_site_of_pretty_urls_is_replayed_by_folder(tmp_path, pin_now):
    """One page a folder (``a/index.html``, as MkDocs, Hugo and most generators write pages
    served at ``a/``): the indexes of a folder's subfolders are replayed together with its own
    files, those before and those after its own index (which goes with its parent's) as two runs."""
    site, state = tmp_path / "site", tmp_path / "state" / "state.json"
    page(site, "index.html", "<p>Home.</p>")
    for name in ("about", "blog", "contact"):
        page(site, f"{name}/index.html", f"<p>{name}.</p>")
    for name in ("a-first", "b-second", "index", "x-later", "y-last"):
        page(site, f"blog/{name}.html" if name != "index" else "blog/index.html", f"<p>{name}.</p>")
    for post in range(5):
        page(site, f"blog/post-{post}/index.html", f"<p>Post {post}.</p><img src='/img/{post}.png'>")
    (site / "img").mkdir()
    for post in range(5):
        (site / "img" / f"{post}.png").write_bytes(b"\x89PNG")
    for day in range(2):
        pin_now(1_768_435_200 + day * 86_400)
        build(site, state)
    pin_now(1_768_608_000)
    report = equals_full(site, state)
    assert report["urls"] == 13
    # blog's a-first, b-second; its x-later, y-last with its posts' indexes (about/, blog/ and
    # contact/, parted by what blog/ holds, each alone)
    assert report["page_facts"] == {"kept": 13, "read": 0, "folders": 2}


def test_a_replayed_run_with_changefreq_priority_and_an_image_url_to_escape(tmp_path, pin_now):
    """A replayed run's entries carry the options' changefreq and priority, and image URLs
    as the sitemap escapes them (``&`` in a query): the bytes of a build that read each page."""
    site, state = tmp_path / "site", tmp_path / "state" / "state.json"
    (site / "img").mkdir(parents=True)
    for i in range(4):
        page(site, f"docs/page-{i}.html", f"<p>Page {i}.</p><img src='/img/{i}.png?w=1&amp;h=2'>")
        (site / "img" / f"{i}.png").write_bytes(b"\x89PNG")
    config = tmp_path / "sitemapkit.toml"
    config.write_text('changefreq = "weekly"\npriority = 0.7\n')
    for day in range(2):
        pin_now(1_768_435_200 + day * 86_400)
        build(site, state, "--config", str(config))
    pin_now(1_768_608_000)
    report = equals_full(site, state, "--config", str(config))
    assert report["page_facts"] == {"kept": 4, "read": 0, "folders": 1}
    assert report["images"] == 4
    assert b"<changefreq>weekly</changefreq><priority>0.7</priority><image:image><image:loc>" \
           b"https://site.example/img/0.png?w=1&amp;h=2</image:loc>" in (site / "sitemap.xml").read_bytes()


def test_a_replayed_run_between_pages_whose_alternates_wait_for_each_other(tmp_path, pin_now):
    """An English page names its French version, listed after a folder replayed together: the
    replayed entries pass the return-link check while the English page's link waits, and the
    sitemap is a full build's, the pair's alternates kept."""
    site, state = tmp_path / "site", tmp_path / "state" / "state.json"

    def pair(lang: str, other: str) -> str:
        return (f"<link rel='alternate' hreflang='{lang}' href='{BASE}{lang}/index.html'>"
                f"<link rel='alternate' hreflang='{other}' href='{BASE}{other}/index.html'>")

    page(site, "en/index.html", "<p>English.</p>", head=pair("en", "zz"))
    for i in range(6):
        page(site, f"middle/page-{i}.html", f"<p>Middle {i}.</p>")
    page(site, "zz/index.html", "<p>Other.</p>", head=pair("zz", "en"))
    for day in range(2):
        pin_now(1_768_435_200 + day * 86_400)
        build(site, state)
    pin_now(1_768_608_000)
    report = equals_full(site, state)
    assert report["page_facts"]["folders"] == 1  # middle/
    assert "hreflang-no-return" not in {warning["rule"] for warning in report["warnings"]}
    assert (site / "sitemap.xml").read_text().count("<xhtml:link") == 4
