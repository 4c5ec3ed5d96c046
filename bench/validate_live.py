"""``sitemapkit validate URL --check-pages`` against a local server: pages per second, peak RSS.

A ``http.server`` thread on 127.0.0.1 (HTTP/1.1, keep-alive) serves a robots.txt, a sitemap
of N URLs and the N pages it lists, each a 6 KB HTML page with a title, a canonical link to
itself and two hreflang alternates (itself and its twin), made on request. Then, in a fresh
child process, ``sitemapkit validate URL/sitemap.xml --check-pages`` runs at the default
concurrency; the child times its own run (after its imports) and reads its peak RSS (VmHWM)
from /proc/self/status. Only loopback addresses are used.

Two runs: ``--pages`` URLs (default 2,000) for the rate, and 50,000 URLs (a full sitemap)
for the peak. The server shares the machine's cores with the child, so the rate is a floor
for what a real site on its own host gives.

    .venv/bin/python bench/validate_live.py [--pages 2000] [--peak-urls 50000]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CHILD = r"""
import json, sys, time, io, contextlib
began = time.perf_counter()
from sitemapkit.cli import main
imported = time.perf_counter()
out = io.StringIO()
with contextlib.redirect_stdout(out):
    status = main(["validate", sys.argv[1], "--check-pages", "--format", "json"])
took = time.perf_counter() - imported
report = json.loads(out.getvalue())
peak = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:"))
print(json.dumps({"status": status, "seconds": took, "import": imported - began,
                  "pages": report["totals"].get("pages"), "problems": len(report["problems"]),
                  "peak_kib": peak}))
"""

FILLER = "<p>" + "Lorem ipsum dolor sit amet, consectetur adipiscing elit. " * 90 + "</p>"


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, pages: int) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.pages = pages

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/"


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body are two writes: no 40 ms stall between them
    server: Server

    def log_message(self, *args) -> None:
        pass

    def do_GET(self) -> None:
        self._answer(head=False)

    def do_HEAD(self) -> None:
        self._answer(head=True)

    def _answer(self, head: bool) -> None:
        url = self.server.url
        if self.path == "/robots.txt":
            body, kind = f"User-agent: *\nDisallow:\n\nSitemap: {url}sitemap.xml\n", "text/plain"
        elif self.path == "/sitemap.xml":
            body, kind = self._sitemap(url), "application/xml"
        elif self.path.startswith("/p/n") and self.path[4:-1].isdigit():
            n = int(self.path[4:-1])
            twin = n ^ 1
            body = (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Page {n}</title>'
                    f'<link rel="canonical" href="{url}p/n{n}/">'
                    f'<link rel="alternate" hreflang="{"en" if n % 2 == 0 else "de"}" href="{url}p/n{n}/">'
                    f'<link rel="alternate" hreflang="{"de" if n % 2 == 0 else "en"}" href="{url}p/n{twin}/">'
                    f"</head><body><main><h1>Page {n}</h1>{FILLER}</main></body></html>")
            kind = "text/html; charset=utf-8"
        else:
            body, kind = "not found", "text/plain"
        data = body.encode()
        self.send_response(200 if kind != "text/plain" or self.path == "/robots.txt" else 404)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if not head:
            self.wfile.write(data)

    def _sitemap(self, url: str) -> str:
        rows = "".join(f"<url><loc>{url}p/n{n}/</loc></url>\n" for n in range(self.server.pages))
        return ('<?xml version="1.0" encoding="UTF-8"?>\n'
                f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n{rows}</urlset>\n')


def measure(pages: int) -> dict:
    server = Server(pages)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        done = subprocess.run([sys.executable, "-c", CHILD, server.url + "sitemap.xml"],
                              capture_output=True, text=True, timeout=3600)
    finally:
        server.shutdown()
        server.server_close()
    if done.returncode != 0:
        sys.exit(done.stderr)
    result = json.loads(done.stdout)
    assert result["pages"] == pages and result["problems"] == 0, result
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--peak-urls", type=int, default=50_000)
    args = parser.parse_args()
    rate = measure(args.pages)
    print(f"{args.pages:,} pages checked in {rate['seconds']:.1f} s at the default concurrency: "
          f"{args.pages / rate['seconds']:.0f} pages/s (peak RSS {rate['peak_kib'] / 1024:.0f} MB)")
    peak = measure(args.peak_urls)
    print(f"{args.peak_urls:,} listed URLs, every page checked in {peak['seconds']:.0f} s "
          f"({args.peak_urls / peak['seconds']:.0f} pages/s): peak RSS {peak['peak_kib'] / 1024:.0f} MB")


if __name__ == "__main__":
    main()
