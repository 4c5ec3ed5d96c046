"""Text sitemaps and robots.txt, read line by line: each line a URL, or the ``Sitemap:``
lines (and misspelt ones) of a robots.txt and the sitemaps they name. A mixin of
``validate.targets._Targets``."""

from __future__ import annotations

import re
from pathlib import Path

from sitemapkit.protocol import MAX_URLS, SITEMAP_RECORD
from sitemapkit.urls import shown
from sitemapkit.validate.rules import check_url
from sitemapkit.validate.session import CHUNK, Reader, Scope, origin_of


class TextFiles:
    """Checks text sitemaps and robots.txt files."""

    def _lines(self, path: Path, name: str):
        """``(number, text)`` of each line, decoded as UTF-8; bounded like every read."""
        reader = Reader(path, name, self.session.progress)
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
                            self.session.findings.add(name, number, "encoding",
                                                      "this line is not UTF-8; the file must be UTF-8")
                        bad_encoding = True
            if rest and not reader.over:
                yield number + 1, rest.decode("utf-8", "replace")
        finally:
            reader.close()
            if reader.error:
                self.session.findings.add(name, None, "unreadable", reader.error)
            if reader.over:
                self.session.findings.add(name, None, "size-limit", "the file is over 52,428,800 bytes "
                                          "uncompressed; split it")

    def _text(self, path: Path, name: str, scope: Scope) -> None:
        number = self.session.findings.file_number(name)
        count = written = 0
        for line, text in self._lines(path, name):
            value = text.strip().lstrip("\ufeff")
            if not value:
                continue
            written += 1
            if "://" not in value or " " in value.split("://", 1)[0]:
                self.session.findings.add(name, line, "txt-line",
                                          f"'{shown(value, 60)}' is not a URL; a text sitemap holds one "
                                          "absolute URL per line and nothing else")
                continue
            finding = scope.check(value, "URL", minimum=False)
            if finding is not None:
                self.session.findings.add(name, line, *finding)
                if finding[0] not in ("loc-fragment", "loc-host", "loc-scope"):
                    continue
            count += 1
            if count == MAX_URLS + 1:
                self.session.findings.add(name, line, "url-count",
                                          f"more than {MAX_URLS:,} URLs in one text sitemap; split it")
            self.session.urls.listed(number, line, value, "txt", remember=count <= MAX_URLS)
        if not written:
            self.session.findings.add(name, None, "sitemap-empty", "the text sitemap lists no URL",
                                      "warning")
        self.session.findings.close_file(name)

    def _robots(self, path: Path, name: str) -> None:
        """A robots.txt (by name, or by content: lines of robots fields): its ``Sitemap:``
        lines (field names in any case), misspelt ones, and the sitemaps they name."""
        self.session.findings.file_number(name)
        named: list[tuple[str, int]] = []
        sitemap_lines = 0
        for line, text in self._lines(path, name):
            record = SITEMAP_RECORD.fullmatch(text)
            if record is None:
                field, colon, value = text.partition(":")
                field = field.strip().lstrip("\ufeff")
                if colon and _MISSPELT.fullmatch(field):
                    sitemap_lines += 1
                    value = value.split("#", 1)[0].strip()
                    self.session.findings.add(name, line, "robots-sitemap-field",
                                              f"'{shown(field, 60)}:' is not a field crawlers read, so "
                                              f"'{shown(value, 60)}' is ignored; write 'Sitemap:'")
                continue
            value = record.group(1)
            sitemap_lines += 1
            finding = check_url(value, "Sitemap:")
            if finding is not None and finding[0] == "loc-relative":
                self.session.findings.add(name, line, "robots-sitemap-relative",
                                          f"Sitemap: '{value}' is a relative URL; write the full URL "
                                          "with http:// or https:// and the host (crawlers do not "
                                          "resolve it)")
            elif finding is not None:
                self.session.findings.add(name, line, *finding)
            else:
                named.append((value, line))
        if not sitemap_lines:
            self.session.findings.add(name, None, "robots-no-sitemap",
                                      "robots.txt names no sitemap; add a 'Sitemap: <full URL>' line")
        self.session.findings.close_file(name)
        if not named:
            return
        # The host this robots.txt is served from: a file cannot say; the host of the first
        # sitemap it names is the usual answer (cross-submission names others after it).
        origin = origin_of(getattr(path, "url", None) or named[0][0])  # a fetched one knows
        self.session.robots.setdefault(origin, set()).update(url for url, _ in named)
        for url, line in named:
            follow = (url, path.parent, origin_of(url) + "robots.txt", (name, line), False,
                      frozenset({origin}))
            if self.pending is not None:
                self.pending.append(follow)
            else:
                self._follow(*follow)


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

