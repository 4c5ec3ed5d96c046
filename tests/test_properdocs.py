"""The MkDocs plugin under ProperDocs (from PyPI, in a venv of its own with no MkDocs in it):
a project as `properdocs new` makes it, with `site_url` and `- sitemapkit`, committed to git
and built with `properdocs build` from its folder."""

from __future__ import annotations

import os
import subprocess

import pytest
from git_helpers import commit, init
from project_checks import committed, lastmods, validate_strict
from tool_venvs import tool_venv

pytestmark = pytest.mark.slow  # real generator runs (make test-fast leaves them out)

SITE_URL = "https://docs.example.org/"


@pytest.fixture(scope="module")
def properdocs(request):
    # properdocs new writes no theme: its default one is a package of its own
    return tool_venv(request.config, ["properdocs", "properdocs-theme-mkdocs"], sitemapkit=True)


def test_properdocs_build_without_mkdocs(tmp_path, properdocs):
    absent = subprocess.run([str(properdocs / "python"), "-m", "pip", "show", "mkdocs"], capture_output=True)
    assert absent.returncode != 0  # ProperDocs answers the plugin's `mkdocs` imports itself
    root = tmp_path / "project"
    subprocess.run([str(properdocs / "properdocs"), "new", str(root)], check=True, capture_output=True)
    with open(root / "properdocs.yml", "a", encoding="utf-8") as config:
        config.write(f"site_url: {SITE_URL}\nplugins:\n  - sitemapkit\n")
    init(root)
    (root / ".gitignore").write_text("site/\n", encoding="utf-8")
    commit(root, "2024-03-04T05:06:07Z")
    commit(root, "2025-01-02T03:04:05Z", {"docs/guide.md": "# Guide\n"})
    commit(root, "2025-06-07T08:09:10Z", {"docs/news.md": "---\ndate: 2023-05-06\n---\n# News\n"})
    env = {**os.environ, "SOURCE_DATE_EPOCH": "4102444800", "PATH": f"{properdocs}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(["properdocs", "build"], cwd=root, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "sitemapkit:" in done.stderr  # our summary line, in ProperDocs' log
    site = root / "site"
    assert lastmods(site, SITE_URL) == {
        SITE_URL: committed(root, "docs/index.md"),
        SITE_URL + "guide/": committed(root, "docs/guide.md"),
        SITE_URL + "news/": "2023-05-06",  # front matter wins over git
    }
    assert validate_strict(site) == 0
