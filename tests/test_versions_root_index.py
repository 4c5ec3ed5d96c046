"""`sitemapkit build` on the root of a deployment of version folders (no mike): the root
index of the versions' own sitemaps, what is left out of it, and hostile inputs."""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path

from docs_blocks import Block, block, shell_lines
from hypothesis import given, settings
from hypothesis import strategies as st

from sitemap_checks import assert_valid, locs, robots_sitemaps
from sitemapkit.cli import main
from sitemapkit.lastmod.manifest import facts_file, site_manifest
from sitemapkit.report import Report
from sitemapkit.settings import Settings
from sitemapkit.site.owned import record_key, record_signed_again
from sitemapkit.version_index import find_versions, write_version_index
from sitemapkit.versions import Deployment, mike_aliases, mike_deployment

REPO = Path(__file__).resolve().parents[1]
BASE = "https://example.org/docs/"


def page(title: str) -> str:
    return f"<!doctype html><html><head><title>{title}</title></head><body><p>{title}</p></body></html>"


def versions_tree(root: Path, names: tuple[str, ...] = ("1.0", "2.0")) -> Path:
    for name in names:
        for path in ("index.html", "guide/index.html", "404.html"):  # each version has its error page
            file = root / name / path
            file.parent.mkdir(parents=True, exist_ok=True)
            file.write_text(page(f"{name} {path}"), encoding="utf-8")
    return root


def recipe(found: Block) -> list[list[str]]:
    """The command lines of a docs block (``docs_blocks``), as a shell splits them."""
    return [shlex.split(line) for line in shell_lines(found.text)]


def test_plain_folders_recipe_as_written(tmp_path, capsys, monkeypatch):
    versions_tree(tmp_path / "site")
    monkeypatch.chdir(tmp_path)
    commands = recipe(block("versions-plain-folders"))
    assert [words[:2] for words in commands] == [["sitemapkit", "build"]] * 3 + [["sitemapkit", "validate"]]
    for words in commands:
        assert main(words[1:]) == 0, capsys.readouterr()
    site = tmp_path / "site"
    assert sorted(locs(site / "sitemap.xml")) == [f"{BASE}1.0/sitemap.xml", f"{BASE}2.0/sitemap.xml"]
    assert assert_valid(site / "sitemap.xml").tag.endswith("sitemapindex")
    assert robots_sitemaps(site / "robots.txt") == [f"{BASE}sitemap.xml"]
    assert not (site / "1.0" / "robots.txt").exists()
    # sitemapkit's state (manifests, the key that signs its records) is kept above the served
    # folders, never deployed with them: site/ is served at /docs/ as site/1.0 is at /docs/1.0/
    assert [path.relative_to(tmp_path).as_posix() for path in tmp_path.rglob("record.key")] == [
        ".cache/sitemapkit/record.key"]
    assert not list(site.rglob(".cache"))


def state_in_the_served_folder(root: Path, commands: list[list[str]], capsys) -> dict[str, bytes]:
    """The recipe's builds (``commands``) run twice in ``root``, then their state put in the
    layout an earlier sitemapkit left: the versions' state in site/.cache, under their names
    relative to site/, with a key of its own (the root's state stays where it is); each
    version's sitemap as built."""
    site = root / "site"
    for _ in range(2):  # the second build dates each page by its fingerprint
        for words in commands:
            assert main(words) == 0, capsys.readouterr()
    before = {name: (site / name / "sitemap.xml").read_bytes() for name in ("1.0", "2.0")}
    assert all(b"<lastmod>" in sitemap for sitemap in before.values())
    old = site / ".cache" / "sitemapkit"
    old.mkdir(parents=True)
    state = Path(".cache/sitemapkit/state.json")
    for name in ("1.0", "2.0"):
        kept = site_manifest(root / state, f"{BASE}{name}/", site / name, root)
        there = site_manifest(site / state, f"{BASE}{name}/", site / name, site)
        kept.rename(there)
        facts_file(kept).rename(facts_file(there))
    old_key = record_key(site / state)
    for name in ("1.0", "2.0"):
        assert record_signed_again(site / name, record_key(root / state), old_key)
    capsys.readouterr()
    return before


