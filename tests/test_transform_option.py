"""``transform``: a user's callable given each entry, which may change it or leave the page
out; what it returns is checked again, and its failures name the page and the option."""

from __future__ import annotations

import re

import pytest
from around_helpers import BASE, built_site, pages_of, transform_module
from around_helpers import transformed as run

from sitemap_checks import assert_valid_tree, locs, usp_urls
from sitemapkit import Settings, SitemapError
from sitemapkit.cli import main
from sitemapkit.generate import generate


def test_changes_and_drops_reach_the_sitemap(tmp_path, monkeypatch):
    spec = transform_module(tmp_path, """
        def change(entry):
            if "/about/" in entry.loc:
                return None
            if "/blog/" in entry.loc:
                return dataclasses.replace(entry, changefreq="weekly", priority=0.8)
            return entry
    """, monkeypatch)
    site, report, warnings = run(tmp_path, spec)
    assert warnings == []
    assert report.left_out == {"transform": 1}
    assert_valid_tree(site, BASE)
    listed = set(usp_urls(site, BASE))
    assert listed == {BASE, BASE + "blog/a/", BASE + "blog/b/", BASE + "docs/c/"}
    text = (site / "sitemap.xml").read_text()
    assert text.count("<changefreq>weekly</changefreq><priority>0.8</priority>") == 2


def test_a_wrong_return_leaves_that_page_out_naming_it(tmp_path, monkeypatch):
    spec = transform_module(tmp_path, """
        def change(entry):
            if "/docs/" in entry.loc:
                return {"loc": entry.loc}
            return entry
    """, monkeypatch)
    site, _, warnings = run(tmp_path, spec)
    by_page = {problem.where: problem for problem in warnings}
    assert set(by_page) == {BASE + "docs/c/"}
    assert all(problem.rule == "transform-error" for problem in warnings)
    assert "transform" in by_page[BASE + "docs/c/"].field
    assert "returned a dict" in by_page[BASE + "docs/c/"].message
    assert set(locs(site / "sitemap.xml")) == {BASE, BASE + "blog/a/", BASE + "blog/b/", BASE + "about/"}


def test_strict_makes_a_wrong_return_fatal(tmp_path, monkeypatch):
    spec = transform_module(tmp_path, """
        def change(entry):
            return "nothing"
    """, monkeypatch)
    with pytest.raises(SitemapError, match=r"\[transform-error\]"):
        run(tmp_path, spec, strict=True)


def test_returned_values_are_checked_again(tmp_path, monkeypatch):
    spec = transform_module(tmp_path, """
        from datetime import datetime
        from sitemapkit import Image
        def change(entry):
            if "/blog/a/" in entry.loc:
                return dataclasses.replace(entry, loc="https://elsewhere.example/a/")
            if "/blog/b/" in entry.loc:
                return dataclasses.replace(entry, priority=1.5, changefreq="sometimes",
                                           lastmod=datetime(2020, 1, 1))
            if "/docs/" in entry.loc:
                return dataclasses.replace(entry, loc=entry.loc + "x y/", images=(Image("pic one.png"),))
            if "/about/" in entry.loc:
                return dataclasses.replace(entry, lastmod=datetime(2999, 1, 1).astimezone())
            return entry
    """, monkeypatch)
    site, _, warnings = run(tmp_path, spec)
    rules = sorted((problem.where, problem.rule) for problem in warnings)
    assert rules == [
        (BASE + "about/", "lastmod-future"),
        (BASE + "blog/a/", "loc-scope"),
        (BASE + "blog/b/", "changefreq-value"),
        (BASE + "blog/b/", "date-format"),
        (BASE + "blog/b/", "priority-range"),
    ]
    assert_valid_tree(site, BASE)
    text = (site / "sitemap.xml").read_text()
    assert "elsewhere" not in text and "1.5" not in text and "sometimes" not in text and "2999" not in text
    # the changed loc and image are encoded as any page's are
    assert BASE + "docs/c/x%20y/" in text and BASE + "docs/c/x%20y/pic%20one.png" in text
    assert [url for url in locs(site / "sitemap.xml") if "blog/b" in url] == [BASE + "blog/b/"]


def test_one_video_given_alone_is_one_video_not_a_sequence_of_its_fields(tmp_path, monkeypatch):
    # Video is a named tuple: given without a tuple around it, it is still the one video.
    spec = transform_module(tmp_path, """
        from sitemapkit import Video
        def change(entry):
            if "/blog/a/" in entry.loc:
                return dataclasses.replace(entry, videos=Video(thumbnail_loc="thumb.png", title="Tour",
                                                               description="A tour.", content_loc="tour.mp4"))
            return entry
    """, monkeypatch)
    site, _, warnings = run(tmp_path, spec)
    assert warnings == []
    text = (site / "sitemap.xml").read_text()
    assert text.count("<video:video>") == 1 and "<video:title>Tour</video:title>" in text
    assert BASE + "blog/a/thumb.png" in text
    assert_valid_tree(site, BASE)


