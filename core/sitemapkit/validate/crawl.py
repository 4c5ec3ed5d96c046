"""``validate --check-pages``: each listed URL requested as a crawler would, politely.

A page is requested once, whatever sitemaps list it, and only when the site's robots.txt
lets sitemapkit in (RFC 9309, read by protego: longest match and ``*``/``$`` patterns, as
search engines read it, which ``urllib.robotparser`` does not). A URL whose name says it is
no HTML page (``.pdf``, images...) gets a HEAD; a page gets a GET of which only the head is
read (at most ``HEAD_CAP`` bytes, in time linear in them), and the connection is kept when
little is left to drain. Only pages on the hosts the user named are requested (``reach``);
``Crawl-delay`` and a 429 or 503's ``Retry-After`` are honoured up to ``MAX_WAIT`` seconds.
The findings use the rule ids of ``--site-dir`` where the fault is the same (``page-noindex``,
``page-canonical``, ``page-blocked``, ``page-not-a-page``); the workers only request and read,
and the main thread reports, so the findings need no lock.
"""

from __future__ import annotations

import contextlib
import random
import re
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass

from sitemapkit.protocol import ERROR, HTML_READ_BYTES
from sitemapkit.return_links import ReturnLinks
from sitemapkit.site.extract import read_head_html
from sitemapkit.site.markup import head_end_mark
from sitemapkit.site.pages import not_a_page
from sitemapkit.urls import URLError, encode_url, resolve
from sitemapkit.validate.fetch import (
    DEFAULT_CONCURRENCY,
    DEFAULT_MAX_TIME,
    DEFAULT_TIMEOUT,
    MAX_WAIT,
    ROBOTS_TOKEN,
    Answer,
    Client,
    FetchError,
    Refusal,
    chain,
    redirect_target,
    retry_after,
)
from sitemapkit.validate.findings import Findings
from sitemapkit.validate.glance import Answers
from sitemapkit.validate.hosts import HostRobots, Pace
from sitemapkit.validate.reach import Destination
from sitemapkit.validate.session import origin_of

HEAD_CAP = HTML_READ_BYTES
"""Bytes of a page read at most to find the end of its head: what Googlebot reads of a page."""
DRAIN = 256 * 1024
"""Bytes left unread after the head that are still read, to keep the connection."""
_NOT_HTML = re.compile(
    r"\.(pdf|png|jpe?g|gif|webp|avif|svg|ico|zip|gz|tgz|bz2|xz|mp[34]|webm|ogg|wav|docx?|xlsx?|"
    r"pptx?|od[tsp]|epub|txt|csv|json|xml|rss|atom)$", re.IGNORECASE)
_HTML_TYPES = ("text/html", "application/xhtml+xml")
_VALUED = frozenset({"unavailable_after", "max-snippet", "max-image-preview", "max-video-preview"})
_CANONICAL_LINK = re.compile(r"""<([^>]*)>\s*;[^,]*?\brel\s*=\s*"?[^",]*\bcanonical\b""", re.IGNORECASE)
_ACCEPT_HTML = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8"

PageFinding = tuple[str, str, str | None]
"""``(rule, message, severity or None for the rule's own)``."""


@dataclass
class Live:
    """What ``--check-pages`` asks: how many pages, how many at a time, how long to wait."""

    check_pages: bool = False
    sample: int | None = None
    concurrency: int = DEFAULT_CONCURRENCY
    timeout: float = DEFAULT_TIMEOUT
    progress: Callable[[int, int], None] | None = None
    """``progress(pages_done, pages_total)``, called as pages are checked."""
    allow_hosts: tuple[str, ...] = ()
    """``--allow-host`` values: hosts besides the targets' that may be requested."""
    max_time: float = DEFAULT_MAX_TIME
    """``--max-time``: seconds the whole run may fetch for; what is left then is not fetched,
    and one ``max-time`` problem says how much."""


class Listed:
    """The URLs the checked sitemaps list, each once (the first listing: its file and line);
    with ``sample``, a uniform random sample of that many (reservoir sampling), so memory
    is bounded by the sample, not by the site."""

    def __init__(self, sample: int | None = None) -> None:
        self.sample = sample
        self.items: list[tuple[int, int, str]] = []
        self.count = 0
        self._seen: set[int] = set()
        self._random = random.Random()

    def __call__(self, number: int, line: int, loc: str) -> None:
        key = hash(loc)
        if key in self._seen:
            return
        self._seen.add(key)
        self.count += 1
        if self.sample is None or len(self.items) < self.sample:
            self.items.append((number, line, loc))
        else:
            slot = self._random.randrange(self.count)
            if slot < self.sample:
                self.items[slot] = (number, line, loc)


