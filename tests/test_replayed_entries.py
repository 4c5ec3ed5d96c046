"""A page whose written file is unchanged has the entry an earlier build made of it replayed
(issue 36), and the sitemap is still the one a build that read every page writes, byte for
byte, with the same warnings: each thing a kept entry does not fix is asked again (the
settings it was made under, the clock, the files of its images), and a page whose making
warned is made again, so that the warning is told again."""

import json
import os
import re
import shutil
import sqlite3
from contextlib import redirect_stdout
from io import StringIO
from pathlib import Path

import pytest
from written_pages import OLD, page

from sitemapkit.cli import main

pytestmark = pytest.mark.slow  # builds of a hundred pages, a dozen times a test

BASE = "https://site.example/"
PAGES = 60
DAY = 86_400


def make_site(site: Path) -> None:
    for i in range(PAGES):
        page(site, f"notes/note-{i:03d}.html", f"<p>Note {i}.</p><img src='/img/{i % 5}.png'>",
             head=f"<link rel='canonical' href='{BASE}notes/note-{i:03d}.html'>" if i % 3 else "")


def run(site: Path, state: Path, *flags: str) -> tuple[dict, dict[str, bytes]]:
    """``build --format json``: its report, and the bytes of every file it wrote in ``site``."""
    out = StringIO()
    with redirect_stdout(out):
        assert main(["build", str(site), "--base-url", BASE, "--state-file", str(state), "--format", "json",
                     *flags]) == 0
    report = json.loads(out.getvalue())
    return report, {Path(file["path"]).name: Path(file["path"]).read_bytes() for file in report["files"]}


def told(report: dict) -> list[tuple[str, str, str]]:
    return [(problem["page"], problem["rule"], problem["message"]) for problem in report["warnings"]]


def snapshot(folder: Path) -> dict[Path, bytes]:
    return {path: path.read_bytes() for path in folder.iterdir() if path.is_file()}


def put_back(folder: Path, files: dict[Path, bytes]) -> None:
    shutil.rmtree(folder)
    folder.mkdir()
    for path, data in files.items():
        path.write_bytes(data)


def equals_full(site: Path, state: Path, *flags: str) -> dict:
    """Build; then the same build from the same manifest with no kept facts (every page read
    and made): the same files, byte for byte, and the same warnings. Returns the first
    build's report; the state left is the first build's."""
    before = snapshot(state.parent)
    report, files = run(site, state, *flags)
    after = snapshot(state.parent)
    put_back(state.parent, {path: data for path, data in before.items() if not path.name.endswith(".sqlite")})
    full, full_files = run(site, state, *flags)
    assert full["page_facts"]["kept"] == 0
    put_back(state.parent, after)
    assert files == full_files
    assert told(report) == told(full)
    return report


@pytest.fixture
def site(tmp_path: Path, pin_now) -> Path:
    pin_now(1_768_435_200)
    site = tmp_path / "site"
    make_site(site)
    return site


@pytest.fixture
def state(tmp_path: Path) -> Path:
    return tmp_path / "state" / "state.json"


def kept_entries(state: Path) -> list[str | None]:
    [facts] = state.parent.glob("*.facts.sqlite")
    with sqlite3.connect(facts) as db:
        entries = [entry for (entry,) in db.execute("SELECT entry FROM facts ORDER BY path")]
    db.close()
    return entries


def test_an_unchanged_page_is_replayed_and_the_sitemap_is_a_full_builds(site, state):
    run(site, state)
    assert all(entry is not None for entry in kept_entries(state))
    report = equals_full(site, state)
    assert report["page_facts"] == {"kept": PAGES, "read": 0}
    assert {rule for _, rule, _ in told(report)} == {"image-missing"}  # the images have no files: told again


def test_a_changed_setting_makes_every_entry_again(site, state):
    (site / "img").mkdir()
    for i in range(5):
        (site / "img" / f"{i}.png").write_bytes(b"\x89PNG")
    run(site, state)
    assert equals_full(site, state)["images"] == PAGES
    _, files = run(site, state, "--no-images")
    assert b"image:" not in files["sitemap.xml"]
    equals_full(site, state, "--no-images")
    keys = {json.loads(entry)[0] for entry in kept_entries(state)}
    assert len(keys) == 1  # each entry made again under the new settings, kept for the next build
    equals_full(site, state, "--no-images")


def test_a_noindex_page_listed_by_a_setting_is_left_out_when_it_is_turned_off(site, state):
    page(site, "notes/hidden.html", "<p>Hidden.</p>", head="<meta name='robots' content='noindex'>")
    run(site, state, "--include-noindex")
    _, files = run(site, state, "--include-noindex")
    assert b"notes/hidden.html" in files["sitemap.xml"]
    equals_full(site, state)
    _, files = run(site, state)
    assert b"notes/hidden.html" not in files["sitemap.xml"]