def test_state_an_earlier_build_left_in_the_served_folder_is_taken_out_with_nothing_lost(tmp_path, capsys,
                                                                                          monkeypatch):
    """Earlier builds of the recipe kept each version's state in site/.cache/sitemapkit,
    named after the version's folder relative to site/ (so deployed with the site): a build
    takes its own version's manifest and record from there, its dates and signature kept, and
    names the folder for the user to delete; it deletes nothing."""
    site = versions_tree(tmp_path / "site")
    monkeypatch.chdir(tmp_path)
    commands = [words[1:] for words in recipe(block("versions-plain-folders"))]
    before = state_in_the_served_folder(tmp_path, commands, capsys)
    old, state, old_key = site / ".cache" / "sitemapkit", Path(".cache/sitemapkit/state.json"), record_key(
        site / ".cache/sitemapkit/state.json")

    for words in commands[:2]:
        assert main(words) == 0
        err = capsys.readouterr().err
        assert f"{old}: state_file: an earlier build kept sitemapkit's state here" in err and "[state-in-site]" in err
        assert "record-unsigned" not in err and "sitemap-other" not in err, err
    assert {name: (site / name / "sitemap.xml").read_bytes() for name in ("1.0", "2.0")} == before
    assert sorted(path.name for path in old.iterdir()) == ["record.key"]  # taken out, not deleted
    assert main(commands[2]) == 0 and main(commands[3]) == 0
    # once a version's state has moved, the key left in the served folder signs nothing: a
    # record it signs (anyone who can write into site/ can make one) is not taken as the build's
    assert record_signed_again(site / "1.0", record_key(tmp_path / state), old_key)
    assert main(commands[0]) == 0
    # (it names the version's sitemap alone, which the build writes again: a note, not a warning)
    assert "[record-unsigned-moot]" in capsys.readouterr().err


def test_a_dry_run_over_state_left_in_the_served_folder_tells_what_the_build_would(tmp_path, capsys, monkeypatch):
    """A dry run moves no state (it writes nothing), but reads it where the real build would
    take it from: its warnings and notes are the real build's, its sitemap dated as the real one."""
    site = versions_tree(tmp_path / "site")
    monkeypatch.chdir(tmp_path)
    commands = [words[1:] for words in recipe(block("versions-plain-folders"))]
    before = state_in_the_served_folder(tmp_path, commands, capsys)

    def tree() -> dict[str, tuple[bytes, int]]:
        return {path.relative_to(tmp_path).as_posix(): (path.read_bytes(), path.stat().st_mtime_ns)
                for path in sorted(tmp_path.rglob("*")) if path.is_file()}

    def told(err: str) -> list[str]:
        return [line for line in err.splitlines() if line.startswith(("warning:", "info:"))]

    untouched = tree()
    assert main([*commands[0], "--dry-run"]) == 0
    dry = capsys.readouterr()
    assert tree() == untouched  # nothing written, moved or touched
    assert main(commands[0]) == 0
    real = capsys.readouterr()
    assert told(dry.err) == told(real.err) and "[state-in-site]" in real.err, dry.err
    assert (site / "1.0" / "sitemap.xml").read_bytes() == before["1.0"]  # dated from the taken manifest
    # what it would write: the sitemap as the real build wrote it, the manifest in its new place
    assert f"would write site/1.0/sitemap.xml (2 URLs, {len(before['1.0'])} bytes)" in dry.out
    manifest = site_manifest(tmp_path / ".cache/sitemapkit/state.json", f"{BASE}1.0/", site / "1.0", tmp_path)
    assert manifest.is_file() and f"would write {manifest} (" in dry.out


