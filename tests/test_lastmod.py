"""Where lastmod comes from, and the manifest that keeps it steady between builds."""

from __future__ import annotations

import json
from datetime import date, datetime, timezone

import pytest
from git_helpers import commit, init, utc

from sitemap_checks import assert_valid_tree, locs
from sitemapkit import Page, Report, Settings, SitemapError, generate
from sitemapkit.dates import build_time
from sitemapkit.lastmod import LastmodResolver
from sitemapkit.state import load_state

BASE = "https://example.com/"
JAN = datetime(2024, 1, 1, tzinfo=timezone.utc)
FEB = datetime(2024, 2, 1, tzinfo=timezone.utc)


def resolve(project, pages, *, now=JAN, **options):
    """One build's worth of lastmod calls: ``pages`` is (Page, digest) pairs."""
    report = Report()
    resolver = LastmodResolver(Settings(base_url=BASE, **options), project, report, now)
    found = {page.url: resolver.lastmod(page, BASE + page.url, digest) for page, digest in pages}
    return found, resolver.finish(), report


def test_sources_answer_in_the_configured_order(tmp_path):
    repo = init(tmp_path)
    commit(repo, "2020-01-01T00:00:00", {"a.md": "a"})
    page = Page(url="a/", source=repo / "a.md", modified=date(2023, 5, 5))
    by_print = resolve(tmp_path, [(page, "d1")], lastmod=("fingerprint", "meta"))[0]["a/"]
    assert by_print == JAN  # the first build that fingerprints starts the manifest
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
    assert found == {"t/": utc("2020-01-01T00:00:00"), "d/": JAN, "n/": None}
    (warning,) = report.warnings
    assert warning.rule == "lastmod-git-untracked" and "draft.md" in warning.message


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
    (warning,) = report.warnings
    assert warning.message.startswith("40 source files have no commit yet")
    assert "and 37 more" in warning.message and "api.md" not in warning.message


def test_shallow_clone_warns_once_and_uses_the_next_source(tmp_path):
    origin = init(tmp_path / "origin")
    commit(origin, "2020-01-01T00:00:00", {"a.md": "1", "b.md": "1"})
    commit(origin, "2021-01-01T00:00:00", {"c.md": "1"})
    clone = tmp_path / "clone"
    from git_helpers import git

    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{origin}", str(clone))
    pages = [(Page(url=n, source=clone / f"{n}.md"), n) for n in "abc"]
    found, _, report = resolve(tmp_path, pages)
    assert set(found.values()) == {JAN}  # fingerprint, not the clone's single commit date
    (warning,) = report.warnings
    assert warning.rule == "lastmod-git-shallow" and "3 source files" in warning.message
    assert "fetch-depth: 0" in warning.message


def test_unchanged_rebuild_keeps_every_lastmod_and_one_edit_moves_one(tmp_path):
    pages = [(Page(url=f"p{i}/"), f"digest{i}") for i in range(5)]
    first, changes, _ = resolve(tmp_path, pages, now=JAN)
    assert changes.first_build and not changes.urls
    saved = (tmp_path / ".cache/sitemapkit/state.json").read_bytes()

    again, changes, report = resolve(tmp_path, pages, now=FEB)
    assert again == first and not changes.urls and not report.warnings
    assert (tmp_path / ".cache/sitemapkit/state.json").read_bytes() == saved

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
    resolver.finish()
    state = load_state(tmp_path / ".cache/sitemapkit/state.json")
    assert state.pages[BASE + "m/"] == ("d1", "2024-01-01T00:00:00Z", "Meta page", "2022-02-02")
    assert state.pages[BASE + "o/"].lastmod == "2021-01-01"


def test_the_manifest_is_started_by_its_first_use_and_kept_after(tmp_path):
    """Pages that all carry dates need no manifest: none is read or written. The first build
    that fingerprints a page starts it, and every build after keeps it current."""
    state = tmp_path / ".cache/sitemapkit/state.json"
    dated = [(Page(url="a/", modified=date(2023, 5, 5)), "1"), (Page(url="b/", modified=JAN), "2")]
    found, changes, _ = resolve(tmp_path, dated)
    assert found["a/"] == date(2023, 5, 5) and changes.first_build
    assert not state.exists()

    undated = [(Page(url="a/", modified=date(2023, 5, 5)), "1"), (Page(url="b/"), "2")]
    assert resolve(tmp_path, undated)[0]["b/"] == JAN
    assert set(load_state(state).pages) == {BASE + "a/", BASE + "b/"}

    _, changes, _ = resolve(tmp_path, [(dated[0][0], "1 edited"), dated[1]], now=FEB)
    assert load_state(state).pages[BASE + "a/"] == ("1 edited", "2024-02-01T00:00:00Z", None, "2023-05-05")
    assert changes.changed == [BASE + "a/"] and not changes.first_build


def test_first_seen_honours_source_date_epoch(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    found = resolve(tmp_path, [(Page(url="a/"), "1")], now=build_time())[0]
    assert found["a/"] == datetime.fromtimestamp(1700000000, tz=timezone.utc)


@pytest.mark.parametrize("content", [b"{not json", b'{"sitemapkit_state": 99}', b"\xff\xfe",
                                     b'{"sitemapkit_state": 1, "pages": {"x": [1, 2]}}'])
def test_corrupt_manifest_is_rebuilt_with_a_warning(tmp_path, content):
    state = tmp_path / ".cache/sitemapkit/state.json"
    state.parent.mkdir(parents=True)
    state.write_bytes(content)
    found, changes, report = resolve(tmp_path, [(Page(url="a/"), "1")])
    assert found["a/"] == JAN and changes.first_build
    (warning,) = report.warnings
    assert warning.rule == "state-corrupt" and warning.page == str(state)
    assert load_state(state).pages[BASE + "a/"].digest == "1"


def test_missing_manifest_is_a_quiet_first_build(tmp_path):
    _, changes, report = resolve(tmp_path, [(Page(url="a/"), "1")], state_file="deep/s.json")
    assert changes.first_build and not report.warnings
    assert json.loads((tmp_path / "deep/s.json").read_text())["sitemapkit_state"] == 1


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
    generate(pages, site, settings, project_dir=tmp_path)
    assert_valid_tree(site, BASE)
    before = (site / "sitemap.xml").read_bytes()
    first = _lastmods(site)
    assert set(first.values()) == {"2023-11-14T22:13:20Z"}

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1800000000")
    site, pages = _site(tmp_path, texts)
    generate(pages, site, settings, project_dir=tmp_path)
    assert (site / "sitemap.xml").read_bytes() == before

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
    report = generate(pages, site, settings, project_dir=tmp_path)
    found = _lastmods(site)
    assert found[BASE + "a.html"] == "2021-07-01T09:00:00Z"
    assert found[BASE + "draft.html"] is None
    assert [w.rule for w in report.warnings] == ["lastmod-git-untracked"]
    with pytest.raises(SitemapError, match="strict"):
        generate(pages, site, settings.replace(strict=True), project_dir=tmp_path)
