"""What ``validate --check-pages`` keeps per host: its robots.txt, fetched once and read as
crawlers read it (protego; up to ``protocol.ROBOTS_READ_BYTES``), and the pace its
``Crawl-delay`` sets for requests to it."""

from __future__ import annotations

import threading
import time

from protego import Protego

from sitemapkit.protocol import ROBOTS_READ_BYTES
from sitemapkit.validate.fetch import MAX_WAIT, ROBOTS_TOKEN, Client, FetchError, Refusal
from sitemapkit.validate.findings import Findings


class Pace:
    """robots.txt's Crawl-delay for one host: requests start that many seconds apart; a
    Retry-After holds them all back."""

    def __init__(self, delay: float = 0.0) -> None:
        self.delay = delay
        self.lock = threading.Lock()
        self.next = 0.0

    def wait(self) -> None:
        with self.lock:
            now = time.monotonic()
            start = max(now, self.next)
            self.next = start + self.delay
        if start > now:
            time.sleep(start - now)

    def hold(self, seconds: float) -> None:
        """No request to this host starts in the next ``seconds``."""
        with self.lock:
            self.next = max(self.next, time.monotonic() + seconds)


class HostRobots:
    """Each host's robots.txt, fetched once (RFC 9309: up to 5 redirects followed; a 4xx
    means no rule; a 5xx or no answer means keep out, and is reported once)."""

    def __init__(self, findings: Findings, client: Client) -> None:
        self.findings = findings
        self.client = client
        self._rules: dict[str, Protego | None] = {}
        self._paces: dict[str, Pace] = {}

    def rules(self, origin: str) -> Protego | None:
        """The rules, or ``None`` when the host must not be crawled at all."""
        if origin not in self._rules:
            self._rules[origin] = self._fetch(origin + "robots.txt")
            rules = self._rules[origin]
            delay = float(rules.crawl_delay(ROBOTS_TOKEN) or 0) if rules is not None else 0.0
            if delay > MAX_WAIT:
                url = origin + "robots.txt"
                self.findings.file_number(url)
                self.findings.add(url, None, "wait-capped",
                                  f"{url} asks for Crawl-delay: {delay:g} s; sitemapkit waits at most "
                                  f"{MAX_WAIT:g} s between two requests to a host, so its pages were "
                                  "requested that far apart")
                delay = MAX_WAIT
            self._paces[origin] = Pace(delay)
        return self._rules[origin]

    def pace(self, origin: str) -> Pace:
        return self._paces.setdefault(origin, Pace())

    def _fetch(self, url: str) -> Protego | None:
        why = None
        try:
            answer = self.client.fetch(url, accept="text/plain")
        except Refusal as error:
            self.findings.file_number(url)
            self.findings.add(url, None, "fetch-refused", f"{url} was not requested: {error}; so none "
                              "of its host's pages was")
            return None
        except FetchError as error:
            why = str(error)
        else:
            try:
                if 400 <= answer.status < 500:
                    return Protego.parse("")
                if answer.status != 200:
                    why = f"it answered HTTP {answer.status}"
                else:
                    body = answer.body(ROBOTS_READ_BYTES, 3 * self.client.timeout)
                    text = body.read(ROBOTS_READ_BYTES).decode("utf-8", "replace")
                    if body.error is None:
                        return Protego.parse(text)
                    why = body.error
            finally:
                answer.close()
        self.findings.file_number(url)
        self.findings.add(url, None, "robots-unreachable",
                          f"{url} cannot be fetched ({why}); crawlers then keep out of the whole "
                          "host, so none of its pages was requested")
        return None
