"""The HTTP side of ``validate URL`` and ``--check-pages``: one polite client (urllib3).

urllib3 rather than httpx: it is released often (httpx's last release is from December 2024),
has no dependency of its own, its pool is thread-safe and holds at most ``maxsize``
connections per host (``block=True``: the per-host limit of ``--concurrency`` comes from the
pool itself), and it streams the raw bytes with redirects and retries off, so every hop and
every decompressed byte is ours to count. Content-Encoding is undone here in bounded steps
(``Body``), never by the library: a gzip bomb stops at the limit, whatever its ratio.

Where requests may go and for how long is ``validate.reach``'s: only hosts the user named,
never a special address they do not resolve to, and every response cut at its total deadline.
"""

from __future__ import annotations

import email.utils
import threading
import time
import zlib
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit

import urllib3
from urllib3.exceptions import HTTPError, LocationValueError

from sitemapkit import __version__
from sitemapkit.validate.reach import Destination, Reach, Refused, Unclear, Watchdog, destination, new_pool

USER_AGENT = f"sitemapkit/{__version__} (+https://github.com/sitemapkit/sitemapkit)"
ROBOTS_TOKEN = "sitemapkit"
"""The product token robots.txt groups are matched against (RFC 9309, 2.2.1)."""
MAX_REDIRECTS = 5
CHUNK = 64 * 1024
DEFAULT_TIMEOUT = 10.0
DEFAULT_CONCURRENCY = 4
DEFAULT_MAX_TIME = 1800.0
"""``--max-time``: seconds a whole ``validate`` run fetches for, by default (half an hour)."""
HTTP_SCHEMES = ("http", "https")
RESPONSE_SECONDS = 30
"""A response's total deadline, from its request to its last byte, in timeouts (a 50 MiB
sitemap on a slow link): past it the connection is cut, however the server paces its bytes."""
MAX_WAIT = 30.0
"""The longest robots.txt ``Crawl-delay`` or ``Retry-After`` honoured, in seconds: a longer one
is cut to this (Crawl-delay) or not waited for (Retry-After), with a warning."""


