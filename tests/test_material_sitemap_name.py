"""Material for MkDocs reads ``sitemap.xml`` in the browser (instant navigation and previews,
the version and language selectors). With another ``filename``, a real ``mkdocs build`` of a
Material site says which of the features it turns on stop working; with the default name, or
none of those features, it says nothing and ``sitemap.xml`` is the ``<urlset>`` Material reads."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from lxml import etree

from sitemap_checks import assert_valid_tree

pytestmark = pytest.mark.slow  # real generator runs (make test-fast leaves them out)

BIN = Path(sys.executable).parent
BASE = "https://example.org/docs/"
URLSET = "{http://www.sitemaps.org/schemas/sitemap/0.9}urlset"
FEATURES = ["navigation.instant", "navigation.instant.preview", "navigation.tabs"]
EXTRA = {"version": {"provider": "mike"},
         "alternate": [{"name": "English", "link": "/docs/", "lang": "en"},
                       {"name": "Français", "link": "/docs/fr/", "lang": "fr"}]}


def material_site(root: Path, options: dict, features: list[str], extra: dict) -> Path:
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "index.md").write_text("# Home\n\n[Guide](guide.md)\n", encoding="utf-8")
    (root / "docs" / "guide.md").write_text("# Guide\n", encoding="utf-8")
    config = {"site_name": "Material site", "site_url": BASE,
              "theme": {"name": "material", "features": features}, "extra": extra,
              "plugins": [{"sitemapkit": options}]}
    (root / "mkdocs.yml").write_text(yaml.safe_dump(config, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return root


def mkdocs_build(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BIN / "mkdocs"), "build", *args], cwd=root, capture_output=True, text=True,
                          check=False, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})


def test_another_filename_names_each_material_feature_that_stops_working(tmp_path):
    root = material_site(tmp_path / "site", {"filename": "map.xml"}, FEATURES, EXTRA)
    done = mkdocs_build(root)
    assert done.returncode == 0, done.stderr
    warnings = [line for line in done.stderr.splitlines() if "theme-sitemap-name" in line]
    assert len(warnings) == 1, done.stderr
    warning = warnings[0]
    assert "'map.xml' is written and no sitemap.xml" in warning
    for named in ("instant navigation (navigation.instant", "instant previews (navigation.instant.preview",
                  "the version selector (extra.version", "the language selector (extra.alternate"):
        assert named in warning
    assert "navigation.tabs" not in warning  # a feature that does not read the sitemap
    assert "keep filename: sitemap.xml" in warning
    site = root / "site"
    assert not (site / "sitemap.xml").exists()
    assert_valid_tree(site, BASE, "map.xml")
    # below the host's root: robots.txt is not written, and the line to add at the root is named
    assert not (site / "robots.txt").exists()
    assert f"'Sitemap: {BASE}map.xml' there [robots-below-root]" in done.stderr
    # the summary counts the warning it printed, and sitemapkit's own strict fails on it
    assert "; 1 warning\n" in done.stderr, done.stderr
    assert mkdocs_build(root, "--strict").returncode == 1  # a warning, as MkDocs counts them
    strict = material_site(tmp_path / "strict", {"filename": "map.xml", "strict": True}, FEATURES, EXTRA)
    assert mkdocs_build(strict).returncode == 1


def test_only_the_features_turned_on_are_named_and_none_without_them(tmp_path):
    root = material_site(tmp_path / "site", {"filename": "map.xml"}, ["navigation.instant"], {})
    done = mkdocs_build(root)
    warning = next(line for line in done.stderr.splitlines() if "theme-sitemap-name" in line)
    assert "instant navigation" in warning
    assert "previews" not in warning and "version selector" not in warning and "language selector" not in warning
    # nothing to say with the default name, or with no feature that reads sitemap.xml
    default = material_site(tmp_path / "default", {}, FEATURES, EXTRA)
    plain = material_site(tmp_path / "plain", {"filename": "map.xml"}, ["navigation.tabs"], {})
    for root in (default, plain):
        done = mkdocs_build(root, "--strict")
        assert done.returncode == 0 and "theme-sitemap-name" not in done.stderr, done.stderr
    # what Material fetches: a <urlset> at sitemap.xml
    assert etree.parse(str(default / "site" / "sitemap.xml")).getroot().tag == URLSET
    assert_valid_tree(default / "site", BASE)
