"""``sitemapkit validate --format html``: one self-contained page (no external asset, no
script) with the sitemap at a glance (``glance``: bars of the URLs by section, of their
lastmod ages and of the pages' statuses), every problem grouped by rule and every listed URL
(lastmod, images, alternates) in a table, for people who would rather look than read a log.

The URLs are written to a temporary file as the checks stream through them, and read back
once to render the page: memory stays flat however long the sitemap is.
"""

from __future__ import annotations

import bisect
import itertools
import json
import tempfile
from collections.abc import Iterator
from typing import IO, Any, NamedTuple

from lxml import etree

from sitemapkit.output.html_sitemap import POLICY, environment
from sitemapkit.protocol import IMAGE_NS, SITEMAP_NS, XHTML_NS, rule_entry
from sitemapkit.report import Problem
from sitemapkit.urls import link_href
from sitemapkit.validate.glance import Chart, Tally
from sitemapkit.validate.targets import Outcome

_LOC = f"{{{SITEMAP_NS}}}loc"
_LASTMOD = f"{{{SITEMAP_NS}}}lastmod"
_IMAGE = f"{{{IMAGE_NS}}}image"
_IMAGE_LOC = f"{{{IMAGE_NS}}}loc"
_LINK = f"{{{XHTML_NS}}}link"
_SEVERITIES = ("error", "warning", "info")
_JSON = json.JSONEncoder(ensure_ascii=False)  # one encoder: json.dumps makes one a call
_BATCH = 4096
"""Chunks of the rendered page joined per write: Jinja2 yields one per bit of markup."""


class Shown(NamedTuple):
    """A URL as the sitemap has it, and the link the page may make of it."""

    text: str
    href: str | None
    """``text`` where ``urls.link_href`` allows it as a link (absolute http(s)), else None: a
    ``javascript:``, ``data:`` or other value is shown as text, never made a link."""


def _shown(url: str) -> Shown:
    return Shown(url, link_href(url))


class Row(NamedTuple):
    file: int
    """The file's number in ``Findings.files``."""
    line: int
    loc: Shown
    lastmod: str | None
    images: list[Shown]
    alternates: list[tuple[str, Shown]]
    """``(hreflang, href)`` pairs."""


class UrlTable:
    """The ``<url>`` entries of the sitemaps checked, kept in a temporary file, and counted in
    ``tally`` for the picture at the top of the page."""

    def __init__(self, tally: Tally) -> None:
        self.tally = tally
        self._file: IO[str] = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115 (closed in rows())
        self.count = 0

    def add(self, number: int, line: int, element: etree._Element) -> None:
        """One ``<url>`` of file ``number`` (``Findings.files``), read before it is cleared; its
        values as written, valid or not (the problems say which are not)."""
        loc, lastmod, images, links = "", None, [], []
        for child in element:
            tag = child.tag
            if tag == _LOC:
                loc = (child.text or "").strip()
            elif tag == _LASTMOD:
                lastmod = (child.text or "").strip()
            elif tag == _IMAGE:
                images += [(loc_el.text or "").strip() for loc_el in child if loc_el.tag == _IMAGE_LOC]
            elif tag == _LINK and child.get("hreflang"):
                links.append((child.get("hreflang"), child.get("href") or ""))
        self.tally.add(loc, lastmod)
        end = max((child.sourceline or line for child in element.iter()), default=line)
        self._file.write(_JSON.encode([number, line, end, loc, lastmod, images, links]) + "\n")
        self.count += 1

    def anchors(self, lines: dict[int, list[int]]) -> dict[tuple[int, int], int]:
        """``(file number, line)`` of each problem in ``lines`` (file number -> sorted lines)
        -> the first line of the ``<url>`` it is in, by one pass over the table."""
        found: dict[tuple[int, int], int] = {}
        self._file.seek(0)
        for text in self._file:
            number, start, end = json.loads(text)[:3]
            wanted = lines.get(number)
            if wanted:
                for line in wanted[bisect.bisect_left(wanted, start):bisect.bisect_right(wanted, end)]:
                    found[(number, line)] = start
        return found

    def rows(self) -> Iterator[Row]:
        self._file.seek(0)
        try:
            for text in self._file:
                number, line, _, loc, lastmod, images, links = json.loads(text)
                yield Row(number, line, _shown(loc), lastmod, [_shown(image) for image in images],
                          [(code, _shown(href)) for code, href in links])
        finally:
            self._file.close()


def by_rule(problems: list[Problem]) -> list[dict[str, Any]]:
    """The problems grouped by rule, the rules with errors first, then by rule id; each group
    with its rule's summary from the registry and its worst severity."""
    groups: dict[str, list[Problem]] = {}
    for problem in problems:
        groups.setdefault(problem.rule, []).append(problem)
    found = []
    for rule, listed in groups.items():
        worst = min((p.severity for p in listed), key=_rank)
        try:
            summary = rule_entry(rule).summary
        except KeyError:
            summary = ""
        found.append({"rule": rule, "summary": summary, "problems": listed, "severity": worst})
    return sorted(found, key=lambda group: (_rank(group["severity"]), group["rule"]))


def _rank(severity: str) -> int:
    return _SEVERITIES.index(severity) if severity in _SEVERITIES else 0


def write_report(out: IO[str], outcome: Outcome, table: UrlTable, *, targets: list[str], verdict: str,
                 errors: int, warnings: int, charts: list[Chart]) -> None:
    """Render the page to ``out``, streamed; ``charts`` (``glance.charts``) are drawn at its top."""
    numbers = {name: number for number, name in enumerate(outcome.files)}
    lines: dict[int, list[int]] = {}
    for problem in outcome.problems:
        if problem.line and problem.where in numbers:
            lines.setdefault(numbers[problem.where], []).append(problem.line)
    anchors = table.anchors({number: sorted(found) for number, found in lines.items()})
    template = environment().get_template("sitemapkit/report.html")
    chunks = template.generate(
        targets=targets, verdict=verdict, errors=errors, warnings=warnings, files=outcome.files,
        numbers=numbers, groups=by_rule(outcome.problems), rows=table.rows(), urls=table.count,
        anchors=anchors, flagged={(n, start) for (n, _), start in anchors.items()}, policy=POLICY,
        charts=charts,
    )
    while batch := list(itertools.islice(chunks, _BATCH)):  # a chunk may be empty: count, not text
        out.write("".join(batch))
