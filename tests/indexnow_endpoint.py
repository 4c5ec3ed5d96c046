"""A scripted IndexNow endpoint on 127.0.0.1, for the tests that build with ``indexnow``."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Engine:
    """A scripted IndexNow endpoint: answers ``statuses`` in turn (200 once they run out)."""

    def __init__(self) -> None:
        self.requests: list[dict] = []
        self.statuses: list[int] = []
        engine = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                engine.requests.append(
                    {"path": self.path, "type": self.headers["Content-Type"],
                     "json": json.loads(body)}
                )
                status = engine.statuses.pop(0) if engine.statuses else 200
                self.send_response(status)
                if status == 429:
                    self.send_header("Retry-After", "0")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/indexnow"
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    @property
    def urls(self) -> list[str]:
        """Every URL posted so far, in order."""
        return [url for request in self.requests for url in request["json"]["urlList"]]
