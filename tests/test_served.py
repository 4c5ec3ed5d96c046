"""Which URL a page may be listed at: the one its generator links it by when a written file
serves it, else where the file was written (with a warning); and sub-site links from the root."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitemapkit.site.pages import url_from_root
from sitemapkit.site.served import listed_url


def site(tmp_path: Path, *names: str) -> Path:
    for name in names:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("<!doctype html><html><head></head><body>x</body></html>")
    return tmp_path


@pytest.mark.parametrize("linked", ["tag/", "tag/index.html", "tag"])
def test_a_linked_url_a_written_file_serves_is_listed(tmp_path, linked):
    url, problem = listed_url(site(tmp_path, "tag/index.html"), linked, "tag/", generator="Gen", fix="fix it")
    assert (url, problem) == (linked, None)


def test_a_linked_url_no_file_serves_falls_back_to_the_written_file_with_a_warning(tmp_path):
    url, problem = listed_url(site(tmp_path, "tag/index.html"), "tags.html", "tag/", generator="Gen",
                              fix="set X")
    assert url == "tag/"
    assert (problem.where, problem.field, problem.rule) == ("tag/", "loc", "page-missing")
    assert "Gen links this page as 'tags.html'" in problem.message and "(set X)" in problem.message


@pytest.mark.parametrize(("folder", "url", "expected"), [
    ("", "a/index.html", "a/"),
    ("fr/", "a.html", "fr/a.html"),
    ("fr/", "/a.html", "fr/a.html"),
    ("fr/", "../a.html", "a.html"),
    ("fr/", "index.html", "fr/"),
    ("", "s.html?p=2", "s.html?p=2"),
    ("fr/", "https://cdn.example.org/i.png", "https://cdn.example.org/i.png"),
])
def test_a_sub_site_link_is_read_from_the_site_root(folder, url, expected):
    assert url_from_root(folder, url) == expected