@dataclass
class PageResult:
    findings: list[PageFinding]
    alternates: tuple[tuple[str, str], ...] | None = None
    """``(hreflang, href)`` of the page's head; ``None`` when its head was not read."""
    status: int | None = None
    """The HTTP status the page answered (a redirect's own); ``None``: no answer, or not
    requested (``requested`` False)."""
    requested: bool = True


def check_pages(findings: Findings, client: Client, live: Live, listed: Listed) -> Answers:
    """Request the listed pages; report their problems in ``findings``. Returns how many were
    requested and what they answered."""
    pages = sorted(listed.items)
    robots = HostRobots(findings, client)
    heads: dict[str, tuple[int, int, tuple[tuple[str, str], ...]]] = {}
    done = requested = unreachable = not_requested = 0
    statuses: dict[int, int] = {}
    running: dict[Future[PageResult], tuple[int, int, str]] = {}

    def tick() -> None:
        nonlocal done
        done += 1
        if live.progress is not None:
            live.progress(done, len(pages))

    def finish(future: Future[PageResult]) -> None:
        nonlocal unreachable, not_requested
        number, line, loc = running.pop(future)
        result = future.result()
        for rule, message, severity in result.findings:
            findings.add(findings.files[number], line, rule, message, severity)
        if result.alternates is not None:
            heads[_same(loc)] = (number, line, result.alternates)
        if result.status is not None:
            statuses[result.status] = statuses.get(result.status, 0) + 1
        elif result.requested:
            unreachable += 1
        else:
            not_requested += 1
        tick()

    with ThreadPoolExecutor(max_workers=live.concurrency, thread_name_prefix="sitemapkit") as pool:
        for number, line, loc in pages:
            if client.out_of_time():  # counted: one max-time problem says how many
                not_requested += 1
                tick()
                continue
            refused: tuple[str, ...] | None = None
            try:
                where = client.check(loc)  # read once: what is checked is what is requested
            except FetchError as error:
                refused = ("fetch-refused", str(error))
            else:
                if (rules := robots.rules(origin_of(loc))) is None:
                    refused = ()  # the host's robots.txt keeps every crawler out: said once, by HostRobots
                elif not rules.can_fetch(loc, ROBOTS_TOKEN):
                    refused = ("page-blocked", f"{loc} is listed but robots.txt disallows crawling it; search "
                               "engines will report it as blocked (not requested)")
            if refused is not None:
                if refused:
                    findings.add(findings.files[number], line, *refused)
                not_requested += 1
                tick()
                continue
            requested += 1
            future = pool.submit(check_page, client, where, robots.pace(origin_of(loc)))
            running[future] = (number, line, loc)
            while len(running) >= 2 * live.concurrency:
                for future in wait(running, return_when=FIRST_COMPLETED).done:
                    finish(future)
        while running:
            for future in wait(running, return_when=FIRST_COMPLETED).done:
                finish(future)
    _return_links(findings, heads)
    return Answers(requested, tuple(sorted(statuses.items())), unreachable, not_requested)


def _return_links(findings: Findings, heads: dict[str, tuple[int, int, tuple[tuple[str, str], ...]]]) -> None:
    """Each hreflang alternate a page's head names must name the page back, where that
    alternate's head was read too (a page not listed, or not sampled, is not fetched for it):
    the check a sitemap's alternates get (``return_links``), on the heads."""
    read: set[int] = set()  # the heads checked so far
    returns: ReturnLinks[tuple[int, int, str, tuple[tuple[str, str], ...]]] = ReturnLinks(read.__contains__)
    for loc, (number, line, alternates) in heads.items():
        decided, _ = returns.add(loc, [_same(href) for _, href in alternates], (number, line, loc, alternates))
        for (source_number, source_line, source, named), index, returned in decided:
            if not returned:
                code, href = named[index]
                findings.add(findings.files[source_number], source_line, "page-hreflang-return",
                             f"{source} names {href} as its hreflang=\"{code}\" alternate, but {href} "
                             f"does not link back to {source}; search engines ignore one-way hreflang")
        read.add(hash(loc))


def _same(url: str) -> str:
    with contextlib.suppress(URLError):
        return encode_url(url)
    return url


