"""Targets given, or named, by URL: fetched (``validate.fetch``) and checked as a local
file would be (by the ``dispatch`` the caller gives), read from the response as it arrives."""

from __future__ import annotations

import time
import zlib
from collections.abc import Callable
from typing import TYPE_CHECKING

from sitemapkit.validate.findings import Findings
from sitemapkit.validate.session import READ_CAP

if TYPE_CHECKING:
    from sitemapkit.validate.fetch import Client
    from sitemapkit.validate.fetched import Fetched


def fetch_and_check(url: str, client: Client, findings: Findings, dispatch: Callable[[Fetched, bytes], str | None],
                    given: bool = False, named_at: tuple[str, int] | None = None) -> None:
    """Fetch one file by URL (up to 5 redirects, http(s) only) and check it as a local
    one, by ``dispatch(fetched, its first bytes)``, which returns what kind of file it
    found (``targets._Targets._dispatch``): read from the response as it arrives and never
    past the local limits. A file that cannot be fetched is ``unreadable`` when ``given``,
    else ``sitemap-fetch`` where it was named (``named_at``); a 200 answer is also checked
    for its Content-Type."""
    from sitemapkit.validate.fetch import MAX_WAIT, FetchError, Refusal, retry_after  # urllib3
    from sitemapkit.validate.fetched import Fetched, check_content_type

    if client.out_of_time():  # counted: one max-time problem says how many
        return
    try:
        answer = client.fetch(url)
        delay = retry_after(answer)
        if delay is not None and delay <= MAX_WAIT:  # asked to come back soon: once
            answer.close()
            time.sleep(delay)
            answer = client.fetch(url)
        elif delay is not None:
            findings.add(*(named_at or (url, None)), "wait-capped",
                                      f"{url} answered HTTP {answer.status} with Retry-After: {delay:g} s, "
                                      f"longer than sitemapkit waits ({MAX_WAIT:g} s); not asked again")
    except FetchError as error:
        rule = "fetch-refused" if isinstance(error, Refusal) else "sitemap-fetch"
        return _unfetched(findings, url, str(error), given, named_at, rule)
    try:
        if answer.status != 200:
            reason = answer.response.reason or ""
            return _unfetched(findings, url, f"it answered HTTP {answer.status} {reason}".rstrip(),
                              given, named_at)
        fetched = Fetched(url, answer, READ_CAP)
        raw = fetched.open_body().peek(16 * 1024)
        kind = dispatch(fetched, _unpacked(raw))
        if kind is not None:
            check_content_type(findings, url, answer.header("Content-Type"), kind,
                               raw[:2] == b"\x1f\x8b")
    finally:
        answer.close()


def _unfetched(findings: Findings, url: str, why: str, given: bool, named_at: tuple[str, int] | None,
               rule: str = "sitemap-fetch") -> None:
    if given or named_at is None:
        findings.file_number(url)
        findings.add(url, None, "unreadable", f"cannot fetch {url}: {why}")
    elif rule == "fetch-refused":
        findings.add(*named_at, rule, why if why.startswith(url) else f"{url} was not fetched: {why}")
    else:
        findings.add(*named_at, rule, f"{url} cannot be fetched: {why}")


def _unpacked(raw: bytes) -> bytes:
    """The first bytes of a fetched file, gunzipped when it is gzip (at most 4 KiB)."""
    if raw[:2] != b"\x1f\x8b":
        return raw[:4096]
    try:
        return zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(raw, 4096)
    except zlib.error:
        return b"<"  # let the XML reader say what is wrong with it

