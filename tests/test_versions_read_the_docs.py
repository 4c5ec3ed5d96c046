"""Sphinx builds laid out as Read the Docs serves them (``en/stable/``, ``en/latest/``), with
the variables its build environment sets: each version's URLs, pages canonical to another
version, and Read the Docs' own robots.txt left alone."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from docs_blocks import block

from sitemap_checks import assert_valid, locs
from sitemapkit.protocol import RULES

pytestmark = pytest.mark.slow  # real sphinx-build runs

REPO = Path(__file__).resolve().parents[1]
HOST = "https://proj.readthedocs.io/"
STABLE = HOST + "en/stable/"
INDEX = "Home\n====\n\n.. toctree::\n\n{pages}\n"


def sources(folder: Path, conf: str, pages: list[str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "conf.py").write_text(conf, encoding="utf-8")
    (folder / "index.rst").write_text(INDEX.format(pages="\n".join(f"   {p}" for p in pages)), encoding="utf-8")
    for name in pages:
        (folder / f"{name}.rst").write_text(f"{name.title()}\n{'=' * len(name)}\n\nText.\n", encoding="utf-8")
    return folder


def rtd_build(src: Path, out: Path, version: str, *flags: str) -> str:
    """``sphinx-build -W`` as Read the Docs runs it for ``version``; its output."""
    env = {**os.environ, "READTHEDOCS": "True", "READTHEDOCS_VERSION": version,
           "READTHEDOCS_CANONICAL_URL": f"{HOST}en/{version}/"}
    done = subprocess.run([sys.executable, "-m", "sphinx", "-W", "-b", "html", *flags, str(src), str(out)],
                          env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout + done.stderr


def test_latest_canonical_to_stable_never_lists_a_stable_url(tmp_path):
    conf = f'project = "P"\nextensions = ["sitemapkit_sphinx"]\nhtml_baseurl = "{STABLE}"\n'
    served = tmp_path / "served"
    stable_log = rtd_build(sources(tmp_path / "stable", conf, ["guide"]), served / "en" / "stable", "stable")
    latest_log = rtd_build(sources(tmp_path / "latest", conf, ["guide", "new"]), served / "en" / "latest", "latest")

    assert_valid(served / "en" / "stable" / "sitemap.xml")
    assert sorted(locs(served / "en" / "stable" / "sitemap.xml")) == [STABLE + "guide.html", STABLE + "index.html"]
    # latest's pages are stable's (their canonical links say so): latest lists none of them,
    # least of all stable/new.html, which only latest's build wrote; each is named, -W passes
    assert not (served / "en" / "latest" / "sitemap.xml").exists()
    told = [line for line in latest_log.splitlines() if "[canonical-other-version]" in line]
    assert len(told) == 1 and "3 pages left out (" in told[0] and "new.rst" in told[0], told
    assert f"their canonical URLs are another version's (such as {STABLE}" in told[0]
    assert "left out: 3 canonical in another version" in latest_log
    # Read the Docs serves its own robots.txt: neither build writes one
    for log in (stable_log, latest_log):
        assert "robots.txt left alone: Read the Docs serves its own robots.txt" in log
    assert not list(served.rglob("robots.txt"))
    assert RULES["robots-version-off"].severity == "info"


def test_read_the_docs_recipe_as_written(tmp_path):
    text = (REPO / "docs" / "versions.md").read_text(encoding="utf-8")
    section = text.split("## Read the Docs (Sphinx)", 1)[1].split("\n## ", 1)[0]
    conf, robots = block("versions-rtd-conf").text, block("versions-rtd-robots").text
    assert 'html_extra_path = ["_extra"]' in section and "_extra/robots.txt" in section
    src = sources(tmp_path / "docs", conf + 'html_extra_path = ["_extra"]\n', ["guide"])
    (src / "_extra").mkdir()
    (src / "_extra" / "robots.txt").write_text(robots, encoding="utf-8")

    out = tmp_path / "served" / "en" / "latest"
    rtd_build(src, out, "latest")
    # the URLs are where Read the Docs serves this version (html_baseurl from its variable)
    latest = HOST + "en/latest/"
    assert sorted(locs(out / "sitemap.xml")) == [latest + "guide.html", latest + "index.html"]
    assert f'<link rel="canonical" href="{latest}guide.html"' in (out / "guide.html").read_text(encoding="utf-8")
    assert (out / "robots.txt").read_text(encoding="utf-8") == robots  # the user's, left as it is


def test_base_url_from_read_the_docs_without_html_baseurl_and_robots_txt_when_asked(tmp_path):
    conf = 'project = "P"\nextensions = ["sitemapkit_sphinx"]\nsitemapkit_robots_txt = True\n'
    out = tmp_path / "served" / "en" / "stable"
    log = rtd_build(sources(tmp_path / "docs", conf, ["guide"]), out, "stable")
    assert sorted(locs(out / "sitemap.xml")) == [STABLE + "guide.html", STABLE + "index.html"]
    assert f"Sitemap: {STABLE}sitemap.xml" in (out / "robots.txt").read_text(encoding="utf-8")
    assert "robots-version-off" not in log


def test_mkdocs_on_read_the_docs_lists_the_versions_url_and_leaves_robots_txt(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Home\n", encoding="utf-8")
    (tmp_path / "docs" / "guide.md").write_text("# Guide\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(f"site_name: P\nsite_url: {STABLE}\nplugins:\n  - sitemapkit\n",
                                         encoding="utf-8")
    latest = HOST + "en/latest/"
    env = {**os.environ, "READTHEDOCS": "True", "READTHEDOCS_VERSION": "latest", "READTHEDOCS_CANONICAL_URL": latest}
    done = subprocess.run([str(Path(sys.executable).parent / "mkdocs"), "build", "--strict"], cwd=tmp_path, env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    # site_url says stable (every page's canonical link): latest lists none of stable's URLs
    assert not (tmp_path / "site" / "sitemap.xml").exists()
    assert "pages left out (" in done.stderr and "guide.md" in done.stderr
    assert f"their canonical URLs are another version's (such as {STABLE}" in done.stderr
    assert not (tmp_path / "site" / "robots.txt").exists() and "[robots-version-off]" in done.stderr


def test_mkdocs_on_read_the_docs_with_a_host_only_site_url_says_so_once(tmp_path):
    (tmp_path / "docs").mkdir()
    for name in ("index", "a", "b", "c"):
        (tmp_path / "docs" / f"{name}.md").write_text(f"# {name}\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(f"site_name: P\nsite_url: {HOST}\nplugins:\n  - sitemapkit\n",
                                         encoding="utf-8")
    env = {**os.environ, "READTHEDOCS": "True", "READTHEDOCS_VERSION": "stable", "READTHEDOCS_CANONICAL_URL": STABLE}
    done = subprocess.run([str(Path(sys.executable).parent / "mkdocs"), "build"], cwd=tmp_path, env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    warnings = [line for line in done.stderr.splitlines() if line.startswith("WARNING")]
    assert len(warnings) == 1 and "[canonical-clash]" in warnings[0], done.stderr  # not one a page
    assert "set site_url: !ENV READTHEDOCS_CANONICAL_URL" in warnings[0]
    assert not (tmp_path / "site" / "sitemap.xml").exists()
