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


def sitemap_alternates(path: Path) -> dict[str, dict[str, str]]:
    """Each URL of the sitemap at ``path`` with its hreflang alternates."""
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}
    return {url.findtext("s:loc", namespaces=ns): {link.get("hreflang"): link.get("href")
                                                      for link in url.iterfind("x:link", ns)}
            for url in assert_valid(path).iterfind("s:url", ns)}


def test_an_i18n_project_built_by_the_command_line_as_by_the_plugin(tmp_path, monkeypatch, capsys):
    """mkdocs-static-i18n (its suffix layout: ``guide.fr.md`` builds ``fr/guide/``): the command
    line takes the plugin's file name and exclude, and gives each page the alternates the
    plugin gave it from i18n's translations (the mkdocs theme writes no hreflang link)."""
    root = tmp_path / "docs-project"
    subprocess.run([MKDOCS, "new", str(root)], check=True, capture_output=True)
    for name, text in {"index.fr.md": "# Accueil\n", "guide.md": "# Guide\n", "guide.fr.md": "# Guide (fr)\n",
                       "only-en.md": "# English only\n", "internal/notes.md": "# Notes\n",
                       "internal/notes.fr.md": "# Notes (fr)\n"}.items():
        (root / "docs" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "docs" / name).write_text(text, encoding="utf-8")
    i18n = {"docs_structure": "suffix", "languages": [{"locale": "en", "name": "English", "default": True},
                                                      {"locale": "fr", "name": "Français"}]}
    config = {"site_name": "My Docs", "site_url": BASE, "plugins": [
        {"i18n": i18n}, {"sitemapkit": {"filename": "docs-map.xml", "exclude": ["**/internal/"]}}]}
    (root / "mkdocs.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    subprocess.run([MKDOCS, "build", "-q"], cwd=root, check=True)
    site = root / "site"
    by_plugin = sitemap_alternates(site / "docs-map.xml")
    assert sorted(by_plugin) == sorted(BASE + path for path in ("", "fr/", "guide/", "fr/guide/", "only-en/",
                                                                "fr/only-en/"))  # i18n's fallback page
    assert by_plugin[BASE + "fr/guide/"] == {"en": BASE + "guide/", "fr": BASE + "fr/guide/"}
    assert (site / "internal" / "notes" / "index.html").is_file()  # built, left out by exclude

    monkeypatch.chdir(root)
    (site / "docs-map.xml").unlink()
    assert main(["build", "site", "--base-url", BASE]) == 0, capsys.readouterr()
    assert sitemap_alternates(site / "docs-map.xml") == by_plugin
    assert not (site / "sitemap.xml").exists()


def test_a_docs_drafts_folder_is_pages_as_the_plugin_has_them(tmp_path, monkeypatch, capsys):
    """A root ``drafts/`` is Pelican's drafts only where Pelican (or an unknown generator)
    built the folder: in an MkDocs project ``docs/drafts/`` builds pages like any folder, so
    ``sitemapkit build`` leaves them to the plugin's ``exclude``, as ``mkdocs build`` does,
    and lists them without it."""
    root = project(tmp_path / "docs-project", {"exclude": ["drafts/*"]})
    subprocess.run([MKDOCS, "build", "-q"], cwd=root, check=True)
    site = root / "site"
    by_plugin = sorted(locs(site / "sitemap.xml"))
    assert by_plugin == [BASE, BASE + "guide/"]
    monkeypatch.chdir(root)
    capsys.readouterr()
    assert main(["build", "site", "--base-url", BASE, "--strict"]) == 0
    err = capsys.readouterr().err
    assert "exclude-unmatched" not in err and "draft" not in err, err
    assert sorted(locs(site / "sitemap.xml")) == by_plugin

    (root / "mkdocs.yml").write_text(yaml.safe_dump({"site_name": "My Docs", "site_url": BASE,
                                                     "plugins": ["sitemapkit"]}), encoding="utf-8")
    subprocess.run([MKDOCS, "build", "-q"], cwd=root, check=True)
    by_plugin = sorted(locs(site / "sitemap.xml"))
    assert BASE + "drafts/next/" in by_plugin
    assert main(["build", "site", "--base-url", BASE, "-q"]) == 0
    assert sorted(locs(site / "sitemap.xml")) == by_plugin
