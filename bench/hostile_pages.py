"""``sitemapkit validate URL --check-pages`` against two hostile pages: wall time, peak RSS.

A ``http.server`` thread on 127.0.0.1 serves a robots.txt, a sitemap that lists one page, and
that page, in one of two ways:

- ``comments``: a page whose ``<head>`` holds 512 KiB of ``<!-- … -->`` comments (eight
  comments of 64 KiB each, one long word inside), then a normal end;
- ``trickle``: a page whose headers come at once and whose body then comes one byte every
  0.5 s (with ``--timeout 1``, so no single wait for data ever times out).

Each case runs ``sitemapkit validate URL/sitemap.xml --check-pages --timeout 1`` in a fresh
child process; the parent times it and reads the child's peak RSS (VmHWM, from
/proc/PID/status while it runs, and ru_maxrss when it ends). A child still running after
``--cap`` seconds (default 60) is killed and reported as such. Only loopback addresses are
used.

    .venv/bin/python bench/hostile_pages.py [--cap 60] [--case comments|trickle]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from _measure import watch

COMMENT = b"<!--" + b"x" * (64 * 1024 - 7) + b"-->"
HEAD = b"<!doctype html><html><head><title>t</title>" + COMMENT * 8 + b"</head><body>hi</body></html>"


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, case: str) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.case = case
        self.stop = threading.Event()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/"

    def handle_error(self, request, client_address) -> None:
        pass  # the client hangs up on the trickle: expected


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: Server

    def log_message(self, *args) -> None:
        pass

    def do_GET(self) -> None:
        url = self.server.url
        if self.path == "/robots.txt":
            return self._send(b"User-agent: *\nDisallow:\n", "text/plain")
        if self.path == "/sitemap.xml":
            return self._send(
                b'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/'
                b'schemas/sitemap/0.9">\n<url><loc>' + url.encode() + b"page/</loc></url>\n</urlset>\n",
                "application/xml")
        if self.server.case == "comments":
            return self._send(HEAD, "text/html")
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(1 << 20))
        self.end_headers()
        self.wfile.flush()
        for _ in range(1 << 20):
            if self.server.stop.wait(0.5):
                return
            self.wfile.write(b"<")
            self.wfile.flush()

    def _send(self, data: bytes, kind: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def run(case: str, cap: float) -> str:
    server = Server(case)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    command = [sys.executable, "-m", "sitemapkit", "validate", server.url + "sitemap.xml",
               "--check-pages", "--timeout", "1"]
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    wall, peak, code = watch(child, cap)
    killed = code == "killed"
    out = child.stdout.read().decode("utf-8", "replace").strip().splitlines()
    child.stdout.close()
    server.stop.set()
    server.shutdown()
    server.server_close()
    said = out[-1] if out else ""
    capped = " (cap)" if killed else ""
    return f"{case:9} wall {wall:6.2f} s{capped}  peak RSS {peak / 1024:6.1f} MiB  exit {code}  {said}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cap", type=float, default=60.0)
    parser.add_argument("--case", choices=("comments", "trickle"), action="append")
    args = parser.parse_args()
    for case in args.case or ("comments", "trickle"):
        print(run(case, args.cap), flush=True)


if __name__ == "__main__":
    main()
