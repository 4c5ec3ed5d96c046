"""Images that exist and are content: a same-site image is listed only when its file is in the
built site, and ``validate --site-dir`` reports a listed one that is missing; a ``<noscript>``
pixel, an icon of a tiny declared size, a badge service's image and the theme's chrome of a
page without ``<main>`` are no page's images. On a real MkDocs quickstart and on a Jekyll
blog's output laid out as Jekyll lays it out (Jekyll is not installed here)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from lxml import etree
from project_checks import quickstart

from sitemap_checks import assert_valid_tree
from sitemapkit.cli import main

pytestmark = pytest.mark.slow  # a real MkDocs build, and the command line

NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "image": "http://www.google.com/schemas/sitemap-image/1.1"}
MKDOCS = str(Path(sys.executable).parent / "mkdocs")


def images_by_page(site: Path, base: str) -> dict[str, list[str]]:
    assert_valid_tree(site, base)
    root = etree.parse(str(site / "sitemap.xml")).getroot()
    return {url.findtext("s:loc", namespaces=NS): url.xpath("image:image/image:loc/text()", namespaces=NS)
            for url in root.iterfind("s:url", NS)}


def test_mkdocs_lists_an_image_only_when_its_file_was_built(tmp_path):
    project = quickstart(tmp_path / "quick")
    (project / "docs" / "img").mkdir()
    (project / "docs" / "img" / "there.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (project / "docs" / "guide.md").write_text("# Guide\n\n![here](img/there.png)\n\n![gone](../img.png)\n",
                                               encoding="utf-8")
    done = subprocess.run([MKDOCS, "build"], cwd=project, capture_output=True, text=True,
                          env={**os.environ, "SOURCE_DATE_EPOCH": "1767225600"})
    assert done.returncode == 0, done.stderr
    base = "https://docs.example.org/"
    assert images_by_page(project / "site", base)[f"{base}guide/"] == [f"{base}img/there.png"]
    assert "img.png" not in (project / "site" / "sitemap.xml").read_text(encoding="utf-8")
    assert "image-missing" in done.stderr and "img.png" in done.stderr


def test_validate_site_dir_reports_a_listed_same_site_image_that_is_missing(tmp_path, capsys):
    site = tmp_path / "site"
    (site / "img").mkdir(parents=True)
    (site / "index.html").write_text("<html><head><title>H</title></head><body><main>Hi</main></body></html>",
                                     encoding="utf-8")
    (site / "img" / "there.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (site / "sitemap.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
        'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">\n'
        "<url><loc>https://example.org/</loc>\n"
        "<image:image><image:loc>https://example.org/img/there.png</image:loc></image:image>\n"
        "<image:image><image:loc>https://example.org/img.png</image:loc></image:image>\n"
        "<image:image><image:loc>https://cdn.example.net/photo.png</image:loc></image:image>\n"
        "</url>\n</urlset>\n", encoding="utf-8")
    assert main(["validate", str(site / "sitemap.xml"), "--site-dir", str(site)]) == 1
    out = capsys.readouterr().out
    assert "image-missing" in out and "https://example.org/img.png" in out
    assert out.count("image-missing") == 1  # the file that is there, and another host's, are fine
    assert "sitemap.xml:5" in out  # file:line of the <image:loc>


# Jekyll's minima-like output: no <main>, the theme's header a <div>, an analytics snippet's
# <noscript> pixel, sponsor avatars of 32 px, a coverage badge from a badge service.
JEKYLL_POST = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<link rel="canonical" href="https://blog.example.org/{url}"></head><body>
<div class="site-header"><img src="/assets/theme-logo.png" alt="Blog"></div>
<div class="post-content"><h1>{title}</h1><p>Words.</p>
<img src="/assets/{name}.jpg" alt="a photo">
<img src="https://coverage-badge.samuelcolvin.workers.dev/tiangolo/typer.svg" alt="Coverage">
<a href="https://github.com/sponsor"><img src="/assets/sponsor.png" width="32" height="32" alt="sponsor"></a>
</div>
<noscript><img src="https://queue.simpleanalyticscdn.com/noscript.gif" alt=""
 referrerpolicy="no-referrer-when-downgrade"></noscript>
</body></html>"""


def test_jekyll_blog_lists_its_content_photos_and_none_of_the_chrome(tmp_path):
    site = tmp_path / "_site"
    for url, name in (("", "home"), ("2024/01/15/hello.html", "hello")):
        path = site / (url or "index.html")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(JEKYLL_POST.format(title=name.title(), url=url, name=name), encoding="utf-8")
    (site / "assets").mkdir()
    for name in ("home.jpg", "hello.jpg", "theme-logo.png", "sponsor.png"):
        (site / "assets" / name).write_bytes(b"\xff\xd8\xff")
    (tmp_path / "_config.yml").write_text("title: Blog\nurl: https://blog.example.org\n", encoding="utf-8")
    base = "https://blog.example.org/"
    assert main(["build", str(site), "--base-url", base, "-q"]) == 0
    assert images_by_page(site, base) == {
        base: [f"{base}assets/home.jpg"],
        f"{base}2024/01/15/hello.html": [f"{base}assets/hello.jpg"],
    }


def test_with_out_elsewhere_the_images_are_not_looked_for_there(tmp_path):
    """``--out`` writes the sitemap away from the built site: whether an image is there is
    not known, so none is dropped for want of a file in the output folder."""
    site, out = tmp_path / "site", tmp_path / "out"
    site.mkdir()
    (site / "index.html").write_text('<html><head><title>H</title></head><body><main><img src="a.png" alt="A">'
                                     "</main></body></html>", encoding="utf-8")
    (site / "a.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    assert main(["build", str(site), "--base-url", "https://example.org/", "--out", str(out), "-q"]) == 0
    assert "https://example.org/a.png" in (out / "sitemap.xml").read_text(encoding="utf-8")


def test_with_out_elsewhere_a_replayed_folder_keeps_its_images(tmp_path, capsys):
    """The same for a rebuild that replays a folder's pages together: its images are not
    looked for in the output folder either."""
    site, out = tmp_path / "site", tmp_path / "out"
    (site / "posts").mkdir(parents=True)
    for name in ("a", "b", "c"):
        (site / "posts" / f"{name}.html").write_text(
            f'<html><head><title>{name}</title></head><body><main><img src="/img/{name}.png" alt="{name}">'
            "</main></body></html>", encoding="utf-8")
    (site / "img").mkdir()
    for name in ("a", "b", "c"):
        (site / "img" / f"{name}.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    for path in site.rglob("*.html"):
        os.utime(path, (1, 1))  # (long before the build: no file in doubt)
    argv = ["build", str(site), "--base-url", "https://example.org/", "--out", str(out), "--format", "json",
            "--state-file", str(tmp_path / "state.json")]
    sitemaps = []
    for _ in range(3):
        assert main(argv) == 0
        report = json.loads(capsys.readouterr().out)
        sitemaps.append((out / "sitemap.xml").read_text(encoding="utf-8"))
    assert report["page_facts"]["folders"] == 1 and report["warnings"] == []
    assert sitemaps[2] == sitemaps[1] and sitemaps[2].count("<image:loc>") == 3
