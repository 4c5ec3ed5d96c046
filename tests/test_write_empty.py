"""A site with nothing to list (every page noindex or excluded, or no page at all): no
sitemap file, since sitemap.xsd rejects an empty <urlset>; the files and the robots.txt line
an earlier build wrote are taken away; a ``no-pages`` warning, which ``strict`` makes fatal."""

from pathlib import Path

import pytest

from sitemap_checks import assert_valid_tree, robots_sitemaps
from sitemapkit import Page, Settings, generate
from sitemapkit.cli import main
from sitemapkit.report import SitemapError
from sitemapkit.site.owned import RECORD

BASE = "https://example.com/docs/"
NOINDEX = "<meta name='robots' content='noindex'>"


def html(site: Path, name: str, head: str = "") -> Page:
    path = site / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"<html><head><title>{name}</title>{head}</head><body><main>{name}</main></body></html>")
    return Page(url=name, output=path)


def listing(site: Path) -> list[str]:
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file())


@pytest.fixture(autouse=True)
def fixed_now(pin_now):
    pin_now(1700000000)


def test_generate_when_every_page_left_out(tmp_path):
    site = tmp_path / "site"
    settings = Settings(base_url=BASE, gzip=True, txt=True, changes_feed=5, max_urls=1)
    (site / "robots.txt").parent.mkdir()
    (site / "robots.txt").write_bytes(b"User-agent: *\nDisallow: /private/\n")
    generate([html(site, "a.html"), html(site, "b/index.html")], site, settings, project_dir=tmp_path)
    assert_valid_tree(site, BASE)
    # The change feed stands beside the sitemap, reached through its own Sitemap: line.
    assert robots_sitemaps(site / "robots.txt") == [BASE + "sitemap.xml", BASE + "sitemap-changes.atom"]
    ours = set(listing(site)) - {"a.html", "b/index.html", "robots.txt", RECORD}
    assert {"sitemap-2.txt.gz", "sitemap-2.txt", "sitemap-changes.atom"} <= ours
    assert RECORD in listing(site)  # the record of sitemapkit's own files

    pages = [html(site, "a.html", NOINDEX), html(site, "b/index.html", NOINDEX), html(site, "c.html")]
    report = generate(pages, site, settings.replace(exclude=("c.html",)), project_dir=tmp_path)
    assert listing(site) == ["a.html", "b/index.html", "c.html", "robots.txt"]
    assert (site / "robots.txt").read_bytes() == b"User-agent: *\nDisallow: /private/\n"
    assert report.files == [] and report.urls == 0
    problem, cause = report.warnings  # most pages say noindex: the documented warning after it
    assert problem.rule == "no-pages" and problem.where == str(site / "sitemap.xml")
    assert cause.rule == "noindex-most"
    assert "(left out: 1 exclude, 2 noindex)" in problem.message
    assert f"removed the {len(ours)} sitemap files an earlier build left" in problem.message


def test_generate_with_no_page_at_all_creates_no_robots_txt(tmp_path):
    report = generate([], tmp_path / "site", Settings(base_url=BASE), project_dir=tmp_path)
    assert listing(tmp_path / "site") == []
    assert [p.rule for p in report.warnings] == ["no-pages"]


def test_strict_fails_the_build_after_cleaning_up(tmp_path):
    site = tmp_path / "site"
    generate([html(site, "a.html")], site, Settings(base_url=BASE), project_dir=tmp_path)
    with pytest.raises(SitemapError, match=r"no page to list \(left out: 1 noindex\).*\[no-pages\]"):
        generate([html(site, "a.html", NOINDEX)], site, Settings(base_url=BASE, strict=True),
                 project_dir=tmp_path)
    assert listing(site) == ["a.html", "robots.txt"]
    assert robots_sitemaps(site / "robots.txt") == []


def test_cli_build_and_validate_on_an_all_noindex_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    site = tmp_path / "public"
    html(site, "index.html", NOINDEX)
    html(site, "blog/post.html", "<meta name='robots' content='noindex, nofollow'>")

    assert main(["build", str(site), "--base-url", BASE, "--txt"]) == 0
    out, err = capsys.readouterr()
    assert listing(site) == ["blog/post.html", "index.html"]  # no sitemap, no robots.txt
    assert "warning: " in err and "no page to list (left out: 2 noindex)" in err and "[no-pages]" in err
    assert "[noindex-most]" in err
    assert out.startswith("0 URLs; no file written; left out: 2 noindex; 2 warnings")

    assert main(["build", str(site), "--base-url", BASE, "--strict", "--quiet"]) == 1
    assert "strict is on" in capsys.readouterr().err
    assert listing(site) == ["blog/post.html", "index.html"]

    # What the validator makes of it: a clear error for the missing file, a warning for the folder.
    assert main(["validate", str(site / "sitemap.xml")]) == 2
    out = capsys.readouterr().out
    assert f"{site / 'sitemap.xml'} does not exist or is not a file [unreadable]" in out
    assert main(["validate", str(site), "--site-dir", str(site)]) == 0
    out = capsys.readouterr().out
    assert "[folder-no-sitemap]" in out and "OK with warnings: 0 files checked" in out

