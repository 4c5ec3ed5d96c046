"""``sitemapkit validate URL`` and ``--check-pages`` against a real HTTP server on 127.0.0.1.

Each test builds a small site with ``sitemapkit build`` (the command users type), serves it
from a ``http.server`` thread on a loopback port (it stops at the test's end, and by itself
after a minute whatever happens), and injects faults per URL path: statuses, redirects, a
redirect loop, X-Robots-Tag, rewritten heads, a slow answer, a gzip bomb. Nothing is mocked:
sitemapkit's own HTTP client talks to the server. Only loopback addresses are ever used.
"""

from __future__ import annotations

import contextlib
import functools
import gzip
import json
import os
import pty
import re
import subprocess
import sys
import threading
import time
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from sitemapkit.validate.crawl import Live
from sitemapkit.validate.targets import run_targets

pytestmark = pytest.mark.slow  # real HTTP servers on 127.0.0.1 (make test-fast leaves them out)

SITEMAPKIT = [sys.executable, "-m", "sitemapkit"]
TIMEOUT = 0.5
"""The client's timeout in these tests; the slow page answers after three times that."""
BOMB_BYTES = 128 * 2**20
"""What the gzip bomb inflates to: far past what the reader reads (54 MiB)."""
TYPES = {".html": "text/html; charset=utf-8", ".xml": "application/xml", ".gz": "application/gzip",
         ".txt": "text/plain; charset=utf-8", ".pdf": "application/pdf"}


