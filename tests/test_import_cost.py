"""What sitemapkit loads: its heavy or optional dependencies are imported only by the builds
and commands that use them (the validator's lxml, urllib3 and protego, IndexNow's
urllib.request, front matter's PyYAML, ``exclude``'s pathspec, sqlite3 where pages' facts
are kept (a MkDocs build keeps them for the next, issue 36) or a manifest is big,
``sitemap.html``'s Jinja2, ``llms_txt``'s markdownify and BeautifulSoup; tomllib, which
compiles its patterns on import, for a project's TOML; difflib, for the suggestion an unknown
option gets). Nor are sitemapkit's own modules of
features a build leaves off: validating, the HTML views, the change feed, IndexNow, llms.txt,
``transform``, another generator's sources, pymdownx.snippets' and mkdocstrings', versions
(mike, Read the Docs), the root index of versioned docs (issue 36)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from project_checks import quickstart
from quickstarts import sphinx_quickstart

HEAVY = ("pathspec", "yaml", "lxml", "protego", "urllib3", "sqlite3", "jinja2", "urllib.request", "ssl", "tomllib",
         "markdownify", "bs4", "difflib")

LIST_HEAVY = """
import sys
print("\\n".join(sorted(name for name in {heavy!r} if name in sys.modules)))
"""

BUILD = """
from mkdocs.__main__ import cli
try:
    cli(["build", "--quiet"])
except SystemExit as done:
    assert not done.code, done.code