def test_the_clock_is_asked_again(site, state, pin_now):
    """A replayed page's lastmod is its HTML's date checked against this build's now: one
    that was past is dropped as in the future when the clock is set back (SOURCE_DATE_EPOCH)."""
    date = "2026-01-20T10:00:00+00:00"  # 5 days after the fixture's now
    page(site, "notes/dated.html", "<p>Dated.</p>", head=f"<meta property='article:modified_time' content='{date}'>")
    pin_now(1_768_435_200 + 10 * DAY)
    run(site, state)
    report = equals_full(site, state)
    assert report["page_facts"] == {"kept": PAGES + 1, "read": 0}
    assert b"<lastmod>2026-01-20T10:00:00Z</lastmod>" in run(site, state)[1]["sitemap.xml"]

    pin_now(1_768_435_200)  # set back: the date is in the future now
    report = equals_full(site, state)
    assert ("notes/dated.html", "lastmod-future") in {(page, rule) for page, rule, _ in told(report)}
    assert b"2026-01-20" not in run(site, state)[1]["sitemap.xml"]

    pin_now(1_768_435_200 + 10 * DAY)  # and forward again: as a full build dates it from this manifest
    equals_full(site, state)


def test_a_news_article_leaves_the_news_sitemap_when_its_window_has_passed(site, state, pin_now):
    news = ("--news", "publication=Site News,language=en,match=blog/*")
    for i in range(3):
        page(site, f"blog/post-{i}.html", f"<p>Post {i}.</p>",
             head="<meta property='article:published_time' content='2026-01-14T12:00:00+00:00'>")
    run(site, state, *news)
    report = equals_full(site, state, *news)
    assert report["news"] == 3
    pin_now(1_768_435_200 + 3 * DAY)  # past the 48 hours of the window
    report = equals_full(site, state, *news)
    assert report["news"] == 0


def test_an_image_file_that_appears_or_goes_is_asked_again(site, state):
    run(site, state)
    report = equals_full(site, state)
    assert [rule for _, rule, _ in told(report)] == ["image-missing"] * PAGES
    (site / "img").mkdir()
    for i in range(5):
        (site / "img" / f"{i}.png").write_bytes(b"\x89PNG")
    report = equals_full(site, state)
    assert report["images"] == PAGES and told(report) == []
    (site / "img" / "3.png").unlink()
    report = equals_full(site, state)
    assert report["images"] == PAGES - PAGES // 5 and len(told(report)) == PAGES // 5


def test_a_page_that_warned_is_made_again_and_warns_again(site, state):
    page(site, "notes/odd.html", "<p>Odd.</p>",
         head=f"<link rel='alternate' hreflang='not a code' href='{BASE}fr/odd.html'>")
    first, _ = run(site, state)
    assert ("notes/odd.html", "hreflang-code") in {(page, rule) for page, rule, _ in told(first)}
    report = equals_full(site, state)
    assert ("notes/odd.html", "hreflang-code") in {(page, rule) for page, rule, _ in told(report)}


def test_pages_whose_kept_entries_differ_by_their_digest_alone_are_each_dated_by_their_own(tmp_path, state,
                                                                                          pin_now):
    """Pages with no image, title or date of their own keep one entry text, their content
    digests beside it (each text is read once): each page is still dated by its own digest, so
    a day later, with nothing changed, no page's lastmod moves."""
    site = tmp_path / "plain"
    for i in range(PAGES):
        page(site, f"plain/p-{i:03d}.html", f"<p>Plain page {i}.</p>")
    pin_now(1_768_435_200)  # 2026-01-15: every page first seen
    run(site, state)
    [facts] = state.parent.glob("*.facts.sqlite")
    with sqlite3.connect(facts) as db:
        kept = db.execute("SELECT count(DISTINCT entry), count(DISTINCT digest) FROM facts").fetchone()
    db.close()
    assert kept == (1, PAGES)
    pin_now(1_768_435_200 + DAY)
    report, files = run(site, state)
    assert report["page_facts"] == {"kept": PAGES, "read": 0}
    assert set(re.findall(rb"<lastmod>([^<]*)</lastmod>", files["sitemap.xml"])) == {b"2026-01-15T00:00:00Z"}
    assert files["sitemap.xml"].count(b"<lastmod>") == PAGES


