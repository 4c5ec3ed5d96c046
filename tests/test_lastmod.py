"""Where lastmod comes from, and the manifest that keeps it steady between builds."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import date, datetime, timezone
from pathlib import Path

import pytest
from git_helpers import commit, git, init, utc
from manifest_paths import manifest_of

from sitemap_checks import assert_valid_tree, locs
from sitemapkit import Page, Report, Settings, SitemapError, generate
from sitemapkit.dates import build_time
from sitemapkit.lastmod.sources import LastmodResolver
from sitemapkit.lastmod.state import load_state

pytestmark = pytest.mark.slow  # real git histories (make test-fast leaves them out)

BASE = "https://example.com/"
JAN = datetime(2024, 1, 1, tzinfo=timezone.utc)
FEB = datetime(2024, 2, 1, tzinfo=timezone.utc)


def resolve(project, pages, *, now=JAN, **options):
    """One build's worth of lastmod calls: ``pages`` is (Page, digest) pairs."""
    report = Report()
    resolver = LastmodResolver(Settings(base_url=BASE, **options), project, report, now)
    found = {page.url: resolver.lastmod(page, BASE + page.url, digest) for page, digest in pages}
    resolver.finish()
    return found, resolver.manifest.finish(), report


def test_sources_answer_in_the_configured_order(tmp_path):
    repo = init(tmp_path)
    commit(repo, "2020-01-01T00:00:00", {"a.md": "a"})
    page = Page(url="a/", source=repo / "a.md", modified=date(2023, 5, 5))
    by_print = resolve(tmp_path, [(page, "d1")], lastmod=("fingerprint", "meta"))[0]["a/"]
    # A first build has no manifest to say when d1 was first seen: the next source answers
    # (and the manifest starts, first seen JAN).
    assert by_print == date(2023, 5, 5)
    first = resolve(tmp_path, [(page, "d1")], now=FEB)[0]["a/"]
    assert first == date(2023, 5, 5)
    by_git = resolve(tmp_path, [(page, "d1")], now=FEB, lastmod=("git", "meta"))[0]["a/"]
    assert by_git == utc("2020-01-01T00:00:00")
    by_print = resolve(tmp_path, [(page, "d1")], now=FEB, lastmod=("fingerprint", "git"))[0]
    assert by_print["a/"] == JAN  # first seen with digest d1, kept by the builds between
    assert resolve(tmp_path, [(page, "d1")], lastmod=())[0]["a/"] is None


def test_each_source_falls_through_to_the_next(tmp_path):
    repo = init(tmp_path)
    commit(repo, "2020-01-01T00:00:00", {"tracked.md": "a"})
    (tmp_path / "draft.md").write_text("not committed")
    pages = [
        (Page(url="t/", source=repo / "tracked.md"), "x"),
        (Page(url="d/", source=tmp_path / "draft.md"), "y"),
        (Page(url="n/"), None),  # no source, no digest: nobody knows
    ]
    found, _, report = resolve(tmp_path, pages)
    # The draft: no commit, no manifest from an earlier build: no lastmod, not the build time.
    assert found == {"t/": utc("2020-01-01T00:00:00"), "d/": None, "n/": None}
    assert not report.warnings  # a page not committed yet is a note, not a warning
    (note,) = report.notes
    assert note.rule == "lastmod-git-untracked" and "draft.md" in note.message
    assert note.severity == "info"
    assert report.lastmod_sources == {"git": 1, "none": 2}
    assert "lastmod: 1 git, 2 none (git dates need the pages' source files, which sitemapkit build finds " \
        "with --source-dir; " \
        "for git dates, commit the pages)" in report.summary()
    assert "fetch-depth" not in report.summary()  # a full repository: no clone to deepen
    # The next build has the manifest: the draft is dated by when it was first seen.
    found = resolve(tmp_path, pages, now=FEB)[0]
    assert found["d/"] == JAN and found["n/"] is None


