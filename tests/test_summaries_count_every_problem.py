"""Every summary counts exactly the problems it stands for: a build's the warnings it printed
(an adapter's own among them: Pelican's page-missing, Material's lost features, see
test_material_sitemap_name), and ``strict`` fails whenever one was printed; ``validate``'s
totals count every problem, shown or not, and the line that counts those not shown closes its
group, its rule tagged once."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from project_checks import pelican_conf

pytestmark = pytest.mark.slow  # a real Pelican run; a 20,000-URL sitemap

BIN = Path(sys.executable).parent
BASE = "https://example.org/"


def bad_dates(path: Path, count: int) -> Path:
    rows = "".join(f"<url><loc>{BASE}p{n}/</loc><lastmod>yesterday</lastmod></url>\n" for n in range(count))
    path.write_text('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/'
                    f'sitemap/0.9">\n{rows}</urlset>\n', encoding="utf-8")
    return path


def sitemapkit(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BIN / "sitemapkit"), *args], capture_output=True, text=True, check=False)


def test_validate_totals_count_every_problem_and_the_more_line_closes_its_group(tmp_path):
    path = bad_dates(tmp_path / "sitemap.xml", 20_000)
    done = sitemapkit("validate", str(path))
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert lines[-1] == "FAILED: 1 file checked, 20000 errors, 0 warnings"
    shown, closing = lines[:-2], lines[-2]
    assert len(shown) == 100 and all(":" in line.split(" ")[0] for line in shown)  # file:line each
    assert closing.endswith("19900 more errors of this rule in this file not shown [lastmod-format]"), closing
    assert all(line.count("[lastmod-format]") == 1 for line in lines[:-1])
    report = json.loads(sitemapkit("validate", str(path), "--format", "json").stdout)
    assert report["totals"] == {"files": 1, "errors": 20000, "warnings": 0}
    assert len(report["problems"]) == 101 and report["problems"][-1]["line"] is None


def pelican_blog(root: Path, *lines: str) -> subprocess.CompletedProcess[str]:
    """Posts linked as ``posts/{slug}/`` but written as ``{slug}.html``: each a page-missing
    warning of the adapter's."""
    for n in range(5):
        (root / "content").mkdir(parents=True, exist_ok=True)
        (root / "content" / f"post{n}.md").write_text(f"Title: Post {n}\nDate: 2026-01-1{n}\n\nText.", encoding="utf-8")
    (root / "pelicanconf.py").write_text(pelican_conf(BASE, 'ARTICLE_URL = "posts/{slug}/"', *lines), encoding="utf-8")
    env = {**os.environ, "COLUMNS": "1000", "SOURCE_DATE_EPOCH": "1795262400"}  # one line each
    return subprocess.run([str(BIN / "pelican"), "content", "-s", "pelicanconf.py"], cwd=root, capture_output=True,
                          text=True, check=False, env=env)


def test_pelican_summary_counts_the_page_missing_warnings_it_printed_and_strict_fails(tmp_path):
    done = pelican_blog(tmp_path / "blog")
    out = done.stdout + done.stderr
    assert done.returncode == 0, out
    printed = [line for line in out.splitlines() if "[page-missing]" in line and "WARNING" in line]
    assert len(printed) == 5, out
    summary = next(line for line in out.splitlines() if line.startswith("sitemapkit: "))
    assert summary.endswith("; 5 warnings"), summary
    strict = pelican_blog(tmp_path / "strict", 'SITEMAPKIT = {"strict": True}')
    assert strict.returncode == 1, strict.stdout + strict.stderr
    assert "5 sitemap warnings and strict is on" in strict.stdout + strict.stderr
    assert "Traceback" not in strict.stdout + strict.stderr
