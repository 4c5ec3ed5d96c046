"""robots.txt: created when absent, every byte kept otherwise, one line of ours added once
(and taken out again when a build writes no sitemap)."""

from __future__ import annotations

import os

from sitemap_checks import robots_sitemaps
from sitemapkit.output.robots import NEW_ROBOTS, drop_sitemap_line, update_robots_txt
from sitemapkit.site.pages import robots_rules

URL = "https://example.com/docs/sitemap.xml"


def test_created_when_absent(tmp_path):
    path = update_robots_txt(tmp_path, URL)
    assert path == tmp_path / "robots.txt"
    assert path.read_bytes() == b"User-agent: *\nDisallow:\n\nSitemap: " + URL.encode() + b"\n"
    assert robots_sitemaps(path) == [URL]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["robots.txt"]


def test_existing_bytes_kept_and_our_line_added(tmp_path):
    original = b"# team rules\nUser-agent: BadBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\n"
    (tmp_path / "robots.txt").write_bytes(original)
    path = update_robots_txt(tmp_path, URL)
    assert path.read_bytes() == original + b"Sitemap: " + URL.encode() + b"\n"
    assert robots_sitemaps(path) == [URL]


def test_newline_added_when_file_lacks_one(tmp_path):
    (tmp_path / "robots.txt").write_bytes(b"User-agent: *\nDisallow: /tmp/")
    update_robots_txt(tmp_path, URL)
    assert (tmp_path / "robots.txt").read_bytes() == (
        b"User-agent: *\nDisallow: /tmp/\nSitemap: " + URL.encode() + b"\n"
    )


def test_crlf_style_kept(tmp_path):
    original = b"User-agent: *\r\nDisallow: /x/\r\nSitemap: https://example.com/other.xml"
    (tmp_path / "robots.txt").write_bytes(original)
    update_robots_txt(tmp_path, URL)
    assert (tmp_path / "robots.txt").read_bytes() == original + b"\r\nSitemap: " + URL.encode() + b"\r\n"
    assert robots_sitemaps(tmp_path / "robots.txt") == ["https://example.com/other.xml", URL]


def test_second_run_touches_nothing(tmp_path):
    (tmp_path / "robots.txt").write_bytes(b"User-agent: *\r\nDisallow:\r\n")
    update_robots_txt(tmp_path, URL)
    after_first = (tmp_path / "robots.txt").read_bytes()
    os.utime(tmp_path / "robots.txt", ns=(1_000_000_000, 1_000_000_000))
    inode = (tmp_path / "robots.txt").stat().st_ino

    update_robots_txt(tmp_path, URL)
    stat = (tmp_path / "robots.txt").stat()
    assert (tmp_path / "robots.txt").read_bytes() == after_first
    assert (stat.st_mtime_ns, stat.st_ino) == (1_000_000_000, inode)
    assert after_first.count(b"Sitemap:") == 1


def test_a_different_sitemap_line_is_not_ours(tmp_path):
    (tmp_path / "robots.txt").write_bytes(b"Sitemap: " + URL.encode() + b".gz\n")
    update_robots_txt(tmp_path, URL)
    assert robots_sitemaps(tmp_path / "robots.txt") == [URL + ".gz", URL]


def test_permissions_of_existing_file_kept(tmp_path):
    (tmp_path / "robots.txt").write_bytes(b"User-agent: *\n")
    os.chmod(tmp_path / "robots.txt", 0o640)
    update_robots_txt(tmp_path, URL)
    assert (tmp_path / "robots.txt").stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["robots.txt"]


def test_our_line_dropped_when_no_sitemap_every_other_byte_kept(tmp_path):
    original = b"User-agent: *\r\nDisallow: /x/\r\nSitemap: https://example.com/other.xml\r\n"
    (tmp_path / "robots.txt").write_bytes(original)
    os.chmod(tmp_path / "robots.txt", 0o640)
    update_robots_txt(tmp_path, URL)
    assert drop_sitemap_line(tmp_path, URL)
    assert (tmp_path / "robots.txt").read_bytes() == original
    assert robots_sitemaps(tmp_path / "robots.txt") == ["https://example.com/other.xml"]
    assert (tmp_path / "robots.txt").stat().st_mode & 0o777 == 0o640


def test_nothing_to_drop_touches_nothing(tmp_path):
    assert not drop_sitemap_line(tmp_path, URL)
    assert not (tmp_path / "robots.txt").exists()  # none created
    (tmp_path / "robots.txt").write_bytes(b"Sitemap: " + URL.encode() + b".gz\n")
    os.utime(tmp_path / "robots.txt", ns=(1_000_000_000, 1_000_000_000))
    assert not drop_sitemap_line(tmp_path, URL)
    assert (tmp_path / "robots.txt").stat().st_mtime_ns == 1_000_000_000


def test_a_robots_txt_that_blocks_nothing_is_not_checked_page_by_page(tmp_path):
    """The robots.txt sitemapkit writes (``Disallow:`` with no path allows everything) gives
    no rules, so later builds do not check each page against it; a path does, however
    the line is spelled."""
    robots = tmp_path / "robots.txt"
    robots.write_text(NEW_ROBOTS.format(url="https://example.org/sitemap.xml"), encoding="utf-8")
    assert robots_rules(tmp_path) is None
    robots.write_text("User-agent: *\nDisallow: # /old/\n", encoding="utf-8")
    assert robots_rules(tmp_path) is None
    robots.write_text("User-agent: *\n# Disallow: /old/\nDISALLOW : /private/ # kept out\n", encoding="utf-8")
    rules = robots_rules(tmp_path)
    assert rules is not None
    assert not rules.can_fetch("https://example.org/private/a.html", "*")
    assert rules.can_fetch("https://example.org/public/a.html", "*")
