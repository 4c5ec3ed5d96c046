"""``validate URL`` and ``--check-pages`` fetch only where the user pointed them.

Real HTTP servers on 127.0.0.1 (``tests/fault_server.py``) serve a site whose robots.txt,
index, redirects and listed pages name other hosts: a second server holding a secret, the
cloud metadata address 169.254.169.254, another loopback address. Those are reported
(``fetch-refused``), never requested; nothing of the secret is printed. A host the user names
with ``--allow-host`` is fetched. In-process runs record every socket connect, so it is
seen that no connection to any address but 127.0.0.1 is ever attempted (none leaves the
machine), and that a name resolving to a special address the user did not name (DNS
rebinding) is refused on the address, before any connection.
"""

from __future__ import annotations

import ipaddress
import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from fault_server import FaultServer, body, redirect
from fault_server import index_of as _index
from fault_server import urlset_of as _urlset

from sitemapkit.validate.crawl import Live
from sitemapkit.validate.reach import Reach, is_special, reach_of
from sitemapkit.validate.targets import run_targets

pytestmark = pytest.mark.slow  # real HTTP servers on 127.0.0.1 (make test-fast leaves them out)

SITEMAPKIT = [sys.executable, "-m", "sitemapkit"]
SECRET = "SECRET_METADATA_TOKEN=s3cr3t-0123456789abcdef"
NOTHING = Reach(frozenset(), frozenset())
"""No host named: no special address allowed (no lookup made)."""
METADATA = "http://169.254.169.254/latest/meta-data/iam/security-credentials/"


def _validate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*SITEMAPKIT, "validate", *args, "--timeout", "2"],
                          capture_output=True, text=True, timeout=120)


PAGE = b"<!doctype html><html><head><title>A</title></head><body>a</body></html>"


@pytest.fixture
def connects(monkeypatch: pytest.MonkeyPatch) -> list[tuple]:
    """Every address a socket of this process connects to; any but 127.0.0.1 fails the test
    at once, before a packet is sent."""
    seen: list[tuple] = []
    real = socket.socket.connect

    def connect(self, address):
        seen.append(address)
        if not (isinstance(address, tuple) and address[0] == "127.0.0.1"):
            raise AssertionError(f"a connection to {address} was attempted")
        return real(self, address)

    monkeypatch.setattr(socket.socket, "connect", connect)
    return seen


def test_a_sitemap_line_to_another_host_is_reported_not_fetched() -> None:
    with FaultServer() as inner, FaultServer() as site:
        inner.routes["/secret.txt"] = body((SECRET + "\n").encode() * 20, "text/plain")
        elsewhere = inner.url("localhost") + "secret.txt"
        site.routes["/robots.txt"] = body(
            f"User-agent: *\nDisallow:\nSitemap: {site.url()}sitemap.xml\nSitemap: {elsewhere}\n".encode(),
            "text/plain")
        site.routes["/sitemap.xml"] = body(_urlset(site.url() + "a/"), "application/xml")
        result = _validate(site.url() + "robots.txt", "--format", "json")
        strict = _validate(site.url() + "robots.txt", "--strict")
    report = json.loads(result.stdout)
    assert inner.requests == []  # the second server was never asked
    assert "s3cr3t" not in result.stdout + result.stderr + strict.stdout + strict.stderr
    found = [(p["file"], p["line"], p["rule"], p["severity"]) for p in report["problems"]]
    assert found == [(site.url() + "robots.txt", 4, "fetch-refused", "warning")]
    assert "not a host you named" in report["problems"][0]["message"]
    assert f"--allow-host localhost:{inner.port}" in report["problems"][0]["message"]
    assert (result.returncode, strict.returncode) == (0, 1)


def test_allow_host_fetches_it_and_a_body_that_is_no_sitemap_is_one_problem() -> None:
    with FaultServer() as inner, FaultServer() as site:
        inner.routes["/secret.txt"] = body((SECRET + "\n").encode() * 20, "text/plain")
        site.routes["/robots.txt"] = body(
            f"User-agent: *\nSitemap: {inner.url('localhost')}secret.txt\n".encode(), "text/plain")
        result = _validate(site.url() + "robots.txt", "--allow-host", f"localhost:{inner.port}",
                           "--format", "json")
    report = json.loads(result.stdout)
    assert inner.paths() == ["/secret.txt"]
    assert [p["rule"] for p in report["problems"]] == ["not-a-sitemap"]  # once, not 20 txt-line
    assert "s3cr3t" not in result.stdout + result.stderr
    assert result.returncode == 1


def test_allow_host_takes_a_host_name_only() -> None:
    result = _validate("http://127.0.0.1:9/sitemap.xml", "--allow-host", "http://x/")
    assert result.returncode == 2
    assert "--allow-host: 'http://x/' is not a host name" in result.stderr


def test_a_text_sitemap_line_is_quoted_short_and_escaped() -> None:
    """What a server sends reaches the terminal as at most 60 characters, control characters
    escaped: no escape sequence from a fetched file is ever printed as such."""
    hostile = "\x1b]0;owned\x07\x1b[2J" + "A" * 500
    with FaultServer() as site:
        site.routes["/list.txt"] = body(f"{site.url()}a/\n{hostile}\n{site.url()}\x1b[2Jb/\n".encode(),
                                        "text/plain")
        result = _validate(site.url() + "list.txt")
        report = json.loads(_validate(site.url() + "list.txt", "--format", "json").stdout)
    assert [(p["line"], p["rule"]) for p in report["problems"]] == [(2, "txt-line"), (3, "loc-escaping")]
    assert "\x1b" not in result.stdout + result.stderr and "\x07" not in result.stdout
    assert "'\\x1b]0;owned\\x07\\x1b[2J" in result.stdout
    assert "A" * 61 not in result.stdout


