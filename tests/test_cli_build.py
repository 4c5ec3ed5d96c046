"""`sitemapkit build` on hand-written HTML sites, checked with the XSDs, usp and protego."""

import gzip
import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest
from lxml import etree

from sitemap_checks import SITEMAP_NS, assert_valid_tree, locs, robots_sitemaps, usp_urls
from sitemapkit.cli import main

BASE = "https://site.example/"
NOW = "1768435200"  # 2026-01-15T00:00:00Z


def write(site: Path, path: str, head: str = "", body: str = "", lang: str = "en") -> None:
    target = site / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(
        f"<!doctype html><html lang='{lang}'><head><title>{path}</title>{head}</head>"
        f"<body><header><img src='/logo.png'></header><main>{body}</main></body></html>",
        encoding="utf-8",
    )


@pytest.fixture
def site(tmp_path: Path) -> Path:
    site = tmp_path / "public"
    write(site, "index.html", body="<img src='hero.jpg'>")
    (site / "hero.jpg").write_bytes(b"\xff\xd8\xff")  # a listed same-site image is a file of the site
    write(site, "about/index.html", head="<meta property='article:modified_time' content='2025-03-04'>")
    write(site, "blog/post.html", head="<meta property='article:published_time' content='2026-01-14T10:00:00Z'>",
          body="<article><h1>Post</h1></article>")
    write(site, "hidden/index.html", head="<meta name='robots' content='noindex,nofollow'>")
    write(site, "print.html", head=f"<link rel='canonical' href='{BASE}about/'>")
    write(site, "404.html")
    write(site, "en/a.html", head="<link rel='alternate' hreflang='fr' href='/fr/a.html'>"
                                  "<link rel='alternate' hreflang='en' href='/en/a.html'>")
    write(site, "fr/a.html", lang="fr", head="<link rel='alternate' hreflang='fr' href='/fr/a.html'>"
                                             "<link rel='alternate' hreflang='en' href='/en/a.html'>")
    write(site, "drafts/x.html")
    write(site, "ünïcode page.html")
    return site


def build(site: Path, *flags: str) -> int:
    return main(["build", str(site), "--base-url", BASE, "--quiet", *flags])


