"""A build after a few pages changed writes the sitemap a build that read every page writes,
byte for byte, while the pages the generator did not write again are not read again: their
facts are kept beside the manifest, keyed by each file's size, modification time and inode
(issue 36)."""

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from quickstarts import pelican_quickstart

from sitemapkit.cli import main

pytestmark = pytest.mark.slow  # sphinx-build runs, and builds of a few hundred files

BASE = "https://site.example/"
OLD = 1_700_000_000_000_000_000  # 2023-11-14: files written long before any build


def page(site: Path, path: str, body: str, head: str = "") -> None:
    target = site / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(f"<!doctype html><html lang='en'><head><title>{path}</title>{head}</head>"
                      f"<body><main><h1>{path}</h1>{body}</main></body></html>", encoding="utf-8")


def make_site(site: Path) -> None:
    for i in range(200):
        page(site, f"notes/note-{i:03d}.html", f"<p>Note {i}.</p><img src='/img/{i}.png'>",
             head=f"<link rel='canonical' href='{BASE}notes/note-{i:03d}.html'>" if i % 3 else "")
    for path in site.rglob("*.html"):
        os.utime(path, ns=(OLD, OLD))


def build(site: Path, state: Path) -> bytes:
    assert main(["build", str(site), "--base-url", BASE, "--state-file", str(state), "--quiet"]) == 0
    return (site / "sitemap.xml").read_bytes()


@pytest.fixture
def built(tmp_path: Path, pin_now) -> tuple[Path, Path, bytes]:
    """A site of 200 pages, built once: the site, its state_file, its sitemap."""
    pin_now(1_768_435_200)
    site, state = tmp_path / "site", tmp_path / "state" / "state.json"
    make_site(site)
    return site, state, build(site, state)


