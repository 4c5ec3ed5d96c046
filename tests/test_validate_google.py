"""``validate`` agrees with what Google documents: separate mobile URLs, robots.txt known by
its content, misspelt and relative ``Sitemap:`` lines, URLs on another host (valid through
robots.txt cross-submission or a verified property), the per-rule cap keeping the severity of
what it hides, one misplaced element reported once, and a huge text sitemap in flat memory."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from lxml import etree
from validator_inputs import ROOT, VIDEO_FULL, rules, url, urlset, write

from sitemap_checks import schema
from sitemapkit.cli.validate import run_validate
from sitemapkit.protocol import RULES
from sitemapkit.validate import validate

MOBILE = ('<xhtml:link rel="alternate" media="only screen and (max-width: 640px)" '
          'href="https://m.example.com/a/"/>')


def test_a_mobile_alternate_as_google_documents_it_is_accepted(tmp_path):
    path = write(tmp_path, urlset(url(MOBILE)))
    # the official XSD accepts it too: the second opinion agrees
    schema("sitemap-all.xsd").assertValid(etree.parse(str(path)))
    assert validate(path) == []


def test_a_mobile_alternate_still_needs_rel_media_and_a_good_href(tmp_path):
    cases = {
        "hreflang-rel": MOBILE.replace('rel="alternate"', 'rel="canonical"'),
        "mobile-media": MOBILE.replace("only screen and (max-width: 640px)", " "),
        "loc-relative": MOBILE.replace("https://m.example.com/a/", "/m/a/"),
    }
    for rule, link in cases.items():
        assert rules(validate(write(tmp_path, urlset(url(link)), f"{rule}.xml"))) == {rule}
    # without media it is an hreflang alternate, which needs hreflang
    plain = MOBILE.replace(' media="only screen and (max-width: 640px)"', "")
    assert rules(validate(write(tmp_path, urlset(url(plain)), "plain.xml"))) == {"hreflang-href"}


ROBOTS = ("# robots for example.com\nUser-agent: *\nDisallow: /private/\nAllow: /\n"
          "Crawl-delay: 5\n\nUser-agent: Googlebot\nDisallow:\n")


def test_robots_txt_is_known_by_its_content_under_any_name(tmp_path):
    write(tmp_path, urlset(url()))
    for name in ("robots-production.txt", "robots", "robots.txt.dist"):
        path = write(tmp_path, ROBOTS + f"Sitemap: {ROOT}sitemap.xml\n", name)
        assert validate(path) == [], name
    # a robots file without Sitemap is read as robots.txt (its own warning), not as a text
    # sitemap of broken lines
    assert rules(validate(write(tmp_path, ROBOTS, "robots-staging.txt"))) == {"robots-no-sitemap"}
    # a text sitemap is still a text sitemap, and a text file of prose still fails, once
    assert validate(write(tmp_path, f"{ROOT}a/\n", "urls.txt")) == []
    assert rules(validate(write(tmp_path, "Hello: world\nthis is not robots\n", "notes.txt"))) == {
        "not-a-sitemap"}


def test_misspelt_and_relative_sitemap_lines_are_named_for_what_they_are(tmp_path):
    robots = write(tmp_path, "User-agent: *\nSite-map: https://example.com/a.xml\n"
                   "Sitemaps: https://example.com/b.xml\nSite map: https://example.com/c.xml\n"
                   "SITEMAP: /d.xml\n", "robots.txt")
    problems = validate(robots)
    assert [(p.line, p.rule, p.severity) for p in problems] == [
        (2, "robots-sitemap-field", "warning"), (3, "robots-sitemap-field", "warning"),
        (4, "robots-sitemap-field", "warning"), (5, "robots-sitemap-relative", "error")]
    assert "'Site-map:'" in problems[0].message and "Sitemap:" in problems[0].message
    assert "relative URL" in problems[3].message
    # field names in any case: an upper-case Sitemap line is followed to its file
    write(tmp_path, urlset(url("<priority>2</priority>")))
    upper = write(tmp_path / "up", f"SITEMAP: {ROOT}sitemap.xml\n", "robots.txt")
    write(tmp_path / "up", urlset(url("<priority>2</priority>")))
    assert rules(validate(upper)) == {"priority-range"}


def test_a_url_on_another_host_is_a_warning_naming_both_ways_it_becomes_valid(tmp_path):
    path = write(tmp_path, urlset(url() + url(loc="https://shop.example.org/b/")))
    (problem,) = validate(path)
    assert (problem.rule, problem.severity) == ("loc-host", "warning")
    assert "robots.txt" in problem.message and "Search Console" in problem.message
    assert run_validate([str(path)], None, "text", False, False) == 0


def test_another_host_is_an_error_where_site_dir_shows_one_host(tmp_path):
    site = tmp_path / "site"
    write(site, "<html><head><title>a</title></head></html>", "a/index.html")
    write(site, urlset(url() + url(loc="https://shop.example.org/b/")))
    problems = [p for p in validate(site / "sitemap.xml", site_dir=site) if p.rule == "loc-host"]
    assert [(p.line, p.severity) for p in problems] == [(3, "error")]


def test_another_host_through_robots_txt_cross_submission(tmp_path):
    """robots.txt of shop.example.org (kept beside the sitemap under another name) names the
    sitemap: its URLs there are valid; the robots.txt of blog.example.net, given too, does not
    name it, which shows the blog's URLs are not."""
    main = write(tmp_path / "main", urlset(url() + url(loc="https://shop.example.org/b/")
                                           + url(loc="https://blog.example.net/c/")))
    shop = write(tmp_path / "main", "User-agent: *\nSitemap: https://shop.example.org/s.xml\n"
                 f"Sitemap: {ROOT}sitemap.xml\n", "robots-shop.txt")
    blog = write(tmp_path / "blog", "User-agent: *\nSitemap: https://blog.example.net/s.xml\n",
                 "robots.txt")
    write(tmp_path / "blog", urlset(url(loc="https://blog.example.net/y/")), "s.xml")
    for order in ([main, shop, blog], [shop, blog, main], [blog, main, shop]):
        problems = validate(order)
        host = [(Path(p.where).name, p.line, p.severity) for p in problems if p.rule == "loc-host"]
        assert host == [("sitemap.xml", 3, "error")], problems
        assert "blog.example.net/robots.txt" in next(
            p.message for p in problems if p.rule == "loc-host")
    # the same file alone: both are warnings, nothing shows they are not valid
    alone = validate(main)
    assert [(p.rule, p.severity) for p in alone] == [("loc-host", "warning")] * 2


