"""Every file left out as no page is named, never only counted: in the summary line and in
``build --format json`` (``not_pages``); a folder holding many is named with its count."""

from __future__ import annotations

import json
from pathlib import Path

from sitemapkit import Page, Settings, build_entries
from sitemapkit.cli import main
from sitemapkit.report import Report

BASE = "https://x.org/"
HTML = "<!doctype html><html><head><title>T</title></head><body><main>x</main></body></html>"


def write(site: Path, *names: str) -> None:
    for name in names:
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(HTML)


def test_build_json_names_the_files_left_out_as_no_pages(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    site = tmp_path / "s"
    write(site, "index.html", "404.html", "tag/404.html", "drafts/b.html", "drafts/a.html")
    assert main(["build", str(site), "--base-url", BASE, "--format", "json", "--dry-run"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["not_pages"] == {"draft": ["drafts/a.html", "drafts/b.html"], "error page": ["404.html"]}
    assert document["left_out"] == {"draft": 2, "error page": 1} and document["urls"] == 2


def test_the_summary_names_each_and_a_crowded_folder_by_its_count():
    pages = [Page("", html=HTML), Page("genindex.html", html=HTML, not_page="generated index"),
             *(Page(f"_modules/m{i}.html", html=HTML, not_page="generated index") for i in range(7)),
             Page("_modules/pkg/sub.html", html=HTML, not_page="generated index")]
    report = Report()
    list(build_entries(pages, Settings(base_url=BASE), report=report))
    assert ("left out: 9 generated indexes (_modules/ (7 files), _modules/pkg/sub.html, genindex.html)"
            in report.summary())
