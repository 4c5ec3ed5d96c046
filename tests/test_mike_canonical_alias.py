"""mike's `canonical_version: latest`: every version's pages name their `latest/` URL as
canonical, so no version's own sitemap (kept for Material's version selector) is for search
engines. `sitemapkit build` on the gh-pages
root lists the canonical version's pages at their `latest/` URLs (taken from the version
`latest` points to, only pages whose file is under `latest/`) in `sitemap-latest.xml`, under
the root index; nothing else lists them; `validate` on the deployed root is clean."""

from __future__ import annotations

import pytest
from git_helpers import commit, git, init
from lxml import etree
from mike_helpers import BASE, config, gh_pages, run_mike
from project_checks import served_file

from sitemap_checks import assert_valid, assert_valid_tree, locs, robots_sitemaps
from sitemapkit.cli import main
from sitemapkit.protocol import SITEMAP_NS as NS

pytestmark = pytest.mark.slow  # real mike deploys: MkDocs builds and git commits

CANONICAL = config(["search", "sitemapkit", "mike"], {"canonical_version": "latest"})


def dated(path) -> dict[str, str | None]:
    """Each ``<loc>`` of a urlset with its ``<lastmod>``."""
    tree = etree.fromstring(path.read_bytes())
    return {item.findtext(f"{{{NS}}}loc"): item.findtext(f"{{{NS}}}lastmod") for item in tree}


def deploy_both(tmp_path, alias_type: str = "symlink"):
    """1.0 then 2.0, each deployed with the alias latest moved to it; 1.0 has old.md, which
    2.0 dropped, and 2.0 has new.md."""
    repo = init(tmp_path / "repo")
    commit(repo, "2026-01-01T00:00:00", {"mkdocs.yml": CANONICAL, "docs/index.md": "# Home\n",
                                          "docs/guide.md": "# Guide\n", "docs/old.md": "# Old\n"})
    run_mike(repo, "deploy", "--alias-type", alias_type, "--update-aliases", "1.0", "latest")
    git(repo, "rm", "-q", "docs/old.md")
    commit(repo, "2026-02-01T00:00:00", {"docs/new.md": "# New\n"})
    run_mike(repo, "deploy", "--alias-type", alias_type, "--update-aliases", "2.0", "latest")
    return repo, gh_pages(repo, tmp_path)


@pytest.mark.parametrize("alias_type", ["symlink", "copy"])
def test_the_root_lists_the_canonical_alias(tmp_path, alias_type, capsys):
    _, tree = deploy_both(tmp_path, alias_type)
    for version in ("1.0", "2.0"):  # the version selector's data, at the version's own URLs: not in the index
        assert all(url.startswith(f"{BASE}{version}/") for url in locs(tree / version / "sitemap.xml"))

    assert main(["build", str(tree), "--base-url", BASE]) == 0
    out = capsys.readouterr().out
    assert "sitemap.xml, sitemap-latest.xml, robots.txt" in out
    assert assert_valid(tree / "sitemap.xml").tag.endswith("sitemapindex")
    assert locs(tree / "sitemap.xml") == [f"{BASE}sitemap-latest.xml"]
    assert assert_valid(tree / "sitemap-latest.xml").tag.endswith("urlset")
    # 2.0's pages (latest points at 2.0), at latest/; never latest/old/ (only 1.0 had it: a 404)
    assert sorted(locs(tree / "sitemap-latest.xml")) == [f"{BASE}latest/{page}" for page in ("", "guide/", "new/")]
    children = assert_valid_tree(tree, BASE)[1:]
    listed = [url for child in children for url in locs(child)]
    assert len(listed) == len(set(listed)) == 3  # nothing else lists them
    assert all(served_file(tree, BASE, url).is_file() for url in listed)
    assert robots_sitemaps(tree / "robots.txt") == [f"{BASE}sitemap.xml"]
    # the pages keep the dates 2.0's own build gave them (git), at their latest/ URLs
    own = {loc.replace("/2.0/", "/latest/"): day for loc, day in dated(tree / "2.0" / "sitemap.xml").items()}
    assert dated(tree / "sitemap-latest.xml") == own and all(own.values()), own
    assert main(["validate", str(tree), "--site-dir", str(tree), "--strict"]) == 0, capsys.readouterr().out

    # a second run changes nothing
    before = [(tree / name).read_bytes() for name in ("sitemap.xml", "sitemap-latest.xml", "robots.txt")]
    assert main(["build", str(tree), "--base-url", BASE]) == 0
    assert [(tree / name).read_bytes() for name in ("sitemap.xml", "sitemap-latest.xml", "robots.txt")] == before


def test_the_alias_moved_back_lists_the_other_version(tmp_path, capsys):
    repo, tree = deploy_both(tmp_path)
    git(repo, "worktree", "remove", "--force", str(tree))
    run_mike(repo, "alias", "--update-aliases", "1.0", "latest")
    tree = gh_pages(repo, tmp_path)
    assert main(["build", str(tree), "--base-url", BASE]) == 0
    assert sorted(locs(tree / "sitemap-latest.xml")) == [f"{BASE}latest/{page}" for page in ("", "guide/", "old/")]
    capsys.readouterr()
    assert main(["validate", str(tree), "--site-dir", str(tree), "--strict"]) == 0, capsys.readouterr().out


def test_redirect_alias_pages_are_not_listed(tmp_path, capsys):
    _, tree = deploy_both(tmp_path, "redirect")
    assert main(["build", str(tree), "--base-url", BASE]) == 0  # a warning, not a failure
    assert "[version-none]" in capsys.readouterr().err
    assert not (tree / "sitemap-latest.xml").exists() and not (tree / "sitemap.xml").exists()


def test_an_alias_sitemap_no_longer_made_is_removed(tmp_path, capsys):
    repo, tree = deploy_both(tmp_path)
    assert main(["build", str(tree), "--base-url", BASE]) == 0
    assert (tree / "sitemap-latest.xml").is_file()
    git(tree, "add", "sitemap*.xml", "robots.txt", ".sitemapkit-files.json")  # committed by hand, on a checkout
    commit(tree, "2026-02-02T00:00:00", message="Root sitemap index")
    git(repo, "worktree", "remove", str(tree))
    commit(repo, "2026-03-01T00:00:00", {"mkdocs.yml": config(["search", "sitemapkit", "mike"])})
    run_mike(repo, "deploy", "--update-aliases", "2.0", "latest")  # canonical_version dropped
    tree = gh_pages(repo, tmp_path)
    assert (tree / "sitemap-latest.xml").is_file()  # kept by mike's deploy
    assert main(["build", str(tree), "--base-url", BASE]) == 0
    assert not (tree / "sitemap-latest.xml").exists()  # removed: its pages are 2.0's own again
    assert locs(tree / "sitemap.xml") == [f"{BASE}2.0/sitemap.xml"]
    capsys.readouterr()
    assert main(["validate", str(tree), "--site-dir", str(tree), "--strict"]) == 0, capsys.readouterr().out
