"""What is a page comes from the generator where it knows: real MkDocs (Material), Pelican and
Sphinx builds of pages whose names look like generated ones, and ``validate --site-dir
--strict`` on each adapter's own output. Name guesses are left for a folder no adapter
describes, where such files really sit, and every page a guess leaves out is named."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from project_checks import pelican_conf

from sitemap_checks import assert_valid_tree, usp_urls
from sitemapkit import validate

pytestmark = pytest.mark.slow  # real generator runs (make test-fast leaves them out)

BIN = Path(sys.executable).parent
BASE = "https://example.org/"


def run(cwd: Path, *command: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "SOURCE_DATE_EPOCH": "1795262400"}
    done = subprocess.run([str(BIN / command[0]), *command[1:]], cwd=cwd, env=env, text=True,
                          capture_output=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def files(root: Path, found: dict[str, str]) -> None:
    for name, text in found.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")


def strict_validation(site: Path) -> None:
    """``validate --site-dir --strict`` on the sitemap and robots.txt an adapter wrote."""
    run(site, "sitemapkit", "validate", "sitemap.xml", "robots.txt", "--site-dir", ".", "--strict")


def test_material_pages_named_search_are_listed(tmp_path):
    """mkdocs-material's own docs: ``plugins/search/`` documents the search plugin, and a blog
    category named Search has its page; only the theme's 404.html is left out."""
    files(tmp_path, {
        "mkdocs.yml": f"""\
            site_name: Docs
            site_url: {BASE}
            theme: {{name: material}}
            plugins: [search, blog, sitemapkit]
            """,
        "docs/index.md": "# Home\n",
        "docs/plugins/search.md": "# Built-in search plugin\n\nHow search works.\n",
        "docs/blog/index.md": "# Blog\n",
        "docs/blog/posts/finding.md": "---\ndate: 2026-01-05\ncategories: [Search]\n---\n\n# Finding things\n\nText.\n",
    })
    done = run(tmp_path, "mkdocs", "build", "--strict")
    site = tmp_path / "site"
    assert (site / "plugins/search/index.html").is_file() and (site / "blog/category/search/index.html").is_file()
    assert_valid_tree(site, BASE)
    urls = set(usp_urls(site, BASE))
    assert {BASE + "plugins/search/", BASE + "blog/category/search/", BASE + "blog/2026/01/05/finding-things/"} <= urls
    assert BASE + "404.html" not in urls
    assert "left out: 1 error page (404.html)" in done.stderr
    strict_validation(site)


def test_pelican_tag_named_404_is_listed(tmp_path):
    files(tmp_path, {
        "pelicanconf.py": pelican_conf(BASE),
        "content/missing.md": "Title: When a page is missing\nDate: 2026-01-10\nTags: 404, http\n\nOn errors.",
        "content/drafty.md": "Title: Soon\nDate: 2026-01-11\nStatus: draft\n\nLater.",
    })
    run(tmp_path, "pelican", "content", "-s", "pelicanconf.py")
    site = tmp_path / "output"
    assert (site / "tag/404.html").is_file() and (site / "drafts/soon.html").is_file()
    assert_valid_tree(site, BASE)
    urls = set(usp_urls(site, BASE))
    assert {BASE + "tag/404.html", BASE + "tag/http.html", BASE + "when-a-page-is-missing.html"} <= urls
    assert BASE + "drafts/soon.html" not in urls
    strict_validation(site)


SPHINX_CONF = f"""\
    import os, sys
    sys.path.insert(0, os.path.abspath("."))
    project = "Lamp"
    extensions = ["sphinx.ext.autodoc", "sphinx.ext.viewcode", "sitemapkit_sphinx"]
    html_baseurl = "{BASE}"
    """


def sphinx_project(root: Path) -> Path:
    src = root / "src"
    files(src, {
        "conf.py": SPHINX_CONF,
        "lamp.py": '"""A lamp."""\n\n\ndef light():\n    """Light it."""\n    return 1\n',
        "index.rst": "Lamp\n====\n\n.. toctree::\n\n   api\n   guide/search\n",
        "api.rst": "API\n===\n\n.. automodule:: lamp\n   :members:\n",
        "guide/search.rst": "Searching the lamp catalogue\n============================\n\nHow to search.\n",
    })
    return src


