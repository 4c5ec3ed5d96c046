"""What the checks of one file start with: the run's ``Session`` (the findings, the listed
URLs, the run's "now"), the bounded ``Reader``, and the file's ``Scope``."""

from __future__ import annotations

import gzip
import os
import re
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit

from sitemapkit.dates import build_time
from sitemapkit.protocol import ERROR, MAX_BYTES, WARNING
from sitemapkit.urls import in_scope
from sitemapkit.validate.findings import Findings
from sitemapkit.validate.listed_urls import ListedUrls
from sitemapkit.validate.rules import check_loc_length, check_url

READ_CAP = MAX_BYTES + 4 * 1024 * 1024
"""Past the 50 MiB limit (plus a little, to report what follows it) reading stops: a gzip
bomb costs the time to inflate 54 MiB and one 64 KiB buffer, never more."""
CHUNK = 64 * 1024
ENTRY_CAP = 2 * 1024 * 1024
"""Bytes one ``<url>`` (or what sits between two) may take before reading stops: the parser
holds an unfinished entry in memory, so a file of one endless ``<url>`` must not grow it."""

Progress = Callable[[str, int, int], None]
"""``progress(file, bytes_read, bytes_total)`` (compressed bytes for a gzip file)."""


class Reader:
    """A file, gunzipped when it starts with the gzip magic, read in chunks and never past
    ``READ_CAP`` uncompressed bytes. lxml and the text checks pull from ``read``."""

    def __init__(self, path: Path, name: str, progress: Progress | None = None) -> None:
        opened = getattr(path, "open_body", None)  # a file fetched by URL (validate.fetched)
        if opened is not None:
            self.raw = opened()
            self.size = self.raw.size
            self.gzipped = self.raw.peek(2) == b"\x1f\x8b"
        else:
            self.raw = open(path, "rb")  # noqa: SIM115 (closed by close())
            self.size = os.fstat(self.raw.fileno()).st_size
            self.gzipped = self.raw.read(2) == b"\x1f\x8b"
            self.raw.seek(0)
        self.stream = gzip.GzipFile(fileobj=self.raw, mode="rb") if self.gzipped else self.raw
        self.name = name
        self.total = 0
        self.mark: int | None = None
        """Where the last entry ended (``None``: no entry limit, as for text files)."""
        self.entry_too_big = False
        self.head = b""
        self.error: str | None = None
        self.progress = progress
        self._next_report = 4 * CHUNK

    @property
    def over(self) -> bool:
        return self.total > MAX_BYTES

    def read(self, size: int = -1) -> bytes:
        if self.total >= READ_CAP or self.error or self.entry_too_big:
            return b""
        if self.mark is not None and self.total - self.mark > ENTRY_CAP:
            self.entry_too_big = True
            return b""
        size = CHUNK if size is None or size < 0 else min(size, CHUNK)
        try:
            data = self.stream.read(min(size, READ_CAP - self.total))
        except EOFError as error:
            self.error = f"the gzip data is cut short (no end marker or trailer): {error}"
            return b""
        except zlib.error as error:
            self.error = f"the gzip data is corrupt, cannot decompress: {error}"
            return b""
        except OSError as error:
            self.error = f"not a valid gzip file: {error}" if self.gzipped else str(error)
            return b""
        finally:
            fault = getattr(self.raw, "error", None)  # a fetched file's network fault comes first
            if fault is not None:
                self.error = fault
        if not self.total:
            self.head = data[:256]
        self.total += len(data)
        if self.progress is not None and self.total >= self._next_report:
            self._next_report = self.total + 16 * CHUNK
            self.progress(self.name, self.raw.tell(), self.size)
        return data

    def close(self) -> None:
        self.raw.close()


_DECLARED = re.compile(rb"""<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]+)""")


def declared_encoding(head: bytes) -> str:
    """The encoding a document's first bytes declare (BOM or XML declaration); UTF-8 if none."""
    if head[:2] in (b"\xff\xfe", b"\xfe\xff") or head[:2] in (b"<\x00", b"\x00<"):
        return "UTF-16"
    found = _DECLARED.match(head.lstrip(b"\xef\xbb\xbf"))
    return found.group(1).decode("ascii") if found else "UTF-8"


def folder_of(url: str) -> str:
    """The URL of the folder a file at ``url`` sits in (its scope, per sitemaps.org)."""
    parts = urlsplit(url)
    path = parts.path.rsplit("/", 1)[0] + "/"
    return f"{parts.scheme}://{parts.netloc}{path}"


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}/"