@functools.cache
def _bomb() -> bytes:
    """A gzip file of 128 MiB: a sitemap's start, then blanks (about 130 KB compressed)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    parts = [packer.compress(b'<?xml version="1.0" encoding="UTF-8"?>\n'
                             b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')]
    block = b" " * 2**20
    parts += [packer.compress(block) for _ in range(BOMB_BYTES // len(block))]
    parts.append(packer.flush())
    return b"".join(parts)


class Site(ThreadingHTTPServer):
    """Serves ``root`` as a static host does (``/a/`` is ``a/index.html``), HTTP/1.1 with
    keep-alive, and applies ``faults[path]`` first. Records every request."""

    daemon_threads = True

    def __init__(self, root: Path) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.root = root
        self.faults: dict[str, tuple] = {}
        self.requests: list[tuple[str, str, str]] = []
        self.started: dict[str, float] = {}
        self.running = 0
        self.most = 0
        self.lock = threading.Lock()
        self.delay = 0.0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/"

    def handle_error(self, request, client_address) -> None:
        pass  # a client that hangs up (the slow page, the bomb) is expected here

    def paths(self, method: str | None = None) -> list[str]:
        return [path for verb, path, _ in self.requests if method in (None, verb)]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body are two writes: no 40 ms stall between them
    server: Site

    def log_message(self, *args) -> None:
        pass

    def do_HEAD(self) -> None:
        self._answer(head=True)

    def do_GET(self) -> None:
        self._answer(head=False)

    def _answer(self, head: bool) -> None:
        site = self.server
        with site.lock:
            site.requests.append((self.command, self.path, self.headers.get("User-Agent", "")))
            site.started[self.path] = time.monotonic()
            site.running += 1
            site.most = max(site.most, site.running)
        try:
            if site.delay:
                time.sleep(site.delay)
            self._serve(head)
        finally:
            with site.lock:
                site.running -= 1

    def _serve(self, head: bool) -> None:
        fault = self.server.faults.get(self.path, ())
        kind = fault[0] if fault else None
        if kind == "status":
            return self._send(fault[1], b"<html><body>nothing here</body></html>", head=head)
        if kind == "redirect":
            return self._send(fault[1], b"", {"Location": fault[2]}, head=head)
        if kind == "slow":
            time.sleep(3 * TIMEOUT)
        if kind == "body":
            return self._send(200, fault[1], {"Content-Type": fault[2], **fault[3]}, head=head)
        file = self.server.root / self.path.lstrip("/")
        if self.path.endswith("/"):
            file = file / "index.html"
        if not file.is_file():
            return self._send(404, b"not found", head=head)
        data = file.read_bytes()
        headers = {"Content-Type": TYPES.get(file.suffix, "application/octet-stream")}
        if kind == "header":
            headers[fault[1]] = fault[2]
        if kind == "edit":
            data = data.replace(fault[1], fault[2])
        self._send(200, data, headers, head=head)

    def _send(self, status: int, data: bytes, headers: dict[str, str] | None = None,
              head: bool = False) -> None:
        self.send_response(status)
        for name, value in {"Content-Type": "text/html", **(headers or {})}.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if not head:
            self.wfile.write(data)


PAGES = {
    "": ("Home", "en", {"en": "", "de": "de/"}),
    "de/": ("Startseite", "de", {"en": "", "de": "de/"}),
    "guide/": ("Guide", "en", {}),
    "about/": ("About", "en", {}),
    "missing/": ("Missing", "en", {}),
    "broken/": ("Broken", "en", {}),
    "moved/": ("Moved", "en", {}),
    "loop-a/": ("Loop", "en", {}),
    "hidden/": ("Hidden", "en", {}),
    "private/": ("Private", "en", {}),
    "copy/": ("Copy", "en", {}),
    "slow/": ("Slow", "en", {}),
    "secret/": ("Secret", "en", {}),
}


@pytest.fixture
def site(tmp_path: Path):
    """A 13-page site with two languages, built by ``sitemapkit build`` for the server's URL
    with 5 URLs per sitemap (so an index and its children are fetched), and served."""
    root = tmp_path / "public"
    server = Site(root)
    for path, (title, lang, alternates) in PAGES.items():
        links = "".join(f'<link rel="alternate" hreflang="{code}" href="{server.url}{target}">'
                        for code, target in alternates.items())
        page = root / path / "index.html"
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
                        f"<title>{title}</title>{links}</head><body><main><h1>{title}</h1>"
                        f"<p>{title} text.</p></main></body></html>\n", encoding="utf-8")
    subprocess.run([*SITEMAPKIT, "build", str(root), "--base-url", server.url, "--max-urls", "5"],
                   cwd=tmp_path, check=True, capture_output=True, timeout=120)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    stop = threading.Timer(60, server.shutdown)  # bounded whatever the test does
    stop.start()
    yield server
    stop.cancel()
    server.shutdown()
    server.server_close()
    thread.join(5)


def inject_faults(site: Site) -> dict[tuple[str, str], str]:
    """One fault per URL; returns the (rule, URL or file) each must be reported as."""
    url = site.url
    robots = (site.root / "robots.txt").read_bytes()
    robots = robots.replace(b"Disallow:", b"Disallow: /secret/") + (
        f"Sitemap: {url}sitemap-bomb.xml.gz\n".encode())
    site.faults.update({
        "/robots.txt": ("body", robots, "text/plain", {}),
        "/missing/": ("status", 404),
        "/broken/": ("status", 500),
        "/moved/": ("redirect", 301, "/guide/"),
        "/loop-a/": ("redirect", 302, "/loop-b/"),
        "/loop-b/": ("redirect", 302, "/loop-a/"),
        "/hidden/": ("header", "X-Robots-Tag", "noindex"),
        "/private/": ("edit", b"<title>", b'<meta name="robots" content="noindex,follow"><title>'),
        "/copy/": ("edit", b"<title>", f'<link rel="canonical" href="{url}about/"><title>'.encode()),
        "/de/": ("edit", f'<link rel="alternate" hreflang="en" href="{url}">'.encode(), b""),
        "/slow/": ("slow",),
        "/sitemap-bomb.xml.gz": ("body", _bomb(), "application/gzip", {}),
    })
    return {
        ("page-status", f"{url}missing/"): "error",
        ("page-status", f"{url}broken/"): "error",
        ("page-redirect", f"{url}moved/"): "warning",
        ("page-redirect", f"{url}loop-a/"): "error",
        ("page-noindex", f"{url}hidden/"): "error",
        ("page-noindex", f"{url}private/"): "error",
        ("page-canonical", f"{url}copy/"): "warning",
        ("page-hreflang-return", url): "error",
        ("page-unreachable", f"{url}slow/"): "error",
        ("page-blocked", f"{url}secret/"): "warning",
        ("entry-size", f"{url}sitemap-bomb.xml.gz"): "error",
    }


def _validate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*SITEMAPKIT, "validate", *args, "--timeout", str(TIMEOUT)],
                          capture_output=True, text=True, timeout=120)


def _subject(problem: dict) -> str:
    """The URL a problem is about: a page's (the first URL of its message) or its file's."""
    if problem["rule"].startswith("page-"):
        return re.match(r"(\S+) ", problem["message"]).group(1)
    return problem["file"]


def test_every_fault_is_reported_once_with_its_rule(site: Site) -> None:
    expected = inject_faults(site)
    began = time.monotonic()
    result = _validate(f"{site.url}robots.txt", "--check-pages", "--format", "json")
    took = time.monotonic() - began
    report = json.loads(result.stdout)
    found = {(p["rule"], _subject(p)): p["severity"] for p in report["problems"]}
    assert len(report["problems"]) == len(found)  # each fault once
    assert found == expected
    assert result.returncode == 1
    # robots.txt, the index, its three children and the bomb were fetched and checked
    assert report["files"][:2] == [f"{site.url}robots.txt", f"{site.url}sitemap.xml"]
    assert len(report["files"]) == 6
    assert report["totals"] == {"files": 6, "errors": 8, "warnings": 3, "pages": 12}
    said = {_subject(p): p["message"] for p in report["problems"]}
    assert f"redirects (301) to {site.url}guide/;" in said[f"{site.url}moved/"]
    assert (f"redirects in a loop: {site.url}loop-a/ -302-> {site.url}loop-b/ -302-> {site.url}loop-a/"
            in said[f"{site.url}loop-a/"])
    assert "X-Robots-Tag: noindex" in said[f"{site.url}hidden/"]
    assert "robots meta" in said[f"{site.url}private/"]
    assert f"names {site.url}about/ as its canonical" in said[f"{site.url}copy/"]
    assert f"{site.url}de/ does not link back to {site.url}" in said[site.url]
    assert f"no answer within {TIMEOUT:g} s" in said[f"{site.url}slow/"]
    # page problems point at the sitemap line that lists the page
    assert all(p["file"].startswith(f"{site.url}sitemap-") and p["line"]
               for p in report["problems"] if p["rule"].startswith("page-"))
    # the bomb was cut off after a few MiB of its 256, not inflated whole
    assert took < 30
    # robots.txt obeyed: the disallowed page was never requested; the loop was left at once
    assert "/secret/" not in site.paths()
    assert site.paths().count("/loop-a/") == 1 and site.paths().count("/loop-b/") == 1


def test_a_clean_site_passes_with_every_page_requested(site: Site) -> None:
    result = _validate(site.url + "sitemap.xml", "--check-pages", "--strict")
    assert result.returncode == 0, result.stdout
    assert result.stdout.strip() == "OK: 4 files checked, 13 pages requested, 0 errors, 0 warnings"
    pages = {path for path in site.paths("GET") if path.endswith("/")}
    assert pages == {"/" + path for path in PAGES}
    assert all(agent.startswith("sitemapkit/") for _, _, agent in site.requests)
    assert site.paths().count("/robots.txt") == 1  # once per host


def test_at_most_concurrency_requests_at_a_time(site: Site) -> None:
    site.delay = 0.2
    result = _validate(site.url + "sitemap.xml", "--check-pages", "--concurrency", "2")
    assert result.returncode == 0, result.stdout
    assert site.most == 2


def test_sample_requests_that_many_pages(site: Site) -> None:
    result = _validate(site.url + "sitemap.xml", "--check-pages", "--sample", "3", "--format", "json")
    assert json.loads(result.stdout)["totals"]["pages"] == 3
    assert len([path for path in site.paths("GET") if path.endswith("/")]) == 3


def test_a_fetched_sitemap_gets_exactly_the_local_rules(site: Site, tmp_path: Path) -> None:
    """The same broken sitemap, fetched and read from disk: the same problems, line for line."""
    many = "".join(f"<url><loc>{site.url}p/{n}/</loc></url>\n" for n in range(5000))  # 250 KB
    broken = (f'<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE urlset [<!ENTITY x "y">]>\n'
              f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
              f"<url><loc>{site.url}a</loc><priority>1.5</priority></url>\n{many}"
              f"<url><loc>{site.url}a</loc><lastmod>2999-01-01</lastmod></url>\n"
              f"<url><loc>https://elsewhere.example/b</loc></url>\n"
              f"<url><loc>{site.url}c d</loc></url>\n</urlset>\n").encode()
    packed = gzip.compress(broken, mtime=0)
    local = tmp_path / "broken.xml.gz"
    local.write_bytes(packed)
    read = [(p.line, p.rule, p.severity) for p in run_targets([local], None, None).problems]
    assert {rule for _, rule, _ in read} >= {"doctype", "priority-range", "duplicate-url", "lastmod-future",
                                              "loc-host", "loc-escaping"}
    site.faults["/broken.xml.gz"] = ("body", packed, "application/gzip", {})  # a gzip file
    site.faults["/broken.xml"] = ("body", broken, "application/xml", {})  # plain
    site.faults["/sent.xml"] = ("body", packed, "application/xml", {"Content-Encoding": "gzip"})
    for name in ("broken.xml.gz", "broken.xml", "sent.xml"):
        fetched = run_targets([site.url + name], None, None, Live()).problems
        assert [(p.line, p.rule, p.severity) for p in fetched] == read, name


def test_a_fetched_news_sitemap_gets_exactly_the_local_rules(site: Site, tmp_path: Path) -> None:
    news = (f'<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
            f'xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">\n'
            f"<url><loc>{site.url}news/a</loc><news:news><news:publication><news:name>Daily</news:name>"
            f"<news:language>english</news:language></news:publication>"
            f"<news:publication_date>2020-01-01</news:publication_date><news:title>Old</news:title>"
            f"</news:news></url>\n</urlset>\n").encode()
    local = tmp_path / "sitemap-news.xml"
    local.write_bytes(news)
    read = [(p.line, p.rule, p.severity) for p in run_targets([local], None, None).problems]
    assert {rule for _, rule, _ in read} == {"news-language", "news-too-old"}
    site.faults["/sitemap-news.xml"] = ("body", news, "text/xml", {})
    fetched = run_targets([site.url + "sitemap-news.xml"], None, None, Live()).problems
    assert [(p.line, p.rule, p.severity) for p in fetched] == read


def test_content_type_and_the_transfer_encoding_bomb(site: Site) -> None:
    """A sitemap served as text/html is named; one whose Content-Encoding inflates to 128 MiB
    is read only as far as the local limit, like a gzip file on disk."""
    site.faults["/sitemap.xml"] = ("header", "Content-Type", "text/html")
    site.faults["/packed.xml"] = ("body", _bomb(), "application/xml", {"Content-Encoding": "gzip"})
    session = run_targets([site.url + "sitemap.xml", site.url + "packed.xml"], None, None,
                          Live(timeout=TIMEOUT))
    found = [(p.where, p.rule) for p in session.problems]
    assert found == [(site.url + "sitemap.xml", "sitemap-content-type"),
                     (site.url + "packed.xml", "entry-size")]


def test_redirects_are_followed_up_to_five_and_never_to_another_scheme(site: Site) -> None:
    for n in range(7):
        site.faults[f"/hop{n}.xml"] = ("redirect", 302, f"/hop{n + 1}.xml")
    site.faults["/hop7.xml"] = ("redirect", 301, "/sitemap.xml")
    site.faults["/file.xml"] = ("redirect", 301, "file:///etc/passwd")
    session = run_targets([site.url + "hop3.xml", site.url + "hop2.xml", site.url + "file.xml"],
                          None, None, Live(timeout=TIMEOUT))
    messages = {p.where: (p.rule, p.message) for p in session.problems}
    assert len(session.problems) == 2
    assert session.files[0] == site.url + "hop3.xml"  # 5 redirects: followed, then checked
    assert session.files[-2:] == [site.url + "hop2.xml", site.url + "file.xml"]
    assert messages[site.url + "hop2.xml"][0] == "unreadable"
    assert "more than 5 redirects" in messages[site.url + "hop2.xml"][1]
    assert "file:///etc/passwd, which is not an http or https URL" in messages[site.url + "file.xml"][1]
    assert "/etc/passwd" not in site.paths()


def test_other_schemes_are_refused(tmp_path: Path) -> None:
    result = _validate("file:///etc/passwd")
    assert result.returncode == 2
    assert "only http:// and https:// URLs are fetched" in result.stderr


def test_head_where_enough_get_where_the_head_must_be_read(site: Site) -> None:
    """A PDF listed in a text sitemap gets a HEAD; a page gets a GET."""
    site.faults["/doc.pdf"] = ("body", b"%PDF-1.4 " + b"x" * 100_000, "application/pdf", {})
    site.faults["/list.txt"] = ("body", f"{site.url}doc.pdf\n{site.url}guide/\n".encode(),
                                "text/plain", {})
    result = _validate(site.url + "list.txt", "--check-pages")
    assert result.returncode == 0, result.stdout
    assert ("HEAD", "/doc.pdf") in [(verb, path) for verb, path, _ in site.requests]
    assert "/doc.pdf" not in site.paths("GET")
    assert "/guide/" in site.paths("GET")


def test_robots_crawl_delay_spaces_the_requests(site: Site) -> None:
    robots = (site.root / "robots.txt").read_bytes().replace(b"Disallow:", b"Disallow:\nCrawl-delay: 0.2")
    site.faults["/robots.txt"] = ("body", robots, "text/plain", {})
    result = _validate(site.url + "sitemap.xml", "--check-pages", "--sample", "4")
    assert result.returncode == 0, result.stdout
    starts = sorted(when for path, when in site.started.items() if path.endswith("/"))
    assert len(starts) == 4
    # 3 gaps of 0.2 s: the span, not each gap, since a loaded machine can start serving one
    # request late and the next on time; without Crawl-delay the four start within milliseconds.
    assert starts[-1] - starts[0] >= 0.5


def test_a_terminal_gets_a_progress_bar(site: Site) -> None:
    main, terminal = pty.openpty()
    try:
        done = subprocess.run([*SITEMAPKIT, "validate", site.url + "sitemap.xml", "--check-pages"],
                              stdout=subprocess.PIPE, stderr=terminal, timeout=120)
        os.close(terminal)
        shown = b""
        with contextlib.suppress(OSError):  # the terminal's end once all is read
            while chunk := os.read(main, 4096):
                shown += chunk
    finally:
        os.close(main)
    assert done.returncode == 0
    assert b"] 13/13 pages checked" in shown
    assert b"pages checked" not in done.stdout


def test_a_missing_child_and_a_failing_robots_txt(site: Site) -> None:
    """An index child that answers 404 is named at the index's line; a robots.txt that
    answers 500 keeps every page of its host unrequested (RFC 9309), said once."""
    index = (site.root / "sitemap.xml").read_text(encoding="utf-8")
    second = re.findall(r"<loc>http://[^/]+(/[^<]+)</loc>", index)[1]
    site.faults[second] = ("status", 404)
    site.faults["/robots.txt"] = ("status", 500)
    result = _validate(site.url + "sitemap.xml", "--check-pages", "--format", "json")
    report = json.loads(result.stdout)
    found = [(p["file"], p["line"], p["rule"]) for p in report["problems"]]
    assert found == [(site.url + "sitemap.xml", 4, "sitemap-fetch"),
                     (site.url + "robots.txt", None, "robots-unreachable")]
    assert "HTTP 404" in report["problems"][0]["message"]
    assert report["totals"]["pages"] == 0
    assert not [path for path in site.paths() if path.endswith("/")]
    assert result.returncode == 1