def facts_files(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.facts.sqlite"))


def test_cli_second_build_equals_a_build_that_read_every_page(built, pin_now):
    site, state, _ = built
    assert len(facts_files(state.parent)) == 1
    kept = {path: path.read_bytes() for path in state.parent.iterdir()}

    # one page changes (now noindex), one is added, one goes away
    page(site, "notes/note-007.html", "<p>Note 7, rewritten.</p>", head="<meta name='robots' content='noindex'>")
    page(site, "notes/new.html", "<p>New.</p>")
    (site / "notes" / "note-100.html").unlink()
    pin_now(1_768_521_600)
    incremental = build(site, state)

    # the same build from the same manifest, with no kept facts: every page read
    for path, data in kept.items():
        path.write_bytes(data)
    for path in facts_files(state.parent):
        path.unlink()
    full = build(site, state)
    assert incremental == full
    assert b"note-007" not in full and b"notes/new.html" in full and b"note-100" not in full


def test_a_page_whose_size_time_and_inode_are_unchanged_is_not_read_again(built):
    site, state, _ = built
    assert b"note-050" in build(site, state)

    # rewritten in place, same size, time put back: as git's index, the build takes it as unchanged
    target = site / "notes" / "note-050.html"
    text = target.read_text()
    with target.open("r+") as handle:
        handle.write(text.replace("<title>", "<meta name='robots' content='noindex'><title>", 1)[: len(text)])
    os.utime(target, ns=(OLD, OLD))
    assert b"note-050" in build(site, state)

    # its time moved: read again, now noindex
    os.utime(target, ns=(OLD + 10**9, OLD + 10**9))
    assert b"note-050" not in build(site, state)


def test_kept_facts_that_are_not_sitemapkits_are_ignored_with_a_warning(built, capsys):
    site, state, first = built
    [facts] = facts_files(state.parent)
    facts.write_bytes(b"not a database" * 100)
    assert main(["build", str(site), "--base-url", BASE, "--state-file", str(state)]) == 0
    assert "state-corrupt" in capsys.readouterr().err
    assert (site / "sitemap.xml").read_bytes().count(b"<url>") == first.count(b"<url>")
    assert build(site, state).count(b"<url>") == first.count(b"<url>")  # and kept again


@pytest.mark.parametrize("field, value", [(1, 5), (6, ["2026-01-01"]), (7, {"digest": 1})])
def test_kept_facts_of_the_wrong_shape_are_ignored_with_a_warning(built, capsys, field, value):
    """A kept canonical URL, date or digest that is not text (nor null) is no fact of this
    sitemapkit's: the file is started again and every page read. (The row's kept entry is
    taken away: a page with one is replayed, its facts not asked.)"""
    import json
    import sqlite3

    site, state, first = built
    [facts] = facts_files(state.parent)
    with sqlite3.connect(facts) as db:
        path, text = db.execute("SELECT path, facts FROM facts LIMIT 1").fetchone()
        values = json.loads(text)
        values[field] = value
        db.execute("UPDATE facts SET facts = ?, entry = NULL WHERE path = ?", (json.dumps(values), path))
    db.close()
    assert main(["build", str(site), "--base-url", BASE, "--state-file", str(state)]) == 0
    assert "a page's facts have the wrong shape" in capsys.readouterr().err
    assert (site / "sitemap.xml").read_bytes().count(b"<url>") == first.count(b"<url>")


SPHINX_NOW = "1795262400"


def sphinx_project(src: Path) -> None:
    src.mkdir(parents=True)
    (src / "conf.py").write_text('project = "T"\nhtml_baseurl = "https://docs.example.org/"\n'
                                 'extensions = ["sitemapkit_sphinx"]\nexclude_patterns = ["_build"]\n')
    (src / "index.rst").write_text("Home\n====\n\n.. toctree::\n   :glob:\n\n   doc-*\n")
    for i in range(30):
        (src / f"doc-{i:02d}.rst").write_text(f"Doc {i}\n======\n\nText of document {i}.\n")


def sphinx(src: Path, *args: str) -> bytes:
    out = src / "_build" / "html"
    subprocess.run([sys.executable, "-m", "sphinx", "-q", "-b", "html", *args, str(src), str(out)], check=True,
                   env={**os.environ, "SOURCE_DATE_EPOCH": SPHINX_NOW}, cwd=src)
    return (out / "sitemap.xml").read_bytes()


def test_sphinx_incremental_build_equals_a_full_one(tmp_path):
    src = tmp_path / "docs"
    sphinx_project(src)
    sphinx(src)
    [facts] = facts_files(src)
    kept = {path: path.read_bytes() for path in facts.parent.iterdir()}
    before = {path: path.stat().st_mtime_ns for path in (src / "_build" / "html").glob("doc-*.html")}

    with (src / "doc-07.rst").open("a") as doc:
        doc.write("\n.. image:: https://img.example.org/new.png\n")
    incremental = sphinx(src)
    rewritten = [path.name for path, mtime in before.items() if path.stat().st_mtime_ns != mtime]
    assert rewritten == ["doc-07.html"]  # Sphinx wrote only the changed document

    for path, data in kept.items():
        path.write_bytes(data)
    facts.unlink()
    full = sphinx(src, "-E")  # a fresh environment: every document written and read
    assert incremental == full
    assert b"https://img.example.org/new.png" in full


def rewritten_by(src: Path, change) -> list[str]:
    """The documents' HTML files Sphinx wrote again in the incremental build after ``change()``."""
    before = {path: path.stat().st_mtime_ns for path in (src / "_build" / "html").glob("doc-*.html")}
    change()
    sphinx(src)
    return sorted(path.name for path, mtime in before.items() if path.stat().st_mtime_ns != mtime)


def test_sphinx_a_document_not_written_again_is_not_read_again(tmp_path):
    src = tmp_path / "docs"
    sphinx_project(src)
    sphinx(src)
    # doc-03's source and page dated a minute back (a page read in the second it was written is
    # read again, see page_facts), then a build that writes nothing and keeps its facts
    target = src / "_build" / "html" / "doc-03.html"
    earlier = time.time_ns() - 60 * 10**9
    for path in (src / "doc-03.rst", target):
        os.utime(path, ns=(earlier, earlier))
    sphinx(src)
    # doc-03.html made noindex in place, its size, time and inode kept: only a read would see it
    status, data = target.stat(), target.read_bytes()
    with target.open("r+b") as handle:  # the end of the page cut to keep its size
        handle.write(data.replace(b"<title>", b"<meta name='robots' content='noindex'><title>", 1)[: len(data)])
    os.utime(target, ns=(status.st_atime_ns, status.st_mtime_ns))

    def change() -> None:
        with (src / "doc-07.rst").open("a") as doc:
            doc.write("\nMore text.\n")

    assert rewritten_by(src, change) == ["doc-07.html"]
    assert b"doc-03.html" in (src / "_build" / "html" / "sitemap.xml").read_bytes()  # kept facts, not read

    # its time moved: read again, and left out as noindex
    os.utime(target, ns=(status.st_atime_ns, status.st_mtime_ns + 10**9))
    assert b"doc-03.html" not in sphinx(src)


def test_sphinx_a_changed_documents_new_facts_land(tmp_path):
    src = tmp_path / "docs"
    sphinx_project(src)
    first = sphinx(src)
    assert b"doc-07.html" in first and b"img.example.org" not in first

    def change() -> None:
        with (src / "doc-07.rst").open("a") as doc:
            doc.write("\n.. meta::\n   :robots: noindex\n")
        with (src / "doc-08.rst").open("a") as doc:
            doc.write("\n.. image:: https://img.example.org/eight.png\n")

    assert rewritten_by(src, change) == ["doc-07.html", "doc-08.html"]
    incremental = (src / "_build" / "html" / "sitemap.xml").read_bytes()
    assert b"doc-07.html" not in incremental  # now noindex
    assert b"<image:loc>https://img.example.org/eight.png</image:loc>" in incremental


def test_sphinx_pages_written_under_another_suffix_with_no_document_read_again(tmp_path):
    """``html_file_suffix`` changes where every document is written, and Sphinx reads none of
    them again: each is listed at its new file, none at the old one (removed here)."""
    src = tmp_path / "docs"
    sphinx_project(src)
    sphinx(src)
    for path in (src / "_build" / "html").glob("doc-*.html"):
        path.unlink()
    listed = sphinx(src, "-D", "html_file_suffix=.htm")
    assert listed.count(b".htm</loc>") == 31 and b".html</loc>" not in listed


def test_sphinx_links_under_another_suffix_with_no_document_read_again(tmp_path):
    """``html_link_suffix`` changes every document's link, and Sphinx reads none of them again:
    each is listed at its new link, as a full build lists it."""
    src = tmp_path / "docs"
    sphinx_project(src)
    sphinx(src)
    incremental = re.findall(rb"<loc>(.*?)</loc>", sphinx(src, "-D", "html_link_suffix=.htm"))
    assert len(incremental) == 31 and all(loc.endswith(b".htm") for loc in incremental)
    shutil.rmtree(src / "_build")  # (its lastmods are a first build's: none)
    assert incremental == re.findall(rb"<loc>(.*?)</loc>", sphinx(src, "-D", "html_link_suffix=.htm"))


def test_kept_facts_are_the_manifests_own(built, tmp_path):
    """The facts file lives and goes with the manifest: another site's build keeps its own."""
    one, state, _ = built
    two = tmp_path / "two"
    shutil.copytree(one, two)
    build(two, state)
    assert len(facts_files(state.parent)) == 2


def facts_counts(site: Path, state: Path, base: str = BASE) -> dict:
    """What ``build --format json`` says of the written pages: facts kept, pages read."""
    import json
    from contextlib import redirect_stdout
    from io import StringIO

    out = StringIO()
    with redirect_stdout(out):
        assert main(["build", str(site), "--base-url", base, "--state-file", str(state), "--format", "json"]) == 0
    return json.loads(out.getvalue())


def test_the_report_counts_pages_kept_and_read(built):
    site, state, _ = built
    assert facts_counts(site, state)["page_facts"] == {"kept": 200, "read": 0}
    page(site, "notes/note-007.html", "<p>Note 7, rewritten.</p>")
    assert facts_counts(site, state)["page_facts"] == {"kept": 199, "read": 1}


def test_kept_facts_of_another_sitemapkit_version_are_read_again(built):
    """Another version's reader may have read a page otherwise: every page is read again, told
    as a note, not a warning (an upgrade is no fault: a strict build stays green), and the
    facts kept anew."""
    import sqlite3

    site, state, _ = built
    kept = {path: path.read_bytes() for path in state.parent.iterdir()}
    [facts] = facts_files(state.parent)
    with sqlite3.connect(facts) as db:
        db.execute("UPDATE about SET value = 'sitemapkit page facts 1, sitemapkit 0.0.1' WHERE key = 'format'")
    db.close()
    report = facts_counts(site, state)
    assert report["page_facts"] == {"kept": 0, "read": 200}
    assert {warning["rule"] for warning in report["warnings"]} == {"image-missing"}
    assert [note["rule"] for note in report["notes"]].count("state-facts-rebuilt") == 1
    again = (site / "sitemap.xml").read_bytes()
    assert facts_counts(site, state)["page_facts"] == {"kept": 200, "read": 0, "folders": 1}

    for path, data in kept.items():  # the same build with no facts at all
        path.write_bytes(data)
    facts.unlink()
    build(site, state)
    assert (site / "sitemap.xml").read_bytes() == again


def test_another_sites_kept_facts_are_not_taken(built):
    """The same folder built for another URL (a staging build): the other site's facts put in
    this one's place name other URLs, and every page is read again; the sitemap is the one a
    build that read every page writes."""
    site, state, _ = built
    other = "https://staging.site.example/"
    assert facts_counts(site, state, other)["page_facts"] == {"kept": 0, "read": 200}
    by_age = sorted(facts_files(state.parent), key=lambda path: path.stat().st_mtime_ns)
    theirs, mine = by_age  # this site's facts were written last
    kept = {path: path.read_bytes() for path in state.parent.iterdir()}

    mine.write_bytes(theirs.read_bytes())
    assert facts_counts(site, state, other)["page_facts"] == {"kept": 0, "read": 200}
    taken = (site / "sitemap.xml").read_bytes()
    assert b"<loc>https://staging.site.example/notes/" in taken and BASE.encode() not in taken

    for path, data in kept.items():  # the same build with no facts at all
        path.write_bytes(data)
    mine.unlink()
    assert facts_counts(site, state, other)["page_facts"] == {"kept": 0, "read": 200}
    assert (site / "sitemap.xml").read_bytes() == taken


@pytest.mark.parametrize("batch, in_memory", [(1000, 20_000), (16, 50)])
def test_kept_facts_written_a_batch_at_a_time_and_pruned(built, monkeypatch, batch, in_memory):
    """The rows of the pages read are written a batch at a time, and the paths seen are held in
    a set only while they are few, then in the file's temporary table: with both bounds below
    the site's 200 pages, every page is kept, and the rows of the pages gone are forgotten."""
    import sqlite3

    from sitemapkit.lastmod import page_facts

    monkeypatch.setattr(page_facts, "_BATCH", batch)
    monkeypatch.setattr(page_facts, "_SEEN_IN_MEMORY", in_memory)
    site, state, _ = built
    [facts] = facts_files(state.parent)
    for path in facts.parent.iterdir():  # a first build, under these bounds
        path.unlink()
    assert facts_counts(site, state)["page_facts"] == {"kept": 0, "read": 200}
    assert facts_counts(site, state)["page_facts"] == {"kept": 200, "read": 0}
    for i in range(30):
        (site / "notes" / f"note-{i:03d}.html").unlink()
    assert facts_counts(site, state)["page_facts"] == {"kept": 170, "read": 0}
    with sqlite3.connect(facts) as db:
        paths = {Path(path).name for (path,) in db.execute("SELECT path FROM facts")}
    db.close()
    assert paths == {f"note-{i:03d}.html" for i in range(30, 200)}

PELICAN_BASE = "https://blog.example.com/"
POSTS = {
    "hello.md": "Title: Hello\nDate: 2025-03-01 10:00\nCategory: News\nTags: intro\n\nHi.",
    "later.md": "Title: Later\nDate: 2025-06-10 09:00\nModified: 2025-07-01 12:00\nCategory: News\n\nMore.",
    "pages/about.md": "Title: About\n\nAbout us.",
}


def pelican(project: Path, now: str) -> bytes:
    subprocess.run([Path(sys.executable).parent / "pelican", "content"], cwd=project, check=True,
                   capture_output=True, env={**os.environ, "SOURCE_DATE_EPOCH": now}, timeout=300)
    return (project / "output" / "sitemap.xml").read_bytes()


def test_pelican_build_from_its_content_cache_equals_a_full_one(tmp_path):
    project = pelican_quickstart(tmp_path / "blog", Path(sys.executable).parent, PELICAN_BASE, POSTS)
    with open(project / "pelicanconf.py", "a", encoding="utf-8") as conf:  # as a user turns the cache on
        conf.write(f'SITEURL = "{PELICAN_BASE.rstrip("/")}"\nPLUGINS = ["sitemapkit_pelican"]\n'
                   "CACHE_CONTENT = True\nLOAD_CONTENT_CACHE = True\n")
    pelican(project, SPHINX_NOW)
    state = project / ".cache" / "sitemapkit"
    kept = {path: path.read_bytes() for path in state.iterdir()}
    assert any((project / "cache").iterdir())  # Pelican kept its readers' content

    later = project / "content" / "later.md"
    later.write_text(POSTS["later.md"].replace("2025-07-01 12:00", "2025-09-02 08:00").replace("More.", "More, again."))
    incremental = pelican(project, "1795348800")

    # the same build from the same manifest, with no content cache and no kept facts
    shutil.rmtree(project / "cache")
    shutil.rmtree(project / "output")
    shutil.rmtree(state)
    state.mkdir()
    for path, data in kept.items():
        path.write_bytes(data)
    for path in facts_files(state):
        path.unlink()
    full = pelican(project, "1795348800")
    assert incremental == full
    assert b"<lastmod>2025-09-02T" in full and b"<lastmod>2025-07-01T" not in full


MKDOCS_BASE = "https://docs.example/"


def mkdocs_site(project: Path) -> Path:
    """An MkDocs project of a few pages (default theme: each page's head has its canonical link)."""
    import yaml

    for name, text in {"index.md": "# Home\n\nWelcome.\n", "a.md": "# A\n\nFirst words.\n",
                       "b.md": "# B\n\n![A figure](figure.png)\n", "c.md": "# C\n\nMore words.\n"}.items():
        (project / "docs").mkdir(parents=True, exist_ok=True)
        (project / "docs" / name).write_text(text, encoding="utf-8")
    (project / "docs" / "figure.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    config = project / "mkdocs.yml"
    config.write_text(yaml.safe_dump({"site_name": "Docs", "site_url": MKDOCS_BASE, "theme": {"name": "mkdocs"},
                                      "plugins": ["sitemapkit"]}), encoding="utf-8")
    return config


def mkdocs(config: Path) -> bytes:
    """A real, full `mkdocs build` (every page rendered and written again): its sitemap."""
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config

    mkdocs_build(load_config(str(config)))
    return (config.parent / "site" / "sitemap.xml").read_bytes()


def rendered_rows(project: Path) -> dict[str, tuple]:
    """The facts file's rows of the rendered pages, by page folder: (facts, digest, head_end)."""
    import sqlite3

    [facts] = facts_files(project / ".cache")
    with sqlite3.connect(facts) as db:
        rows = {Path(path).parent.name: row for path, *row in db.execute("SELECT path, facts, digest, head_end "
                                                                          "FROM rendered")}
    db.close()
    return rows


def test_mkdocs_rebuild_equals_a_build_that_read_every_page(tmp_path, pin_now):
    """MkDocs writes every page again each build: a rebuild takes each page's facts kept by its
    URL, head and content (no file's status could key them), and writes the sitemap and the
    manifest a build that read every page writes, byte for byte, with a page changed, one
    added and one removed."""
    config = mkdocs_site(tmp_path)
    pin_now(1_795_284_000)
    mkdocs(config)
    assert set(rendered_rows(tmp_path)) == {"a", "b", "c", "site"}  # (index.html: in site/)
    cache = tmp_path / ".cache"
    kept = {path: path.read_bytes() for path in cache.rglob("*") if path.is_file()}

    (tmp_path / "docs" / "a.md").write_text("# A\n\nOther words.\n\n![A figure](figure.png)\n", encoding="utf-8")
    (tmp_path / "docs" / "d.md").write_text("# D\n\nNew.\n", encoding="utf-8")
    (tmp_path / "docs" / "c.md").unlink()
    pin_now(1_795_370_400)
    rebuilt = mkdocs(config)
    manifests = {path: path.read_bytes() for path in cache.rglob("state-*.json")}

    for path, data in kept.items():  # the same build from the same manifest, with no kept facts
        path.write_bytes(data)
    for path in facts_files(cache):
        path.unlink()
    assert mkdocs(config) == rebuilt
    assert {path: path.read_bytes() for path in cache.rglob("state-*.json")} == manifests
    assert b"/a/</loc><lastmod>2026-11-22" in rebuilt and b"/b/</loc><lastmod>2026-11-21" in rebuilt
    assert b"/d/" in rebuilt and b"/c/" not in rebuilt


def test_mkdocs_kept_facts_are_taken_for_the_same_html_and_read_again_for_changed_content(tmp_path):
    """A page handed over with the head and content its facts were kept by is not read: a kept
    row made to say noindex (in the shape sitemapkit writes) leaves it out. Once its content
    changes (its head, the same: the title is its first heading) it is read again: listed,
    with the image its new content shows."""
    import json
    import sqlite3

    config = mkdocs_site(tmp_path)
    mkdocs(config)
    [facts] = facts_files(tmp_path / ".cache")
    with sqlite3.connect(facts) as db:
        path, loc = db.execute("SELECT path, loc FROM rendered WHERE path LIKE '%/a/index.html'").fetchone()
        noindex = json.dumps([True, loc, [], None, None, [], [], None])
        db.execute("UPDATE rendered SET facts = ? WHERE path = ?", (noindex, path))
    db.close()
    assert b"/a/" not in mkdocs(config)  # its facts taken as kept: noindex

    (tmp_path / "docs" / "a.md").write_text("# A\n\nFirst words.\n\n![A figure](figure.png)\n", encoding="utf-8")
    listed = mkdocs(config)
    assert b"<loc>https://docs.example/a/</loc>" in listed
    assert listed.count(b"<image:loc>https://docs.example/figure.png</image:loc>") == 2  # a's and b's


@pytest.mark.parametrize("column, value", [("head_end", "x"), ("digest", b"5"), ("facts", "[1, 2]"),
                                           ("facts", '[false, null, [["en"]], null, null, [], [], null]')])
def test_mkdocs_kept_facts_of_the_wrong_shape_are_ignored_with_a_warning(tmp_path, caplog, column, value):
    import logging
    import sqlite3

    config = mkdocs_site(tmp_path)
    mkdocs(config)
    second = mkdocs(config)  # (dated by fingerprint, as every build after it)
    [facts] = facts_files(tmp_path / ".cache")
    with sqlite3.connect(facts) as db:
        db.execute(f"UPDATE rendered SET {column} = ? WHERE path LIKE '%/b/index.html'", (value,))
    db.close()
    with caplog.at_level(logging.WARNING, logger="mkdocs"):
        assert mkdocs(config) == second
    assert any("a page's facts have the wrong shape" in record.getMessage() for record in caplog.records)
    assert mkdocs(config) == second
    assert set(rendered_rows(tmp_path)) == {"a", "b", "c", "site"}  # the file started again, and kept anew
