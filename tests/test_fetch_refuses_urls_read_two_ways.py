"""One URL parser (issue #34, 1): a URL is read once, and the allow check, the address check
and the connection take that one reading; a URL that URL readers read differently is
refused (``fetch-refused``), never normalised into something else.

The issue's case: a redirect to ``http://127.0.0.1:P2\\@127.0.0.1:P/x``, whose host is
``127.0.0.1:P`` for ``urlsplit`` (after the last ``@``) and ``127.0.0.1:P2`` for urllib3 (the
authority ends at ``\\``), reached a port the user never named. Two servers on 127.0.0.1: the
site the user names, and another one holding a text sitemap nobody asked for.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from fault_server import FaultServer, body, redirect, urlset_of

pytestmark = pytest.mark.slow  # real HTTP servers on 127.0.0.1 (make test-fast leaves them out)

PAGE = b"<!doctype html><html><head><title>A</title></head><body>a</body></html>"


def validate(*args: str) -> dict:
    done = subprocess.run([sys.executable, "-m", "sitemapkit", "validate", *args, "--timeout", "2",
                           "--format", "json"], capture_output=True, text=True, timeout=120)
    assert "Traceback" not in done.stderr, done.stderr
    return json.loads(done.stdout)


def elsewhere(other: FaultServer, site: FaultServer) -> str:
    return f"http://127.0.0.1:{other.port}\\@127.0.0.1:{site.port}/x"


def test_validate_url_does_not_follow_a_redirect_read_two_ways() -> None:
    with FaultServer() as other, FaultServer() as site:
        other.routes["/%5C@127.0.0.1:" + str(site.port) + "/x"] = body(b"http://127.0.0.1/secret\n", "text/plain")
        site.routes["/sitemap.txt"] = redirect(elsewhere(other, site))
        report = validate(site.url() + "sitemap.txt")
    assert other.requests == []
    (problem,) = report["problems"]
    assert problem["rule"] == "unreadable"  # the target itself: as any target that cannot be fetched
    assert "backslash" in problem["message"] and "not followed" in problem["message"]
    assert "secret" not in json.dumps(report)


def test_check_pages_does_not_follow_a_page_redirect_read_two_ways(tmp_path: Path) -> None:
    with FaultServer() as other, FaultServer() as site:
        site.routes.update({
            "/robots.txt": body(b"User-agent: *\nDisallow:\n", "text/plain"),
            "/sitemap.xml": body(urlset_of(site.url() + "a/", site.url() + "moved/"), "application/xml"),
            "/a/": body(PAGE),
            "/moved/": redirect(elsewhere(other, site), 301),
        })
        report = validate(site.url() + "sitemap.xml", "--check-pages")
    assert other.requests == []
    rules = {(p["line"], p["rule"]): p["message"] for p in report["problems"]}
    assert "backslash" in rules[(4, "page-redirect")] and "not followed" in rules[(4, "page-redirect")]


def test_check_pages_never_requests_a_listed_url_read_two_ways() -> None:
    with FaultServer() as other, FaultServer() as site:
        site.routes.update({
            "/robots.txt": body(b"User-agent: *\nDisallow:\n", "text/plain"),
            "/sitemap.xml": body(urlset_of(site.url() + "a/", elsewhere(other, site)), "application/xml"),
            "/a/": body(PAGE),
        })
        report = validate(site.url() + "sitemap.xml", "--check-pages")
    assert other.requests == []
    assert ("loc-escaping", 4) in {(p["rule"], p["line"]) for p in report["problems"]}


@pytest.mark.parametrize("url", [
    "http://127.0.0.1:8001\\@127.0.0.1:8000/x",
    "http://example.org\\.evil.example/",
    "http://evil.example@example.org/",
    "http://a@b@example.org/",
    "http://example.org/a b",
    "http://example.org/a\tb",
    "http://example.org/\r\nX-Header: 1",
    "http://exa\x00mple.org/",
    "http://example.org:0x50/",
])
def test_urls_read_differently_are_unclear(url: str) -> None:
    from sitemapkit.validate.reach import Unclear, destination

    with pytest.raises(Unclear):
        destination(url)


def test_the_one_reading_is_what_the_connection_uses() -> None:
    from sitemapkit.validate.reach import destination

    where = destination("http://Example.ORG.:8080/a/b?c=d#e")
    assert (where.scheme, where.host, where.port, where.target) == ("http", "example.org.", 8080, "/a/b?c=d")
    assert where.authority == ("example.org", 8080)
    assert destination("https://[::1]:443/").authority == ("::1", None)
