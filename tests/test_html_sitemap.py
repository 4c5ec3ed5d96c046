"""``html_sitemap: true``: each sample site, built by its generator as users build it (a copy,
with the one option turned on), gets ``sitemap.html`` in its theme's layout, linking every URL
its sitemap lists but itself; the CLI's page is self-contained."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import urljoin

import lxml.html
import pytest

from sitemap_checks import assert_valid_tree, locs

pytestmark = pytest.mark.slow  # real generator runs (make test-fast leaves them out)

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
BUILT = ("site", "output", "_build", "_site", ".cache")

# sample -> (built folder, base URL, command, SOURCE_DATE_EPOCH, the theme's own layout around
# the page: an XPath that finds it only in a page the theme rendered)
SAMPLES = {
    "static": ("static/_site", "https://lighthouse.example/",
               ["sitemapkit", "build", "sample_sites/static/_site", "--config", "sample_sites/static/sitemapkit.toml",
                "-q"], "1768435200", None),
    "mkdocs": ("mkdocs/site", "https://example.org/sitemapkit-demo/",
               ["mkdocs", "build", "--strict", "-q", "-f", "sample_sites/mkdocs/mkdocs.yml"], "1795284000",
               "//header[contains(@class, 'md-header')]"),
    "pelican": ("pelican/output", "https://harbour.example.org/",
                ["pelican", "sample_sites/pelican/content", "-s", "sample_sites/pelican/pelicanconf.py"], None,
                "//header[@id='banner']//nav"),
    "sphinx": ("sphinx/_build/html", "https://example.org/manual/",
               ["sphinx-build", "-b", "html", "-q", "sample_sites/sphinx", "sample_sites/sphinx/_build/html"],
               "1795262400", "//div[contains(@class, 'sphinxsidebar')]"),
}
# The one line each project gets, in its generator's own configuration.
ENABLE = {
    "static": ("static/sitemapkit.toml", "html_sitemap = true\n", "lastmod = "),
    "mkdocs": ("mkdocs/mkdocs.yml", "      html_sitemap: true\n", "  - sitemapkit:\n"),
    "pelican": ("pelican/pelicanconf.py", '    "html_sitemap": True,\n', "SITEMAPKIT = {\n"),
    "sphinx": ("sphinx/conf.py", "sitemapkit_html_sitemap = True\n", None),
}


def enable(samples: Path, name: str) -> None:
    relative, line, after = ENABLE[name]
    path = samples / relative
    text = path.read_text(encoding="utf-8")
    if after is None:
        text += line
    else:
        at = text.index(after)
        at = at if after.endswith("= ") else at + len(after)
        text = text[:at] + line + text[at:]
    path.write_text(text, encoding="utf-8")


def build(root: Path, name: str) -> subprocess.CompletedProcess[str]:
    *_, command, epoch, _ = SAMPLES[name]
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    if epoch:
        env["SOURCE_DATE_EPOCH"] = epoch
    return subprocess.run([str(BIN / command[0]), *command[1:]], cwd=root, env=env, text=True,
                          capture_output=True, check=False)


def sample_copy(tmp_path: Path, name: str) -> Path:
    root = tmp_path / "project"
    shutil.copytree(REPO / "sample_sites" / name, root / "sample_sites" / name,
                    ignore=shutil.ignore_patterns(*BUILT))
    if name == "static":
        shutil.copytree(root / "sample_sites/static/public", root / "sample_sites/static/_site")
    enable(root / "sample_sites", name)
    return root


def listed(site: Path, base_url: str) -> set[str]:
    """Every URL of the sitemap (its index's children too), checked against the XSDs."""
    return {loc for path in assert_valid_tree(site, base_url) for loc in locs(path)}


def shown_urls(urls: set[str], base_url: str) -> set[str]:
    """What the map links of the sitemap's ``urls``: not itself, nor the later pages of a
    list (Pelican's ``index2.html``, ``category/x3.html``; ``page/2/``), folded into the first."""
    def later(url: str) -> bool:
        paged = re.fullmatch(r"(.*?)[2-9][0-9]*\.html", url)
        first = paged is not None and (paged[1] + ".html" in urls or paged[1].removesuffix("index") in urls)
        return first or re.search(r"/page/[0-9]+/$", url) is not None
    return {url for url in urls if url != base_url + "sitemap.html" and not later(url)}


def page_links(page: lxml.html.HtmlElement, page_url: str) -> set[str]:
    return {urljoin(page_url, a.get("href")) for a in page.xpath("//*[@class='sitemapkit-sections']//a[@href]")}


@pytest.mark.parametrize("name", list(SAMPLES))
def test_sitemap_html_links_every_listed_url_in_the_theme(tmp_path, name):
    folder, base_url, _, _, layout = SAMPLES[name]
    root = sample_copy(tmp_path, name)
    done = build(root, name)
    assert done.returncode == 0, done.stdout + done.stderr
    site = root / "sample_sites" / folder
    page = lxml.html.parse(str(site / "sitemap.html")).getroot()
    urls = listed(site, base_url)
    assert base_url + "sitemap.html" in urls  # the sitemap lists the page, which does not list itself
    assert page_links(page, base_url + "sitemap.html") == shown_urls(urls, base_url)
    if layout is None:  # the CLI's page: self-contained, nothing to fetch, nothing to run
        assert not page.xpath("//script | //link[@rel='stylesheet'] | //img | //iframe")
        assert page.xpath("//style")
    else:
        assert page.xpath(layout), f"no theme layout ({layout}) around the site map"
        # the theme's layout is the same one its other pages have
        assert lxml.html.parse(str(site / "index.html")).getroot().xpath(layout)
    sections = [" ".join(h2.xpath("string(.//a | .//span)").split())
                for h2 in page.xpath("//*[@class='sitemapkit-sections']/section/h2")]
    assert len(sections) == len(set(sections))  # each section named once


# sample -> where a user's own sitemap.html goes, what it extends and fills, and the line (in
# which file) that points the generator there, if one is needed
OVERRIDES = {
    "mkdocs": ("mkdocs/overrides/sitemap.html", "main.html", "content", None),  # the theme's custom_dir
    "pelican": ("pelican/overrides/sitemap.html", "base.html", "content",
                ("pelican/pelicanconf.py", 'THEME_TEMPLATES_OVERRIDES = ["sample_sites/pelican/overrides"]\n')),
    "sphinx": ("sphinx/_templates/sitemap.html", "layout.html", "body",
               ("sphinx/conf.py", 'templates_path = ["_templates"]\n')),
}


def user_template(root: Path, name: str) -> None:
    path, extends, block, line = OVERRIDES[name]
    template = root / "sample_sites" / path
    template.parent.mkdir(exist_ok=True)
    template.write_text(f'{{% extends "{extends}" %}}{{% block {block} %}}<h1 id="ours">All of it</h1>'
                        '{% include "sitemapkit/sections.html" %}{% endblock %}', encoding="utf-8")
    if line is not None:
        with open(root / "sample_sites" / line[0], "a", encoding="utf-8") as config:
            config.write(line[1])


@pytest.mark.parametrize("name", list(OVERRIDES))
def test_a_users_own_sitemap_html_wins_and_may_include_the_sections(tmp_path, name):
    folder, base_url, _, _, layout = SAMPLES[name]
    root = sample_copy(tmp_path, name)
    user_template(root, name)
    done = build(root, name)
    assert done.returncode == 0, done.stdout + done.stderr
    site = root / "sample_sites" / folder
    page = lxml.html.parse(str(site / "sitemap.html")).getroot()
    assert page.xpath("//h1[@id='ours']/text()") == ["All of it"]
    assert page.xpath(layout)
    assert page_links(page, base_url + "sitemap.html") == shown_urls(listed(site, base_url), base_url)


def test_sphinx_dirhtml_gets_the_plain_page(tmp_path):
    """dirhtml's theme links are relative to ``sitemap/``, not to ``sitemap.html`` beside the
    sitemap: the page is sitemapkit's plain one, whatever template the project has."""
    root = sample_copy(tmp_path, "sphinx")
    user_template(root, "sphinx")
    source, base_url = root / "sample_sites/sphinx", SAMPLES["sphinx"][1]
    out = source / "_build/dirhtml"
    done = subprocess.run([str(BIN / "sphinx-build"), "-b", "dirhtml", "-q", str(source), str(out)], cwd=root,
                          env={**os.environ, "SOURCE_DATE_EPOCH": SAMPLES["sphinx"][3]},
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    page = lxml.html.parse(str(out / "sitemap.html")).getroot()
    assert page_links(page, base_url + "sitemap.html") == shown_urls(listed(out, base_url), base_url)
    assert not page.xpath("//h1[@id='ours'] | //script")


def test_a_user_page_named_sitemap_html_is_never_replaced(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<!DOCTYPE html><title>Home</title><p>hi", encoding="utf-8")
    (site / "sitemap.html").write_text("<!DOCTYPE html><title>My own map</title>", encoding="utf-8")
    done = subprocess.run([str(BIN / "sitemapkit"), "build", str(site), "--base-url", "https://example.com/",
                           "--html-sitemap"], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert "sitemap.html is not a file sitemapkit wrote" in done.stderr
    assert "My own map" in (site / "sitemap.html").read_text(encoding="utf-8")
