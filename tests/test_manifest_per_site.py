"""A manifest belongs to one site: builds of other sites or configs sharing a project folder
(one MkDocs config per language, sibling site folders built by the command line, mike's
versions) never re-date each other's pages, and a new site's first build takes no first-seen
time from another site's manifest. Real `mkdocs build`, `sitemapkit build` and `mike deploy`
runs; each build's "now" is set by SOURCE_DATE_EPOCH so that a re-dated page shows."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from git_helpers import commit, git, init
from manifest_paths import manifests_in

from sitemap_checks import assert_valid, assert_valid_tree

pytestmark = pytest.mark.slow  # real mkdocs, sitemapkit, mike and sphinx-build runs (make test-fast leaves them out)

BIN = Path(sys.executable).parent
NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
T1, T2, T3, T4, T5 = (str(1_700_000_000 + 86_400 * day) for day in range(5))
WHEN = {T1: "2023-11-14T22:13:20Z", T2: "2023-11-15T22:13:20Z", T3: "2023-11-16T22:13:20Z"}


def lastmods(sitemap: Path) -> dict[str, str | None]:
    """loc -> lastmod text of a urlset, checked against the XSD."""
    root = assert_valid(sitemap)
    return {url.findtext("s:loc", namespaces=NS): url.findtext("s:lastmod", namespaces=NS)
            for url in root.iterfind("s:url", NS)}


def run(command: list[str], cwd: Path, epoch: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "SOURCE_DATE_EPOCH": epoch, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
           "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}  # mike runs `mkdocs`
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done


def write_docs(root: Path, pages: dict[str, str]) -> None:
    for name, text in pages.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def mkdocs_config(path: Path, site_url: str, docs_dir: str, site_dir: str, **extra) -> Path:
    config = {"site_name": "Docs", "site_url": site_url, "docs_dir": docs_dir, "site_dir": site_dir,
              "theme": {"name": "mkdocs"}, "plugins": [{"sitemapkit": {"lastmod": ["fingerprint"]}}], **extra}
    path.write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    return path


# ------------------------------------------------------------- two configs, one folder


@pytest.mark.parametrize("fr_url", ["https://example.com/fr/", "https://example.com/"],
                         ids=["own site_url", "same site_url"])
def test_two_mkdocs_configs_in_one_folder_never_redate_each_other(tmp_path, fr_url):
    """``mkdocs build -f mkdocs.en.yml`` then ``-f mkdocs.fr.yml``, in turn, nothing edited:
    the English home page keeps the time its content was first seen; the French site's first
    build dates nothing (it has no earlier build), its second build dates its own pages."""
    write_docs(tmp_path, {"docs/en/index.md": "# Home\n\nWelcome.\n", "docs/en/guide.md": "# Guide\n\nSteps.\n",
                          "docs/fr/index.md": "# Accueil\n\nBienvenue.\n"})
    en = mkdocs_config(tmp_path / "mkdocs.en.yml", "https://example.com/", "docs/en", "site/en")
    fr = mkdocs_config(tmp_path / "mkdocs.fr.yml", fr_url, "docs/fr", "site/fr")
    mkdocs = [str(BIN / "mkdocs"), "build", "--strict", "-f"]

    def build(config: Path, epoch: str) -> dict[str, str | None]:
        run([*mkdocs, str(config)], tmp_path, epoch)
        site = tmp_path / "site" / ("en" if config == en else "fr")
        assert_valid_tree(site, "https://example.com/" if config == en else fr_url)
        return lastmods(site / "sitemap.xml")

    assert set(build(en, T1).values()) == {None}  # a first build: nothing known yet
    assert set(build(en, T2).values()) == {WHEN[T1]}  # first seen at T1
    # The French site's first build: no first-seen time taken from the English manifest.
    assert set(build(fr, T3).values()) == {None}
    for epoch in (T4, T5):
        assert set(build(en, epoch).values()) == {WHEN[T1]}, "an English page re-dated"
        assert set(build(fr, epoch).values()) == {WHEN[T3]}, "a French page re-dated"
    assert len(manifests_in(tmp_path / ".cache" / "sitemapkit")) == 2


# ------------------------------------------------------------ sibling command-line sites


def test_sibling_site_folders_built_by_the_command_line_keep_their_own_dates(tmp_path):
    """Three sites under one folder (two hosts; one host built from two folders, a preview
    and the real one): each keeps its own first-seen times whatever was built between."""
    sites = {"a": "https://a.example/", "b": "https://b.example/", "preview": "https://a.example/"}
    for name in sites:
        write_docs(tmp_path / "sites" / name, {
            "index.html": f"<html><head><title>{name}</title></head><body><main>{name} home</main></body></html>",
            "page.html": f"<html><head><title>{name}</title></head><body><main>{name} page</main></body></html>",
        })

    def build(name: str, epoch: str) -> dict[str, str | None]:
        site = tmp_path / "sites" / name
        run([str(BIN / "sitemapkit"), "build", str(site), "--base-url", sites[name], "--lastmod", "fingerprint"],
            tmp_path, epoch)
        assert_valid_tree(site, sites[name])
        return lastmods(site / "sitemap.xml")

    assert set(build("a", T1).values()) == {None}
    assert set(build("b", T2).values()) == {None}  # a new site: nothing from a's manifest
    assert set(build("preview", T2).values()) == {None}
    assert set(build("a", T3).values()) == {WHEN[T1]}
    assert set(build("b", T3).values()) == {WHEN[T2]}
    assert set(build("preview", T4).values()) == {WHEN[T2]}
    assert set(build("a", T5).values()) == {WHEN[T1]}


# --------------------------------------------------------------------- mike's versions


def test_mike_redeploying_one_version_keeps_every_date_of_it(tmp_path):
    """``mike deploy 1.0``, ``mike deploy 2.0``, ``mike deploy 1.0`` again from the same commit
    with ``lastmod: [fingerprint]``: every 1.0 page keeps its date. mike builds every version
    into the same site_dir with its own site_url (``…/1.0/``)."""
    repo = init(tmp_path / "project")
    write_docs(repo, {"docs/index.md": "# Home\n\nWelcome.\n", "docs/guide.md": "# Guide\n\nSteps.\n",
                      ".gitignore": "site/\n.cache/\n"})
    mkdocs_config(repo / "mkdocs.yml", "https://example.com/", "docs", "site")
    commit(repo, "2024-01-01T00:00:00")
    mike = [str(BIN / "mike"), "deploy"]

    def deployed(version: str, epoch: str) -> dict[str, str | None]:
        run([*mike, version], repo, epoch)
        written = tmp_path / f"{version}-{epoch}.xml"  # the version's sitemap as gh-pages holds it
        written.write_text(git(repo, "show", f"gh-pages:{version}/sitemap.xml"), encoding="utf-8")
        return lastmods(written)

    one = "https://example.com/1.0/"
    assert deployed("1.0", T1) == {one: None, one + "guide/": None}  # a first build
    assert deployed("1.0", T2) == {one: WHEN[T1], one + "guide/": WHEN[T1]}
    assert set(deployed("2.0", T3).values()) == {None}  # 2.0's own first build
    assert deployed("1.0", T4) == {one: WHEN[T1], one + "guide/": WHEN[T1]}
    assert set(deployed("2.0", T5).values()) == {WHEN[T3]}


# ------------------------------------------------------------------ the CI page's recipe


@pytest.mark.parametrize("languages", [("",), ("", "fr")], ids=["one config", "a config per language"])
def test_ci_recipe_shallow_clone_with_the_cached_manifest_moves_no_lastmod(tmp_path, languages):
    """docs/ci.md, as written for GitLab (its default checkout is shallow): each CI run is a
    fresh ``git clone --depth 1`` in a new folder, with ``.cache/sitemapkit`` restored from
    the run before; ``mkdocs build --strict --site-dir public`` (once per config: a French
    config beside the English one builds into ``public/fr``), then ``sitemapkit validate
    public --site-dir public --strict``. Nothing changes between runs: no lastmod moves."""
    origin = init(tmp_path / "origin")
    write_docs(origin, {".gitignore": "public/\n.cache/\n"})
    for lang in languages:
        docs = f"docs{lang and '-'}{lang}"
        write_docs(origin, {f"{docs}/index.md": f"# Home {lang}\n\nWelcome.\n",
                            f"{docs}/guide.md": f"# Guide {lang}\n\nSteps.\n"})
        mkdocs_config(origin / f"mkdocs{lang and '.'}{lang}.yml", f"https://example.com/{lang}{lang and '/'}",
                      docs, "site", plugins=["sitemapkit"])
    commit(origin, "2024-01-01T00:00:00", message="first")
    commit(origin, "2024-02-01T00:00:00", {"docs/guide.md": "# Guide\n\nMore steps.\n"}, message="second")
    cache = tmp_path / "ci-cache"

    def ci_run(number: int, epoch: str) -> dict[str, str | None]:
        clone = tmp_path / f"runner-{number}" / "build"
        clone.parent.mkdir()
        run(["git", "clone", "-q", "--depth", "1", f"file://{origin}", str(clone)], tmp_path, epoch)
        if cache.exists():  # cache: paths: [.cache/sitemapkit/]
            shutil.copytree(cache, clone / ".cache" / "sitemapkit")
        for lang in languages:
            build = run([str(BIN / "mkdocs"), "build", "--strict", "-f", f"mkdocs{lang and '.'}{lang}.yml",
                         "--site-dir", f"public/{lang}"], clone, epoch)
            assert "shallow clone" in build.stderr  # the recipe's checkout: git cannot date the pages
        run([str(BIN / "sitemapkit"), "validate", "public", "--site-dir", "public", "--strict"], clone, epoch)
        shutil.rmtree(cache, ignore_errors=True)
        shutil.copytree(clone / ".cache" / "sitemapkit", cache)
        return {loc: lastmod for lang in languages
                for loc, lastmod in lastmods(clone / "public" / lang / "sitemap.xml").items()}

    assert set(ci_run(1, T1).values()) == {None}  # an empty cache: a first build dates nothing
    second = ci_run(2, T2)
    assert len(second) == 2 * len(languages) and set(second.values()) == {WHEN[T1]}
    assert ci_run(3, T3) == second
    assert ci_run(4, T4) == second


def test_sphinx_source_and_build_folders_cloned_elsewhere_find_their_cached_manifest(tmp_path):
    """``sphinx-build -b html -d build/doctrees source build/html`` (the CI page's Sphinx line):
    the manifest lives in ``build/doctrees/sitemapkit``, the output beside the conf.py folder.
    A clone in another folder with that cache restored dates the pages as the first did."""
    conf = 'project = "P"\nextensions = ["sitemapkit_sphinx"]\nhtml_baseurl = "https://example.com/"\n' \
           'sitemapkit_lastmod = ["fingerprint"]\n'
    first = tmp_path / "runner-a" / "project"
    write_docs(first, {"source/conf.py": conf, "source/index.rst": "Home\n====\n\nWelcome.\n",
                       "source/guide.rst": "Guide\n=====\n\nSteps.\n"})
    command = [str(BIN / "sphinx-build"), "-q", "-b", "html", "-d", "build/doctrees", "source", "build/html"]

    def build(project: Path, epoch: str) -> dict[str, str | None]:
        shutil.rmtree(project / "build" / "html", ignore_errors=True)
        run(command, project, epoch)
        return lastmods(project / "build" / "html" / "sitemap.xml")

    build(first, T1)
    dated = build(first, T2)
    assert set(dated.values()) == {WHEN[T1]}
    second = tmp_path / "runner-b" / "checkout" / "project"
    shutil.copytree(first / "source", second / "source")
    shutil.copytree(first / "build" / "doctrees" / "sitemapkit", second / "build" / "doctrees" / "sitemapkit")
    assert build(second, T3) == dated
