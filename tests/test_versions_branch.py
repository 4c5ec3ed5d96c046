"""The root entry point written on mike's gh-pages branch itself (`sitemapkit build --branch
gh-pages --push`), through mike's real lifecycle against a local bare origin standing in for
GitHub: deploys, an alias, a patch redeploy, a hidden version, a delete; after each, the
origin's root index names exactly the live, visible versions and validates."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from git_helpers import commit, git, init
from mike_helpers import BASE, BIN, config, run_mike

from sitemap_checks import assert_valid
from sitemapkit.branch import BranchError, open_branch
from sitemapkit.cli import main
from sitemapkit.report import Report
from sitemapkit.settings import Settings
from sitemapkit.version_branch import root_on_branch

pytestmark = pytest.mark.slow  # real mike deploys, MkDocs builds, git commits and pushes

ENV = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}", "GIT_CONFIG_GLOBAL": os.devnull,
       "GIT_CONFIG_NOSYSTEM": "1", "SOURCE_DATE_EPOCH": "1767225600"}


def root_step(repo: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    """The documented command, run as a shell runs it, in the repository."""
    return subprocess.run([str(BIN / "sitemapkit"), "build", "--branch", "gh-pages", "--push", *extra],
                          cwd=repo, env=ENV, capture_output=True, text=True)


def origin_file(origin: Path, name: str) -> str:
    return git(origin, "show", f"gh-pages:{name}")


def index_locs(origin: Path) -> list[str]:
    from lxml import etree

    tree = etree.fromstring(origin_file(origin, "sitemap.xml").encode())
    return sorted(node.text for node in tree.iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc"))


def checkout(origin: Path, where: Path) -> Path:
    subprocess.run(["git", "clone", "-q", "-b", "gh-pages", str(origin), str(where)], check=True, env=ENV)
    return where


def validate_strict(site: Path, capsys) -> tuple[int, str]:
    capsys.readouterr()
    status = main(["validate", str(site), "--site-dir", str(site), "--strict"])
    return status, capsys.readouterr().out


def project(tmp_path: Path) -> tuple[Path, Path]:
    origin = tmp_path / "origin.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(origin)], check=True, env=ENV)
    repo = init(tmp_path / "repo")
    git(repo, "remote", "add", "origin", origin.as_uri())
    commit(repo, "2026-01-01T00:00:00", {"mkdocs.yml": config(["search", "sitemapkit", "mike"]),
                                          "docs/index.md": "# Home\n", "docs/guide.md": "# Guide\n"})
    return repo, origin


def test_the_root_follows_mikes_lifecycle_on_the_branch(tmp_path, capsys):
    repo, origin = project(tmp_path)
    step = 0

    def after(*versions: str) -> str:
        """The documented command, then the origin's root index: exactly ``versions``."""
        nonlocal step
        step += 1
        shutil.rmtree(repo / ".cache", ignore_errors=True)  # each CI run a new machine, nothing cached
        done = root_step(repo)
        assert done.returncode == 0, done.stderr
        assert "; 0 warnings" in done.stdout and "warning" not in done.stderr, done.stdout + done.stderr
        assert index_locs(origin) == sorted(f"{BASE}{v}/sitemap.xml" for v in versions)
        assert git(origin, "rev-parse", "gh-pages") == git(repo, "rev-parse", "gh-pages")  # mike's commits too
        assert f"Sitemap: {BASE}sitemap.xml" in origin_file(origin, "robots.txt").splitlines()
        site = checkout(origin, tmp_path / f"checkout-{step}")
        status, out = validate_strict(site, capsys)
        assert status == 0, out
        return done.stdout

    run_mike(repo, "deploy", "1.0")
    assert "committed .sitemapkit-files.json, robots.txt, sitemap.xml" in after("1.0")
    commit(repo, "2026-02-01T00:00:00", {"docs/new.md": "# New\n"})
    run_mike(repo, "deploy", "--update-aliases", "2.0", "latest")
    out = after("1.0", "2.0")  # never the alias latest/
    assert "committed" in out
    # each child carries the lastmod of its version's newest page (git dates of its sources)
    index = origin_file(origin, "sitemap.xml")
    assert "<lastmod>2026-02-01" in index and "<lastmod>2026-01-01" in index

    # a patch redeploy that changes no page: mike commits, the root does not change, nothing
    # is committed and the push still publishes mike's deploy (bash -e would stop at a commit)
    commit(repo, "2026-02-02T00:00:00", {"README.md": "readme\n"})
    run_mike(repo, "deploy", "--update-aliases", "2.0", "latest")
    mike_head = git(repo, "rev-parse", "gh-pages")
    out = after("1.0", "2.0")
    assert "root unchanged, nothing committed" in out
    assert git(origin, "rev-parse", "gh-pages") == mike_head
    # again: idempotent
    assert "root unchanged, nothing committed" in after("1.0", "2.0")

    # a hidden version is deployed but never indexed
    run_mike(repo, "deploy", "--prop-set", "hidden=true", "0.9")
    listed = json.loads(git(repo, "show", "gh-pages:versions.json"))
    assert {"hidden": True} in [item.get("properties") for item in listed]  # mike 2's own spelling
    shown = subprocess.run([str(BIN / "sitemapkit"), "build", "--branch", "gh-pages"], cwd=repo, env=ENV,
                           capture_output=True, text=True).stderr
    assert "info: gh-pages:0.9: version: not listed in the root index" in shown, shown  # as on the branch
    assert "sitemapkit-branch-" not in shown  # never the private copy's folder
    after("1.0", "2.0")

    run_mike(repo, "delete", "1.0")
    after("2.0")
    commit(repo, "2026-03-01T00:00:00", {"docs/third.md": "# Third\n"})
    run_mike(repo, "deploy", "--update-aliases", "3.0", "latest")
    after("2.0", "3.0")
    assert_valid(checkout(origin, tmp_path / "last") / "sitemap.xml")

    # a root made stale by hand (1.0 named again, 3.0 left out) fails validation
    stale = tmp_path / "last"
    index = (stale / "sitemap.xml").read_text(encoding="utf-8").replace("3.0/sitemap.xml", "1.0/sitemap.xml")
    (stale / "sitemap.xml").write_text(index, encoding="utf-8")
    status, out = validate_strict(stale, capsys)
    assert status == 1, out
    assert "1.0/sitemap.xml" in out and "3.0" in out


