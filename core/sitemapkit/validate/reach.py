"""Where ``validate URL`` and ``--check-pages`` may connect, and for how long.

Fetching stays where the user pointed it: a request goes only to a host the user named (a URL
target's, or one given with ``--allow-host``), whatever a fetched file, a redirect or a
sitemap names. And a connection is made only to an address that is no special one (loopback,
private, link-local, unspecified, multicast, reserved, shared...) unless the user's own named
hosts resolve to it: a public name that resolves to ``127.0.0.1`` or ``169.254.169.254`` later
(DNS rebinding) is refused. The check is on the address actually connected to: the connection
resolves the name itself, connects to an address it checked, and checks the socket's peer.

A URL is read once (``destination``: urllib3's ``parse_url``, the reading the connection
itself makes), and the allow check, the address check and the connection all take that one
reading. A URL that URL readers read differently (a backslash, which browsers take for a
``/`` and ``urlsplit`` for part of the host; a space or control character; user info before
the host, where ``@`` decides which host is meant) is never requested: refused, not
normalised into something else.

Every response has a total deadline from the moment its request starts, whatever the
server's pace: one ``Watchdog`` thread per client shuts the socket of a response that is past
it, which ends any read under way.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass

from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import ConnectTimeoutError, LocationParseError, NameResolutionError, NewConnectionError
from urllib3.util import parse_url

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Authority = tuple[str, int | None]
"""``(host name, port)``, the port ``None`` for 80 and 443, the default ports of ``http`` and
``https``: a host on its usual ports is one host, whichever scheme names it."""


class Refused(Exception):
    """A connection not made: the address is a special one the user did not name."""


class Unclear(ValueError):
    """A URL that URL readers read differently, or that names no http(s) host: not requested."""


@dataclass(frozen=True, slots=True)
class Destination:
    """A URL as the connection reads it: what is checked is what is connected to."""

    url: str
    scheme: str
    host: str
    """As urllib3 reads it (lower case, an IPv6 literal in brackets)."""
    port: int | None
    target: str
    """The path and query, as sent in the request line."""

    @property
    def authority(self) -> Authority:
        host = self.host.strip("[]").rstrip(".")
        return host, None if self.port in (None, 80, 443) else self.port

    @property
    def netloc(self) -> str:
        return self.host if self.port is None else f"{self.host}:{self.port}"


def destination(url: str) -> Destination:
    """``url`` read once, as the connection reads it (urllib3's ``parse_url``); raises
    ``Unclear`` for a URL that other readers would read otherwise, or that names no host."""
    odd = next((c for c in url if c == "\\" or c.isspace() or ord(c) < 32 or c == "\x7f"), None)
    if odd is not None:
        what = "a backslash" if odd == "\\" else f"the character {odd!r}"
        raise Unclear(f"holds {what}, which URL readers (browsers, Python, urllib3) read differently")
    try:
        parts = parse_url(url)
    except LocationParseError as error:
        raise Unclear(f"cannot be read as a URL ({error})") from None
    if parts.auth is not None:
        raise Unclear("holds user info ('...@') before its host, which URL readers split at different '@'s")
    if (parts.scheme or "").lower() not in ("http", "https") or not parts.host:
        raise Unclear("is not an http or https URL with a host")
    return Destination(url, parts.scheme.lower(), parts.host.lower(), parts.port, parts.request_uri)


def authority(url: str) -> Authority | None:
    """The host and port ``url`` is on, or ``None`` when it names none (or is ``Unclear``)."""
    try:
        return destination(url).authority
    except Unclear:
        return None


def parse_host(text: str) -> Authority | None:
    """``--allow-host``'s value, ``HOST`` or ``HOST:PORT`` (``[v6]:PORT``), as an authority."""
    if not text or any(c in text for c in "/?#@ \t"):
        return None
    return authority("http://" + text.strip())


def is_special(ip: Address) -> bool:
    """Whether ``ip`` is no public unicast address: loopback, private, link-local (with
    169.254.169.254, the cloud metadata address), unspecified, multicast, reserved, shared
    or documentation ranges (``ipaddress``'s own tables)."""
    mapped = getattr(ip, "ipv4_mapped", None)
    if mapped is not None:
        return is_special(mapped)
    return (ip.is_loopback or ip.is_private or ip.is_link_local or ip.is_unspecified
            or ip.is_multicast or ip.is_reserved or not ip.is_global)


def _address(text: str) -> Address | None:
    try:
        return ipaddress.ip_address(text.split("%", 1)[0])  # an IPv6 zone id aside
    except ValueError:
        return None


@dataclass(frozen=True, slots=True)
class Reach:
    """The hosts requests may go to, and the special addresses connections may be made to
    (those the named hosts resolved to when the run began)."""

    hosts: frozenset[Authority]
    addresses: frozenset[Address]

    def allows(self, where: Destination) -> bool:
        return where.authority in self.hosts

    def admits(self, ip: Address | None) -> bool:
        return ip is not None and (not is_special(ip) or ip in self.addresses)


def reach_of(urls: Iterable[str], allowed: Iterable[str] = (), site: str | None = None) -> Reach:
    """The reach of a run: the hosts of ``urls`` (the URL targets) and of ``allowed``
    (``--allow-host`` values), each resolved once for the special addresses it stands for;
    and the host of ``site`` (the first URL local sitemaps list), whose address counts for
    nothing: a sitemap file does not make a private address the user's own."""
    hosts = {found for found in map(authority, urls) if found is not None}
    hosts |= {found for found in map(parse_host, allowed) if found is not None}
    named = set(hosts)
    if site is not None and (found := authority(site)) is not None:
        hosts.add(found)
    addresses: set[Address] = set()
    for host, port in named:
        literal = _address(host)
        if literal is not None:
            addresses.add(literal)
            continue
        try:
            infos = socket.getaddrinfo(host, port or 80, type=socket.SOCK_STREAM)
        except (OSError, UnicodeError):
            continue  # it does not resolve now: nothing special is allowed for it
        addresses.update(ip for *_, address in infos if (ip := _address(address[0])) is not None)
    return Reach(frozenset(hosts), frozenset(ip for ip in addresses if is_special(ip)))


def open_checked(reach: Reach, host: str, port: int, timeout: float | None,
                 options: Iterable[tuple[int, int, int]] = ()) -> socket.socket:
    """A socket connected to ``host``: resolved here, each address checked before connecting
    and the peer checked after; raises ``Refused`` when every address is refused."""
    refused: list[str] = []
    error: OSError | None = None
    for family, kind, proto, _, address in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM):
        if not reach.admits(_address(address[0])):
            refused.append(address[0])
            continue
        sock = socket.socket(family, kind, proto)
        try:
            for option in options:
                sock.setsockopt(*option)
            sock.settimeout(timeout)
            sock.connect(address)
            peer = sock.getpeername()[0]
        except OSError as failed:
            sock.close()
            error = failed
            continue
        if not reach.admits(_address(peer)):
            sock.close()
            refused.append(peer)
            continue
        return sock
    if error is not None:
        raise error
    raise Refused(f"{host} resolves to {', '.join(dict.fromkeys(refused))}, a loopback, private, "
                  "link-local or other special address that no host you named resolves to; "
                  "not connected")


