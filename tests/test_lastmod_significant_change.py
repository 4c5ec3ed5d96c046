"""lastmod is the last significant change: an include every page gets by the generator's own
site-wide mechanism (pymdownx.snippets' ``auto_append``, Sphinx's ``rst_epilog`` and
``rst_prolog``) dates no page, while a page that names the same file itself is dated by it;
and where the manifest says a page's rendered content is what it was, no source date moves
it forward. Real MkDocs and Sphinx builds in real git histories."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from git_helpers import commit, init
from project_checks import lastmods, urlset, validate_strict
from sphinx.cmd.build import build_main

pytestmark = pytest.mark.slow  # real generator runs in git histories

BASE = "https://docs.example.org/"
FIRST, POST_EDIT, ABBR_EDIT = "2021-03-01T08:00:00Z", "2023-06-01T09:00:00Z", "2024-10-09T10:00:00Z"
MKDOCS = str(Path(sys.executable).parent / "mkdocs")

# mkdocs-material's own layout: includes/mkdocs.md (abbreviations, link definitions) appended
# to every page by pymdownx.snippets' auto_append.
MKDOCS_FILES = {
    "mkdocs.yml": (
        f"site_name: Appended\nsite_url: {BASE}\nplugins:\n  - sitemapkit\n"
        "markdown_extensions:\n  - abbr\n  - pymdownx.snippets:\n      auto_append:\n        - includes/mkdocs.md\n"
    ),
    ".gitignore": "site/\n.cache/\n",
    "docs/index.md": "# Home\n\nThe HTML spec.\n",
    "docs/blog/old-post.md": "# An old post\n\nWritten in HTML in 2021.\n",
    "docs/post.md": "# A post\n\nFirst words.\n",
    "docs/glossary.md": '# Glossary\n\n--8<-- "includes/mkdocs.md"\n',  # names it itself
    "includes/mkdocs.md": "*[HTML]: HyperText Markup Language\n",
}


def mkdocs_build(repo: Path) -> None:
    env = {**os.environ, "SOURCE_DATE_EPOCH": "1767225600"}  # 2026-01-01: a build-time date would show
    done = subprocess.run([MKDOCS, "build"], cwd=repo, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_an_auto_appended_file_dates_no_page_but_one_that_names_it(tmp_path):
    repo = init(tmp_path / "material-like")
    commit(repo, FIRST, MKDOCS_FILES)
    commit(repo, POST_EDIT, {"docs/post.md": "# A post\n\nEdited words.\n"})
    # the last commit adds one abbreviation to the appended file, as mkdocs-material's did
    commit(repo, ABBR_EDIT, {"includes/mkdocs.md": "*[HTML]: HyperText Markup Language\n*[CSS]: Cascading\n"})
    mkdocs_build(repo)
    assert "HyperText Markup Language" in (repo / "site" / "blog" / "old-post" / "index.html").read_text("utf-8")
    assert lastmods(repo / "site", BASE) == {
        BASE: FIRST,
        f"{BASE}blog/old-post/": FIRST,  # its own date, not the appended file's
        f"{BASE}post/": POST_EDIT,
        f"{BASE}glossary/": ABBR_EDIT,  # the page names the file: made from it
    }
    assert validate_strict(repo / "site") == 0


def test_a_commit_that_leaves_the_rendered_page_as_it_was_does_not_move_it(tmp_path):
    """A source date moves forward (a commit that only edits a Markdown comment), the
    rendered content does not (the manifest's digest): the page keeps the lastmod it had."""
    repo = init(tmp_path / "commented")
    # the change feed keeps a manifest (as IndexNow does, or a page only a fingerprint dates)
    config = MKDOCS_FILES["mkdocs.yml"].replace("  - sitemapkit\n", "  - sitemapkit:\n      changes_feed: 10\n")
    files = {**MKDOCS_FILES, "docs/post.md": "# A post\n\n[//]: # (to do: say more)\n\nFirst words.\n",
             "mkdocs.yml": config}
    commit(repo, FIRST, files)
    mkdocs_build(repo)  # the manifest is kept in .cache/sitemapkit/
    assert urlset(repo / "site", BASE)[f"{BASE}post/"] == FIRST
    commit(repo, POST_EDIT, {"docs/post.md": "# A post\n\n[//]: # (to do: say much more)\n\nFirst words.\n"})
    commit(repo, ABBR_EDIT, {"docs/index.md": "# Home\n\nThe HTML spec, edited.\n"})
    mkdocs_build(repo)
    found = urlset(repo / "site", BASE)
    assert found[f"{BASE}post/"] == FIRST  # git says POST_EDIT; the page reads as it did
    assert found[BASE] == ABBR_EDIT  # a real edit still moves its page
    assert validate_strict(repo / "site") == 0


SPHINX_FILES = {
    "docs/conf.py": (
        'project = "Epilog"\nextensions = ["sitemapkit_sphinx"]\n'
        f'html_baseurl = "{BASE}"\n'
        'rst_epilog = """\n.. include:: /_links.inc\n"""\n'
        'rst_prolog = ".. |project| replace:: Epilog\\n.. include:: /_subs.inc\\n"\n'
    ),
    "docs/_links.inc": ".. _Sphinx: https://www.sphinx-doc.org/\n",
    "docs/_subs.inc": ".. |tool| replace:: sitemapkit\n",
    "docs/index.rst": "Home\n====\n\nSee Sphinx_.\n\n.. toctree::\n\n   guide/setup\n   links\n",
    "docs/guide/setup.rst": "Setup\n=====\n\nInstall |tool|.\n",
    "docs/links.rst": "Links\n=====\n\n.. include:: _links.inc\n",  # names it itself
}


def test_rst_epilog_and_prolog_includes_date_no_page_but_one_that_includes_them(tmp_path):
    repo = init(tmp_path / "sphinx-project")
    commit(repo, FIRST, SPHINX_FILES)
    commit(repo, POST_EDIT, {"docs/_subs.inc": ".. |tool| replace:: sitemapkit 2\n"})
    commit(repo, ABBR_EDIT, {"docs/_links.inc": ".. _Sphinx: https://www.sphinx-doc.org/en/master/\n"})
    out = repo / "_build" / "html"
    os.environ["SOURCE_DATE_EPOCH"] = "1767225600"
    try:
        assert build_main(["-b", "html", "-q", str(repo / "docs"), str(out)]) == 0
    finally:
        del os.environ["SOURCE_DATE_EPOCH"]
    assert "sitemapkit 2" in (out / "guide" / "setup.html").read_text(encoding="utf-8")
    assert lastmods(out, BASE) == {
        f"{BASE}index.html": FIRST,
        f"{BASE}guide/setup.html": FIRST,  # rst_prolog's and rst_epilog's includes are everyone's
        f"{BASE}links.html": ABBR_EDIT,  # includes _links.inc itself
    }
    assert validate_strict(out) == 0