print("sitemapkit_mkdocs.plugin" in sys.modules)
"""


def loaded_heavy(code: str, cwd=None) -> list[str]:
    done = subprocess.run([sys.executable, "-c", "import sys\n" + code + LIST_HEAVY.format(heavy=HEAVY)],
                          cwd=cwd, check=True, capture_output=True, text=True)
    return done.stdout.split()


def test_importing_sitemapkit_loads_none_of_its_heavy_dependencies():
    imports = ("import sitemapkit, sitemapkit.sources.project, sitemapkit.validate, sitemapkit.generate, "
               "sitemapkit.site.scan, sitemapkit.lastmod.manifest, sitemapkit.output.html_sitemap, "
               "sitemapkit.output.llms, "
               "sitemapkit.site.pages\n")
    assert loaded_heavy(imports) == []
    # The command line reads configuration files (TOML, YAML) to find a project's layout.
    assert set(loaded_heavy("import sitemapkit.cli\n")) <= {"tomllib", "yaml"}


@pytest.mark.slow  # real generator runs (make test-fast leaves them out)
def test_a_default_mkdocs_build_loads_no_heavy_dependency_mkdocs_does_not_load_itself(tmp_path):
    with_plugin = quickstart(tmp_path / "project")
    without = quickstart(tmp_path / "plain")
    config = without / "mkdocs.yml"
    config.write_text(config.read_text().replace("plugins:\n  - sitemapkit\n", ""))

    ours = loaded_heavy(BUILD, with_plugin)
    theirs = loaded_heavy(BUILD, without)
    assert ours[0] == "True" and theirs[0] == "False"  # the build ran sitemapkit, the other did not
    assert (with_plugin / "site" / "sitemap.xml").is_file()
    # MkDocs' own (PyYAML, Jinja2, pathspec), and sqlite3: the pages' facts kept for the next build
    assert ours[1:] == sorted({*theirs[1:], "sqlite3"})


UNUSED_BY_DEFAULT = ("sitemapkit.validate.", "sitemapkit.output.html_sitemap", "sitemapkit.output.map_sections",
                     "sitemapkit_mkdocs.html_sitemap", "sitemapkit.output.feed", "sitemapkit.output.indexnow",
                     "sitemapkit.output.llms", "sitemapkit.output.markdown", "sitemapkit.lastmod.listings",
                     "sitemapkit.listing.transform", "sitemapkit.version_index", "sitemapkit.version_branch",
                     "sitemapkit.branch", "sitemapkit.sources.project", "sitemapkit.sources.layouts",
                     "sitemapkit.sources.matching", "sitemapkit.sources.jekyll", "sitemapkit.sources.generator",
                     "sitemapkit.sources.front_matter", "sitemapkit.sources.nav", "sitemapkit.sources.jsconfig",
                     "sitemapkit.sources.bounded", "sitemapkit.sources.snippets", "sitemapkit.sources.mkdocstrings",
                     "sitemapkit.site.scan", "sitemapkit.cli")
UNUSED_BY_MKDOCS = ("sitemapkit.versions", "sitemapkit.translations", "sitemapkit.sources.pyconf",
                    "sitemapkit.sources.rst", "sitemapkit.compat.sphinx")
"""What a default MkDocs build leaves too: versions (mike, Read the Docs), the languages of
other generators' sites, Sphinx's sources and ways."""

LIST_OURS = """
print("\\n".join(sorted(name for name in sys.modules if name.startswith({prefixes!r}))))
"""


@pytest.mark.slow  # a real generator run
def test_a_default_mkdocs_build_loads_no_module_of_a_feature_it_leaves_off(tmp_path):
    project = quickstart(tmp_path / "project")
    code = "import sys\n" + BUILD + LIST_OURS.format(prefixes=UNUSED_BY_DEFAULT + UNUSED_BY_MKDOCS)
    done = subprocess.run([sys.executable, "-c", code], cwd=project, check=True, capture_output=True, text=True)
    ran, *loaded = done.stdout.split()
    assert ran == "True" and (project / "site" / "sitemap.xml").is_file()
    assert loaded == []

    # the same build with the views, the feed and a transform on loads theirs
    config = project / "mkdocs.yml"
    (project / "keep.py").write_text("def entry(entry):\n    return entry\n")
    config.write_text(config.read_text().replace(
        "plugins:\n  - sitemapkit\n",
        "plugins:\n  - sitemapkit:\n      html_sitemap: true\n      changes_feed: 5\n      transform: keep:entry\n"
        "  - mike\nmarkdown_extensions:\n  - pymdownx.snippets\n"))
    done = subprocess.run([sys.executable, "-c", code], cwd=project, check=True, capture_output=True, text=True,
                          env={**os.environ, "MIKE_DOCS_VERSION": "1.0"})
    assert {"sitemapkit.output.html_sitemap", "sitemapkit_mkdocs.html_sitemap", "sitemapkit.output.feed",
            "sitemapkit.listing.transform", "sitemapkit.versions", "sitemapkit.sources.snippets"} \
        <= set(done.stdout.split()[1:])


SPHINX_BUILD = """
from sphinx.cmd.build import build_main
assert build_main(["-q", "-b", "html", ".", "_build/html"]) == 0
print("sitemapkit_sphinx" in sys.modules)
"""


@pytest.mark.slow  # a real generator run
def test_a_default_sphinx_build_loads_no_module_of_a_feature_it_leaves_off(tmp_path):
    project = sphinx_quickstart(tmp_path / "docs", Path(sys.executable).parent)
    with open(project / "conf.py", "a", encoding="utf-8") as conf:
        conf.write('extensions = ["sitemapkit_sphinx"]\nhtml_baseurl = "https://docs.example.org/"\n')
    # site.scan lists the files of html_extra_path and viewcode's pages for the Sphinx adapter
    unused = (*(name for name in UNUSED_BY_DEFAULT if name != "sitemapkit.site.scan"), "sitemapkit_sphinx.html",
              "sitemapkit.versions")
    code = "import sys\n" + SPHINX_BUILD + LIST_OURS.format(prefixes=unused)
    done = subprocess.run([sys.executable, "-c", code], cwd=project, check=True, capture_output=True, text=True)
    ran, *loaded = done.stdout.split()
    assert ran == "True" and (project / "_build" / "html" / "sitemap.xml").is_file()
    assert loaded == []

    # the views on: the build loads them
    with open(project / "conf.py", "a", encoding="utf-8") as conf:
        conf.write("sitemapkit_html_sitemap = True\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=project, check=True, capture_output=True, text=True)
    assert {"sitemapkit.output.html_sitemap", "sitemapkit_sphinx.html_sitemap"} <= set(done.stdout.split()[1:])
    assert (project / "_build" / "html" / "sitemap.html").is_file()


CLI_BUILD = """
from sitemapkit.cli import main
assert main(["build", "site", "--base-url", "https://example.org/", "--quiet"]) == 0
"""
UNUSED_BY_THE_CLI = ("sitemapkit.validate.", "sitemapkit.output.html_sitemap", "sitemapkit.output.map_sections",
                     "sitemapkit.output.feed", "sitemapkit.output.indexnow", "sitemapkit.output.llms",
                     "sitemapkit.output.markdown", "sitemapkit.listing.transform", "sitemapkit.branch",
                     "sitemapkit.version_branch", "sitemapkit.compat.sphinx", "sitemapkit.compat.mkdocs_build")
"""What a default ``sitemapkit build`` of a folder leaves: the same features, and git's
plumbing for ``--branch`` (it reads each generator's project and sources: finding them is its job)."""


@pytest.mark.slow  # a child process
def test_a_default_cli_build_loads_no_module_of_a_feature_it_leaves_off(tmp_path):
    (tmp_path / "site" / "guide").mkdir(parents=True)
    for name in ("index.html", "guide/index.html"):
        (tmp_path / "site" / name).write_text("<!doctype html><html lang=en><head><title>A page</title></head>"
                                              "<body><main><p>Text.</p></main></body></html>\n")
    code = "import sys\n" + CLI_BUILD + LIST_OURS.format(prefixes=UNUSED_BY_THE_CLI)
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, check=True, capture_output=True, text=True)
    assert (tmp_path / "site" / "sitemap.xml").is_file()
    assert done.stdout.split() == []

    # the views and llms.txt on: the build loads them
    views = code.replace('"--quiet"', '"--quiet", "--html-sitemap", "--llms-txt"')
    done = subprocess.run([sys.executable, "-c", views], cwd=tmp_path, check=True, capture_output=True, text=True)
    assert {"sitemapkit.output.html_sitemap", "sitemapkit.output.llms"} <= set(done.stdout.split())


