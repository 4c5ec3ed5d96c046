"""mike's `canonical_version` and Material's version selector (real `mike deploy` runs,
committing to a local gh-pages branch; nothing is pushed).

Material's "stay on page" (integrations/version/findurl in mkdocs-material, the same in the
installed 9.8 bundle) fetches `sitemap.xml` from the chosen version's folder (`../<version>/`,
the version's own name, never an alias), takes each `<loc>` with the page's scheme and host,
and finds the longest common start of them all: that URL must be listed itself (the version's
home page), and the current page's path below its own version's folder, resolved against it,
must be listed too. Every deployed version therefore keeps a `sitemap.xml` of its own pages at
its own URLs, even when their canonical links point at another version; the root index (the
search engines' view) names only versions whose pages are their own canonical."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urljoin, urlsplit, urlunsplit

import pytest
from git_helpers import commit, git, init
from indexnow_endpoint import Engine
from mike_helpers import BASE, config, gh_pages, run_mike
from project_checks import served_file

from sitemap_checks import assert_valid, assert_valid_tree, locs, robots_sitemaps
from sitemapkit.cli import main

pytestmark = pytest.mark.slow  # real mike deploys: MkDocs builds and git commits

ORDERS = {"sitemapkit-before-mike": ["search", "sitemapkit", "mike"],
          "mike-before-sitemapkit": ["search", "mike", "sitemapkit"]}
PAGES = {"1.0": ["", "guide/", "old/"], "2.0": ["", "guide/", "new/"]}
SELECTOR_ONLY = "canonical in another version: this version's sitemap is kept for the version selector only"


def stay_on_page(tree: Path, current: str, version: str) -> str:
    """Where Material's version selector goes from the page ``current`` when ``version`` is
    chosen: the same page when that version's ``sitemap.xml`` lets it match, else that
    version's home (its rule, written here in Python)."""
    current_base = BASE + urlsplit(current).path[len(urlsplit(BASE).path):].split("/", 1)[0] + "/"
    selected = urljoin(current_base, f"../{version}/")
    sitemap = served_file(tree, BASE, urljoin(selected, "sitemap.xml"))
    if not sitemap.is_file():
        return selected  # no sitemap (or unreadable): the version's home
    target = urlsplit(selected)
    keys = {urlunsplit((target.scheme, target.netloc, *urlsplit(loc)[2:])) for loc in locs(sitemap)}
    path, base_path = urlsplit(current).path, urlsplit(current_base).path
    if not path.startswith(base_path):
        return selected
    relative = path[len(base_path):]
    prefix = common_start(keys)  # character by character, as Material compares them
    if prefix not in keys or urljoin(prefix, relative) not in keys:
        return selected
    return urljoin(selected, relative)


def common_start(texts: set[str]) -> str:
    """The longest string every one of ``texts`` starts with."""
    first, last = min(texts, default=""), max(texts, default="")
    size = next((at for at, (a, b) in enumerate(zip(first, last, strict=False)) if a != b), min(len(first), len(last)))
    return first[:size]


def deploy(tmp_path: Path, yml: str, alias_type: str = "symlink") -> tuple[Path, list[str]]:
    """1.0 (with old.md), then 2.0 (without old.md, with new.md), each deployed with the alias
    latest moved to it; the gh-pages tree and both deploy logs."""
    repo = init(tmp_path / "repo")
    commit(repo, "2026-01-01T00:00:00", {"mkdocs.yml": yml, "docs/index.md": "# Home\n",
                                          "docs/guide.md": "# Guide\n", "docs/old.md": "# Old\n"})
    logs = [run_mike(repo, "deploy", "--alias-type", alias_type, "--update-aliases", "1.0", "latest")]
    git(repo, "rm", "-q", "docs/old.md")
    commit(repo, "2026-02-01T00:00:00", {"docs/new.md": "# New\n"})
    logs.append(run_mike(repo, "deploy", "--alias-type", alias_type, "--update-aliases", "2.0", "latest"))
    return gh_pages(repo, tmp_path), logs


def assert_own_sitemaps(tree: Path) -> None:
    """Each version's sitemap.xml: a valid urlset of its own pages, the home page first among
    them, every URL a file of that version's own folder (not reached through an alias)."""
    for version, pages in PAGES.items():
        sitemap = tree / version / "sitemap.xml"
        assert assert_valid(sitemap).tag.endswith("urlset")
        listed = locs(sitemap)
        assert sorted(listed) == [f"{BASE}{version}/{page}" for page in pages]
        assert f"{BASE}{version}/" in listed  # the home page: the common start the selector needs
        for url in listed:
            file = served_file(tree, BASE, url)
            assert file.is_file() and not file.is_symlink()
            assert file.resolve().is_relative_to((tree / version).resolve())