class Watchdog:
    """One thread that shuts the socket of each connection past its deadline. It sleeps until
    the earliest deadline, and is woken only by one earlier than that (deadlines come in order,
    so a busy crawl does not wake it per request)."""

    def __init__(self) -> None:
        self._due: dict[_Guarded, float] = {}
        self._wake = threading.Condition()
        self._wake_at = float("inf")
        self._thread: threading.Thread | None = None
        self._stopped = False

    def arm(self, connection: _Guarded, deadline: float) -> None:
        with self._wake:
            self._due[connection] = deadline
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="sitemapkit-deadline", daemon=True)
                self._thread.start()
            elif deadline < self._wake_at:
                self._wake.notify()

    def disarm(self, connection: object) -> None:
        with self._wake:
            self._due.pop(connection, None)  # type: ignore[call-overload]

    def stop(self) -> None:
        with self._wake:
            self._stopped = True
            self._due.clear()
            self._wake.notify()
        if self._thread is not None:
            self._thread.join()

    def _run(self) -> None:
        with self._wake:
            while not self._stopped:
                now = time.monotonic()
                for connection in [c for c, due in self._due.items() if due <= now]:
                    del self._due[connection]
                    connection.cut()
                self._wake_at = min(self._due.values(), default=now + 60)
                self._wake.wait(self._wake_at - now)


class _Guarded(HTTPConnection):
    """An HTTP connection that connects only where ``reach`` admits, and whose every request
    is cut ``seconds`` after it starts."""

    def __init__(self, *args, reach: Reach, watchdog: Watchdog, seconds: float, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.reach = reach
        self.watchdog = watchdog
        self.seconds = seconds

    def _new_conn(self) -> socket.socket:
        timeout = self.timeout if isinstance(self.timeout, int | float) else None
        try:
            return open_checked(self.reach, self._dns_host, self.port, timeout, self.socket_options or ())
        except socket.gaierror as error:
            raise NameResolutionError(self.host, self, error) from error
        except TimeoutError as error:
            raise ConnectTimeoutError(self, f"connecting to {self.host} timed out") from error
        except OSError as error:
            raise NewConnectionError(self, f"cannot connect: {error}") from error

    def request(self, *args, **kwargs) -> None:
        self.watchdog.arm(self, time.monotonic() + self.seconds)
        super().request(*args, **kwargs)

    def cut(self) -> None:
        sock = self.sock
        if sock is not None:
            with contextlib.suppress(OSError):  # already closed
                sock.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        self.watchdog.disarm(self)
        super().close()


class _GuardedTLS(_Guarded, HTTPSConnection):
    pass


class _Pool(HTTPConnectionPool):
    ConnectionCls = _Guarded


class _TLSPool(HTTPSConnectionPool):
    ConnectionCls = _GuardedTLS


def new_pool(scheme: str, host: str, port: int | None, **kwargs) -> HTTPConnectionPool:
    """A connection pool for one host whose connections are ``_Guarded`` (``kwargs``: the
    pool's, and ``reach``, ``watchdog`` and ``seconds`` for its connections)."""
    return (_TLSPool if scheme == "https" else _Pool)(host, port, **kwargs)