def test_a_branch_moved_under_it_is_refused_and_nothing_is_committed(tmp_path):
    repo, _ = project(tmp_path)
    run_mike(repo, "deploy", "1.0")
    branch = open_branch(repo, "gh-pages")
    run_mike(repo, "deploy", "2.0")  # the branch moves while the root is being written
    moved = git(repo, "rev-parse", "gh-pages")
    with pytest.raises(BranchError, match="branch gh-pages moved while its root was written"):
        root_on_branch(branch, Settings(base_url=BASE), Report())
    assert git(repo, "rev-parse", "gh-pages") == moved


def test_a_branch_with_no_versions_is_refused_in_one_line(tmp_path):
    repo, _ = project(tmp_path)
    git(repo, "branch", "gh-pages")  # main's tree: no versions.json, no version folders
    done = root_step(repo)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "holds no versioned deployment" in done.stderr
    done = root_step(repo.parent)  # no repository at all
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_flags_the_root_step_cannot_honour_are_refused(tmp_path):
    repo, _ = project(tmp_path)
    for flags in (["--exclude", "guide/"], ["--section", "guide/"], ["--changefreq", "daily"],
                  ["--transform", "nomodule:nothing"]):
        done = root_step(repo, *flags)
        assert done.returncode == 2, (flags, done.stderr)
        assert done.stderr.count("\n") == 1 and "do" in done.stderr and flags[0] in done.stderr, done.stderr


def test_extra_urls_and_sitemaps_are_left_to_the_root_and_written_there_once(tmp_path, capsys):
    repo, origin = project(tmp_path)
    yml = config(["search", "mike"]) + ("  - sitemapkit:\n      extra_urls: [app/]\n"
                                        f"      extra_sitemaps: ['{BASE}shop/sitemap.xml']\n")
    commit(repo, "2026-01-02T00:00:00", {"mkdocs.yml": yml})
    log = run_mike(repo, "deploy", "1.0")
    assert "[version-root-options]" in log and "extra_urls and extra_sitemaps left to the root" in log
    version = git(repo, "show", "gh-pages:1.0/sitemap.xml")
    assert "app/" not in version and "shop" not in version  # never /project/1.0/app/, a 404
    done = root_step(repo, "--extra-url", "app/", "--extra-sitemap", f"{BASE}shop/sitemap.xml")
    assert done.returncode == 0, done.stderr
    assert index_locs(origin) == sorted([f"{BASE}1.0/sitemap.xml", f"{BASE}sitemap-extra.xml",
                                         f"{BASE}shop/sitemap.xml"])
    assert f"<loc>{BASE}app/</loc>" in origin_file(origin, "sitemap-extra.xml")
    assert f"Sitemap: {BASE}shop/sitemap.xml" in origin_file(origin, "robots.txt")
    status, out = validate_strict(checkout(origin, tmp_path / "check"), capsys)
    assert status == 0, out