def is_http(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme.lower() in HTTP_SCHEMES and bool(parts.hostname)


class FetchError(Exception):
    """A request that got no usable answer: refused, timed out, redirected too often or to
    something that is not http(s). The message says which, for a person."""


class Refusal(FetchError):
    """A request not made: its host is not one the user named, or its address is a special
    one (``validate.reach``). Reported as ``fetch-refused``."""


@dataclass
class Answer:
    """One response, its body not read yet: ``body()`` reads it, bounded."""

    url: str
    """The URL that answered (after the redirects followed, if any)."""
    status: int
    headers: urllib3.HTTPHeaderDict
    response: urllib3.BaseHTTPResponse
    client: Client
    hops: list[tuple[int, str]] = field(default_factory=list)
    """``(status, location)`` of each redirect followed on the way."""
    deadline: float = float("inf")
    """When the watchdog cuts this response (``RESPONSE_SECONDS`` after its request)."""
    _body: Body | None = None
    _closed: bool = False

    def header(self, name: str) -> str:
        return self.headers.get(name, "")

    def body(self, limit: int, seconds: float) -> Body:
        """The body, read at most to ``limit`` decoded bytes and for ``seconds`` from now."""
        if self._body is None:
            self._body = Body(self, limit, min(self.deadline, time.monotonic() + seconds))
        return self._body

    def close(self, drain: int = CHUNK) -> None:
        """Give the connection back; up to ``drain`` unread bytes are read first so that it
        can be reused (past that it is dropped: a big page costs a new connection, not its
        whole download)."""
        response = self.response
        if self._closed:
            return
        self._closed = True
        if time.monotonic() > self.deadline:
            drain = 0  # no time left to drain: the connection goes
        try:
            left = getattr(response, "length_remaining", None)  # 0 after a HEAD; None: not known
            if left is not None and left <= drain and not response.closed:
                while response.read(CHUNK, decode_content=False):
                    pass
            else:
                response.close()
        except (HTTPError, OSError):
            response.close()
        finally:
            self.client.watchdog.disarm(response.connection)
            response.release_conn()


class Client:
    """One pool per host for a run: a User-Agent naming sitemapkit, at most ``concurrency``
    connections per host, ``timeout`` seconds to connect and between two reads, each response
    cut ``RESPONSE_SECONDS`` timeouts after its request; requests only where ``reach`` allows."""

    def __init__(self, timeout: float = DEFAULT_TIMEOUT, concurrency: int = DEFAULT_CONCURRENCY,
                 reach: Reach | None = None, deadline: float = float("inf")) -> None:
        self.timeout = timeout
        self.concurrency = concurrency
        self.deadline = deadline
        """The run's deadline (``time.monotonic``; ``--max-time``): no fetch starts after it (one
        under way ends as any does, within its own total deadline)."""
        self.skipped = 0
        """Files and pages not fetched because the deadline had passed (``out_of_time``)."""
        self.reach = reach or Reach(frozenset(), frozenset())
        self.watchdog = Watchdog()
        self._pools: dict[tuple[str, str, int | None], urllib3.HTTPConnectionPool] = {}
        self._lock = threading.Lock()
        self.headers = {"User-Agent": USER_AGENT, "Accept-Encoding": "gzip"}

    def _pool(self, scheme: str, host: str, port: int | None) -> urllib3.HTTPConnectionPool:
        key = (scheme, host, port)
        with self._lock:
            pool = self._pools.get(key)
            if pool is None:
                pool = self._pools[key] = new_pool(
                    scheme, host, port, maxsize=self.concurrency, block=True, retries=False,
                    timeout=urllib3.Timeout(connect=self.timeout, read=self.timeout),
                    reach=self.reach, watchdog=self.watchdog, seconds=RESPONSE_SECONDS * self.timeout)
            return pool

    def out_of_time(self) -> bool:
        """Whether the run's deadline has passed; each caller that skips a fetch for it counts
        one in ``skipped``."""
        if time.monotonic() < self.deadline:
            return False
        with self._lock:
            self.skipped += 1
        return True

    def check(self, url: str) -> Destination:
        """``url`` read once (``reach.destination``), for ``request``: raises ``FetchError``
        for a URL that is not http(s), ``Refusal`` for one URL readers read differently or on
        a host the user did not name."""
        if not is_http(url):
            raise FetchError(f"{url} is not an http or https URL; only those are fetched")
        try:
            where = destination(url)
        except Unclear as why:
            raise Refusal(f"{ascii(url)[1:-1]} {why}; not requested") from None
        if not self.reach.allows(where):
            host = where.netloc
            raise Refusal(f"{url} is on {host}, not a host you named (the targets' hosts and "
                          f"--allow-host); not requested (to check it, add --allow-host {host})")
        return where

    def request(self, method: str, url: str | Destination, accept: str = "*/*") -> Answer:
        """One request, no redirect followed, to ``url`` as ``check`` reads it (or as it read
        it already); raises ``FetchError`` (``Refusal`` for a host the user did not name, a
        special address, or a URL read differently by different readers)."""
        where = url if isinstance(url, Destination) else self.check(url)
        started = time.monotonic()
        try:
            pool = self._pool(where.scheme, where.host, where.port)
            response = pool.urlopen(
                method, where.target, headers={**self.headers, "Accept": accept}, redirect=False,
                retries=False, preload_content=False, decode_content=False, assert_same_host=False,
            )
        except Refused as error:
            raise Refusal(f"{where.url}: {error}") from None
        except (LocationValueError, ValueError) as error:
            raise FetchError(f"{where.url} cannot be requested: {error}") from None
        except (HTTPError, OSError) as error:
            seconds = RESPONSE_SECONDS * self.timeout
            if time.monotonic() - started >= seconds:
                raise FetchError(f"no complete answer within {seconds:g} s (the total deadline)") from None
            raise FetchError(_why(error, self.timeout)) from None
        return Answer(where.url, response.status, response.headers, response, self,
                      deadline=started + RESPONSE_SECONDS * self.timeout)

    def fetch(self, url: str, accept: str = "*/*", method: str = "GET",
              first: Answer | None = None) -> Answer:
        """``request`` following up to ``MAX_REDIRECTS`` redirects, each to http(s) only;
        raises ``FetchError`` for a loop, one redirect too many, or another scheme.
        ``first``: the answer ``url`` already gave, when the caller has it."""
        hops: list[tuple[int, str]] = []
        start, seen = url, {url}
        where: str | Destination = url
        while True:
            answer = first or self.request(method, where, accept)
            first = None
            target = redirect_target(answer)
            if target is None:
                answer.hops = hops
                return answer
            answer.close()
            hops.append((answer.status, target))
            if not is_http(target):
                raise FetchError(f"{url} redirects ({answer.status}) to {target}, which is not an "
                                 "http or https URL; not followed")
            try:
                where = destination(target)
            except Unclear as why:
                raise Refusal(f"{url} redirects ({answer.status}) to {ascii(target)[1:-1]}, which {why}; "
                              "not followed") from None
            if not self.reach.allows(where):
                host = where.netloc
                raise Refusal(f"{url} redirects ({answer.status}) to {target}, on {host}, not a host "
                              f"you named; not followed (to follow it, add --allow-host {host})")
            if target in seen:
                raise FetchError(f"redirects in a loop: {start} {chain(hops)}")
            if len(hops) > MAX_REDIRECTS:
                raise FetchError(f"more than {MAX_REDIRECTS} redirects: {start} {chain(hops)}")
            seen.add(target)
            url = target

    def close(self) -> None:
        self.watchdog.stop()
        with self._lock:
            for pool in self._pools.values():
                pool.close()
            self._pools.clear()


def chain(hops: list[tuple[int, str]]) -> str:
    """``-301-> https://a/ -302-> https://b/``, for messages."""
    return " ".join(f"-{status}-> {location}" for status, location in hops)


def retry_after(answer: Answer) -> float | None:
    """Seconds a 429 or 503 answer's ``Retry-After`` asks to wait (RFC 9110, 10.2.3: a number
    of seconds or an HTTP date), or ``None``."""
    if answer.status not in (429, 503):
        return None
    value = answer.header("Retry-After").strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    return max(0.0, when.timestamp() - time.time()) if when.tzinfo is not None else None


def redirect_target(answer: Answer) -> str | None:
    """The absolute URL a 3xx answer points to, or ``None`` for any other answer."""
    if answer.status not in (301, 302, 303, 307, 308):
        return None
    location = answer.header("Location").strip()
    return urljoin(answer.url, location) if location else None


def _why(error: HTTPError, timeout: float) -> str:
    # urllib3's NewConnectionError is a ConnectTimeoutError too: asked about first
    if isinstance(error, urllib3.exceptions.NameResolutionError):
        return "the host name does not resolve"
    if isinstance(error, urllib3.exceptions.NewConnectionError):
        return "the connection was refused or could not be made"
    if isinstance(error, urllib3.exceptions.TimeoutError):
        return f"no answer within {timeout:g} s (timeout)"
    if isinstance(error, urllib3.exceptions.SSLError):
        return f"TLS failed: {error}"
    return f"the request failed: {error}"


def _content_length(headers: urllib3.HTTPHeaderDict) -> int | None:
    value = headers.get("Content-Length", "")
    return int(value) if value.isdigit() else None


class Body:
    """A response body as a file to read from: Content-Encoding (gzip or deflate) undone in
    steps that never inflate more than asked for, at most ``limit`` decoded bytes, and no read
    after ``deadline`` (a server that trickles a byte every few seconds is cut off too). A
    network fault ends the data and sets ``error``; the readers report it."""

    def __init__(self, answer: Answer, limit: int, deadline: float) -> None:
        self.answer = answer
        self.limit = limit
        self.deadline = deadline
        self.size = _content_length(answer.headers) or 0
        self.raw_bytes = 0
        self.decoded = 0
        self.error: str | None = None
        self._buffer = bytearray()
        self._pending = b""
        self._eof = False
        coding = answer.header("Content-Encoding").strip().lower()
        self._inflate = None
        if coding in ("gzip", "x-gzip"):
            self._inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
        elif coding == "deflate":
            self._inflate = zlib.decompressobj()
        elif coding not in ("", "identity"):
            self.error = f"the server sent Content-Encoding: {coding}, which was not asked for"
            self._eof = True

    def _pull(self, want: int) -> None:
        while len(self._buffer) < want and not self._eof:
            if self.decoded >= self.limit:
                self._eof = True
                return
            room = min(want - len(self._buffer), self.limit - self.decoded)
            if self._inflate is not None and self._pending:
                data = self._inflate.decompress(self._pending, room)
                self._pending = self._inflate.unconsumed_tail
                self._take(data)
                continue
            if time.monotonic() > self.deadline:
                self.error = "the transfer took too long (stopped)"
                self._eof = True
                return
            try:  # read1: what has come, so a trickle is stopped at the deadline
                raw = self.answer.response.read1(CHUNK, decode_content=False)
            except HTTPError as error:
                self.error = self._broke(_why(error, self.answer.client.timeout))
                self._eof = True
                return
            except OSError as error:
                self.error = self._broke(str(error))
                self._eof = True
                return
            if not raw and time.monotonic() >= self.answer.deadline:
                self.error = self._broke("")
                self._eof = True
                return
            if not raw:
                self._eof = True
                if self._inflate is not None and not self._inflate.eof:
                    self.error = "the Content-Encoding data is cut short"
                return
            self.raw_bytes += len(raw)
            if self._inflate is None:
                left = self.limit - self.decoded
                self._take(raw[:left])
                if len(raw) > left:
                    self._eof = True
            else:
                try:
                    data = self._inflate.decompress(raw, room)
                except zlib.error as error:
                    self.error = f"the Content-Encoding data is corrupt: {error}"
                    self._eof = True
                    return
                self._pending = self._inflate.unconsumed_tail
                self._take(data)

    def _broke(self, why: str) -> str:
        if time.monotonic() >= min(self.deadline, self.answer.deadline):
            return "the transfer took too long (stopped)"
        return f"the transfer broke off: {why}"

    def _take(self, data: bytes) -> None:
        self._buffer += data
        self.decoded += len(data)

    def peek(self, size: int) -> bytes:
        self._pull(size)
        return bytes(self._buffer[:size])

    def read(self, size: int = -1) -> bytes:
        size = CHUNK if size is None or size < 0 else size
        self._pull(size)
        data = bytes(self._buffer[:size])
        del self._buffer[:size]
        return data

    def tell(self) -> int:
        return self.raw_bytes

    def close(self) -> None:
        """Done reading: the connection goes back (dropped when the body is not all read)."""
        self.answer.close()

    @property
    def complete(self) -> bool:
        return self._eof and not self._buffer and self.error is None