def check_page(client: Client, page: str | Destination, pace: Pace | None = None) -> PageResult:
    """What a crawler finds at ``loc``: status, redirect, noindex (X-Robots-Tag or robots
    meta), canonical (Link header or link element), hreflang alternates, no-page markers.
    A 429 or 503 with a ``Retry-After`` up to ``MAX_WAIT`` is asked once more after it."""
    pace = pace or Pace()
    pace.wait()
    waited: list[PageFinding] = []
    loc = page.url if isinstance(page, Destination) else page
    try:
        where = page if isinstance(page, Destination) else client.check(page)
        method = "HEAD" if _NOT_HTML.search(where.target.partition("?")[0]) else "GET"
        answer = client.request(method, where, _ACCEPT_HTML)
        if method == "HEAD" and answer.status in (405, 501):  # no HEAD here: ask again
            answer.close()
            method = "GET"
            answer = client.request(method, where, _ACCEPT_HTML)
        delay = retry_after(answer)
        if delay is not None and delay <= MAX_WAIT:
            answer.close()
            pace.hold(delay)
            pace.wait()
            answer = client.request(method, where, _ACCEPT_HTML)
        elif delay is not None:
            waited.append(("wait-capped", f"{loc} answered HTTP {answer.status} with Retry-After: "
                           f"{delay:g} s, longer than sitemapkit waits ({MAX_WAIT:g} s); not asked "
                           "again", None))
    except Refusal as error:
        return PageResult([("fetch-refused", f"{loc} was not requested: {error}", None)], requested=False)
    except FetchError as error:
        return PageResult([("page-unreachable", f"{loc} cannot be fetched: {error}", None)])
    try:
        result = _answered(client, loc, method, answer)
        return PageResult(waited + result.findings, result.alternates, answer.status)
    finally:
        answer.close(DRAIN)


def _answered(client: Client, loc: str, method: str, answer: Answer) -> PageResult:
    if redirect_target(answer) is not None:
        return PageResult([_redirect(client, loc, answer)])
    if answer.status != 200:
        reason = answer.response.reason or ""
        return PageResult([("page-status", f"{loc} answered HTTP {answer.status} {reason}".rstrip()
                            + "; a listed URL must answer 200", None)])
    found: list[PageFinding] = []
    header = _header_noindex(answer.header("X-Robots-Tag"))
    if header:
        found.append(("page-noindex", f"{loc} is listed but answers X-Robots-Tag: {header}; list "
                      "only pages you want indexed", None))
        return PageResult(found)
    canonical = _link_canonical(answer.header("Link"), loc)
    kind = answer.header("Content-Type").split(";")[0].strip().lower()
    alternates = None
    if method == "GET" and kind in _HTML_TYPES:
        head, error = _read_head(answer, client.timeout)
        if error is not None:
            return PageResult([("page-unreachable", f"{loc}: {error}", None)])
        facts = read_head_html(head, loc)
        alternates = facts.alternates
        canonical = canonical or facts.canonical
        why = not_a_page(facts.head)
        if why is not None:
            found.append(("page-not-a-page", f"{loc} is listed but is no page ({why}); list only "
                          "the pages people should land on", None))
            return PageResult(found, alternates)
        if facts.noindex:
            found.append(("page-noindex", f"{loc} is listed but says noindex in its robots meta; "
                          "list only pages you want indexed", None))
            return PageResult(found, alternates)
    if canonical is not None and _same(canonical) != _same(loc):
        found.append(("page-canonical", f"{loc} is listed but names {canonical} as its canonical "
                      "URL; list the canonical URL instead", None))
    return PageResult(found, alternates)


def _redirect(client: Client, loc: str, answer: Answer) -> PageFinding:
    """``page-redirect``, naming where the redirects end (followed by HEAD, up to 5)."""
    try:
        final = client.fetch(loc, method="HEAD", first=answer)
    except Refusal as error:
        return "page-redirect", f"{loc} is listed but {error}", None
    except FetchError as error:
        return "page-redirect", f"{loc} is listed but {error}", ERROR
    final.close()
    status = "" if final.status in (200, 405, 501) else f", which answers {final.status}"
    hops = final.hops
    how = f"({hops[0][0]})" if len(hops) == 1 else f"in {len(hops)} hops ({loc} {chain(hops)})"
    return ("page-redirect", f"{loc} is listed but redirects {how} to {final.url}{status}; list the "
            "URL it ends at instead", None)


def _read_head(answer: Answer, timeout: float) -> tuple[bytes, str | None]:
    """The page up to the end of its head (at most ``HEAD_CAP`` bytes), or the fault."""
    body = answer.body(HEAD_CAP, 3 * timeout)
    parts: list[bytes] = []
    tail = b""
    while chunk := body.read(64 * 1024):
        parts.append(chunk)
        window = tail + chunk  # an end tag cut between two chunks is found too
        if head_end_mark().search(window):
            break
        tail = window[-16:]
    return b"".join(parts), body.error


def _header_noindex(value: str) -> str | None:
    """The X-Robots-Tag value when it says noindex (or none) to every crawler or Googlebot."""
    agent = None
    for part in value.split(","):
        part = part.strip().lower()
        name, colon, rest = part.partition(":")
        if colon and name.strip() not in _VALUED:
            agent, part = name.strip(), rest.strip()
        if part in ("noindex", "none") and agent in (None, "googlebot", ROBOTS_TOKEN):
            return value.strip()
    return None


def _link_canonical(value: str, loc: str) -> str | None:
    """The canonical URL of a ``Link: <URL>; rel="canonical"`` header (RFC 8288)."""
    found = _CANONICAL_LINK.search(value) if value else None
    return resolve(loc, found.group(1).strip()) if found else None