def test_copies_links_and_empty_folders_are_left_out(tmp_path, capsys):
    site = versions_tree(tmp_path / "site", ("1.0", "2.0", "3.0"))
    for name in ("1.0", "2.0"):
        assert main(["build", str(site / name), "--base-url", f"{BASE}{name}/", "--no-robots-txt", "-q"]) == 0
    # a copy of 2.0 under another name (mike's copy alias), a link to it, and a folder whose
    # sitemap lists nothing of its own
    (site / "stable").mkdir()
    for path in (site / "2.0").rglob("*"):
        target = site / "stable" / path.relative_to(site / "2.0")
        if path.is_dir():
            target.mkdir(exist_ok=True)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(path.read_bytes())
    (site / "latest").symlink_to("2.0")
    (site / "3.0" / "sitemap.xml").write_text(
        '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>')

    assert main(["build", str(site), "--base-url", BASE]) == 0
    err = capsys.readouterr().err
    assert sorted(locs(site / "sitemap.xml")) == [f"{BASE}1.0/sitemap.xml", f"{BASE}2.0/sitemap.xml"]
    assert "stable: version: not listed in the root index: its sitemap.xml lists https://example.org/docs/2.0/" in err
    assert "3.0: version: not listed in the root index: its sitemap.xml lists no URL" in err
    assert "latest" not in err  # a link is never followed, nor named


def test_a_site_with_pages_of_its_own_is_no_versioned_root(tmp_path):
    site = versions_tree(tmp_path / "site", ("fr",))
    assert main(["build", str(site / "fr"), "--base-url", f"{BASE}fr/", "-q"]) == 0
    (site / "index.html").write_text(page("home"), encoding="utf-8")
    assert find_versions(site, "sitemap.xml", BASE) is None
    assert main(["build", str(site), "--base-url", BASE, "-q"]) == 0
    root = assert_valid(site / "sitemap.xml")  # the usual urlset of the site's pages
    assert root.tag.endswith("urlset") and f"{BASE}" in locs(site / "sitemap.xml")


def test_mike_versions_json_names_only_versions(tmp_path):
    site = versions_tree(tmp_path / "site", ("1.0", "2.0"))
    for name in ("1.0", "2.0"):
        assert main(["build", str(site / name), "--base-url", f"{BASE}{name}/", "-q"]) == 0
    hostile = [{"version": "2.0", "aliases": ["latest", "../../etc", "1.0"]},
               {"version": "../outside", "aliases": []}, {"version": "1.0/..", "aliases": []},
               {"version": "1.0"}, "not an object", {"version": 7}]
    (site / "versions.json").write_text(json.dumps(hostile), encoding="utf-8")
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "sitemap.xml").write_text("<urlset/>")
    found = find_versions(site, "sitemap.xml", BASE)
    assert found is not None and found.listed == ("2.0", "1.0")
    assert {name for name, _ in found.left} == {"../outside", "1.0/.."}


def test_a_foreign_root_sitemap_is_never_replaced(tmp_path):
    site = versions_tree(tmp_path / "site")
    for name in ("1.0", "2.0"):
        assert main(["build", str(site / name), "--base-url", f"{BASE}{name}/", "-q"]) == 0
    (site / "sitemap.xml").write_text("mine, not a sitemap", encoding="utf-8")
    assert main(["build", str(site), "--base-url", BASE, "-q"]) == 2
    assert (site / "sitemap.xml").read_text(encoding="utf-8") == "mine, not a sitemap"


@settings(max_examples=40, deadline=None)
@given(names=st.lists(st.text(min_size=1, max_size=12), max_size=6))
def test_any_versions_json_lists_only_folders_inside_the_root(tmp_path_factory, names):
    root = tmp_path_factory.mktemp("root")
    versions_tree(root, ("1.0",))
    main(["build", str(root / "1.0"), "--base-url", f"{BASE}1.0/", "-q"])
    (root / "versions.json").write_text(json.dumps([{"version": name} for name in names]), encoding="utf-8")
    found = find_versions(root, "sitemap.xml", BASE)
    assert found is not None
    for name in found.listed:
        assert (root / name).resolve().parent == root.resolve() and name == "1.0"
    if found.listed:
        report = write_version_index(root, found, Settings(base_url=BASE, robots_txt=False), Report())
        assert locs(root / "sitemap.xml") == [f"{BASE}1.0/sitemap.xml"]
        assert report.files == [root / "sitemap.xml"]
    # (.cache: the state of the build of 1.0, kept beside the folder it built)
    assert set(os.listdir(root)) <= {"1.0", "versions.json", "sitemap.xml", ".sitemapkit-files.json", ".cache"}


