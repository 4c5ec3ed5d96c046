"""Text sitemaps and robots.txt, read line by line: each line a URL, or the ``Sitemap:``
lines (and misspelt ones) of a robots.txt and the sitemaps they name, returned for the
caller (``validate.targets``) to follow."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from sitemapkit.protocol import MAX_URLS, sitemap_record_pattern
from sitemapkit.urls import shown
from sitemapkit.validate.findings import Findings
from sitemapkit.validate.rules import check_url
from sitemapkit.validate.session import CHUNK, Progress, Reader, Scope, Session, origin_of

Follow = tuple[str, Path | None, str, tuple[str, int], bool, frozenset[str]]
"""A sitemap a robots.txt names, as ``targets._Targets._follow`` takes it: its URL, the
folder it is looked for in (``None``: the robots.txt was fetched, so is the sitemap), the
robots.txt's URL, the line that names it, ``False`` (not listed by an index) and the origin
whose robots.txt named it."""


def lines_of(path: Path, name: str, findings: Findings, progress: Progress | None) -> Iterator[tuple[int, str]]:
    """``(number, text)`` of each line, decoded as UTF-8; bounded like every read."""
    reader = Reader(path, name, progress)
    rest = b""
    number = 0
    bad_encoding = False
    try:
        while True:
            chunk = reader.read(CHUNK)
            if not chunk:
                break
            *lines, rest = (rest + chunk).split(b"\n")
            for raw in lines:
                number += 1
                try:
                    yield number, raw.decode("utf-8")
                except UnicodeDecodeError:
                    if not bad_encoding:
                        findings.add(name, number, "encoding",
                                                  "this line is not UTF-8; the file must be UTF-8")
                    bad_encoding = True
        if rest and not reader.over:
            yield number + 1, rest.decode("utf-8", "replace")
    finally:
        reader.close()
        if reader.error:
            findings.add(name, None, "unreadable", reader.error)
        if reader.over:
            findings.add(name, None, "size-limit", "the file is over 52,428,800 bytes "
                                      "uncompressed; split it")


def check_text(session: Session, path: Path, name: str, scope: Scope) -> None:
    """A text sitemap: one absolute URL a line, each in ``scope``."""
    number = session.findings.file_number(name)
    count = written = 0
    for line, text in lines_of(path, name, session.findings, session.progress):
        value = text.strip().lstrip("\ufeff")
        if not value:
            continue
        written += 1
        if "://" not in value or " " in value.split("://", 1)[0]:
            session.findings.add(name, line, "txt-line",
                                      f"'{shown(value, 60)}' is not a URL; a text sitemap holds one "
                                      "absolute URL per line and nothing else")
            continue
        finding = scope.check(value, "URL", minimum=False)
        if finding is not None:
            session.findings.add(name, line, *finding)
            if finding[0] not in ("loc-fragment", "loc-host", "loc-scope"):
                continue
        count += 1
        if count == MAX_URLS + 1:
            session.findings.add(name, line, "url-count",
                                      f"more than {MAX_URLS:,} URLs in one text sitemap; split it")
        session.urls.listed(number, line, value, "txt", remember=count <= MAX_URLS)
    if not written:
        session.findings.add(name, None, "sitemap-empty", "the text sitemap lists no URL",
                                  "warning")
    session.findings.close_file(name)


def check_robots(session: Session, path: Path, name: str) -> list[Follow]:
    """A robots.txt (by name, or by content: lines of robots fields): its ``Sitemap:``
    lines (field names in any case) and misspelt ones; the sitemaps they name, to follow."""
    session.findings.file_number(name)
    named: list[tuple[str, int]] = []
    sitemap_lines = 0
    for line, text in lines_of(path, name, session.findings, session.progress):
        record = sitemap_record_pattern().fullmatch(text)
        if record is None:
            field, colon, value = text.partition(":")
            field = field.strip().lstrip("\ufeff")
            if colon and _MISSPELT.fullmatch(field):
                sitemap_lines += 1
                value = value.split("#", 1)[0].strip()
                session.findings.add(name, line, "robots-sitemap-field",
                                          f"'{shown(field, 60)}:' is not a field crawlers read, so "
                                          f"'{shown(value, 60)}' is ignored; write 'Sitemap:'")
            continue
        value = record.group(1)
        sitemap_lines += 1
        finding = check_url(value, "Sitemap:")
        if finding is not None and finding[0] == "loc-relative":
            session.findings.add(name, line, "robots-sitemap-relative",
                                      f"Sitemap: '{value}' is a relative URL; write the full URL "
                                      "with http:// or https:// and the host (crawlers do not "
                                      "resolve it)")
        elif finding is not None:
            session.findings.add(name, line, *finding)
        else:
            named.append((value, line))
    if not sitemap_lines:
        session.findings.add(name, None, "robots-no-sitemap",
                                  "robots.txt names no sitemap; add a 'Sitemap: <full URL>' line")
    session.findings.close_file(name)
    if not named:
        return []
    # The host this robots.txt is served from: a file cannot say; the host of the first
    # sitemap it names is the usual answer (cross-submission names others after it).
    origin = origin_of(getattr(path, "url", None) or named[0][0])  # a fetched one knows
    session.robots.setdefault(origin, set()).update(url for url, _ in named)
    return [(url, path.parent, origin_of(url) + "robots.txt", (name, line), False, frozenset({origin}))
            for url, line in named]


_MISSPELT = re.compile(r"(?i)(xml[\s_-]*)?site[\s_-]*maps?([\s_-]*url)?")
"""Field names meant as ``Sitemap`` that crawlers do not read (``Site-map``, ``Sitemaps``)."""
# A robots.txt record, known or not (RFC 9309, 2.2.4: crawlers skip the ones they do not
# know): a field name, then a colon; never a URL's scheme ("https://" is a text sitemap's line).
_RECORD = re.compile(rb"[A-Za-z][\w-]*[ \t]*:(?!//)")
_GROUP_OR_SITEMAP = re.compile(rb"(?i)(?:user-?agent|sitemap)[ \t]*:")


def robots_like(head: bytes) -> bool:
    """Whether a file reads as robots.txt: most full lines of its start (comments and blank
    lines aside) are ``field: value`` records, and one is ``User-agent`` or ``Sitemap``. Records
    no crawler knows (``Content-Signal:``, ``Robot-version:``, a misspelt ``Desallow:``) count:
    crawlers skip them. A text sitemap's lines are URLs, which never match."""
    lines = head.split(b"\n")
    if len(head) >= 4096:
        lines = lines[:-1]  # the last one may be cut
    fields = [line.strip() for line in lines if line.strip() and not line.strip().startswith(b"#")]
    records = sum(1 for line in fields if _RECORD.match(line))
    return records * 2 > len(fields) and any(_GROUP_OR_SITEMAP.match(line) for line in fields)