def test_untracked_warning_is_one_line_for_many_files_and_skips_ignored_ones(tmp_path):
    repo = init(tmp_path)
    commit(repo, "2020-01-01T00:00:00", {".gitignore": "generated/\n"})
    pages = []
    for i in range(40):
        (tmp_path / f"new{i}.md").write_text("x")
        pages.append((Page(url=f"{i}/", source=tmp_path / f"new{i}.md"), "d"))
    (tmp_path / "generated").mkdir()
    (tmp_path / "generated" / "api.md").write_text("x")
    pages.append((Page(url="api/", source=tmp_path / "generated" / "api.md"), "d"))
    report = resolve(tmp_path, pages)[2]
    (note,) = report.notes
    assert note.message.startswith("40 source files have no commit yet")
    assert "and 37 more" in note.message and "api.md" not in note.message


def test_shallow_clone_warns_once_and_uses_the_next_source(tmp_path):
    origin = init(tmp_path / "origin")
    commit(origin, "2020-01-01T00:00:00", {"a.md": "1", "b.md": "1"})
    commit(origin, "2021-01-01T00:00:00", {"c.md": "1"})
    clone = tmp_path / "clone"
    from git_helpers import git

    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{origin}", str(clone))
    pages = [(Page(url=n, source=clone / f"{n}.md"), n) for n in "abc"]
    found, _, report = resolve(tmp_path, pages)
    # Neither the clone's single commit date nor the build time: no date at all.
    assert set(found.values()) == {None}
    assert not report.warnings
    (note,) = report.notes
    assert note.rule == "lastmod-git-shallow" and "3 source files" in note.message
    assert "fetch-depth: 0" in note.message and note.severity == "info"
    assert "lastmod: 3 none (for git dates, build from a full clone: fetch-depth: 0 in actions/checkout)" \
        in report.summary()


def test_unchanged_rebuild_keeps_every_lastmod_and_one_edit_moves_one(tmp_path):
    pages = [(Page(url=f"p{i}/"), f"digest{i}") for i in range(5)]
    unknown, changes, _ = resolve(tmp_path, pages, now=JAN)
    assert changes.first_build and not changes.urls
    assert set(unknown.values()) == {None}  # a first build knows no first-seen times yet
    first, changes, _ = resolve(tmp_path, pages, now=FEB)
    assert set(first.values()) == {JAN} and not changes.urls
    saved = (manifest_of(tmp_path, BASE)).read_bytes()

    again, changes, report = resolve(tmp_path, pages, now=FEB)
    assert again == first and not changes.urls and not report.warnings
    assert (manifest_of(tmp_path, BASE)).read_bytes() == saved

    pages[2] = (pages[2][0], "edited")
    later, changes, _ = resolve(tmp_path, pages, now=FEB)
    assert [url for url in later if later[url] != first[url]] == ["p2/"]
    assert later["p2/"] == FEB
    assert changes.changed == [BASE + "p2/"] and not changes.added and not changes.removed


def test_added_and_removed_pages(tmp_path):
    resolve(tmp_path, [(Page(url="a/"), "1"), (Page(url="b/"), "2")])
    _, changes, _ = resolve(tmp_path, [(Page(url="a/"), "1"), (Page(url="c/"), "3")], now=FEB)
    assert changes.added == [BASE + "c/"]
    assert changes.removed == [BASE + "b/"]
    assert changes.urls == [BASE + "b/", BASE + "c/"]


def test_a_page_without_digest_keeps_its_record(tmp_path):
    resolve(tmp_path, [(Page(url="a/"), "1")])
    found, changes, _ = resolve(tmp_path, [(Page(url="a/"), None)], now=FEB)
    assert found["a/"] == JAN and not changes.urls


def test_a_page_without_content_counts_as_changed_when_its_lastmod_moves(tmp_path):
    """An index page (``content=""``): no fingerprint, so its lastmod says when it changed."""
    listing = [(Page(url="", modified=JAN), None), (Page(url="tag/a/", modified=JAN), None)]
    resolve(tmp_path, listing, changes_feed=10)
    _, changes, _ = resolve(tmp_path, listing, now=FEB, changes_feed=10)
    assert not changes.urls
    listing[0] = (Page(url="", modified=FEB), None)
    _, changes, _ = resolve(tmp_path, listing, now=FEB, changes_feed=10)
    assert changes.changed == [BASE]