def test_a_hostile_branch_is_read_safely_and_only_its_root_files_change(tmp_path, capsys, monkeypatch):
    """A gh-pages tree made by hand: links out of the tree, a versions.json naming folders
    outside, a "sitemap" that is no XML; the root step reads none of them beyond its
    limits, commits only root files, and --dry-run commits nothing."""
    repo = init(tmp_path / "repo")
    git(repo, "checkout", "-q", "--orphan", "gh-pages")
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "sitemap.xml").write_text("<urlset/>", encoding="utf-8")
    files = {"versions.json": json.dumps([{"version": "1.0", "aliases": ["latest"]}, {"version": "../outside"},
                                          {"version": "evil"}, {"version": "big"}]),
             "1.0/index.html": "<!doctype html><title>1</title><p>1</p>",
             "1.0/sitemap.xml": f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>{BASE}1.0/'
                                "</loc><lastmod>2026-01-05</lastmod></url></urlset>",
             "big/sitemap.xml": "<" * (1 << 16), "1.0/style.css": "body{}"}
    commit(repo, "2026-01-06T00:00:00", files, message="by hand")
    (repo / "latest").symlink_to("1.0")
    (repo / "evil").symlink_to("../outside")
    (repo / "abs").symlink_to("/etc")
    commit(repo, "2026-01-06T00:00:01", message="links")
    before = set(git(repo, "ls-tree", "-r", "--name-only", "gh-pages").split())
    monkeypatch.chdir(repo)
    assert main(["build", "--branch", "gh-pages", "--base-url", BASE, "--dry-run"]) == 0
    assert "would commit .sitemapkit-files.json, robots.txt, sitemap.xml" in capsys.readouterr().out
    assert "sitemap.xml" not in git(repo, "ls-tree", "--name-only", "gh-pages")  # nothing committed
    assert main(["build", "--branch", "gh-pages", "--base-url", BASE, "--format", "json"]) == 0
    made = json.loads(capsys.readouterr().out)
    assert made["branch"] == "gh-pages" and made["commit"] == git(repo, "rev-parse", "gh-pages").strip()
    assert made["changed"] == [".sitemapkit-files.json", "robots.txt", "sitemap.xml"]
    after = set(git(repo, "ls-tree", "-r", "--name-only", "gh-pages").split())
    assert after - before == {".sitemapkit-files.json", "robots.txt", "sitemap.xml"} and before <= after
    index = git(repo, "show", "gh-pages:sitemap.xml")
    assert f"<loc>{BASE}1.0/sitemap.xml</loc>" in index and "outside" not in index and "evil" not in index
    assert git(repo, "show", "gh-pages:evil") == "../outside"  # a link stays as it was, never followed


def test_a_branch_of_many_files_is_read_one_blob_at_a_time(tmp_path, monkeypatch, capsys):
    """Thousands of pages: the object names are fed to git while its answers are read, so
    neither pipe fills up and stops the other."""
    repo = init(tmp_path / "repo")
    git(repo, "checkout", "-q", "--orphan", "gh-pages")
    pages = {f"1.0/p{n}/index.html": f"<!doctype html><title>{n}</title><p>{n}</p>" for n in range(2500)}
    urls = "".join(f"<url><loc>{BASE}1.0/p{n}/</loc></url>" for n in range(2500))
    files = {**pages, "versions.json": json.dumps([{"version": "1.0", "aliases": []}]),
             "1.0/sitemap.xml": f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{urls}</urlset>'}
    commit(repo, "2026-01-06T00:00:00", files, message="many")
    monkeypatch.chdir(repo)
    assert main(["build", "--branch", "gh-pages", "--base-url", BASE, "-q"]) == 0
    assert f"<loc>{BASE}1.0/sitemap.xml</loc>" in git(repo, "show", "gh-pages:sitemap.xml")


def test_the_root_step_takes_its_options_from_the_plugins_entry_in_mkdocs_yml(tmp_path):
    """The options a project sets once, in mkdocs.yml's sitemapkit entry, reach the root step
    run in that project: the root index takes the versions' ``filename`` and gets its ``gzip``
    twin, and ``extra_urls`` (which each version's build leaves to the root) is listed there, in its own file.
    Before, the root step looked for each version's sitemap.xml, found none, and wrote no index."""
    origin = tmp_path / "origin.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(origin)], check=True, env=ENV)
    repo = init(tmp_path / "repo")
    git(repo, "remote", "add", "origin", origin.as_uri())
    mkdocs_yml = (f"site_name: Project\nsite_url: {BASE}\nplugins:\n  - search\n  - sitemapkit:\n"
                  "      filename: docs-map.xml\n      gzip: true\n      images: false\n"
                  f"      extra_urls: ['{BASE}app/']\n  - mike\n")
    commit(repo, "2026-01-01T00:00:00", {"mkdocs.yml": mkdocs_yml, "docs/index.md": "# Home\n"})
    run_mike(repo, "deploy", "1.0")
    assert "docs-map.xml" in git(repo, "ls-tree", "--name-only", "gh-pages", "1.0/")  # the version's own
    done = root_step(repo)
    assert done.returncode == 0, done.stderr  # images (each version's option) is not refused: not given here
    names = git(origin, "ls-tree", "--name-only", "gh-pages").splitlines()
    assert {"docs-map.xml", "docs-map.xml.gz", "docs-map-extra.xml"} <= set(names) and "sitemap.xml" not in names
    assert f"{BASE}1.0/docs-map.xml" in origin_file(origin, "docs-map.xml")
    assert f"{BASE}app/" in origin_file(origin, "docs-map-extra.xml")
    assert f"Sitemap: {BASE}docs-map.xml" in origin_file(origin, "robots.txt").splitlines()
    # a flag still wins over the project's value
    flagged = subprocess.run([str(BIN / "sitemapkit"), "build", "--branch", "gh-pages", "--no-gzip", "--dry-run"],
                             cwd=repo, env=ENV, capture_output=True, text=True)
    assert flagged.returncode == 0, flagged.stderr