def test_redirects_index_children_and_pages_elsewhere_are_never_connected_to(connects) -> None:
    """The target is localhost (the user's own, so its loopback address is allowed); the
    metadata address and another loopback address, named by a redirect, an index, robots.txt
    and the listed pages, get no connection at all."""
    with FaultServer() as inner, FaultServer() as site:
        inner.routes["/secret.txt"] = body(SECRET.encode(), "text/plain")
        own = site.url("localhost")
        other = f"http://127.0.0.2:{inner.port}/secret.txt"
        site.routes.update({
            "/robots.txt": body(f"User-agent: *\nSitemap: {other}\n".encode(), "text/plain"),
            "/sitemap.xml": body(_index(own + "pages.xml", METADATA, own + "moved.xml"), "application/xml"),
            "/moved.xml": redirect(METADATA),
            "/pages.xml": body(_urlset(own + "a/", own + "away/", "http://169.254.169.254/latest/"),
                               "application/xml"),
            "/a/": body(PAGE),
            "/away/": redirect(other, 301),
        })
        session = run_targets([own + "robots.txt", own + "sitemap.xml"], None, None,
                              Live(check_pages=True, timeout=2))
    assert inner.requests == []
    assert {address for address in connects} == {("127.0.0.1", site.port)}
    rules = [(p.where, p.line, p.rule) for p in session.problems]
    assert (own + "robots.txt", 2, "fetch-refused") in rules
    assert (own + "sitemap.xml", 4, "fetch-refused") in rules  # the metadata child
    assert (own + "sitemap.xml", 5, "fetch-refused") in rules  # the child that redirects there
    assert (own + "pages.xml", 5, "fetch-refused") in rules  # a listed page there
    said = {(p.line, p.rule): p.message for p in session.problems if p.where == own + "pages.xml"}
    assert "redirects (301) to " + other in said[(4, "page-redirect")]
    assert "not followed" in said[(4, "page-redirect")]
    assert session.pages == 2
    assert sorted(site.paths()) == ["/a/", "/away/", "/moved.xml", "/pages.xml", "/robots.txt",
                                    "/robots.txt", "/sitemap.xml"]
    assert not any(SECRET in p.message for p in session.problems)


def test_a_name_that_turns_into_a_loopback_address_is_refused(connects, monkeypatch) -> None:
    """DNS rebinding: rebind.test resolves to a public address when the run starts and to
    127.0.0.1 (where a server waits) when the connection is made: refused on the address."""
    real = socket.getaddrinfo
    lookups: list[str] = []

    def getaddrinfo(host, port, *args, **kwargs):
        if host != "rebind.test":
            return real(host, port, *args, **kwargs)
        address = "93.184.215.14" if not lookups else "127.0.0.1"  # public first, then loopback
        lookups.append(address)
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port or 80))]

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    with FaultServer() as site:
        site.routes["/sitemap.xml"] = body(_urlset(site.url() + "a/"), "application/xml")
        session = run_targets([f"http://rebind.test:{site.port}/sitemap.xml"], None, None, Live(timeout=2))
    assert lookups == ["93.184.215.14", "127.0.0.1"]
    assert site.requests == [] and connects == []
    (problem,) = session.problems
    assert problem.rule == "unreadable"
    assert "resolves to 127.0.0.1" in problem.message and "special address" in problem.message


def test_local_sitemap_pages_at_a_loopback_address_need_allow_host(tmp_path: Path) -> None:
    """A local sitemap's host is its site's, but a sitemap file does not make a loopback
    address the user's own: named with --allow-host, it is requested."""
    with FaultServer() as site:
        site.routes["/a/"] = body(PAGE)
        site.routes["/robots.txt"] = body(b"User-agent: *\nDisallow:\n", "text/plain")
        sitemap = tmp_path / "sitemap.xml"
        sitemap.write_bytes(_urlset(site.url("localhost") + "a/"))
        refused = _validate(str(sitemap), "--check-pages", "--format", "json")
        requests = list(site.requests)
        allowed = _validate(str(sitemap), "--check-pages", "--allow-host", f"localhost:{site.port}")
    assert requests == []
    report = json.loads(refused.stdout)
    assert [p["rule"] for p in report["problems"]] == ["fetch-refused"]
    assert "resolves to 127.0.0.1" in report["problems"][0]["message"]
    assert refused.returncode == 0
    assert allowed.returncode == 0, allowed.stdout
    assert "/a/" in site.paths()


@pytest.mark.parametrize("address", ["127.0.0.1", "127.0.0.2", "10.1.2.3", "172.16.0.1", "192.168.1.1",
                                     "169.254.169.254", "100.64.0.1", "0.0.0.0", "224.0.0.251",
                                     "240.0.0.1", "255.255.255.255", "::1", "::", "fe80::1", "fc00::1",
                                     "ff02::1", "::ffff:127.0.0.1", "::ffff:169.254.169.254"])
def test_special_addresses_are_refused_unless_named(address: str) -> None:
    ip = ipaddress.ip_address(address)
    assert is_special(ip)
    assert not NOTHING.admits(ip)  # no named host resolves to it
    assert reach_of([f"http://[{address}]/" if ":" in address else f"http://{address}/"]).admits(ip)


@pytest.mark.parametrize("address", ["93.184.215.14", "8.8.8.8", "2606:4700:4700::1111"])
def test_public_addresses_are_admitted(address: str) -> None:
    ip = ipaddress.ip_address(address)
    assert not is_special(ip) and NOTHING.admits(ip)
