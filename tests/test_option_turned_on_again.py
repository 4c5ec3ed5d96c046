"""An option turned off, then on again: the build replaces the file the option wrote before.

Turning ``html_sitemap`` or ``llms_txt`` off leaves ``sitemap.html`` or ``llms.txt`` in place
(a build removes only what its settings make). Those files stay in the record of sitemapkit's
own files, as ``dormant``, so that turning the option on again replaces them; before, the
record forgot them and the next build stopped, taking its own file for the user's. A file
changed by hand since is still the user's.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from quickstarts import pelican_quickstart, run, sphinx_quickstart

from sitemapkit import Report
from sitemapkit.output.names import own_names
from sitemapkit.settings import Settings
from sitemapkit.site.owned import RECORD, Owned, record_key

BASE = "https://d.example/"
BIN = Path(sys.executable).parent
PAGE = "<html><head><title>{title}</title></head><body><p>{title}</p></body></html>"


def cli(site: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    """``sitemapkit build`` as a user types it, from the folder above the site."""
    return subprocess.run([str(BIN / "sitemapkit"), "build", site.name, "--base-url", BASE, *flags],
                          cwd=site.parent, capture_output=True, text=True, timeout=120)


def static_site(root: Path) -> Path:
    site = root / "public"
    site.mkdir(parents=True)
    for name in ("index", "a"):
        (site / f"{name}.html").write_text(PAGE.format(title=name.title()), encoding="utf-8")
    return site


@pytest.mark.parametrize(("flag", "name"), [("--html-sitemap", "sitemap.html"), ("--llms-txt", "llms.txt")])
def test_cli_option_off_then_on_again(tmp_path, flag, name):
    site = static_site(tmp_path)
    assert cli(site, flag).returncode == 0
    first = (site / name).read_text(encoding="utf-8")
    off = cli(site)
    assert off.returncode == 0, off.stderr
    assert (site / name).read_text(encoding="utf-8") == first  # left in place
    assert f"'{name}'" in off.stderr and "[record-option-off]" in off.stderr
    again_off = cli(site)
    assert again_off.returncode == 0 and "record-option-off" not in again_off.stderr  # said once
    (site / "b.html").write_text(PAGE.format(title="B"), encoding="utf-8")
    on = cli(site, flag)
    assert on.returncode == 0, on.stderr  # before: "is not a file sitemapkit wrote", exit 2
    assert "b.html" in (site / name).read_text(encoding="utf-8")  # replaced: it lists the new page
    record = json.loads((site / RECORD).read_text(encoding="utf-8"))
    assert name in record["files"] and name not in record.get("dormant", {})


def test_a_dormant_file_changed_by_hand_is_the_users(tmp_path):
    site = static_site(tmp_path)
    assert cli(site, "--html-sitemap").returncode == 0
    assert cli(site).returncode == 0
    (site / "sitemap.html").write_text("<p>my own page now</p>", encoding="utf-8")
    on = cli(site, "--html-sitemap")
    assert on.returncode == 2
    assert "sitemap.html is not a file sitemapkit wrote" in on.stderr
    assert (site / "sitemap.html").read_text(encoding="utf-8") == "<p>my own page now</p>"


def test_a_dormant_name_outside_the_sitemap_family_is_never_trusted(tmp_path):
    """A signed record whose ``dormant`` names a page (as a copied or hand-edited record might)
    is warned of, and the page is neither replaced nor taken for sitemapkit's."""
    site = static_site(tmp_path)
    settings = Settings(base_url=BASE, html_sitemap=True)
    key = record_key(tmp_path / ".cache" / "state.json")
    page = (site / "index.html").read_bytes()
    data = {"sitemapkit_files": 1, "files": {},
            "dormant": {"index.html": [[len(page), hashlib.sha256(page).hexdigest()]]}}
    data["signature"] = key.sign(data)
    (site / RECORD).write_text(json.dumps(data), encoding="utf-8")
    report = Report()
    owned = Owned(site, report, BASE, own_names(settings), key)
    assert [p.rule for p in report.warnings] == ["record-altered"]
    assert not owned.mine("index.html") and owned.dormant == {}


def test_a_dormant_record_of_the_wrong_shape_counts_as_no_record(tmp_path):
    site = static_site(tmp_path)
    key = record_key(tmp_path / ".cache" / "state.json")
    data = {"sitemapkit_files": 1, "files": {}, "dormant": ["sitemap.html"]}
    data["signature"] = key.sign(data)
    (site / RECORD).write_text(json.dumps(data), encoding="utf-8")
    report = Report()
    owned = Owned(site, report, BASE, own_names(Settings(base_url=BASE)), key)
    assert [p.rule for p in report.warnings] == ["record-unreadable"]
    assert owned.files == {} and owned.dormant == {}


