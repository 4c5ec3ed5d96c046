"""The blocks of docs/llms.md, run as written: each generator's line turns ``llms_txt`` on in
a real build (``mkdocs build``, ``pelican``, ``sphinx-build``), whose ``llms.txt`` the reference
parser reads, linking a mirror of each page the sitemap lists; the table form writes
``llms-full.txt`` and its summary; the command line and ``validate`` as typed."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from docs_blocks import block, shell_lines
from llms_txt import parse_llms_file
from project_checks import SITE_URL, pelican_conf, quickstart

from sitemap_checks import locs
from sitemapkit.output.llms import mirror_url

pytestmark = pytest.mark.slow  # real generator runs (make test-fast leaves them out)

BIN = Path(sys.executable).parent
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "SOURCE_DATE_EPOCH": "1795284000",
       "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
PAGE = ("<!DOCTYPE html><html><head><title>{0} - Example</title></head>"
        "<body><main><h1>{0}</h1><p>About {0}.</p></main></body></html>")


def run(cwd: Path, *command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(command), cwd=cwd, env=ENV, capture_output=True, text=True, timeout=300)


def linked_exactly_the_sitemaps_pages(site: Path, base: str) -> object:
    parsed = parse_llms_file((site / "llms.txt").read_text(encoding="utf-8"))
    urls = [link["url"] for links in parsed.sections.values() for link in links]
    assert sorted(urls) == sorted(mirror_url(loc) for loc in locs(site / "sitemap.xml"))
    assert all((site / url[len(base):]).is_file() for url in urls)
    return parsed


def mkdocs_with(root: Path, snippet: str) -> Path:
    project = quickstart(root)
    config = project / "mkdocs.yml"
    plugins = yaml.safe_load(snippet)["plugins"]
    config.write_text(config.read_text().replace("plugins:\n  - sitemapkit\n", yaml.safe_dump({"plugins": plugins})))
    done = run(project, str(BIN / "mkdocs"), "build", "--strict", "-q")
    assert done.returncode == 0, done.stdout + done.stderr
    return project / "site"


def test_mkdocs_block(tmp_path):
    site = mkdocs_with(tmp_path, block("llms-mkdocs").text)
    assert linked_exactly_the_sitemaps_pages(site, SITE_URL).title == "My Docs"
    assert not (site / "llms-full.txt").exists()


def test_mkdocs_table_form(tmp_path):
    site = mkdocs_with(tmp_path, block("llms-table").text)
    parsed = linked_exactly_the_sitemaps_pages(site, SITE_URL)
    assert parsed.summary == "Everything about the example, for people who build with it."
    assert "Welcome to MkDocs" in (site / "llms-full.txt").read_text(encoding="utf-8")


def test_pelican_block(tmp_path):
    base = "https://blog.example.org/"
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "first.md").write_text("Title: First post\nDate: 2026-01-02\n\nHello.\n")
    (tmp_path / "pelicanconf.py").write_text(pelican_conf(base, block("llms-pelican").text))
    done = run(tmp_path, sys.executable, "-m", "pelican", "content", "-s", "pelicanconf.py")
    assert done.returncode == 0, done.stdout + done.stderr
    parsed = linked_exactly_the_sitemaps_pages(tmp_path / "output", base)
    assert parsed.title == "Blog"
    assert [link["title"] for link in parsed.sections["misc"]] == ["First post"]  # its category


def test_sphinx_block(tmp_path):
    base = "https://docs.example.org/manual/"
    source = tmp_path / "source"
    source.mkdir()
    (source / "conf.py").write_text(f'project = "Manual"\nextensions = ["sitemapkit_sphinx"]\n'
                                    f'html_baseurl = "{base}"\n' + block("llms-sphinx").text)
    (source / "index.rst").write_text("Manual\n======\n\n.. toctree::\n   :caption: Guide\n\n   install\n")
    (source / "install.rst").write_text("Installing\n==========\n\nRun it.\n\n.. code-block:: sh\n\n   make\n")
    done = run(tmp_path, str(BIN / "sphinx-build"), "-b", "html", "-q", str(source), str(tmp_path / "html"))
    assert done.returncode == 0, done.stdout + done.stderr
    parsed = linked_exactly_the_sitemaps_pages(tmp_path / "html", base)
    assert parsed.title == "Manual"
    assert [link["title"] for link in parsed.sections["Guide"]] == ["Installing"]
    assert "```sh\nmake\n```" in (tmp_path / "html" / "install.html.md").read_text()


def test_command_line_and_validate_blocks(tmp_path):
    public = tmp_path / "public"
    (public / "guide").mkdir(parents=True)
    (public / "index.html").write_text(PAGE.format("Home"))
    (public / "guide" / "index.html").write_text(PAGE.format("Guide"))
    for text in (block("llms-cli").text, block("llms-validate").text):
        for line in shell_lines(text):
            done = run(tmp_path, *shlex.split(line))
            assert done.returncode == 0, f"{line}\n{done.stdout}{done.stderr}"
    parsed = linked_exactly_the_sitemaps_pages(public, "https://example.org/")
    assert parsed.title == "Example"
    assert [link["title"] for link in parsed.sections["Pages"]] == ["Home", "Guide"]