def test_build_lists_what_a_crawler_should_index(site, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    assert build(site, "--exclude", "drafts/*") == 0
    assert_valid_tree(site, BASE)
    listed = usp_urls(site, BASE)
    assert listed == [  # a folder's own pages first, then its subfolders, each sorted
        BASE, BASE + "%C3%BCn%C3%AFcode%20page.html", BASE + "about/", BASE + "blog/post.html",
        BASE + "en/a.html", BASE + "fr/a.html",
    ]
    assert robots_sitemaps(site / "robots.txt") == [BASE + "sitemap.xml"]


def test_build_reads_dates_images_and_hreflang_from_the_html(site, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    assert build(site, "--lastmod", "meta", "--x-default", "en") == 0
    root = etree.parse(str(site / "sitemap.xml")).getroot()
    ns = {"s": SITEMAP_NS, "image": "http://www.google.com/schemas/sitemap-image/1.1",
          "xhtml": "http://www.w3.org/1999/xhtml"}
    def url(loc):
        return root.xpath(f"s:url[s:loc='{loc}']", namespaces=ns)[0]
    assert url(BASE + "about/").findtext("s:lastmod", namespaces=ns) == "2025-03-04"
    assert url(BASE).xpath("image:image/image:loc/text()", namespaces=ns) == [BASE + "hero.jpg"]
    links = url(BASE + "fr/a.html").xpath("xhtml:link", namespaces=ns)
    assert sorted((link.get("hreflang"), link.get("href")) for link in links) == [
        ("en", BASE + "en/a.html"), ("fr", BASE + "fr/a.html"), ("x-default", BASE + "en/a.html"),
    ]


def test_news_gzip_txt_and_index_from_flags(site, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", NOW)
    code = build(site, "--news", "publication=Site News,language=en,match=blog/*", "--gzip", "--txt",
                 "--max-urls", "2")
    assert code == 0
    files = [*assert_valid_tree(site, BASE), site / "sitemap-news.xml"]
    assert any(p.name.startswith("sitemap-1-") for p in files)  # children named by content
    assert locs(site / "sitemap-news.xml") == [BASE + "blog/post.html"]
    assert robots_sitemaps(site / "robots.txt") == [BASE + "sitemap.xml", BASE + "sitemap-news.xml"]
    for path in files:
        assert gzip.decompress((path.parent / (path.name + ".gz")).read_bytes()) == path.read_bytes()
    parts = sorted(site.glob("sitemap-*.txt"), key=lambda path: int(path.stem.rpartition("-")[2]))
    text_files = [site / "sitemap.txt", *parts]
    assert [line for path in text_files for line in path.read_text().splitlines()] == usp_urls(site, BASE)


def test_config_file_and_flags_override_it(site, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    config = tmp_path / "pyproject.toml"
    config.write_text('[tool.sitemapkit]\nbase_url = "https://wrong.example/"\nfilename = "map.xml"\n'
                      'exclude = ["drafts/*", "en/*", "fr/*"]\n')
    assert main(["build", str(site), "--config", str(config), "--base-url", BASE, "-q"]) == 0
    assert robots_sitemaps(site / "robots.txt") == [BASE + "map.xml"]
    assert BASE + "en/a.html" not in locs(site / "map.xml")


def test_usage_errors_exit_2(site, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no project (mkdocs.yml ...) in the current folder to take a URL from
    assert main(["build", str(site)]) == 2
    assert "--base-url" in capsys.readouterr().err
    assert main(["build", str(tmp_path / "nope"), "--base-url", BASE]) == 2
    assert main(["build", str(site), "--base-url", BASE, "--max-urls", "0"]) == 2
    assert "'max_urls'" in capsys.readouterr().err
    bad = tmp_path / "bad.toml"
    bad.write_text("base_url = ")
    assert main(["build", str(site), "--config", str(bad)]) == 2


def test_strict_turns_warnings_into_exit_1(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    site = tmp_path / "s"
    write(site, "index.html", head="<link rel='alternate' hreflang='english' href='/x.html'>"
                                   "<link rel='alternate' hreflang='fr' href='/fr/'>")
    assert main(["build", str(site), "--base-url", BASE]) == 0
    assert "hreflang-code" in capsys.readouterr().err
    assert main(["build", str(site), "--base-url", BASE, "--strict"]) == 1


def test_progress_bar_on_a_terminal_only(tmp_path):
    site = tmp_path / "many"
    for n in range(250):
        write(site, f"p{n}.html")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    command = [sys.executable, "-m", "sitemapkit", "build", str(site), "--base-url", BASE]
    piped = subprocess.run(command, capture_output=True, text=True, env=env, cwd=tmp_path)
    assert piped.returncode == 0 and "pages" not in piped.stderr
    main_fd, child_fd = pty.openpty()
    on_tty = subprocess.run(command, stdout=subprocess.PIPE, stderr=child_fd, env=env, cwd=tmp_path)
    os.close(child_fd)
    shown = os.read(main_fd, 65536).decode()
    os.close(main_fd)
    assert on_tty.returncode == 0
    assert "250/250 pages" in shown


def test_summary_says_what_was_written(site, monkeypatch, tmp_path, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["build", str(site), "--base-url", BASE]) == 0
    out = capsys.readouterr().out
    assert "URLs" in out and "sitemap.xml" in out and "noindex" in out
    json.dumps(out)


def test_pages_left_out_on_purpose_are_recorded_for_validate_site_dir_without_naming_them(site, tmp_path, capsys):
    assert main(["build", str(site), "--base-url", BASE, "--exclude", "blog/", "-q"]) == 0
    record = (site / ".sitemapkit-files.json").read_text()
    # digests, no URL: blog/post.html (exclude), and the no pages by name, 404.html and drafts/x.html
    assert "blog" not in record and len(json.loads(record)["left_out"]) == 3
    assert main(["validate", str(site / "sitemap.xml"), "--site-dir", str(site), "--strict"]) == 0
    (site / ".sitemapkit-files.json").unlink()  # without the record, the page is missed
    assert main(["validate", str(site / "sitemap.xml"), "--site-dir", str(site), "--strict"]) == 1
    assert "blog/post.html" in capsys.readouterr().out


def test_robots_txt_wildcards_read_as_search_engines_read_them(site, capsys):
    # urllib.robotparser takes '*' and '$' literally; crawlers (RFC 9309) do not.
    (site / "robots.txt").write_text("User-agent: *\nDisallow: /*/a.html$\n")
    assert main(["build", str(site), "--base-url", BASE, "-q"]) == 0
    listed = locs(site / "sitemap.xml")
    assert BASE + "en/a.html" not in listed and BASE + "fr/a.html" not in listed
    assert BASE + "about/" in listed
    assert main(["validate", str(site / "sitemap.xml"), "--site-dir", str(site), "--strict"]) == 0