@pytest.mark.slow
def test_sphinx_html_sitemap_off_then_on_again(tmp_path):
    """sphinx-quickstart's project, built with ``sphinx-build -M html`` (Sphinx keeps its
    output folder between builds), the option switched in conf.py as users do."""
    src = sphinx_quickstart(tmp_path / "proj", BIN)
    conf = (src / "conf.py").read_text(encoding="utf-8")

    def build(on: bool) -> subprocess.CompletedProcess[str]:
        (src / "conf.py").write_text(conf + f'\nextensions = ["sitemapkit_sphinx"]\nhtml_baseurl = "{BASE}"\n'
                                     f"sitemapkit_html_sitemap = {on}\n", encoding="utf-8")
        return run(src, BIN, "sphinx-build", "-M", "html", ".", "_build", env={"NO_COLOR": "1"})

    out = src / "_build" / "html"
    build(True)
    assert (out / "sitemap.html").is_file()
    off = build(False)
    assert "[record-option-off]" in off.stdout
    (src / "more.rst").write_text("More\n====\n\nA page added while the option was off.\n", encoding="utf-8")
    with open(src / "index.rst", "a", encoding="utf-8") as index:
        index.write("\n.. toctree::\n\n   more\n")
    on = build(True)
    assert "sitemapkit: " in on.stdout and "sitemap.html" in on.stdout, on.stdout
    assert "more.html" in (out / "sitemap.html").read_text(encoding="utf-8")
    assert os.path.isfile(out / "sitemap.xml")


def test_a_recorded_file_the_settings_make_outside_the_sitemap_family_stays_recorded(tmp_path):
    """The IndexNow key file is made by the settings (``indexnow``) but is of no sitemap family:
    recorded, it is the build's own, neither dormant nor taken for an altered record."""
    site = static_site(tmp_path)
    key_text = "5f2b8c1d9e7a4b3c"
    settings = Settings(base_url=BASE, indexnow={"key": key_text})
    key = record_key(tmp_path / ".cache" / "state.json")
    (site / f"{key_text}.txt").write_text(key_text, encoding="utf-8")
    body = (site / f"{key_text}.txt").read_bytes()
    data = {"sitemapkit_files": 1, "files": {f"{key_text}.txt": [[len(body), hashlib.sha256(body).hexdigest()]]}}
    data["signature"] = key.sign(data)
    (site / RECORD).write_text(json.dumps(data), encoding="utf-8")
    report = Report()
    owned = Owned(site, report, BASE, own_names(settings), key)
    assert report.warnings == [] and report.notes == []
    assert owned.mine(f"{key_text}.txt") and owned.dormant == {}


@pytest.mark.slow
def test_pelican_llms_txt_off_then_on_again(tmp_path):
    """pelican-quickstart's blog, built with ``pelican content`` (Pelican keeps its output
    folder between builds by default), the option switched in pelicanconf.py as users do."""
    posts = {"hello.md": "Title: Hello\nDate: 2025-03-01 10:00\n\nHi.",
             "pages/about.md": "Title: About\n\nAbout us."}
    project = pelican_quickstart(tmp_path / "blog", BIN, BASE, posts)
    conf = (project / "pelicanconf.py").read_text(encoding="utf-8")

    def build(on: bool) -> subprocess.CompletedProcess[str]:
        (project / "pelicanconf.py").write_text(
            conf + f'\nSITEURL = "{BASE.rstrip("/")}"\nPLUGINS = ["sitemapkit_pelican"]\n'
            f"SITEMAPKIT = {{'llms_txt': {on}}}\n", encoding="utf-8")
        return run(project, BIN, "pelican", "content")

    out = project / "output"
    build(True)
    first = (out / "llms.txt").read_text(encoding="utf-8")
    build(False)  # (its note, record-option-off, is at Pelican's info level: shown with -v)
    assert (out / "llms.txt").read_text(encoding="utf-8") == first  # left in place
    (project / "content" / "later.md").write_text("Title: Later\nDate: 2025-06-10 09:00\n\nMore.",
                                                  encoding="utf-8")
    on = build(True)  # before: "llms.txt is not a file sitemapkit wrote", and no sitemap
    assert "sitemapkit" in on.stdout + on.stderr
    assert "later.html" in (out / "llms.txt").read_text(encoding="utf-8")
