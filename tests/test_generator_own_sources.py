"""Each page dated by the source its generator built it from: Docusaurus' versioned docs
(``versions.json``: the newest version at ``/docs/``, the current docs at ``/docs/next/``),
Eleventy's folder-named pages (``blog/x/x.md`` -> ``/blog/x/``) in its configured input folder
(``setInputDirectory``), VitePress (``cleanUrls``, a front-matter ``lastUpdated``),
mkdocstrings pages by the modules they document; and a ``--source-dir`` that does not exist
is a warning naming it. Neither Docusaurus, Eleventy nor VitePress is installed here: their
output is laid out by hand as each lays it out, beside their sources in a real git history."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from git_helpers import commit, init
from project_checks import lastmods, validate_strict

from sitemapkit.cli import main

pytestmark = pytest.mark.slow  # real git histories

FIRST, LATER = "2023-05-05T12:00:00Z", "2024-08-08T08:08:08Z"


def built(site: Path, pages: dict[str, str], html: str) -> None:
    """Each page (its output file -> its URL path) written as ``html`` fills it in."""
    for output, url in pages.items():
        path = site / output
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(html.format(url=url, title=output), encoding="utf-8")


DOCUSAURUS_PAGE = ('<!doctype html><html lang=en dir=ltr><head><meta charset=UTF-8>'
                   '<meta name=generator content="Docusaurus v3.10.2"><title>{title}</title>'
                   '<link data-rh=true rel=canonical href=https://docusaurus.example/{url} /></head>'
                   '<body><div id=__docusaurus><main><article><h1>{title}</h1><p>Text.</p></article></main>'
                   '</div></body></html>')


def test_docusaurus_versioned_docs_are_dated_by_the_version_that_built_them(tmp_path, monkeypatch):
    root = init(tmp_path / "website")
    commit(root, FIRST, {
        ".gitignore": "build/\n.cache/\n",
        "docusaurus.config.js": "export default {url: 'https://docusaurus.example', baseUrl: '/',\n"
                                "  presets: [['classic', {docs: {sidebarPath: './sidebars.js'}}]]};\n",
        "versions.json": '["1.1", "1.0"]\n',
        "docs/intro.md": "# Intro\n\nNext.\n",
        "versioned_docs/version-1.1/intro.md": "# Intro\n\nOne one.\n",
        "versioned_docs/version-1.0/intro.md": "# Intro\n\nOne.\n",
        "versioned_docs/version-1.0/old.md": "---\nlast_update:\n  date: 2022-02-02\n---\n# Old\n",
    })
    commit(root, LATER, {"docs/intro.md": "# Intro\n\nNext, edited.\n"})  # the unreleased docs only
    built(root / "build", {"docs/intro/index.html": "docs/intro", "docs/next/intro/index.html": "docs/next/intro",
                           "docs/1.0/intro/index.html": "docs/1.0/intro", "docs/1.0/old/index.html": "docs/1.0/old"},
          DOCUSAURUS_PAGE)
    monkeypatch.chdir(root)
    assert main(["build", "build", "--base-url", "https://docusaurus.example/", "--source-dir", ".", "-q"]) == 0
    base = "https://docusaurus.example/"
    assert lastmods(root / "build", base) == {
        f"{base}docs/intro": FIRST,  # versioned_docs/version-1.1/intro.md, not docs/intro.md
        f"{base}docs/next/intro": LATER,  # docs/intro.md
        f"{base}docs/1.0/intro": FIRST,
        f"{base}docs/1.0/old": "2022-02-02",
    }
    assert validate_strict(root / "build") == 0


ELEVENTY_PAGE = ('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title}</title>'
                 '</head><body><header><a href="/">Eleventy Base Blog</a></header><main><h1>{title}</h1>'
                 '<p>Text.</p></main></body></html>')


def test_eleventy_folder_named_pages_in_its_configured_input_folder(tmp_path, monkeypatch):
    root = init(tmp_path / "eleventy-base-blog")
    commit(root, FIRST, {
        ".gitignore": "_site/\n.cache/\n",
        "eleventy.config.js": 'export default async function(eleventyConfig) {\n'
                              '  eleventyConfig.setInputDirectory("content");\n}\n',
        "content/index.njk": "---\nlayout: home\n---\n",
        "content/blog/firstpost.md": "---\ntitle: First\ndate: 2018-05-01\n---\nText.\n",
        # the starter's fourth post: a folder named as the file, with its images beside it
        "content/blog/fourthpost/fourthpost.md": "---\ntitle: Fourth\ndate: 2018-09-30\n---\nText.\n",
    })
    built(root / "_site", {"index.html": "", "blog/firstpost/index.html": "blog/firstpost/",
                           "blog/fourthpost/index.html": "blog/fourthpost/"}, ELEVENTY_PAGE)
    monkeypatch.chdir(root)
    assert main(["build", "_site", "--base-url", "https://eleventy.example/", "--source-dir", ".", "-q"]) == 0
    found = lastmods(root / "_site", "https://eleventy.example/")
    assert found["https://eleventy.example/blog/fourthpost/"] == "2018-09-30"  # its front matter
    assert found["https://eleventy.example/blog/firstpost/"] == "2018-05-01"


VITEPRESS_PAGE = ('<!DOCTYPE html><html lang="en-US" dir="ltr"><head><meta charset="utf-8"><title>{title}</title>'
                  '<meta name="generator" content="VitePress v1.6.3"></head><body><div id="app"><main class="main">'
                  '<h1>{title}</h1><p>Text.</p></main></div></body></html>')


def test_vitepress_clean_urls_and_its_last_updated_key(tmp_path, monkeypatch):
    root = init(tmp_path / "vitepress-docs")
    commit(root, FIRST, {
        ".gitignore": ".vitepress/dist/\n.vitepress/cache/\n.cache/\n",
        ".vitepress/config.mts": "import { defineConfig } from 'vitepress'\n"
                                 "export default defineConfig({\n  title: 'Docs',\n  cleanUrls: true,\n"
                                 "  lastUpdated: true,\n})\n",
        "index.md": "---\nlayout: home\n---\n",
        "guide/getting-started.md": "---\nlastUpdated: 2024-02-02\n---\n# Getting started\n",
        "guide/config.md": "# Config\n",
    })
    commit(root, LATER, {"guide/config.md": "# Config\n\nMore.\n"})
    site = root / ".vitepress" / "dist"
    built(site, {"index.html": "", "guide/getting-started.html": "", "guide/config.html": "",
                 "404.html": ""}, VITEPRESS_PAGE)
    monkeypatch.chdir(root)
    assert main(["build", str(site), "--base-url", "https://vitepress.example/", "--source-dir", ".", "-q"]) == 0
    base = "https://vitepress.example/"
    assert lastmods(site, base) == {
        base: FIRST,
        f"{base}guide/getting-started": "2024-02-02",  # spelt as cleanUrls serves it; its lastUpdated
        f"{base}guide/config": LATER,
    }
    assert validate_strict(site) == 0


def test_mkdocstrings_pages_are_dated_by_the_modules_they_document(tmp_path, monkeypatch):
    """The command line in an MkDocs project (mkdocstrings itself is not installed here: the
    built site is laid out as MkDocs writes it)."""
    root = init(tmp_path / "api-project")
    commit(root, FIRST, {
        ".gitignore": "site/\n.cache/\n",
        "mkdocs.yml": "site_name: Api\nsite_url: https://api.example/\nplugins:\n  - search\n"
                      "  - mkdocstrings:\n      handlers:\n        python:\n          paths: [src]\n",
        "docs/index.md": "# Home\n",
        "docs/reference.md": "# Reference\n\n::: pkg.core.Engine\n\n::: pkg\n",
        "src/pkg/__init__.py": '"""The package."""\n',
        "src/pkg/core.py": '"""Core."""\n\n\nclass Engine:\n    """Runs."""\n',
    })
    commit(root, LATER, {"src/pkg/core.py": '"""Core."""\n\n\nclass Engine:\n    """Runs fast."""\n'})
    built(root / "site", {"index.html": "", "reference/index.html": "reference/"},
          '<!DOCTYPE html><html lang="en"><head><title>{title}</title></head><body><div role="main">'
          '<h1>{title}</h1></div></body></html>')
    monkeypatch.chdir(root)
    assert main(["build", "-q"]) == 0
    assert lastmods(root / "site", "https://api.example/") == {
        "https://api.example/": FIRST,
        "https://api.example/reference/": LATER,  # src/pkg/core.py, not the one-line stub
    }


def test_a_source_dir_that_does_not_exist_is_a_warning_naming_it(tmp_path, capsys):
    site = tmp_path / "public"
    built(site, {"index.html": "", "a/index.html": "a/"}, ELEVENTY_PAGE)
    assert main(["build", str(site), "--base-url", "https://example.org/", "--source-dir",
                 str(tmp_path / "contnet")]) == 0
    err = capsys.readouterr().err
    assert "warning:" in err and "[source-dir-missing]" in err and "contnet" in err
    assert main(["build", str(site), "--base-url", "https://example.org/", "--source-dir",
                 str(tmp_path / "contnet"), "--strict", "-q"]) == 1


def test_a_sphinx_projects_pages_are_dated_by_the_files_they_name_by_path(tmp_path, monkeypatch):
    """flask's layout: ``docs/changes.rst`` includes ``../CHANGES.rst``, ``docs/api.rst``
    documents ``flask`` with autodoc; built by a real Sphinx (without sitemapkit's extension),
    then dated by ``sitemapkit build --source-dir docs``, by the paths the pages write."""
    from sphinx.cmd.build import build_main

    root = init(tmp_path / "flask-like")
    commit(root, FIRST, {
        ".gitignore": "_build/\n.cache/\n",
        "docs/conf.py": 'import os, sys\nsys.path.insert(0, os.path.abspath("../src"))\n'
                        'project = "Flaskish"\nextensions = ["sphinx.ext.autodoc"]\n',
        "docs/index.rst": "Flaskish\n========\n\n.. toctree::\n\n   api\n   changes\n   CHANGES\n",
        "docs/api.rst": "API\n===\n\n.. module:: flaskish\n\n.. autoclass:: Flask\n",
        "docs/changes.rst": "Changes\n=======\n\n.. include:: ../CHANGES.rst\n",
        "docs/CHANGES.rst": "Old notes\n=========\n\nA page of the same name as the included file.\n",
        "CHANGES.rst": "Version 1.0\n-----------\n\nReleased.\n",
        "src/flaskish/__init__.py": '"""Flaskish."""\n\n\nclass Flask:\n    """The app."""\n',
    })
    commit(root, LATER, {"CHANGES.rst": "Version 1.1\n-----------\n\nReleased.\n\nVersion 1.0\n-----------\n\nOld.\n"})
    code_edit = "2025-01-01T00:00:00Z"
    commit(root, code_edit, {"src/flaskish/__init__.py": '"""Flaskish."""\n\n\nclass Flask:\n    """The app!"""\n'})
    monkeypatch.syspath_prepend(str(root / "src"))
    monkeypatch.delitem(sys.modules, "flaskish", raising=False)  # autodoc's import is undone after the test
    out = root / "_build" / "html"
    assert build_main(["-b", "html", "-q", str(root / "docs"), str(out)]) == 0
    monkeypatch.chdir(root)
    assert main(["build", str(out), "--base-url", "https://flask.example/", "--source-dir", "docs", "-q"]) == 0
    found = lastmods(out, "https://flask.example/")
    assert found["https://flask.example/changes.html"] == LATER  # ../CHANGES.rst, not docs/CHANGES.rst
    assert found["https://flask.example/CHANGES.html"] == FIRST
    assert found["https://flask.example/api.html"] == code_edit  # the module autodoc documents, not its stub


def test_docusaurus_versions_in_another_locale_from_their_translations(tmp_path, monkeypatch):
    root = init(tmp_path / "website")
    commit(root, FIRST, {
        ".gitignore": "build/\n.cache/\n",
        "docusaurus.config.js": "export default {url: 'https://docusaurus.example', baseUrl: '/',\n"
                                "  i18n: {defaultLocale: 'en', locales: ['en', 'fr']},\n"
                                "  presets: [['classic', {docs: {}}]]};\n",
        "versions.json": '["1.0"]\n',
        "docs/intro.md": "# Intro\n\nNext.\n",
        "versioned_docs/version-1.0/intro.md": "# Intro\n\nOne.\n",
        "i18n/fr/docusaurus-plugin-content-docs/version-1.0/intro.md": "# Intro\n\nUn.\n",
    })
    commit(root, LATER, {"i18n/fr/docusaurus-plugin-content-docs/version-1.0/intro.md": "# Intro\n\nUn, revu.\n"})
    built(root / "build", {"docs/intro/index.html": "docs/intro", "docs/next/intro/index.html": "docs/next/intro",
                           "fr/docs/intro/index.html": "fr/docs/intro",
                           "fr/docs/next/intro/index.html": "fr/docs/next/intro"}, DOCUSAURUS_PAGE)
    monkeypatch.chdir(root)
    assert main(["build", "build", "--base-url", "https://docusaurus.example/", "--source-dir", ".", "-q"]) == 0
    base = "https://docusaurus.example/"
    found = lastmods(root / "build", base)
    assert found[f"{base}fr/docs/intro"] == LATER  # its translation of version 1.0
    assert found[f"{base}fr/docs/next/intro"] == found[f"{base}docs/intro"] == FIRST  # no translation: docs/intro.md