def test_sphinx_generated_pages_out_by_its_word_and_a_user_search_page_listed(tmp_path):
    src = sphinx_project(tmp_path)
    out = tmp_path / "html"
    done = run(tmp_path, "sphinx-build", "-b", "html", str(src), str(out))
    for generated in ("genindex.html", "search.html", "py-modindex.html", "_modules/lamp.html",
                      "_modules/index.html"):
        assert (out / generated).is_file(), generated
    assert_valid_tree(out, BASE)
    urls = set(usp_urls(out, BASE))
    assert urls == {BASE + "index.html", BASE + "api.html", BASE + "guide/search.html"}
    assert ("left out: 5 generated indexes (_modules/index.html, _modules/lamp.html, genindex.html, "
            "py-modindex.html, search.html)") in done.stdout
    strict_validation(out)
    # validate --site-dir reads what the build left out from its record, not from names
    assert validate([out / "sitemap.xml"], site_dir=out) == []


def test_sphinx_dirhtml_generated_pages_are_left_out_too(tmp_path):
    src = sphinx_project(tmp_path)
    out = tmp_path / "dirhtml"
    done = run(tmp_path, "sphinx-build", "-b", "dirhtml", str(src), str(out))
    assert (out / "genindex/index.html").is_file() and (out / "guide/search/index.html").is_file()
    urls = set(usp_urls(out, BASE))
    assert urls == {BASE, BASE + "api/", BASE + "guide/search/"}
    assert "genindex/index.html" in done.stdout and "search/index.html" in done.stdout
    strict_validation(out)


def test_cli_on_a_sphinx_output_guesses_only_its_root_names_and_names_each(tmp_path):
    """No adapter: ``sitemapkit build`` on a copy of Sphinx's output knows it by its files
    (``.buildinfo``), leaves out its root generated pages and ``_modules/`` by their names,
    names each in the summary, and lists the user's ``guide/search.html``. Without a record,
    ``validate --site-dir`` guesses the same."""
    src = sphinx_project(tmp_path)
    built = tmp_path / "html"
    run(tmp_path, "sphinx-build", "-b", "html", str(src), str(built))
    copy = tmp_path / "copy"
    shutil.copytree(built, copy, ignore=shutil.ignore_patterns("sitemap*", "robots.txt", ".sitemapkit-files.json"))
    done = run(tmp_path, "sitemapkit", "build", str(copy), "--base-url", BASE, "--state-file",
               str(tmp_path / "state.json"))
    # listed as Sphinx's canonical links name them (index.html, not the folder)
    assert set(usp_urls(copy, BASE)) == {BASE + "index.html", BASE + "api.html", BASE + "guide/search.html"}
    assert ("left out: 5 generated indexes (_modules/index.html, _modules/lamp.html, genindex.html, "
            "py-modindex.html, search.html)") in done.stdout
    strict_validation(copy)
    (copy / ".sitemapkit-files.json").unlink()  # another tool's output: the same guess
    assert validate([copy / "sitemap.xml"], site_dir=copy) == []


def test_cli_on_a_sphinx_output_lists_its_drafts_folder_as_the_adapter_does(tmp_path):
    """A root ``drafts/`` is Pelican's drafts only: in a Sphinx output (known by its files) it
    is a folder of documents, listed by ``sitemapkit build`` as the Sphinx adapter lists it."""
    src = sphinx_project(tmp_path)
    files(src, {"index.rst": "Lamp\n====\n\n.. toctree::\n\n   api\n   drafts/plan\n",
                "drafts/plan.rst": "A plan\n======\n\nWhat comes next.\n"})
    built = tmp_path / "html"
    run(tmp_path, "sphinx-build", "-b", "html", str(src), str(built))
    by_adapter = set(usp_urls(built, BASE))
    assert BASE + "drafts/plan.html" in by_adapter
    copy = tmp_path / "copy"
    shutil.copytree(built, copy, ignore=shutil.ignore_patterns("sitemap*", "robots.txt", ".sitemapkit-files.json"))
    done = run(tmp_path, "sitemapkit", "build", str(copy), "--base-url", BASE, "--state-file",
               str(tmp_path / "state.json"), "--strict")
    assert set(usp_urls(copy, BASE)) == by_adapter and "draft" not in done.stdout
    (copy / ".sitemapkit-files.json").unlink()  # another tool's output: the same guess
    assert validate([copy / "sitemap.xml"], site_dir=copy) == []


