"""`sitemapkit build` in a generator's project: site URL, folders and languages from its
configuration file, each page dated from its Markdown source (front matter, then git). Sites
are built with a real `mkdocs build` that has no sitemapkit plugin."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from git_helpers import commit, init
from project_checks import committed, lastmods, validate_strict

from sitemapkit.cli import main

pytestmark = pytest.mark.slow  # real git histories (make test-fast leaves them out)

MKDOCS = str(Path(sys.executable).parent / "mkdocs")


def project(root: Path, config: str, pages: dict[str, str]) -> Path:
    """A committed project, one commit a month per page, built with `mkdocs build`."""
    init(root)
    (root / ".gitignore").write_text("public/\nsite/\n", encoding="utf-8")
    commit(root, "2024-03-04T05:06:07Z", {"mkdocs.yml": config})
    for month, (name, text) in enumerate(pages.items(), start=1):
        commit(root, f"2025-{month:02}-02T03:04:05Z", {name: text})
    subprocess.run([MKDOCS, "build", "-q"], cwd=root, check=True)
    return root


def test_project_config_names_the_url_folders_languages_and_sources(tmp_path, monkeypatch):
    config = {
        "site_name": "Test",
        "site_url": "!ENV [DOCS_URL, 'https://fallback.example/']",
        "docs_dir": "content",
        "site_dir": "public",
        "use_directory_urls": False,
        "theme": {"name": "mkdocs"},
        "plugins": [{"i18n": {"docs_structure": "suffix", "languages": [
            {"locale": "en", "name": "English", "default": True}, {"locale": "fr", "name": "Français"},
        ]}}],
    }
    text = yaml.safe_dump(config, sort_keys=False).replace("'!ENV [DOCS_URL, ''https://fallback.example/'']'",
                                                          "!ENV [DOCS_URL, 'https://fallback.example/']")
    monkeypatch.setenv("DOCS_URL", "https://docs.example.org/")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "4102444800")
    root = project(tmp_path / "project", text, {
        "content/index.md": "# Home\n",
        "content/index.fr.md": "# Accueil\n",
        "content/guide.md": "# Guide\n",
        "content/guide.fr.md": "---\ndate: 2020-01-01\nupdated: 2021-02-03\n---\n# Guide\n",
        "content/sub/index.md": "# Sub\n",
        "content/sub/index.fr.md": "# Sous\n",
    })
    monkeypatch.chdir(tmp_path)  # --project, not the current folder
    assert main(["build", "--project", str(root / "mkdocs.yml")]) == 0
    base = "https://docs.example.org/"
    assert lastmods(root / "public", base) == {
        base + "index.html": committed(root, "content/index.md"),  # MkDocs' own links, canonical included
        base + "guide.html": committed(root, "content/guide.md"),
        base + "sub/index.html": committed(root, "content/sub/index.md"),
        base + "fr/index.html": committed(root, "content/index.fr.md"),
        base + "fr/sub/index.html": committed(root, "content/sub/index.fr.md"),
        base + "fr/guide.html": "2021-02-03",  # front matter wins over git
    }
    assert validate_strict(root / "public") == 0


def test_current_folder_is_the_project(tmp_path, monkeypatch):
    root = project(tmp_path / "project", "site_name: T\nsite_url: https://a.example/docs/\n", {
        "docs/index.md": "# Home\n", "docs/a.md": "---\ndate: 2019-09-09\n---\n# A\n",
    })
    monkeypatch.chdir(root)
    assert main(["build"]) == 0
    base = "https://a.example/docs/"
    assert lastmods(root / "site", base) == {base: committed(root, "docs/index.md"), base + "a/": "2019-09-09"}
    assert not (root / "site" / "robots.txt").exists()  # below the host's root: crawlers never read one there


def test_source_dir_dates_pages_by_file_name_without_a_project(tmp_path, monkeypatch, capsys):
    root = project(tmp_path / "project", "site_name: T\n", {
        "docs/index.md": "---\ndate: [oops\n---\n# Home\n",
        "docs/posts/hello.md": "+++\ntitle = 'Hello'\nlastmod = 2018-08-08\n+++\n# Hello\n",
        "docs/posts/later.md": "# Later\n",
    })
    (root / "mkdocs.yml").unlink()  # a folder of HTML and one of sources, as Hugo leaves them
    monkeypatch.chdir(root)
    base = "https://blog.example/"
    assert main(["build", "site", "--base-url", base, "--source-dir", "docs"]) == 0
    assert lastmods(root / "site", base) == {
        base: committed(root, "docs/index.md"),
        base + "posts/hello/": "2018-08-08",
        base + "posts/later/": committed(root, "docs/posts/later.md"),
    }
    printed = capsys.readouterr()  # told by the build, and counted in its summary
    assert "warning: index.md: front matter: ignored: while parsing" in printed.err
    told = len([line for line in printed.err.splitlines() if line.startswith("warning: ")])
    assert printed.out.rstrip().endswith(f"; {told} warnings"), printed


def test_no_project_and_no_site_dir_is_a_usage_error(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["build"]) == 2
    assert "SITE_DIR is needed outside a zensical.toml, properdocs.yml or mkdocs.yml project" in capsys.readouterr().err
