"""robots.txt lines sitemapkit wrote for an earlier base URL (a staging host) are replaced,
the user's own lines kept; and when nothing is written (Hugo's Ananke theme in a development
build: every page noindex), the messages say what happened: the documented ``noindex-most``
warning, and Hugo's own sitemap left as it is, not "replaced". On Hugo's own output
(tests/generator_output, made by a real Hugo), as the command line reads it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from protego import Protego

from sitemapkit.cli import main

pytestmark = pytest.mark.slow  # the command line on whole built sites

FIXTURE = Path(__file__).parent / "generator_output" / "hugo-permalinks"
STAGING, PRODUCTION = "https://staging.example.org/", "https://example.org/"
USERS = "User-agent: *\nDisallow: /drafts/\n\nSitemap: https://example.org/shop/sitemap.xml\n"


def hugo_site(tmp_path: Path, *, noindex: bool = False) -> Path:
    """Hugo's output, with its own sitemap.xml; its canonical links taken out (they name the
    fixture's baseURL, and this site is deployed twice); with ``noindex``, as Ananke writes
    every page outside production."""
    site = tmp_path / "public"
    shutil.copytree(FIXTURE / "public", site)
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        head, _, body = text.partition("</head>")
        head = "\n".join(line for line in head.split("\n") if 'rel="canonical"' not in line)
        if noindex:
            head += '<meta name="robots" content="noindex, nofollow">\n'
        page.write_text(head + "</head>" + body, encoding="utf-8")
    return site


def test_a_new_base_url_replaces_the_lines_of_the_old_one_and_keeps_the_users(tmp_path, capsys):
    site = hugo_site(tmp_path)
    (site / "robots.txt").write_text(USERS, encoding="utf-8")
    assert main(["build", str(site), "--base-url", STAGING, "-q"]) == 0
    assert f"Sitemap: {STAGING}sitemap.xml" in (site / "robots.txt").read_text(encoding="utf-8")
    assert main(["build", str(site), "--base-url", PRODUCTION, "-q"]) == 0
    text = (site / "robots.txt").read_text(encoding="utf-8")
    assert text == USERS + f"Sitemap: {PRODUCTION}sitemap.xml\n"  # every byte of the user's kept
    robots = Protego.parse(text)
    assert list(robots.sitemaps) == ["https://example.org/shop/sitemap.xml", f"{PRODUCTION}sitemap.xml"]
    assert not robots.can_fetch(f"{PRODUCTION}drafts/x/", "*")
    capsys.readouterr()
    assert main(["validate", str(site / "robots.txt"), str(site / "sitemap.xml"), "--site-dir", str(site)]) in (0, 1)
    assert "staging.example.org" not in capsys.readouterr().out


def test_every_page_noindex_says_so_and_leaves_hugos_sitemap_as_it_is(tmp_path, capsys):
    site = hugo_site(tmp_path, noindex=True)
    hugos = (site / "sitemap.xml").read_bytes()
    main(["build", str(site), "--base-url", PRODUCTION])
    out, err = capsys.readouterr()
    assert "[noindex-most]" in err and "HUGO_ENV=production" in err  # the documented warning
    assert "[no-pages]" in err
    assert "is replaced" not in err + out
    assert "sitemap.xml was written by another tool" in err and "left as it is" in err
    assert (site / "sitemap.xml").read_bytes() == hugos  # not replaced, and not removed
    assert "no file written" in out
