"""Adapter, ``sitemapkit build`` and ``validate --site-dir`` agree on what a page is, on every
sample site built with its real generator (each built once for this module, as
``sample_sites/demo.py`` builds it, from a copy of ``sample_sites``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote

import pytest
from llms_txt import parse_llms_file

from sitemap_checks import assert_valid_tree, usp_urls
from sitemapkit import validate
from sitemapkit.output.llms import mirror_url
from sitemapkit.site.owned import RECORD, chosen_out, url_key
from sitemapkit.site.pages import files_for_url, guess_not_a_page, url_for_file
from sitemapkit.site.scan import html_files

pytestmark = pytest.mark.slow  # real generator runs (make test-fast leaves them out)

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
BUILT = ("site", "output", "_build", "_site", ".cache")

# (sample, built folder, its base URL, the command that builds it, SOURCE_DATE_EPOCH)
SAMPLES = {
    "static": ("static/_site", "https://lighthouse.example/", None, "1768435200"),
    "mkdocs": ("mkdocs/site", "https://example.org/sitemapkit-demo/",
               ["mkdocs", "build", "--strict", "-q", "-f", "sample_sites/mkdocs/mkdocs.yml"], "1795284000"),
    "pelican": ("pelican/output", "https://harbour.example.org/",
                ["pelican", "sample_sites/pelican/content", "-s", "sample_sites/pelican/pelicanconf.py"], None),
    "sphinx": ("sphinx/_build/html", "https://example.org/manual/",
               ["sphinx-build", "-b", "html", "-q", "sample_sites/sphinx", "sample_sites/sphinx/_build/html"],
               "1795262400"),
}
# Files each generator writes that are no pages, and that validate used to miss
# (page-not-listed) or build used to list.
NOT_PAGES = {
    "static": ["404.html"],
    "mkdocs": ["404.html"],
    "pelican": ["drafts/winter-plans.html"],
    "sphinx": ["genindex.html", "search.html"],
}


def run(root: Path, *command: str, epoch: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    if epoch:
        env["SOURCE_DATE_EPOCH"] = epoch
    return subprocess.run([str(BIN / command[0]), *command[1:]], cwd=root, env=env, text=True,
                          capture_output=True, check=False)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """A copy of sample_sites with every sample built by its generator (the static one by
    ``sitemapkit build``)."""
    root = tmp_path_factory.mktemp("samples")
    shutil.copytree(REPO / "sample_sites", root / "sample_sites", ignore=shutil.ignore_patterns(*BUILT))
    shutil.copytree(root / "sample_sites" / "static" / "public", root / "sample_sites" / "static" / "_site")
    for name, (folder, _, command, epoch) in SAMPLES.items():
        if command is None:
            command = ["sitemapkit", "build", f"sample_sites/{folder}",
                       "--config", "sample_sites/static/sitemapkit.toml", "-q"]
        done = run(root, *command, epoch=epoch)
        assert done.returncode == 0, f"{name}: {done.stdout}{done.stderr}"
    return root


def sitemap_targets(site: Path) -> list[Path]:
    return [site / "sitemap.xml", site / "robots.txt"]


@pytest.mark.parametrize("name", list(SAMPLES))
def test_validate_site_dir_never_asks_for_what_is_no_page(built, name, monkeypatch):
    folder, _, _, epoch = SAMPLES[name]
    if epoch:  # "now" for the news window, as the sample was built
        monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch)
    site = built / "sample_sites" / folder
    for relative in NOT_PAGES[name]:
        assert (site / relative).is_file()
        assert guess_not_a_page(relative, site) is not None
    problems = validate(sitemap_targets(site), site_dir=site)
    assert [p for p in problems if p.severity == "error"] == []
    named = {Path(p.where).resolve() for p in problems}
    assert not named & {(site / relative).resolve() for relative in NOT_PAGES[name]}


@pytest.mark.parametrize("name", list(SAMPLES))
def test_build_of_the_built_folder_passes_strict_validation_and_agrees_with_the_adapter(
        built, name, tmp_path, monkeypatch):
    """``sitemapkit build`` on a copy of the generator's output lists every page the adapter
    lists; what it lists beyond is exactly what ``validate --site-dir`` finds unlisted in the
    adapter's sitemap (the pages the sample leaves out on purpose: ``sitemap: false``,
    ``exclude``, hidden and private pages), none of them a file that is no page; and
    ``validate --site-dir --strict`` passes on what ``build`` wrote."""
    folder, base, _, epoch = SAMPLES[name]
    if epoch:
        monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch)
    site = built / "sample_sites" / folder
    adapter_urls = set(usp_urls(site, base))

    copy = tmp_path / "copy"
    # (without the adapter's llms.txt, which lists the adapter's pages: this build lists more)
    shutil.copytree(site, copy, ignore=shutil.ignore_patterns("sitemap*", "robots.txt", "llms*.txt"))
    if (site / "robots.txt").is_file():  # the site's own rules, without our Sitemap: line
        lines = (site / "robots.txt").read_text().splitlines(keepends=True)
        own = (line for line in lines if not line.lower().startswith("sitemap:"))
        (copy / "robots.txt").write_text("".join(own))
    done = run(tmp_path, "sitemapkit", "build", str(copy), "--base-url", base, "-q", epoch=epoch)
    assert done.returncode == 0, done.stderr
    assert_valid_tree(copy, base)
    build_urls = set(usp_urls(copy, base))

    assert adapter_urls <= build_urls
    # What build lists beyond the adapter is what the sample leaves out on purpose, and the
    # adapter's build recorded it, so validate --site-dir does not ask for it.
    assert {url for url in build_urls - adapter_urls if url_key(url) not in chosen_out(site)} == set()
    assert not [p for p in validate(sitemap_targets(site), site_dir=site) if p.rule == "page-not-listed"]
    (site / RECORD).rename(tmp_path / "record")  # without the build's record, they are missed
    try:
        unlisted = {p.where for p in validate(sitemap_targets(site), site_dir=site) if p.rule == "page-not-listed"}
    finally:
        (tmp_path / "record").rename(site / RECORD)
    assert {base + url_for_file(str(Path(f).relative_to(site))) for f in unlisted} == build_urls - adapter_urls
    pages = {name for name in html_files(copy) if guess_not_a_page(name, copy) is None}
    assert all(pages.intersection(files_for_url(url[len(base):])) for url in build_urls)

    strict = run(tmp_path, "sitemapkit", "validate", str(copy / "sitemap.xml"), str(copy / "robots.txt"),
                 "--site-dir", str(copy), "--strict", epoch=epoch)
    assert strict.returncode == 0, strict.stdout + strict.stderr


@pytest.mark.parametrize("name", list(SAMPLES))
def test_llms_txt_links_a_mirror_of_exactly_the_sitemaps_pages(built, name):
    """Each sample writes ``llms.txt`` (``llms_txt`` on; a translated one, one per language
    folder too), which the reference parser reads, linking each page of the sitemap once, by
    its Markdown mirror, which is there."""
    folder, base, _, _ = SAMPLES[name]
    site = built / "sample_sites" / folder
    linked = []
    for path in sorted(site.rglob("llms.txt")):
        parsed = parse_llms_file(path.read_text(encoding="utf-8"))
        assert parsed.title and parsed.sections, path
        linked += [link["url"] for links in parsed.sections.values() for link in links]
    assert len(linked) == len(set(linked))
    assert sorted(linked) == sorted(mirror_url(url) for url in set(usp_urls(site, base)))
    assert all((site / unquote(url[len(base):])).is_file() for url in linked)