def test_manifest_records_digest_title_and_written_lastmod_for_every_source(tmp_path):
    report = Report()
    resolver = LastmodResolver(Settings(base_url=BASE, changes_feed=10), tmp_path, report, JAN)
    resolver.lastmod(Page(url="m/", modified=date(2022, 2, 2)), BASE + "m/", "d1", "Meta page")
    resolver.lastmod(Page(url="o/"), BASE + "o/", "d2", "Own", override=date(2021, 1, 1))
    resolver.manifest.finish()
    state = load_state(manifest_of(tmp_path, BASE))
    assert state.pages[BASE + "m/"] == ("d1", "2024-01-01T00:00:00Z", "Meta page", "2022-02-02")
    assert state.pages[BASE + "o/"].lastmod == "2021-01-01"


def test_the_manifest_is_started_by_its_first_use_and_kept_after(tmp_path):
    """Pages that all carry dates need no manifest: none is read or written. The first build
    that fingerprints a page starts it, and every build after keeps it current."""
    state = manifest_of(tmp_path, BASE)
    dated = [(Page(url="a/", modified=date(2023, 5, 5)), "1"), (Page(url="b/", modified=JAN), "2")]
    found, changes, _ = resolve(tmp_path, dated)
    assert found["a/"] == date(2023, 5, 5) and changes.first_build
    assert not state.exists()

    undated = [(Page(url="a/", modified=date(2023, 5, 5)), "1"), (Page(url="b/"), "2")]
    assert resolve(tmp_path, undated)[0]["b/"] is None
    assert set(load_state(state).pages) == {BASE + "a/", BASE + "b/"}

    _, changes, _ = resolve(tmp_path, [(dated[0][0], "1 edited"), dated[1]], now=FEB)
    assert load_state(state).pages[BASE + "a/"] == ("1 edited", "2024-02-01T00:00:00Z", None, "2023-05-05")
    assert changes.changed == [BASE + "a/"] and not changes.first_build


def test_a_rebuild_that_changes_nothing_leaves_the_manifest_file_alone(tmp_path):
    """Same pages, same digests, same lastmods: the manifest is not written again (same file,
    same bytes); a lastmod from metadata, a removed page or an edit each rewrite it."""
    state = manifest_of(tmp_path, BASE)
    pages = [(Page(url="a/"), "1"), (Page(url="b/"), "2")]
    resolve(tmp_path, pages)
    resolve(tmp_path, pages, now=FEB)  # the lastmods move from none to JAN: written
    before = state.stat().st_ino, state.read_bytes()
    resolve(tmp_path, pages, now=FEB)
    assert (state.stat().st_ino, state.read_bytes()) == before
    dated, edited = (Page(url="a/", modified=date(2023, 5, 5)), "1"), (pages[0][0], "1 edited")
    for changed in ([dated, pages[1]], pages[:1], [edited]):
        resolve(tmp_path, changed, now=FEB)
        assert state.stat().st_ino != before[0]
        before = state.stat().st_ino, state.read_bytes()