def test_a_callable_that_cannot_be_loaded_stops_the_build_before_any_file(tmp_path, monkeypatch):
    monkeypatch.setattr("sys.path", list(__import__("sys").path))
    site = built_site(tmp_path)
    with pytest.raises(SitemapError, match=r"option 'transform': 'no_such_module:change' cannot be loaded"):
        generate(pages_of(site), site, Settings(base_url=BASE, transform="no_such_module:change"),
                 project_dir=tmp_path)
    assert not (site / "sitemap.xml").exists() and not (site / "robots.txt").exists()


@pytest.mark.parametrize("value", ["change", "a b:c", "mod:", ":f", 3])
def test_the_value_must_name_module_and_function(value):
    from sitemapkit import SettingsError

    with pytest.raises(SettingsError, match="option 'transform' must name a Python callable as 'module:function'"):
        Settings(base_url=BASE, transform=value)


def test_command_line_finds_the_module_in_the_project_folder(tmp_path, monkeypatch, capsys):
    spec = transform_module(tmp_path, """
        def change(entry):
            return None if entry.loc.endswith("/about/") else entry
    """, monkeypatch)
    site = built_site(tmp_path)
    monkeypatch.chdir(tmp_path / "site")  # the module is in the site folder's parent, the project folder
    assert main(["build", str(site), "--base-url", BASE, "--transform", spec, "--lastmod", "false"]) == 0
    assert BASE + "about/" not in locs(site / "sitemap.xml")
    assert "1 transform" in capsys.readouterr().out
    assert main(["validate", str(site / "sitemap.xml"), "--strict"]) == 0


def test_command_line_reports_a_failing_transform_without_a_traceback(tmp_path, monkeypatch, capsys):
    spec = transform_module(tmp_path, """
        def change(entry):
            return 1 / 0
    """, monkeypatch)
    site = built_site(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["build", str(site), "--base-url", BASE, "--transform", spec]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and "ZeroDivisionError" in err and "transform-error" in err


def test_an_unchanged_entry_is_written_as_without_transform(tmp_path, monkeypatch):
    spec = transform_module(tmp_path, """
        def change(entry):
            return entry
    """, monkeypatch)
    site, _, _ = run(tmp_path, spec)
    with_it = (site / "sitemap.xml").read_bytes()
    generate(pages_of(site), site, Settings(base_url=BASE, lastmod=["meta"]), project_dir=tmp_path)
    assert (site / "sitemap.xml").read_bytes() == with_it


def test_a_page_the_transform_leaves_out_is_not_missed_by_validate_site_dir(tmp_path, monkeypatch, capsys):
    spec = transform_module(tmp_path, """
        def change(entry):
            return None if entry.loc.endswith("/about/") else entry
    """, monkeypatch)
    site, _, _ = run(tmp_path, spec)
    capsys.readouterr()
    assert main(["validate", str(site / "sitemap.xml"), "--site-dir", str(site), "--strict"]) == 0
    # the same sitemap, from a build that was never handed the page: validate misses it
    unlisted = [page for page in pages_of(site) if page.url != "about/"]
    generate(unlisted, site, Settings(base_url=BASE, lastmod=["meta"]), project_dir=tmp_path)
    assert main(["validate", str(site / "sitemap.xml"), "--site-dir", str(site), "--strict"]) == 1
    assert "about/" in capsys.readouterr().out


def test_a_module_edited_between_builds_is_read_again(tmp_path, monkeypatch):
    """As ``mkdocs serve`` rebuilds in one process: the second build uses the edited module."""
    spec = transform_module(tmp_path, """
        def change(entry):
            return None if entry.loc.endswith("/about/") else entry
    """, monkeypatch)
    site, _, _ = run(tmp_path, spec)
    assert BASE + "about/" not in locs(site / "sitemap.xml")
    module = tmp_path / (spec.partition(":")[0] + ".py")
    module.write_text("def change(entry):\n    return None if entry.loc.endswith('/docs/c/') else entry\n")
    run(tmp_path, spec)
    listed = locs(site / "sitemap.xml")
    assert BASE + "about/" in listed and BASE + "docs/c/" not in listed


@pytest.mark.parametrize("in_sqlite", [False, True])
def test_the_change_feed_and_manifest_follow_what_the_transform_lists(tmp_path, monkeypatch, in_sqlite):
    if in_sqlite:  # the manifest of a large site: records in SQLite, flushed in batches
        monkeypatch.setattr("sitemapkit.lastmod.manifest._IN_MEMORY", 1)
        monkeypatch.setattr("sitemapkit.lastmod.manifest._BATCH", 1)
    spec = transform_module(tmp_path, """
        def change(entry):
            if entry.loc.endswith("/about/"):
                return None
            if entry.loc.endswith("/docs/c/"):
                return dataclasses.replace(entry, loc=entry.loc + "moved/")
            return entry
    """, monkeypatch)
    site, _, _ = run(tmp_path, spec, changes_feed=10, state_file=str(tmp_path / "state.json"))
    feed = (site / "sitemap-changes.atom").read_text()
    [state] = tmp_path.glob("state*.json")  # the manifest is named for the site it describes
    manifest = state.read_text()
    for text in (feed, manifest):
        assert BASE + "about/" not in text and BASE + "docs/c/moved/" in text
        assert set(re.findall(r"example.org/docs/c/(\w*)", text)) == {"moved"}  # the old URL is nowhere
