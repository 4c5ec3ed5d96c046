"""What `pip install "sitemapkit[mkdocs]"` gets, asked of pip and real PyPI in fresh venvs, and
what a MkDocs without a plugin system (2.x) says when it meets the plugin."""

from __future__ import annotations

import json
import subprocess

import pytest
from packaging.version import Version
from tool_venvs import tool_venv

from sitemap_checks import REPO

pytestmark = pytest.mark.slow  # real generator runs (make test-fast leaves them out)


def test_mkdocs_extra_resolves_below_mkdocs_2_even_with_pre_releases(request, tmp_path):
    bin_dir = tool_venv(request.config, [])
    report = tmp_path / "report.json"
    # --pre: pip would take MkDocs 2.0 pre-releases if the extra allowed them
    subprocess.run(
        [str(bin_dir / "python"), "-m", "pip", "install", "--quiet", "--dry-run", "--pre", "--ignore-installed",
         "--report", str(report), f"{REPO}[mkdocs]"],
        check=True,
    )
    chosen = {item["metadata"]["name"].lower(): item["metadata"]["version"]
              for item in json.loads(report.read_text())["install"]}
    assert Version("1.5") <= Version(chosen["mkdocs"]) < Version("2")


def test_mkdocs_2_gets_a_clear_message(request):
    bin_dir = tool_venv(request.config, ["--pre", "mkdocs>=2.0.dev0,<3"], sitemapkit=True)
    done = subprocess.run([str(bin_dir / "python"), "-c", "import sitemapkit_mkdocs"], capture_output=True, text=True)
    assert done.returncode != 0
    last = done.stderr.strip().splitlines()[-1]
    assert "sitemapkit's MkDocs plugin needs MkDocs 1.x (mkdocs>=1.5,<2) or ProperDocs" in last
    assert "found MkDocs 2." in last and "run 'sitemapkit build' after the build instead" in last