def test_cli_on_an_unknown_folder_lists_pages_named_like_generated_ones(tmp_path):
    """Outside a Sphinx output, ``search``, ``genindex`` and ``404`` below the root are pages;
    only the root 404.html (what static hosts serve for a missing URL) and a root ``drafts/``
    are left out, each named."""
    page = "<!doctype html><html><head><title>T</title></head><body><main>x</main></body></html>"
    names = ["index.html", "plugins/search/index.html", "blog/category/search/index.html", "tag/404.html",
             "genindex.html", "search.html", "api/py-modindex.html", "_modules/a.html", "404.html",
             "drafts/next.html"]
    files(tmp_path / "site", dict.fromkeys(names, page))
    site = tmp_path / "site"
    done = run(tmp_path, "sitemapkit", "build", str(site), "--base-url", BASE)
    listed = set(usp_urls(site, BASE))
    assert listed == {BASE + url for url in ("", "plugins/search/", "blog/category/search/", "tag/404.html",
                                             "genindex.html", "search.html", "api/py-modindex.html",
                                             "_modules/a.html")}
    assert "left out: 1 draft (drafts/next.html), 1 error page (404.html)" in done.stdout
    strict_validation(site)


def test_cli_on_a_deployment_of_sphinx_outputs_in_folders_guesses_at_each_output_root(tmp_path):
    """Read the Docs' layout: each build in its own folder (``en/latest/``); their generated
    pages are guessed at each output's root, and the user's ``guide/search.html`` is listed."""
    src = sphinx_project(tmp_path)
    site = tmp_path / "site"
    run(tmp_path, "sphinx-build", "-b", "html", "-D", f"html_baseurl={BASE}en/latest/", str(src),
        str(site / "en/latest"))
    for name in ("sitemap.xml", ".sitemapkit-files.json"):  # no robots.txt below the host's root
        (site / "en/latest" / name).unlink()
    assert not (site / "en/latest/robots.txt").exists()
    files(site, {"index.html": "<!doctype html><html><head><title>Lamp</title></head><body>Docs</body></html>"})
    done = run(tmp_path, "sitemapkit", "build", str(site), "--base-url", BASE, "--state-file",
               str(tmp_path / "state.json"))
    assert set(usp_urls(site, BASE)) == {BASE, *(BASE + "en/latest/" + name
                                                 for name in ("index.html", "api.html", "guide/search.html"))}
    assert ("5 generated indexes (en/latest/_modules/index.html, en/latest/_modules/lamp.html, "
            "en/latest/genindex.html, en/latest/py-modindex.html, en/latest/search.html)") in done.stdout
    strict_validation(site)


@pytest.mark.parametrize("static_html", ["list", "omit"])
def test_sphinx_additional_pages_are_pages_and_extra_files_follow_static_html(tmp_path, static_html):
    """``html_additional_pages`` (rendered from the project's templates) are listed;
    ``html_extra_path`` HTML is copied as it is, listed or omitted by ``static_html``, a
    verification file among it being no page; strict validation passes either way."""
    src = sphinx_project(tmp_path)
    files(src, {
        "conf.py": textwrap.dedent(SPHINX_CONF) + textwrap.dedent(f"""\
            templates_path = ["_templates"]
            html_additional_pages = {{"download": "download.html"}}
            html_extra_path = ["extra"]
            sitemapkit_static_html = "{static_html}"
            """),
        "_templates/download.html": '{% extends "layout.html" %}{% block body %}<h1>Download</h1>{% endblock %}',
        "extra/demo/canvas.html": "<!doctype html><html><head><title>Demo</title></head><body>x</body></html>",
        "extra/google0123.html": "google-site-verification: google0123.html",
    })
    out = tmp_path / "html"
    run(tmp_path, "sphinx-build", "-b", "html", str(src), str(out))
    assert (out / "download.html").is_file() and (out / "demo/canvas.html").is_file()
    urls = set(usp_urls(out, BASE))
    assert BASE + "download.html" in urls
    assert (BASE + "demo/canvas.html" in urls) == (static_html == "list")
    assert BASE + "google0123.html" not in urls
    strict_validation(out)