@pytest.mark.parametrize("change", [
    lambda values, digest: ("not json", digest),
    lambda values, digest: (json.dumps(values[:3]), digest),
    lambda values, digest: (json.dumps(values), digest.encode()),  # (a number would be stored as text)
    lambda values, digest: (json.dumps([values[0], 5, *values[2:]]), digest),
    lambda values, digest: (json.dumps([*values[:4], [["javascript:alert(1)", False]], *values[5:]]), digest),
    lambda values, digest: (json.dumps([*values[:4], [[BASE + "an image.png", False]], *values[5:]]), digest),
    lambda values, digest: (json.dumps([*values[:4], [[BASE + "a.png", "yes"]], *values[5:]]), digest),
    lambda values, digest: (json.dumps([*values[:5], [["not a code", BASE]], *values[6:]]), digest),
    lambda values, digest: (json.dumps([*values[:5], [["fr"]], *values[6:]]), digest),
], ids=["not-json", "short", "digest-bytes", "modified-number", "image-not-http", "image-not-encoded", "image-flag",
        "hreflang", "pair"])
def test_a_kept_entry_of_the_wrong_shape_is_ignored_with_a_warning(site, state, change):
    run(site, state)
    [facts] = state.parent.glob("*.facts.sqlite")
    with sqlite3.connect(facts) as db:
        path, entry, digest = db.execute(
            "SELECT path, entry, digest FROM facts ORDER BY path LIMIT 1 OFFSET 7").fetchone()
        db.execute("UPDATE facts SET entry = ?, digest = ? WHERE path = ?", (*change(json.loads(entry), digest), path))
    db.close()
    before = snapshot(state.parent)
    report, files = run(site, state)
    assert [problem["message"] for problem in report["warnings"] if problem["rule"] == "state-corrupt"] == [
        "kept page facts ignored and rebuilt: a page's entry has the wrong shape; every page is read again"]
    put_back(state.parent, {path: data for path, data in before.items() if not path.name.endswith(".sqlite")})
    assert run(site, state)[1] == files  # what a build with no kept facts writes


def test_an_entry_made_under_another_key_is_made_again_without_a_warning(site, state):
    """Another version of sitemapkit, or other settings: not a fault, nothing told."""
    run(site, state)
    [facts] = state.parent.glob("*.facts.sqlite")
    with sqlite3.connect(facts) as db:
        rows = db.execute("SELECT path, entry FROM facts").fetchall()
        db.executemany("UPDATE facts SET entry = ? WHERE path = ?",
                       [(json.dumps(["0" * 16, *json.loads(entry)[1:]]), path) for path, entry in rows])
    db.close()
    report = equals_full(site, state)
    assert {rule for _, rule, _ in told(report)} == {"image-missing"}
    assert {json.loads(entry)[0] for entry in kept_entries(state)} != {"0" * 16}


def adapter_build(site: Path, project: Path, lang: str, images: tuple[str, ...]) -> bytes:
    """A build of ``site``'s pages as an adapter hands them (Sphinx's: a language, the images
    its doctree names), through sitemapkit's API."""
    from sitemapkit import Page, Settings, generate

    pages = [Page(url=path.relative_to(site).as_posix(), output=path, lang=lang, images=images)
             for path in sorted(site.rglob("*.html"))]
    generate(pages, site, Settings(base_url=BASE), project_dir=project)
    return (site / "sitemap.xml").read_bytes()


def test_an_entry_is_replayed_only_for_the_language_and_images_it_was_made_for(tmp_path, pin_now):
    """What an adapter says of a page beside its file is kept with the entry and compared: a
    page whose language or generator's images differ is made again, as a full build makes it."""
    pin_now(1_768_435_200)
    site = tmp_path / "site"
    page(site, "a.html", "<p>A.</p><img src='one.png'><a href='two.png'>Two</a>",
         head=f"<link rel='alternate' hreflang='fr' href='{BASE}fr/a.html'>")
    (site / "one.png").write_bytes(b"\x89PNG")
    (site / "two.png").write_bytes(b"\x89PNG")
    adapter_build(site, tmp_path, "en", ())
    assert b'hreflang="en"' in adapter_build(site, tmp_path, "en", ())
    assert b'hreflang="de"' in adapter_build(site, tmp_path, "de", ())
    assert b"two.png" not in adapter_build(site, tmp_path, "de", ())
    assert b"two.png" in adapter_build(site, tmp_path, "de", (BASE + "two.png",))


def test_a_replayed_page_keeps_its_title_for_sitemap_html(site, state):
    target = site / "notes" / "titled.html"
    target.write_text("<!doctype html><html lang='en'><head><title>A Distinct Title</title></head>"
                      "<body><main><p>Titled.</p></main></body></html>", encoding="utf-8")
    os.utime(target, ns=(OLD, OLD))
    run(site, state, "--html-sitemap")
    report = equals_full(site, state, "--html-sitemap")
    assert report["page_facts"] == {"kept": PAGES + 1, "read": 0}
    assert b"A Distinct Title" in run(site, state, "--html-sitemap")[1]["sitemap.html"]