@pytest.mark.parametrize("alias_type", ["symlink", "copy"])
@pytest.mark.parametrize("order", ORDERS)
def test_each_version_keeps_its_own_sitemap_for_the_selector(tmp_path, order, alias_type, capsys):
    tree, logs = deploy(tmp_path, config(ORDERS[order], {"canonical_version": "latest"}), alias_type)
    assert_own_sitemaps(tree)
    for log in logs:  # named in the summary; the home page is listed, so no warning about it
        assert f"3 {SELECTOR_ONLY}" in log
        # told once for the version, not in a line a page
        told = [line for line in log.splitlines() if "[canonical-other-version]" in line]
        assert len(told) == 1 and "3 pages listed for the version selector only (" in told[0], told
        assert "[version-home-left-out]" not in log and "WARNING" not in log

    # the selector, from each version to the other
    assert stay_on_page(tree, f"{BASE}1.0/guide/", "2.0") == f"{BASE}2.0/guide/"
    assert stay_on_page(tree, f"{BASE}2.0/guide/", "1.0") == f"{BASE}1.0/guide/"
    assert stay_on_page(tree, f"{BASE}2.0/", "1.0") == f"{BASE}1.0/"
    assert stay_on_page(tree, f"{BASE}2.0/new/", "1.0") == f"{BASE}1.0/"  # no such page in 1.0: its home
    assert stay_on_page(tree, f"{BASE}1.0/old/", "2.0") == f"{BASE}2.0/"

    # the search engines' view: the root names no version's own sitemap (their pages are
    # canonical at latest/), only the pages at latest/, listed by the root build
    capsys.readouterr()
    assert main(["build", str(tree), "--base-url", BASE]) == 0
    out, err = capsys.readouterr()
    assert locs(tree / "sitemap.xml") == [f"{BASE}sitemap-latest.xml"]
    for version in PAGES:
        assert (f"{tree / version}: version: not listed in the root index: 3 of its 3 pages name a canonical "
                f"URL outside {version}/") in out + err
    assert sorted(locs(tree / "sitemap-latest.xml")) == [f"{BASE}latest/{page}" for page in PAGES["2.0"]]
    children = assert_valid_tree(tree, BASE)[1:]
    assert [child.name for child in children] == ["sitemap-latest.xml"]
    assert robots_sitemaps(tree / "robots.txt") == [f"{BASE}sitemap.xml"]
    assert main(["validate", str(tree), "--site-dir", str(tree), "--strict"]) == 0, capsys.readouterr().out
    out = capsys.readouterr().out
    assert "[page-canonical]" not in out and "[canonical-other-version]" in out
    # notes only: the verdict is OK, not "OK with warnings" with 0 warnings
    assert out.splitlines()[-1].startswith("OK: ") and out.splitlines()[-1].endswith(" 0 errors, 0 warnings, 6 notes")
    assert_own_sitemaps(tree)  # the root build left them as they were


def test_the_root_lists_only_the_canonical_version(tmp_path, capsys):
    """``canonical_version: "2.0"``, a version: 2.0's pages are their own canonical, 1.0's are
    2.0's; 1.0's sitemap stays for the selector, and the index names 2.0's only."""
    tree, logs = deploy(tmp_path, config(ORDERS["sitemapkit-before-mike"], {"canonical_version": "'2.0'"}))
    assert f"3 {SELECTOR_ONLY}" in logs[0] and SELECTOR_ONLY not in logs[1]
    assert_own_sitemaps(tree)
    assert stay_on_page(tree, f"{BASE}2.0/guide/", "1.0") == f"{BASE}1.0/guide/"

    assert main(["build", str(tree), "--base-url", BASE]) == 0
    assert locs(tree / "sitemap.xml") == [f"{BASE}2.0/sitemap.xml"]
    assert not (tree / "sitemap-latest.xml").exists()
    listed = [url for child in assert_valid_tree(tree, BASE)[1:] for url in locs(child)]
    assert sorted(listed) == [f"{BASE}2.0/{page}" for page in PAGES["2.0"]]
    capsys.readouterr()
    assert main(["validate", str(tree), "--site-dir", str(tree), "--strict"]) == 0, capsys.readouterr().out


