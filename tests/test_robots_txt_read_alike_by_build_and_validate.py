"""robots.txt is read one way by the build and the validator: one ``Sitemap:`` record pattern
(a comment after the URL, any case, blanks) and one size, the 500 KiB Google reads."""

from __future__ import annotations

from sitemap_checks import robots_sitemaps
from sitemapkit.output.robots import RobotsTooLarge, update_robots_txt
from sitemapkit.protocol import ROBOTS_READ_BYTES
from sitemapkit.validate import validate

URL = "https://example.com/sitemap.xml"
SITEMAP = ('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/'
           'sitemap/0.9">\n<url><loc>https://example.com/</loc></url>\n</urlset>\n')


def test_a_sitemap_line_with_a_comment_names_its_url_for_the_build_and_the_validator(tmp_path):
    original = b"User-agent: *\nDisallow:\n\nsitemap :  " + URL.encode() + b"  # ours, by hand\n"
    (tmp_path / "robots.txt").write_bytes(original)
    (tmp_path / "sitemap.xml").write_text(SITEMAP, encoding="utf-8")
    update_robots_txt(tmp_path, URL)
    assert (tmp_path / "robots.txt").read_bytes() == original  # named already: nothing added
    assert robots_sitemaps(tmp_path / "robots.txt") == [URL]  # as protego reads it too
    assert validate(tmp_path / "robots.txt") == []  # the validator follows it to sitemap.xml


def test_a_robots_txt_past_what_google_reads_is_left_alone(tmp_path):
    assert ROBOTS_READ_BYTES == 500 * 1024
    big = b"User-agent: *\nDisallow:\n" + b"# padding\n" * (600 * 1024 // 10)  # 600 KiB: under 1 MiB
    (tmp_path / "robots.txt").write_bytes(big)
    try:
        update_robots_txt(tmp_path, URL)
    except RobotsTooLarge as error:
        assert error.size == len(big)
    else:
        raise AssertionError("a Sitemap: line was added past the 500 KiB Google reads")
    assert (tmp_path / "robots.txt").read_bytes() == big