def test_first_seen_honours_source_date_epoch(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    resolve(tmp_path, [(Page(url="a/"), "1")], now=build_time())
    found = resolve(tmp_path, [(Page(url="a/"), "1")], now=FEB)[0]
    assert found["a/"] == datetime.fromtimestamp(1700000000, tz=timezone.utc)


@pytest.mark.parametrize("content", [b"{not json", b'{"sitemapkit_state": 99}', b"\xff\xfe",
                                     b'{"sitemapkit_state": 1, "pages": {"x": [1, 2]}}'])
def test_corrupt_manifest_is_rebuilt_with_a_warning(tmp_path, content):
    state = manifest_of(tmp_path, BASE)
    state.parent.mkdir(parents=True)
    state.write_bytes(content)
    found, changes, report = resolve(tmp_path, [(Page(url="a/"), "1")])
    assert found["a/"] is None and changes.first_build
    (warning,) = report.warnings
    assert warning.rule == "state-corrupt" and warning.where == str(state)
    assert load_state(state).pages[BASE + "a/"].digest == "1"


@pytest.mark.parametrize("content", [
    b'{"sitemapkit_state": 1,\n"indexnow_unsent": [],\n"pages": {\n"x": ' + b"[" * 200_000 + b"\n}}\n",
    b"[" * 5_000_000,  # deeply nested, one line
    b'{"sitemapkit_state": 1,\n"indexnow_unsent": "' + b"u" * (17 << 20) + b'"',  # huge line
    b'{"sitemapkit_state": 1,\n"indexnow_unsent": {},\n"pages": {\n}}\n',
    b'{"sitemapkit_state": 1,\n"indexnow_unsent": [],\n"pages": {\n"x": [1, "2", 3, 4]\n}}\n',
    b'{"sitemapkit_state": 1,\n"indexnow_unsent": [],\n"pages": {\n"x": [null, "soon", null, null]\n}}\n',
    b'{"sitemapkit_state": 1,\n"indexnow_unsent": [],\n"pages": {\n"x": [null, "2024-01-01", null, null]\n',
], ids=["nested-record", "nested", "huge", "unsent-type", "record-types", "first-seen", "cut-short"])
def test_hostile_manifest_is_one_warning_and_a_fresh_manifest(tmp_path, content):
    state = manifest_of(tmp_path, BASE, tmp_path / "site")
    state.parent.mkdir(parents=True)
    state.write_bytes(content)
    site, pages = _site(tmp_path, {"a": "text"})
    settings = Settings(base_url=BASE, lastmod=("fingerprint",), changes_feed=5)
    report = generate(pages, site, settings, project_dir=tmp_path)
    (warning,) = report.warnings
    assert warning.rule == "state-corrupt" and warning.where == str(state), warning
    assert set(load_state(state).pages) == {BASE + "a.html"}
    assert not [p for p in tmp_path.rglob("*.tmp")]
    assert_valid_tree(site, BASE)


@pytest.mark.parametrize("where", ["/", "folder", "file/under", "pipe"])
def test_a_state_file_that_cannot_hold_a_manifest_is_one_warning(tmp_path, where):
    (tmp_path / "folder").mkdir()
    (tmp_path / "file").write_text("a file where a folder should be")
    os.mkfifo(tmp_path / "pipe")
    before = sorted(os.listdir("/"))
    site, pages = _site(tmp_path, {"a": "text"})
    settings = Settings(base_url=BASE, state_file=where, changes_feed=5, lastmod=("fingerprint",))
    report = generate(pages, site, settings, project_dir=tmp_path)  # no hang, no traceback
    (warning,) = report.warnings
    assert warning.rule in ("state-path", "state-write") and where in warning.where
    assert "Errno" not in warning.message and "Traceback" not in warning.message
    assert (tmp_path / "file").read_text() == "a file where a folder should be"
    assert (tmp_path / "folder").is_dir() and not list((tmp_path / "folder").iterdir())
    assert sorted(os.listdir("/")) == before and not list(tmp_path.rglob("*.tmp"))
    assert (site / "sitemap-changes.atom").exists()


def test_missing_manifest_is_a_quiet_first_build(tmp_path):
    _, changes, report = resolve(tmp_path, [(Page(url="a/"), "1")], state_file="deep/s.json")
    assert changes.first_build and not report.warnings
    assert json.loads(manifest_of(tmp_path, BASE, state_file="deep/s.json").read_text())["sitemapkit_state"] == 1


def test_unwritable_manifest_is_a_warning(tmp_path):
    (tmp_path / "blocked").write_text("a file where a folder should be")
    report = resolve(tmp_path, [(Page(url="a/"), "1")], state_file="blocked/s.json")[2]
    assert [w.rule for w in report.warnings] == ["state-write"]


# ---------------------------------------------------------------- real rebuilds


def _site(tmp_path, texts: dict[str, str]):
    site = tmp_path / "site"
    site.mkdir(exist_ok=True)
    pages = []
    for name, text in texts.items():
        (site / f"{name}.html").write_text(
            f"<html><head><title>{name}</title></head><body><main><h1>{name}</h1>"
            f"<p>{text}</p></main></body></html>"
        )
        pages.append(Page(url=f"{name}.html", output=site / f"{name}.html"))
    return site, pages


def _lastmods(site):
    from lxml import etree

    from sitemap_checks import SITEMAP_NS

    root = etree.parse(str(site / "sitemap.xml")).getroot()
    return {
        url.findtext(f"{{{SITEMAP_NS}}}loc"): url.findtext(f"{{{SITEMAP_NS}}}lastmod")
        for url in root.iter(f"{{{SITEMAP_NS}}}url")
    }


def test_real_rebuilds_unchanged_is_byte_identical_one_edit_moves_one_lastmod(
    tmp_path, monkeypatch
):
    texts = {f"page{i}": f"text {i}" for i in range(6)}
    settings = Settings(base_url=BASE, lastmod=("fingerprint",))
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    site, pages = _site(tmp_path, texts)
    report = generate(pages, site, settings, project_dir=tmp_path)
    assert_valid_tree(site, BASE)
    assert set(_lastmods(site).values()) == {None}  # a first build: no build-time lastmod
    assert "lastmod: 6 none (add git to 'lastmod'" in report.summary()

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1800000000")
    site, pages = _site(tmp_path, texts)
    report = generate(pages, site, settings, project_dir=tmp_path)
    assert_valid_tree(site, BASE)
    before = (site / "sitemap.xml").read_bytes()
    first = _lastmods(site)
    assert set(first.values()) == {"2023-11-14T22:13:20Z"}  # first seen by the first build
    assert "lastmod: 6 fingerprint;" in report.summary()

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1900000000")
    site, pages = _site(tmp_path, texts)
    generate(pages, site, settings, project_dir=tmp_path)
    assert (site / "sitemap.xml").read_bytes() == before
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1800000000")

    texts["page3"] = "an edited paragraph"
    site, pages = _site(tmp_path, texts)
    generate(pages, site, settings, project_dir=tmp_path)
    assert_valid_tree(site, BASE)
    after = _lastmods(site)
    moved = [loc for loc in after if after[loc] != first[loc]]
    assert moved == [BASE + "page3.html"] and after[moved[0]] == "2027-01-15T08:00:00Z"
    assert locs(site / "sitemap.xml") == sorted(first)


def test_git_lastmod_through_generate_and_strict(tmp_path):
    repo = init(tmp_path)
    commit(repo, "2021-07-01T09:00:00", {"docs/a.md": "a", "docs/b.md": "b"})
    (repo / "docs" / "draft.md").write_text("draft")
    site, pages = _site(tmp_path, {"a": "a", "b": "b", "draft": "d"})
    pages = [
        Page(url=p.url, output=p.output, source=repo / "docs" / p.url.replace(".html", ".md"))
        for p in pages
    ]
    settings = Settings(base_url=BASE, lastmod=("git",))
    report = generate(pages, site, settings, project_dir=tmp_path, source_dirs=[repo / "docs"])
    found = _lastmods(site)
    assert found[BASE + "a.html"] == "2021-07-01T09:00:00Z"
    assert found[BASE + "draft.html"] is None
    assert [w.rule for w in report.notes] == ["lastmod-git-untracked"] and not report.warnings
    # A page not committed yet is a documented fallback: strict stays green.
    report = generate(pages, site, settings.replace(strict=True), project_dir=tmp_path)
    assert "lastmod: 2 git, 1 none" in report.summary()
    (repo / ".git" / "objects" / "pack").rename(repo / "broken")  # a broken repository
    for obj in (repo / ".git" / "objects").rglob("*"):
        if obj.is_file() and obj.parent.name != "info":
            obj.write_bytes(b"garbage")
    with pytest.raises(SitemapError, match="strict"):
        generate(pages, site, settings.replace(strict=True), project_dir=tmp_path)


# ------------------------------------------------------- CI checkouts, as users build


def _run(command: list[str], cwd) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=300,
                          env={k: v for k, v in os.environ.items() if k != "SOURCE_DATE_EPOCH"})