NOINDEX_HOME = """{% extends "base.html" %}
{% block extrahead %}{% if page and page.is_homepage %}<meta name="robots" content="noindex">{% endif %}{% endblock %}
"""


@pytest.mark.parametrize("setting", ["noindex", "exclude"])
def test_a_setting_that_drops_the_home_page_is_warned(tmp_path, setting):
    """A noindex home page (a theme override) or an exclude pattern that matches it
    (``index.html``, with MkDocs' ``use_directory_urls: false``), under canonical_version."""
    yml = config(["search", "sitemapkit", "mike"], {"canonical_version": "latest"})
    files = {"docs/index.md": "# Home\n", "docs/guide.md": "# Guide\n"}
    if setting == "noindex":
        yml += "theme:\n  name: mkdocs\n  custom_dir: overrides\n"
        files["overrides/main.html"] = NOINDEX_HOME
    else:
        yml = yml.replace("  - sitemapkit\n", "  - sitemapkit:\n      exclude: [index.html]\n")
        yml += "use_directory_urls: false\n"
    repo = init(tmp_path / "repo")
    commit(repo, "2026-01-01T00:00:00", {"mkdocs.yml": yml, **files})
    log = run_mike(repo, "deploy", "1.0")
    line = next(line for line in log.splitlines() if "[version-home-left-out]" in line)
    assert line.startswith("WARNING") and f"({setting})" in line
    assert "https://example.org/project/1.0/ is left out of its sitemap" in line


def test_a_home_page_named_index_html_is_named(tmp_path):
    """``use_directory_urls: false``: MkDocs names the home page ``index.html``, so the common
    start of the listed URLs (the version's folder) is not listed and the selector matches no
    page; the build says so (an info line: MkDocs' own sitemap has the same limit)."""
    yml = config(["search", "sitemapkit", "mike"]) + "use_directory_urls: false\n"
    repo = init(tmp_path / "repo")
    commit(repo, "2026-01-01T00:00:00", {"mkdocs.yml": yml, "docs/index.md": "# Home\n",
                                          "docs/guide.md": "# Guide\n"})
    run_mike(repo, "deploy", "1.0")
    log = run_mike(repo, "deploy", "2.0")
    line = next(line for line in log.splitlines() if "[version-home-unmatched]" in line)
    assert line.startswith("INFO") and f"listed as {BASE}2.0/index.html, not {BASE}2.0/" in line
    tree = gh_pages(repo, tmp_path)
    assert sorted(locs(tree / "2.0" / "sitemap.xml")) == [f"{BASE}2.0/guide.html", f"{BASE}2.0/index.html"]
    assert stay_on_page(tree, f"{BASE}1.0/guide.html", "2.0") == f"{BASE}2.0/"  # as the line says


@pytest.fixture
def endpoint():
    served = Engine()
    yield served
    served.close()


def test_indexnow_is_not_told_of_a_selector_only_version(tmp_path, endpoint):
    """With ``canonical_version: "2.0"``, a changed page of 1.0 is not submitted (its canonical
    URL is 2.0's); the same change in 2.0 is. (A first build only notes what the pages are.)"""
    yml = config(["search", "sitemapkit", "mike"], {"canonical_version": "'2.0'"}).replace(
        "  - sitemapkit\n", f"  - sitemapkit:\n      indexnow: {{key: 0123456789abcdef, endpoint: '{endpoint.url}'}}\n")
    repo = init(tmp_path / "repo")
    commit(repo, "2026-01-01T00:00:00", {"mkdocs.yml": yml, "docs/index.md": "# Home\n",
                                          "docs/guide.md": "# Guide\n"})
    run_mike(repo, "deploy", "1.0")
    commit(repo, "2026-01-02T00:00:00", {"docs/guide.md": "# Guide\n\nChanged.\n"})
    log = run_mike(repo, "deploy", "1.0")
    assert endpoint.urls == []
    assert "IndexNow not called: 2 pages of this version have their canonical URL in another version" in log
    run_mike(repo, "deploy", "2.0")
    commit(repo, "2026-01-03T00:00:00", {"docs/guide.md": "# Guide\n\nChanged again.\n"})
    log = run_mike(repo, "deploy", "2.0")
    assert endpoint.urls == [f"{BASE}2.0/guide/"], log
