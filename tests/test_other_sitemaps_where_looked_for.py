"""The look for other tools' sitemap files (``cli.others``, which reads each generator's
source layout) is made by ``sitemapkit build``, which takes any folder of HTML; an adapter's
build neither runs it nor imports it (MkDocs' own sitemap.xml is replaced at sitemapkit's
name; Sphinx's and Pelican's sitemap plugins are named in a plugin-conflict warning)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from project_checks import quickstart

pytestmark = pytest.mark.slow  # a real mkdocs build

LOOK = ("sitemapkit.cli.others", "sitemapkit.sources.layouts")


def imported(done: subprocess.CompletedProcess[str]) -> set[str]:
    """The modules a ``python -X importtime`` run imported, by name."""
    return {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}




def test_a_mkdocs_build_does_not_load_the_look_for_other_sitemaps(tmp_path):
    project = quickstart(tmp_path / "project")
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "mkdocs", "build", "--quiet"], cwd=project,
                          check=True, capture_output=True, text=True)
    modules = imported(done)
    assert {"sitemapkit_mkdocs.plugin", "sitemapkit.generate"} <= modules  # sitemapkit ran
    assert not modules & set(LOOK)
    assert (project / "site" / "sitemap.xml").is_file()


def test_the_command_line_build_looks_for_them(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<html><head><title>Home</title></head><body>home</body></html>")
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "sitemapkit", "build", str(site),
                           "--base-url", "https://example.com/", "-q"], check=True, capture_output=True, text=True)
    assert set(LOOK) <= imported(done)