PELICAN_BUILD = """
from pelican import Pelican
from pelican.settings import read_settings
Pelican(read_settings("pelicanconf.py")).run()
print("-- sitemapkit_pelican loaded:", "sitemapkit_pelican" in sys.modules)
"""
UNUSED_BY_A_DATED_PELICAN_BLOG = ("sitemapkit.lastmod.git", "sitemapkit.lastmod.page_facts",
                                  "sitemapkit.lastmod.ordered")
"""What a Pelican build whose pages all have dates leaves too: git's modules (no page asks it),
the pages' kept facts (it hands each page's head and content) and the manifest in SQLite."""


@pytest.mark.slow  # a real generator run
def test_a_pelican_build_of_dated_pages_loads_no_module_of_a_feature_it_leaves_off(tmp_path):
    (tmp_path / "content").mkdir()
    for n in (1, 2):
        (tmp_path / "content" / f"post{n}.md").write_text(f"Title: Post {n}\nDate: 2026-01-0{n} 10:00\n\nText.\n")
    (tmp_path / "pelicanconf.py").write_text(
        'SITEURL = "https://example.org"\nPATH = "content"\nOUTPUT_PATH = "output"\nPLUGINS = ["sitemapkit_pelican"]\n'
        "FEED_ALL_ATOM = CATEGORY_FEED_ATOM = None\n")
    code = "import sys\n" + PELICAN_BUILD + LIST_OURS.format(
        prefixes=UNUSED_BY_DEFAULT + UNUSED_BY_A_DATED_PELICAN_BLOG)
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, check=True, capture_output=True, text=True)
    ran, *loaded = done.stdout.split("-- sitemapkit_pelican loaded: ")[1].split()  # (after Pelican's own lines)
    assert ran == "True" and (tmp_path / "output" / "sitemap.xml").is_file()
    assert loaded == []