def _git_project(tmp_path):
    """A repository holding a MkDocs site (``mkdocs new``) and a Sphinx project
    (``sphinx-quickstart -q``), each with the README's enabling lines, committed twice."""
    origin = init(tmp_path / "origin")
    assert _run([sys.executable, "-m", "mkdocs", "new", "mk"], origin).returncode == 0
    config = origin / "mk" / "mkdocs.yml"
    config.write_text(config.read_text() + "site_url: https://example.com/\n"
                      "plugins:\n  - search\n  - sitemapkit\n")
    # (no -v: with a version, the URLs carry it until the sphinx helper's fix lands)
    quickstart = [sys.executable, "-m", "sphinx.cmd.quickstart", "-q", "-p", "Proj", "-a", "Me", "sph"]
    assert _run(quickstart, origin).returncode == 0
    conf = origin / "sph" / "conf.py"
    conf.write_text(conf.read_text().replace("extensions = []", 'extensions = ["sitemapkit_sphinx"]')
                    + 'html_baseurl = "https://example.com/"\n')
    (origin / ".gitignore").write_text("site/\n_build/\n.cache/\n")
    (origin / "sph" / "_static" / ".gitkeep").write_text("")  # git keeps no empty folder
    commit(origin, "2020-01-01T00:00:00")
    index = origin / "mk" / "docs" / "index.md"
    commit(origin, "2021-03-04T05:06:07", {"mk/docs/index.md": index.read_text() + "\nMore.\n",
                                           "sph/index.rst": (origin / "sph/index.rst").read_text()
                                           + "\nMore.\n"})
    return origin


