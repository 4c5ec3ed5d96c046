"""RSS 2.0 and Atom 1.0 feeds given to ``validate``: checked as the sitemaps Google reads them
as (each link a URL on the sitemap rules, each date parseable), never "OK" unchecked."""

from __future__ import annotations

from pathlib import Path

from validator_inputs import ROOT, rules, write

from sitemapkit.cli.validate import run_validate
from sitemapkit.validate import validate

ATOM_NS = "http://www.w3.org/2005/Atom"


def rss(*items: str, version: str = "2.0") -> str:
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<rss version="{version}"><channel>\n'
            f"<title>Example</title><link>{ROOT}</link><description>d</description>\n"
            + "\n".join(items) + "\n</channel></rss>\n")


def item(link: str | None = ROOT + "a/", date: str | None = "Thu, 15 Jan 2026 08:00:00 GMT") -> str:
    return ("<item><title>t</title>" + (f"<link>{link}</link>" if link is not None else "")
            + (f"<pubDate>{date}</pubDate>" if date is not None else "") + "</item>")


def atom(*entries: str) -> str:
    return (f'<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="{ATOM_NS}">\n'
            f"<title>Example</title><id>{ROOT}</id><updated>2026-01-15T08:00:00Z</updated>\n"
            + "\n".join(entries) + "\n</feed>\n")


def entry(href: str | None = ROOT + "a/", updated: str | None = "2026-01-15T08:00:00Z",
          rel: str = "") -> str:
    link = f'<link{rel} href="{href}"/>' if href is not None else ""
    stamp = f"<updated>{updated}</updated>" if updated is not None else ""
    return f"<entry><title>t</title><id>urn:x:{href}</id>{link}{stamp}</entry>"


def test_clean_feeds_pass_and_are_counted_as_checked(tmp_path, capsys):
    good_rss = write(tmp_path, rss(item(), item(ROOT + "b/", "Wed, 14 Jan 2026 08:00:00 +0100")),
                     "feed.xml")
    good_atom = write(tmp_path, atom(entry(), entry(ROOT + "b/", "2026-01-14T08:00:00.5+01:00",
                                                    ' rel="alternate"')), "atom.xml.gz")
    assert validate([good_rss, good_atom]) == []
    assert run_validate([str(good_rss)], None, "text", False, False) == 0
    assert capsys.readouterr().out.strip() == "OK: 1 file checked, 0 errors, 0 warnings"


def test_rss_items_are_checked_like_sitemap_urls(tmp_path):
    path = write(tmp_path, rss(
        item(),                                          # line 4: fine
        item("/relative/"),                              # 5: loc-relative
        item(None),                                      # 6: feed-link
        item(ROOT + "c/", "2026-01-15"),                 # 7: feed-date (not RFC 822)
        item("https://other.example.org/d/"),           # 8: loc-host (warning)
        item(ROOT + "a/"),                               # 9: duplicate-url
        item("ftp://example.com/e/"),                    # 10: loc-scheme
    ), "feed.rss")
    assert [(p.line, p.rule, p.severity) for p in validate(path)] == [
        (5, "loc-relative", "error"), (6, "feed-link", "error"), (7, "feed-date", "error"),
        (8, "loc-host", "warning"), (9, "duplicate-url", "warning"), (10, "loc-scheme", "error")]


def test_atom_entries_are_checked_like_sitemap_urls(tmp_path):
    path = write(tmp_path, atom(
        entry(),                                         # line 4
        entry("a/"),                                     # 5: relative
        entry(None),                                     # 6: no link
        entry(ROOT + "b/", "Thu, 15 Jan 2026 08:00:00 GMT"),  # 7: not RFC 3339
        entry(ROOT + "c/", None),                        # 8: no updated
        entry(ROOT + "e/", "2026-01-15T08:00:00"),       # 9: no zone
        entry(ROOT + "enclosure/", rel=' rel="enclosure"'),  # 10: no alternate link
    ), "atom.xml")
    assert [(p.line, p.rule) for p in validate(path)] == [
        (5, "loc-relative"), (6, "feed-link"), (7, "feed-date"), (8, "feed-date"),
        (9, "feed-date"), (10, "feed-link")]


def test_what_is_not_rss_2_or_atom_1_is_said_never_ok(tmp_path, capsys):
    old = write(tmp_path, rss(item(), version="0.91"), "old.xml")
    assert rules(validate(old)) == {"feed-version"}
    atom03 = write(tmp_path, '<feed xmlns="http://purl.org/atom/ns#"><entry/></feed>', "a03.xml")
    assert rules(validate(atom03)) == {"feed-version"}
    empty = write(tmp_path, rss(), "empty.xml")
    assert [(p.rule, p.severity) for p in validate(empty)] == [("feed-empty", "warning")]
    html = write(tmp_path, "<html><body>hi</body></html>", "page.xml")
    assert rules(validate(html)) == {"root-element"}
    notes = write(tmp_path, "hello: world\nnot a sitemap\n", "notes.md")
    binary = write(tmp_path, b"\x00\x01\x02", "data.bin")
    for path in (notes, binary):
        (problem,) = validate(path)
        assert (problem.rule, problem.severity) == ("not-a-sitemap", "error")
        assert "nothing in it was checked" in problem.message
        assert run_validate([str(path)], None, "text", False, False) == 1
        assert capsys.readouterr().out.splitlines()[-1] == (
            "FAILED: 0 files checked, 1 error, 0 warnings")
    for path in (old, atom03, html):
        assert run_validate([str(path)], None, "text", False, False) == 1
        assert capsys.readouterr().out.splitlines()[-1].startswith("FAILED"), path


def test_a_feed_named_by_robots_txt_is_followed(tmp_path):
    write(tmp_path, rss(item("/x/")), "feed.xml")
    robots = write(tmp_path, f"User-agent: *\nSitemap: {ROOT}feed.xml\n", "robots.txt")
    assert [(Path(p.where).name, p.rule) for p in validate(robots)] == [("feed.xml", "loc-relative")]
