"""Versioned MkDocs sites deployed with mike (real `mike deploy` runs, committing to a local
gh-pages branch; nothing is pushed): each version's own sitemap in either plugin order, the
root index that `sitemapkit build` writes on a checkout of the gh-pages tree, and `validate` on
that root (the documented recipes, on the branch itself: test_docs_versions.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from git_helpers import commit, git, init
from mike_helpers import BASE, config, gh_pages, run_mike
from project_checks import served_file

from sitemap_checks import assert_valid, assert_valid_tree, locs, robots_sitemaps
from sitemapkit.cli import main

pytestmark = pytest.mark.slow  # real mike deploys: MkDocs builds and git commits

REPO = Path(__file__).resolve().parents[1]
ORDERS = {"sitemapkit-before-mike": ["search", "sitemapkit", "mike"],
          "mike-before-sitemapkit": ["search", "mike", "sitemapkit"]}


def two_versions(tmp_path: Path, yml: str, *, alias_type: str = "symlink") -> tuple[Path, str, str]:
    """1.0 with a page 2.0 dropped (old.md), 2.0 with a page of its own (new.md) and the alias
    ``latest``; the deploy logs of both."""
    repo = init(tmp_path / "repo")
    commit(repo, "2026-01-01T00:00:00", {"mkdocs.yml": yml, "docs/index.md": "# Home\n",
                                          "docs/guide.md": "# Guide\n", "docs/old.md": "# Old\n"})
    first = run_mike(repo, "deploy", "1.0")
    git(repo, "rm", "-q", "docs/old.md")
    commit(repo, "2026-02-01T00:00:00", {"docs/new.md": "# New\n"})
    second = run_mike(repo, "deploy", "--alias-type", alias_type, "2.0", "latest")
    return repo, first, second


@pytest.mark.parametrize("order", ORDERS)
def test_each_version_lists_its_own_pages_where_it_is_deployed(tmp_path, order):
    repo, first, _ = two_versions(tmp_path, config(ORDERS[order]))
    tree = gh_pages(repo, tmp_path)
    for version, pages in (("1.0", ["", "guide/", "old/"]), ("2.0", ["", "guide/", "new/"])):
        sitemap = tree / version / "sitemap.xml"
        assert_valid(sitemap)  # a urlset, which Material's version selector reads
        listed = locs(sitemap)
        assert sorted(listed) == sorted(f"{BASE}{version}/{page}" for page in pages)  # the home page too
        assert all(served_file(tree, BASE, url).is_file() for url in listed)
        # crawlers read robots.txt at the host's root only: a version's build leaves it alone
        assert not (tree / version / "robots.txt").exists()
    assert "[robots-version-off]" in first and "canonical elsewhere" not in first


def test_canonical_version_never_lists_another_versions_url(tmp_path):
    yml = config(ORDERS["sitemapkit-before-mike"], {"canonical_version": "latest"})
    repo, first, _ = two_versions(tmp_path, yml)
    tree = gh_pages(repo, tmp_path)
    # 1.0's pages say their canonical URL is latest/...: 1.0 lists them at its own URLs for the
    # version selector only, never latest/old/, which 1.0's build wrote only under 1.0/ (latest/
    # is 2.0, without it)
    assert sorted(locs(tree / "1.0" / "sitemap.xml")) == [f"{BASE}1.0/{page}" for page in ("", "guide/", "old/")]
    told = [line for line in first.splitlines() if "[canonical-other-version]" in line]
    assert len(told) == 1, told  # one line for the version, the pages named in it
    assert ("https://example.org/project/1.0/: canonical: 3 pages listed for the version selector only (" in told[0]
            and "old.md" in told[0] and "their canonical URLs are another version's (such as "
            "https://example.org/project/latest/" in told[0]), told
    assert "[version-home-left-out]" not in first
    assert ("3 canonical in another version: this version's sitemap is kept for the version selector only "
            "(the root index leaves it out)") in first
    # the root lists the pages where they are canonical, latest/ (2.0's), never latest/old/
    # (tests/test_mike_canonical_alias.py)
    assert main(["build", str(tree), "--base-url", BASE]) == 0
    assert locs(tree / "sitemap.xml") == [f"{BASE}sitemap-latest.xml"]
    assert sorted(locs(tree / "sitemap-latest.xml")) == [f"{BASE}latest/{page}" for page in ("", "guide/", "new/")]


@pytest.mark.parametrize("alias_type", ["symlink", "copy", "redirect"])
def test_root_index_lists_each_real_version_once(tmp_path, alias_type, capsys):
    repo, _, _ = two_versions(tmp_path, config(ORDERS["sitemapkit-before-mike"]), alias_type=alias_type)
    run_mike(repo, "set-default", "latest")  # a redirect page at the root
    tree = gh_pages(repo, tmp_path)
    assert (tree / "latest").exists()

    assert main(["build", str(tree), "--base-url", BASE]) == 0
    assert "2 versions (2.0, 1.0) in sitemap.xml, robots.txt" in capsys.readouterr().out
    index = assert_valid(tree / "sitemap.xml")
    assert index.tag.endswith("sitemapindex")
    assert sorted(locs(tree / "sitemap.xml")) == [f"{BASE}1.0/sitemap.xml", f"{BASE}2.0/sitemap.xml"]
    children = assert_valid_tree(tree, BASE)[1:]
    assert all(assert_valid(child).tag.endswith("urlset") for child in children)
    pages = [url for child in children for url in locs(child)]
    assert len(pages) == len(set(pages)) == 6  # no flat copy, no alias, nothing twice
    assert all(served_file(tree, BASE, url).is_file() for url in pages)
    assert robots_sitemaps(tree / "robots.txt") == [f"{BASE}sitemap.xml"]

    capsys.readouterr()
    assert main(["validate", str(tree), "--site-dir", str(tree), "--strict"]) == 0, capsys.readouterr().out
    # a second run changes nothing
    before = (tree / "sitemap.xml").read_bytes(), (tree / "robots.txt").read_bytes()
    assert main(["build", str(tree), "--base-url", BASE]) == 0
    assert ((tree / "sitemap.xml").read_bytes(), (tree / "robots.txt").read_bytes()) == before


def test_a_setting_that_drops_a_versions_home_page_is_a_warning(tmp_path):
    repo = init(tmp_path / "repo")
    commit(repo, "2026-01-01T00:00:00", {"mkdocs.yml": config(ORDERS["mike-before-sitemapkit"]),
                                          "docs/index.md": "---\nsitemap: false\n---\n# Home\n",
                                          "docs/guide.md": "# Guide\n"})
    log = run_mike(repo, "deploy", "1.0")
    assert ("index.md: loc: this version's home page https://example.org/project/1.0/ is left out of its "
            "sitemap (sitemap: false)") in log
    assert "WARNING" in log.split("[version-home-left-out]")[0].splitlines()[-1]
