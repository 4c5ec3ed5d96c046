"""A real HTTP server on 127.0.0.1 (``http.server`` in a thread) whose answers are set per
path, for the tests of what ``validate`` fetches: hostile bodies, redirects, trickles.

``FaultServer`` records every request it gets (method, path, Host header) and, for a
trickle, how many bytes it managed to send before the client hung up. It serves only on
127.0.0.1 and stops by itself after two minutes, whatever the test does.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

Route = Callable[["Handler"], None]


class FaultServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, routes: dict[str, Route] | None = None) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.routes: dict[str, Route] = dict(routes or {})
        self.requests: list[tuple[str, str, str]] = []
        self.sent: dict[str, int] = {}
        """Bytes of a trickled answer written before the client hung up (or it ended)."""
        self.stop = threading.Event()
        self.lock = threading.Lock()

    @property
    def port(self) -> int:
        return self.server_address[1]

    def url(self, host: str = "127.0.0.1") -> str:
        return f"http://{host}:{self.port}/"

    def paths(self) -> list[str]:
        return [path for _, path, _ in self.requests]

    def handle_error(self, request, client_address) -> None:
        pass  # a client that hangs up on a trickle is what the tests want

    def __enter__(self) -> FaultServer:
        self._thread = threading.Thread(target=self.serve_forever, kwargs={"poll_interval": 0.05},
                                        daemon=True)
        self._thread.start()
        self._timer = threading.Timer(120, self.shutdown)
        self._timer.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self._timer.cancel()
        self.shutdown()
        self.server_close()
        self._thread.join(5)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    server: FaultServer

    def log_message(self, *args) -> None:
        pass

    def do_HEAD(self) -> None:
        self.do_GET()

    def do_GET(self) -> None:
        with self.server.lock:
            self.server.requests.append((self.command, self.path, self.headers.get("Host", "")))
        route = self.server.routes.get(self.path)
        if route is None:
            return send(self, 404, b"not found")
        route(self)


def send(handler: Handler, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
    handler.send_response(status)
    for name, value in {"Content-Type": "text/html", **(headers or {})}.items():
        handler.send_header(name, value)
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    if handler.command != "HEAD":
        handler.wfile.write(body)


def body(data: bytes, kind: str = "text/html", status: int = 200, **headers: str) -> Route:
    return lambda handler: send(handler, status, data, {"Content-Type": kind, **headers})


def redirect(location: str, status: int = 302) -> Route:
    return lambda handler: send(handler, status, b"", {"Location": location})


def trickle(every: float, head: bool = False, size: int = 1 << 20) -> Route:
    """An answer whose body (with ``head``: whose status line and headers already) comes one
    byte every ``every`` seconds, ``size`` bytes long; the bytes sent are counted."""

    def route(handler: Handler) -> None:
        server, sent = handler.server, 0
        try:
            if not head:
                handler.send_response(200)
                handler.send_header("Content-Type", "text/html")
                handler.send_header("Content-Length", str(size))
                handler.end_headers()
                handler.wfile.flush()
            data = b"HTTP/1.1 200 OK\r\nX-Slow: " + b"a" * size if head else b"<" * size
            for byte in data:
                if server.stop.wait(every):
                    break
                handler.wfile.write(bytes([byte]))
                handler.wfile.flush()
                sent += 1
        except OSError:
            pass  # the client hung up: that is the point
        finally:
            with server.lock:
                server.sent[handler.path] = sent
            handler.close_connection = True

    return route


def once_then(first: Route, then: Route) -> Route:
    """``first`` for the first request of the path, ``then`` for every later one."""
    calls = []

    def route(handler: Handler) -> None:
        calls.append(1)
        (first if len(calls) == 1 else then)(handler)

    return route


def urlset_of(*locs: str) -> bytes:
    """A sitemap listing ``locs``, as a server sends it."""
    urls = "".join(f"<url><loc>{loc}</loc></url>\n" for loc in locs)
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/'
            f'schemas/sitemap/0.9">\n{urls}</urlset>\n').encode()


def index_of(*locs: str) -> bytes:
    """A sitemap index over ``locs``, as a server sends it."""
    items = "".join(f"<sitemap><loc>{loc}</loc></sitemap>\n" for loc in locs)
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/'
            f'schemas/sitemap/0.9">\n{items}</sitemapindex>\n').encode()