def test_the_more_line_keeps_the_severity_of_what_it_stands_for(tmp_path, capsys):
    media = '<xhtml:link rel="alternate" hreflang="en" href="https://example.com/a/" media="x"/>'
    body = "".join(url(media.replace("/a/", f"/p{n}/"), ROOT + f"p{n}/") for n in range(150))
    path = write(tmp_path, urlset(body))
    problems = validate(path)
    assert {p.severity for p in problems} == {"warning"}
    (more,) = [p for p in problems if p.line is None]
    assert len(problems) == 101 and more.message == (
        "50 more warnings of this rule in this file not shown")
    assert run_validate([str(path)], None, "text", False, False) == 0
    printed = capsys.readouterr().out.splitlines()
    # the closing line closes its group; the totals count every problem, shown or not
    assert printed[-2].endswith("50 more warnings of this rule in this file not shown [unknown-attribute]")
    assert printed[-1] == "OK with warnings: 1 file checked, 0 errors, 150 warnings"
    # errors past the cap still count as errors
    bad = "".join(url("<priority>7</priority>", ROOT + f"q{n}/") for n in range(120))
    (more,) = [p for p in validate(write(tmp_path, urlset(bad), "bad.xml")) if p.line is None]
    assert more.severity == "error" and more.message.startswith("20 more errors of this rule")


def test_one_misplaced_element_is_reported_once(tmp_path):
    live_first = VIDEO_FULL.replace("  <video:live>no</video:live>\n", "").replace(
        "<video:video>", "<video:video><video:live>no</video:live>", 1)
    path = write(tmp_path, urlset(url(live_first)))
    # the XSD rejects it; the validator says so once, naming the element that moved
    assert not schema("sitemap-all.xsd").validate(etree.parse(str(path)))
    (problem,) = validate(path)
    assert problem.rule == "element-order" and problem.message.startswith("<video:live>")
    # a lastmod after changefreq: one problem, on the one out of place
    (problem,) = validate(write(tmp_path, urlset(url(
        "<changefreq>daily</changefreq><priority>0.5</priority><lastmod>2025-01-01</lastmod>")),
        "two.xml"))
    assert problem.rule == "element-order" and problem.message.startswith("<lastmod>")


CHILD = """
import json, sys
from sitemapkit.validate import validate
import sitemapkit.validate.targets

def peak():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024

before = peak()
problems = validate(sys.argv[1])
print(json.dumps({"grew": peak() - before, "rules": sorted({p.rule for p in problems})}))
"""


@pytest.mark.slow  # a million lines, in a child process
def test_a_million_line_text_sitemap_is_checked_in_flat_memory(tmp_path):
    path = tmp_path / "sitemap.txt"
    with open(path, "w") as out:
        out.writelines(f"{ROOT}page-{n}/\n" for n in range(1_000_000))
    done = subprocess.run([sys.executable, "-c", CHILD, str(path)], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["rules"] == ["url-count"]
    assert result["grew"] < 20 * 2**20, f"grew {result['grew'] / 2**20:.0f} MiB"


def test_every_new_rule_is_in_the_registry():
    for rule in ("mobile-media", "robots-sitemap-field", "robots-sitemap-relative", "feed-link",
                 "feed-date", "feed-version", "feed-empty", "outside-targets", "not-regular-file",
                 "not-a-sitemap"):
        severity, message, _source = RULES[rule]
        assert severity in ("error", "warning") and message