class UrlRows(Protocol):
    """``html_report.UrlTable`` as the XML checks use it (``--format html``)."""

    def add(self, number: int, line: int, element: Any) -> None: ...


@dataclass(frozen=True, slots=True)
class Session:
    """What every file checker of one ``validate`` run is given, made once when the run
    starts: where problems go (``findings``), the URLs listed so far (``urls``, which holds
    the checks each listed URL goes to), the run's "now", the progress callback, the
    ``Sitemap:`` URLs each robots.txt among the targets names, and the table of every
    ``<url>`` for ``--format html``."""

    findings: Findings
    urls: ListedUrls
    now: datetime = field(default_factory=build_time)
    progress: Progress | None = None
    robots: dict[str, set[str]] = field(default_factory=dict)
    """Origin -> the sitemap URLs its robots.txt (one of the targets) names."""
    table: UrlRows | None = None


class FileCheck:
    """What the checker of one file (sitemap, index, feed) starts with: the session, the
    file and its number there, and the scope of its URLs."""

    def __init__(self, session: Session, path: Path, name: str, scope: Scope) -> None:
        self.session = session
        self.path = path
        self.file = name
        self.number = session.findings.file_number(name)
        self.scope = scope

    def add(self, line: int | None, rule: str, message: str, severity: str | None = None) -> None:
        self.session.findings.add(self.file, line, rule, message, severity)


class Scope:
    """Where the URLs of one file may point: the sitemap's folder when its URL is known
    (from an index or robots.txt, or its place under --site-dir), otherwise the scheme and
    host of its first valid URL.

    A URL on another host is valid when that host's robots.txt names the sitemap
    (cross-submission) or when both hosts are verified in one Search Console property. A file
    alone cannot show either, so it is a warning; it is an error only where what was given
    shows it is not: ``--site-dir`` (one site, one host), or a robots.txt of that host among
    the targets that does not name the sitemap (``robots``: origin -> the sitemap URLs its
    robots.txt names; ``named_by``: the origins whose robots.txt named this sitemap)."""

    def __init__(self, url: str | None = None, site=None, folder: str | None = None,
                 robots: dict[str, set[str]] | None = None,
                 named_by: frozenset[str] = frozenset(), strict_host: bool = False) -> None:
        self.prefix = folder_of(url) if url else None
        self.site = site
        self.folder = folder
        """The file's folder relative to --site-dir (``""``, ``"de/"``), when it is inside."""
        self.robots = robots or {}
        self.named_by = named_by
        self.strict_host = strict_host or site is not None

    def check(self, loc: str, label: str = "loc", minimum: bool = True):
        """``(rule, message[, severity])`` for the first problem of ``loc`` as a listed URL,
        or ``None``."""
        finding = check_url(loc, label) or (check_loc_length(loc) if minimum else None)
        if finding is not None and finding[0] != "loc-fragment":
            return finding
        if self.prefix is None:
            if self.site is not None and self.folder is not None:
                self.prefix = self.site.root_for(loc) + self.folder
            else:
                self.prefix = origin_of(loc)
        if loc.startswith(self.prefix) or in_scope(loc, self.prefix):
            return finding
        host = origin_of(self.prefix)
        if not in_scope(loc, host):
            return self._other_host(loc, host) or finding
        return "loc-scope", (f"'{loc}' is outside {self.prefix}, the folder this sitemap is "
                             "in; a sitemap may list only URLs at or below its own folder")

    def _other_host(self, loc: str, host: str):
        other = origin_of(loc)
        if other in self.named_by:
            return None  # cross-submitted: the robots.txt of its host names this sitemap
        if other in self.robots:
            return "loc-host", (f"'{loc}' is not on {host}, the host of this sitemap, and "
                                f"{other}robots.txt (given) does not name this sitemap; "
                                "search engines ignore it"), ERROR
        if self.strict_host:
            return "loc-host", (f"'{loc}' is not on {host}, the host of this sitemap and of "
                                "--site-dir; search engines ignore it"), ERROR
        return "loc-host", (f"'{loc}' is not on {host}, the host of this sitemap: valid only "
                            f"if {other}robots.txt names this sitemap (cross-submission) or "
                            "both hosts are verified in one Search Console property"), WARNING
