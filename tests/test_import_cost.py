"""What a default build loads: an adapter's import is paid by every build, so the parts of
sitemapkit a build does not use (the folder scanner of ``include``, IndexNow, videos and news,
the validator, the command line) are loaded only by the builds that use them."""

from __future__ import annotations

import subprocess
import sys

import pytest
from project_checks import quickstart

pytestmark = pytest.mark.slow  # real generator runs (make test-fast leaves them out)

NOT_NEEDED = (
    "sitemapkit.build.scan",
    "sitemapkit.build.indexnow",
    "sitemapkit.build.videos",
    "sitemapkit.extensions",
    "sitemapkit.validate.targets",
    "sitemapkit.cli",
    "sitemapkit.project",  # the command line's reading of a project folder
    "secrets",  # the temporary names come from os.urandom
)

BUILD_THEN_LIST = """
import sys
from mkdocs.__main__ import cli
try:
    cli(["build", "--quiet"])
except SystemExit as done:
    assert not done.code, done.code
print("\\n".join(sorted(sys.modules)))
"""


def test_default_mkdocs_build_loads_only_what_it_uses(tmp_path):
    root = quickstart(tmp_path / "project")
    done = subprocess.run([sys.executable, "-c", BUILD_THEN_LIST], cwd=root, check=True, capture_output=True,
                          text=True)
    loaded = set(done.stdout.split())
    assert {"sitemapkit_mkdocs.plugin", "sitemapkit.build.generate"} <= loaded  # the build did run
    assert (root / "site" / "sitemap.xml").is_file()
    assert sorted(loaded.intersection(NOT_NEEDED)) == []
