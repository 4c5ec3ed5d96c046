"""HTML files a generator copies as they are (Pelican's ``STATIC_PATHS``, MkDocs' ``.html`` in
docs_dir): the adapter and ``validate --site-dir`` agree, listed (``static_html: list``, the
default) or recorded as left out on purpose (``omit``), and ``validate --strict`` passes on the
adapter's own output either way."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from project_checks import pelican_conf

from sitemap_checks import assert_valid_tree, usp_urls

pytestmark = pytest.mark.slow  # real generator runs (make test-fast leaves them out)

BIN = Path(sys.executable).parent
BASE = "https://example.org/"
DEMO = ("<!doctype html><html><head><title>Canvas demo</title></head>"
        "<body><canvas id='c'></canvas><script>/* demo */</script></body></html>")
FRAGMENT = "<div class='snippet'><p>Included elsewhere</p></div>"


def run(cwd: Path, *command: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "SOURCE_DATE_EPOCH": "1795262400"}
    return subprocess.run([str(BIN / command[0]), *command[1:]], cwd=cwd, env=env, text=True,
                          capture_output=True, check=False)


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")


def pelican_blog(root: Path, option: str) -> Path:
    """A blog shipping demo pages under ``content/media/``, as eev.ee does."""
    write(root, {
        "content/post.md": "Title: Drawing\nDate: 2026-01-10\n\nSee [the demo]({static}/media/demo.html).",
        "content/media/demo.html": DEMO,
        "content/media/deeper/other.html": DEMO,
        "content/media/snippet.html": FRAGMENT,
        "content/media/picture.txt": "not html",
        # the demos are copied, not read as articles
        "pelicanconf.py": pelican_conf(BASE, 'STATIC_PATHS = ["media"]', 'ARTICLE_EXCLUDES = ["media"]', option),
    })
    done = run(root, "pelican", "content", "-s", "pelicanconf.py")
    assert done.returncode == 0, done.stdout + done.stderr
    return root / "output"


@pytest.mark.parametrize(("option", "listed"), [
    ("", True),
    ("SITEMAPKIT = {'static_html': 'list'}", True),
    ("SITEMAPKIT = {'static_html': 'omit'}", False),
])
def test_pelican_static_html_listed_or_left_out_and_strict_validation_passes(tmp_path, option, listed):
    site = pelican_blog(tmp_path, option)
    assert (site / "media/demo.html").is_file() and (site / "media/deeper/other.html").is_file()
    assert_valid_tree(site, BASE)
    urls = set(usp_urls(site, BASE))
    demos = {BASE + "media/demo.html", BASE + "media/deeper/other.html"}
    assert (demos <= urls) if listed else not (demos & urls)
    assert BASE + "media/snippet.html" not in urls  # a fragment is no page, copied or not
    assert BASE + "drawing.html" in urls
    strict = run(site, "sitemapkit", "validate", "sitemap.xml", "robots.txt", "--site-dir", ".", "--strict")
    assert strict.returncode == 0, strict.stdout + strict.stderr


def test_mkdocs_html_files_in_docs_dir_follow_the_same_setting(tmp_path):
    write(tmp_path, {
        "mkdocs.yml": f"site_name: Docs\nsite_url: {BASE}\nplugins: [sitemapkit]\n",
        "docs/index.md": "# Home\n",
        "docs/demos/canvas.html": DEMO,
    })
    assert run(tmp_path, "mkdocs", "build", "--strict").returncode == 0
    site = tmp_path / "site"
    assert BASE + "demos/canvas.html" in usp_urls(site, BASE)
    strict = run(site, "sitemapkit", "validate", "sitemap.xml", "--site-dir", ".", "--strict")
    assert strict.returncode == 0, strict.stdout + strict.stderr

    (tmp_path / "mkdocs.yml").write_text(f"site_name: Docs\nsite_url: {BASE}\n"
                                         "plugins: [{sitemapkit: {static_html: omit}}]\n")
    done = run(tmp_path, "mkdocs", "build", "--strict")
    assert done.returncode == 0 and "1 static_html: omit" in done.stderr, done.stderr
    assert BASE + "demos/canvas.html" not in usp_urls(site, BASE)
    strict = run(site, "sitemapkit", "validate", "sitemap.xml", "--site-dir", ".", "--strict")
    assert strict.returncode == 0, strict.stdout + strict.stderr


@pytest.mark.parametrize("save_as", ["", 'STATIC_SAVE_AS = STATIC_URL = "files/{path}"'])
def test_pelican_static_files_are_html_by_where_pelican_saves_them_not_by_their_names(tmp_path, save_as):
    """A static file is HTML when Pelican saves it as HTML: a ``.txt`` that EXTRA_PATH_METADATA
    moves to a ``path`` ending ``.html``, a ``.data`` file it gives an ``.html`` ``save_as``, are
    listed where they are written; a picture is not, nor an HTML file it saves as ``.txt``.
    (With ``STATIC_SAVE_AS`` at its ``{path}`` default, the adapter tells them apart without
    asking Pelican each file's ``save_as``; under another pattern, it asks.)"""
    where = "files/" if save_as else ""
    write(tmp_path, {
        "content/post.md": "Title: Drawing\nDate: 2026-01-10\n\nSee [the demo]({static}/media/demo.html).",
        "content/media/demo.html": DEMO,
        "content/media/moved.txt": DEMO,
        "content/media/named.data": DEMO,
        "content/media/kept-as-text.html": DEMO,
        "content/media/picture.txt": "not html",
        "pelicanconf.py": pelican_conf(
            BASE, 'STATIC_PATHS = ["media"]', 'ARTICLE_EXCLUDES = ["media"]', save_as,
            "EXTRA_PATH_METADATA = {'media/moved.txt': {'path': 'media/moved.html'},"
            " 'media/named.data': {'save_as': 'named.html', 'url': 'named.html'},"
            " 'media/kept-as-text.html': {'path': 'media/kept-as-text.txt'}}"),
    })
    done = run(tmp_path, "pelican", "content", "-s", "pelicanconf.py")
    assert done.returncode == 0, done.stdout + done.stderr
    site = tmp_path / "output"
    assert (site / f"{where}media/moved.html").is_file() and (site / "named.html").is_file()
    assert (site / f"{where}media/kept-as-text.txt").is_file()
    assert_valid_tree(site, BASE)
    urls = set(usp_urls(site, BASE))
    assert {BASE + f"{where}media/demo.html", BASE + f"{where}media/moved.html", BASE + "named.html"} <= urls
    assert not {url for url in urls if "picture" in url or "kept-as-text" in url}
