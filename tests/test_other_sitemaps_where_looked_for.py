"""The look for other tools' sitemap files (``site.others``, which reads each generator's
source layout) is made by ``sitemapkit build``, which takes any folder of HTML; an adapter's
build neither runs it nor imports it (MkDocs' own sitemap.xml is replaced at sitemapkit's
name; Sphinx's and Pelican's sitemap plugins are named in a plugin-conflict warning)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from project_checks import quickstart

pytestmark = pytest.mark.slow  # a real mkdocs build

BUILD = """
import sys
from mkdocs.__main__ import cli
try:
    cli(["build", "--quiet"])
except SystemExit as done:
    assert not done.code, done.code
print("sitemapkit_mkdocs.plugin" in sys.modules)
print(sorted(name for name in ("sitemapkit.site.others", "sitemapkit.sources.layouts") if name in sys.modules))
"""

CLI = """
import sys
from sitemapkit.cli import main
assert main(["build", sys.argv[1], "--base-url", "https://example.com/", "-q"]) == 0
print(sorted(name for name in ("sitemapkit.site.others", "sitemapkit.sources.layouts") if name in sys.modules))
"""


def test_a_mkdocs_build_does_not_load_the_look_for_other_sitemaps(tmp_path):
    project = quickstart(tmp_path / "project")
    done = subprocess.run([sys.executable, "-c", BUILD], cwd=project, check=True, capture_output=True, text=True)
    assert done.stdout.split("\n")[:2] == ["True", "[]"]
    assert (project / "site" / "sitemap.xml").is_file()


def test_the_command_line_build_looks_for_them(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<html><head><title>Home</title></head><body>home</body></html>")
    done = subprocess.run([sys.executable, "-c", CLI, str(site)], check=True, capture_output=True, text=True)
    assert done.stdout.strip() == "['sitemapkit.site.others', 'sitemapkit.sources.layouts']"
