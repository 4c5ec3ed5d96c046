"""``validate`` as a whole has a deadline (issue #34, 3): ``--max-time`` (half an hour by
default) stops the fetching, and one ``max-time`` error names it and says how much was left.
Today's main fetched an index of 50,000 children one by one for as long as it took.

A server on 127.0.0.1 answers each child (or page) after a short wait, so that the run is
still fetching when its deadline passes; what is asserted is the report, not a time."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest
from fault_server import FaultServer, body, index_of, send, urlset_of

pytestmark = pytest.mark.slow  # a real HTTP server on 127.0.0.1, and child processes

CHILDREN = 400
PAGE = b"<!doctype html><html><head><title>A</title></head><body>a</body></html>"


def slowly(data: bytes, kind: str):
    def route(handler) -> None:
        time.sleep(0.05)
        send(handler, 200, data, {"Content-Type": kind})
    return route


def validate(*args: str) -> tuple[int, dict]:
    done = subprocess.run([sys.executable, "-m", "sitemapkit", "validate", *args, "--format", "json"],
                          capture_output=True, text=True, timeout=300)
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, json.loads(done.stdout)


def test_an_index_of_many_children_stops_at_max_time_and_says_so():
    with FaultServer() as site:
        children = [f"{site.url()}s{i}.xml" for i in range(CHILDREN)]
        site.routes["/sitemap.xml"] = body(index_of(*children), "application/xml")
        for i in range(CHILDREN):
            site.routes[f"/s{i}.xml"] = slowly(urlset_of(f"{site.url()}p{i}/"), "application/xml")
        code, report = validate(site.url() + "sitemap.xml", "--max-time", "1")
        fetched = len(site.requests)
    (stopped,) = [p for p in report["problems"] if p["rule"] == "max-time"]
    assert stopped["severity"] == "error" and "--max-time (1 s)" in stopped["message"]
    left = int(stopped["message"].split(": ")[1].split(" URL")[0])
    assert fetched < CHILDREN + 1 and left == CHILDREN + 1 - fetched
    assert code == 1


def test_check_pages_stops_at_max_time_and_says_so():
    with FaultServer() as site:
        pages = [f"{site.url()}p{i}/" for i in range(CHILDREN)]
        site.routes["/robots.txt"] = body(b"User-agent: *\nDisallow:\n", "text/plain")
        site.routes["/sitemap.xml"] = body(urlset_of(*pages), "application/xml")
        for i in range(CHILDREN):
            site.routes[f"/p{i}/"] = slowly(PAGE, "text/html")
        code, report = validate(site.url() + "sitemap.xml", "--check-pages", "--max-time", "1")
        requested = len([path for _, path, _ in site.requests if path.startswith("/p")])
    assert [p["rule"] for p in report["problems"]].count("max-time") == 1
    assert requested < CHILDREN
    assert code == 1


def test_the_default_is_named_in_the_help():
    done = subprocess.run([sys.executable, "-m", "sitemapkit", "validate", "--help"], capture_output=True,
                          text=True, timeout=60)
    shown = " ".join(done.stdout.split())
    assert "--max-time SECONDS" in shown and "(default half an hour)" in shown