def test_dry_run_on_a_versioned_root_writes_nothing_and_names_what_a_build_writes(tmp_path, capsys):
    site = versions_tree(tmp_path / "site")
    for name in ("1.0", "2.0"):
        assert main(["build", str(site / name), "--base-url", f"{BASE}{name}/", "-q", "--no-robots-txt",
                     "--llms-txt"]) == 0
    before = sorted(os.listdir(site))
    capsys.readouterr()
    assert main(["build", str(site), "--base-url", BASE, "--dry-run"]) == 0
    told = capsys.readouterr().out
    assert sorted(os.listdir(site)) == before
    assert main(["build", str(site), "--base-url", BASE, "-q"]) == 0
    written = ["sitemap.xml", "llms.txt", "robots.txt"]  # the root llms.txt links the versions' own
    assert [line.split(" (")[0] for line in told.splitlines()[:-1]] == [f"would write {site / n}" for n in written]
    for name in written:  # each the size the build gave it
        assert f"would write {site / name} (" in told and f"{(site / name).stat().st_size} bytes)" in told
    assert told.splitlines()[-1].startswith("versioned deployment (version folders): 2 versions (1.0, 2.0) in "
                                            "sitemap.xml, llms.txt, robots.txt")


def test_where_mike_deploys_a_version():
    # mike's plugin joins the root with the version, or with canonical_version, unslashed
    assert mike_deployment("https://example.org/p/1.0", "1.0") == Deployment(
        "https://example.org/p/1.0/", "https://example.org/p/", selector=True)
    assert mike_deployment("https://example.org/p/latest", "1.0").url == "https://example.org/p/1.0/"
    assert mike_deployment("https://example.org/p/x", "1.0", root_url="https://example.org/docs").url == (
        "https://example.org/docs/1.0/")
    assert mike_deployment("https://example.org/p/1.0", None) is None
    assert mike_deployment("https://example.org/p/1.0", "../x") is None


@given(version=st.text(max_size=20))
def test_a_versions_url_is_always_below_the_root(version):
    found = mike_deployment("https://example.org/p/latest", version)
    if found is not None:
        assert found.url.startswith(found.root) and found.url != found.root and "/" not in found.url[len(found.root):-1]
        assert not found.other_version(found.url + "page/")
        assert found.other_version(found.root + "other-version/page/") or found.url == found.root + "other-version/"


@settings(max_examples=60, deadline=None)
@given(data=st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                         lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
                             st.sampled_from(["version", "aliases", "title"]), inner, max_size=3), max_leaves=20))
def test_any_json_in_versions_json_is_read_without_a_crash(tmp_path_factory, data):
    root = tmp_path_factory.mktemp("root")
    (root / "versions.json").write_text(json.dumps(data), encoding="utf-8")
    found = find_versions(root, "sitemap.xml", BASE)
    assert found is None or found.listed == ()
    assert all("/" not in name and name not in (".", "..") for name in mike_aliases(root))


def test_versions_json_nested_too_deep_is_no_versions_json(tmp_path):
    (tmp_path / "versions.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    assert find_versions(tmp_path, "sitemap.xml", BASE) is None
    assert mike_aliases(tmp_path) == set()


def test_another_generators_language_folders_are_no_versioned_root(tmp_path, capsys):
    """Hugo's multilingual output: a root that only redirects, and a sitemap.xml of Hugo's in
    each language folder. No sitemapkit build wrote those, so the root is a site like any
    other: its pages are listed, and Hugo's sitemaps are named, not taken for versions."""
    site = versions_tree(tmp_path / "public", ("en", "fr"))
    (site / "index.html").write_text('<!doctype html><html><head><title>x</title>'
                                     '<meta http-equiv="refresh" content="0; url=/docs/en/"></head></html>')
    for lang in ("en", "fr"):
        (site / lang / "sitemap.xml").write_text(
            '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
            f"<url><loc>{BASE}{lang}/</loc></url></urlset>")
    assert find_versions(site, "sitemap.xml", BASE) is None
    assert main(["build", str(site), "--base-url", BASE]) == 0
    assert assert_valid(site / "sitemap.xml").tag.endswith("urlset")
    assert {f"{BASE}en/guide/", f"{BASE}fr/guide/"} <= set(locs(site / "sitemap.xml"))
    err = capsys.readouterr().err
    assert "2 sitemap files another tool wrote are in the site (en/sitemap.xml, fr/sitemap.xml)" in err
