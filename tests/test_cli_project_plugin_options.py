"""`sitemapkit build` in an MkDocs project whose `mkdocs.yml` configures sitemapkit's plugin:
the command line takes the plugin's options, so that it writes what `mkdocs build` wrote
(flags still win); the one option only the plugin can follow is named, not silently dropped."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import yaml

from sitemap_checks import assert_valid, locs
from sitemapkit.cli import main

MKDOCS = str(Path(sys.executable).parent / "mkdocs")
BASE = "https://docs.example.org/"


def project(root: Path, options: dict) -> Path:
    """A stock MkDocs project (``mkdocs new``) with sitemapkit's plugin configured by ``options``."""
    subprocess.run([MKDOCS, "new", str(root)], check=True, capture_output=True)
    for name in ("guide.md", "drafts/next.md", "drafts/later.md"):
        (root / "docs" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "docs" / name).write_text(f"# {name}\n\nSome text.\n", encoding="utf-8")
    config = {"site_name": "My Docs", "site_url": BASE, "plugins": [{"sitemapkit": options}]}
    (root / "mkdocs.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    return root


def changefreqs(path: Path) -> set[str]:
    return {node.text for node in assert_valid(path).iter("{*}changefreq")}


def test_the_command_line_writes_what_the_plugin_wrote(tmp_path, monkeypatch, capsys):
    root = project(tmp_path / "docs-project", {"filename": "docs-map.xml", "exclude": ["drafts/*"],
                                                "changefreq": "weekly"})
    subprocess.run([MKDOCS, "build", "-q"], cwd=root, check=True)
    site = root / "site"
    by_plugin = sorted(locs(site / "docs-map.xml"))
    assert by_plugin == [BASE, BASE + "guide/"] and changefreqs(site / "docs-map.xml") == {"weekly"}

    monkeypatch.chdir(root)
    (site / "docs-map.xml").unlink()
    assert main(["build"]) == 0, capsys.readouterr()
    assert sorted(locs(site / "docs-map.xml")) == by_plugin
    assert changefreqs(site / "docs-map.xml") == {"weekly"}
    assert not (site / "sitemap.xml").exists()
    # a flag wins over the plugin's option
    assert main(["build", "--changefreq", "daily", "-q"]) == 0
    assert changefreqs(site / "docs-map.xml") == {"daily"}


def test_the_option_only_the_plugin_can_follow_is_named(tmp_path, monkeypatch, capsys):
    root = project(tmp_path / "docs-project", {"static_html": "omit"})
    subprocess.run([MKDOCS, "build", "-q"], cwd=root, check=True)
    monkeypatch.chdir(root)
    capsys.readouterr()
    assert main(["build"]) == 0
    err = capsys.readouterr().err
    assert "mkdocs.yml: static_html: omit ignored: sitemapkit build lists every HTML file" in err
    assert "[option-ignored]" in err
    assert BASE + "guide/" in locs(root / "site" / "sitemap.xml")


def test_a_wrong_option_in_the_plugin_entry_is_an_error_naming_the_file(tmp_path, monkeypatch, capsys):
    root = project(tmp_path / "docs-project", {"changefreq": "sometimes"})
    (root / "site").mkdir()
    monkeypatch.chdir(root)
    assert main(["build"]) == 2
    err = capsys.readouterr().err
    assert "mkdocs.yml: the sitemapkit plugin's options:" in err and "changefreq" in err