def _builds(project) -> dict[str, tuple[subprocess.CompletedProcess, Path]]:
    """``mkdocs build --strict`` and ``sphinx-build -W`` (the quickstart Makefile's form),
    each from its project folder."""
    mkdocs = _run([sys.executable, "-m", "mkdocs", "build", "--strict"], project / "mk")
    sphinx = _run([sys.executable, "-m", "sphinx", "-M", "html", ".", "_build", "-W"], project / "sph")
    return {"mkdocs": (mkdocs, project / "mk" / "site"), "sphinx": (sphinx, project / "sph/_build/html")}


def test_a_shallow_clone_builds_green_with_a_note_and_no_invented_lastmod(tmp_path):
    origin = _git_project(tmp_path)
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{origin}", str(clone))
    for name, (done, site) in _builds(clone).items():
        output = done.stdout + done.stderr
        assert done.returncode == 0, (name, output)
        (note,) = [line for line in output.splitlines() if "lastmod-git-shallow" in line]
        assert "fetch-depth: 0" in note and "WARNING" not in note.upper(), note
        assert "lastmod: 1 none (for git dates, build from a full clone: fetch-depth: 0" in output, output
        assert_valid_tree(site, "https://example.com/")
        assert set(_lastmods(site).values()) == {None}, name  # neither the clone's date nor now

    # A page not committed yet, in a full clone: still green, the others dated by git.
    full = tmp_path / "full"
    git(tmp_path, "clone", "-q", f"file://{origin}", str(full))
    (full / "mk" / "docs" / "draft.md").write_text("# Draft\n")
    (full / "sph" / "draft.rst").write_text(":orphan:\n\nDraft\n=====\n")
    for name, (done, site) in _builds(full).items():
        output = done.stdout + done.stderr
        assert done.returncode == 0, (name, output)
        assert "lastmod-git-untracked" in output and "lastmod: 1 git, 1 none" in output, output
        home, draft = ("", "draft/") if name == "mkdocs" else ("index.html", "draft.html")
        found = _lastmods(site)
        assert found["https://example.com/" + home] == "2021-03-04T05:06:07Z", (name, found)
        assert [loc for loc, when in found.items() if when is None] == ["https://example.com/" + draft]
