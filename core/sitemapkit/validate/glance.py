"""The at-a-glance picture at the top of ``validate --format html``: the listed URLs by
section (the first folder of their path, or the second where every URL shares the first)
and by the age of their lastmod, and with ``--check-pages`` the pages by the status they
answered.

Only counts are kept, gathered as the checks stream through the ``<url>`` entries: a
million URLs cost a few hundred numbers, never a list of them. The report's template draws
each ``Chart`` as inline SVG bars, each with its label and count as text.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from urllib.parse import unquote, urlsplit

from sitemapkit.dates import DateError, as_datetime, parse_moment
from sitemapkit.protocol import FUTURE_SLACK
from sitemapkit.urls import escaped

SECTIONS_SHOWN = 10
"""The largest sections drawn, each as its own bar; the others are summed into one."""
SECTIONS_KEPT = 1000
"""Distinct section names counted each on its own. A hostile sitemap with a new first
segment on every URL makes the later ones count as "other", not a million counters."""
LABEL_ROOM = 30
"""Characters of a section name shown; a longer one is cut, and ends in an ellipsis."""
TOP = "/ (top level)"
OTHER = "other sections"

AGES = (
    (timedelta(days=7), "under a week"),
    (timedelta(days=31), "a week to a month"),
    (timedelta(days=365), "a month to a year"),
)
OLDER = "over a year"
NO_LASTMOD = "no lastmod"
FUTURE = "in the future"
NOT_A_DATE = "not a date"

UNREACHABLE = "no answer"
NOT_REQUESTED = "not requested"


@dataclass(frozen=True, slots=True)
class Bar:
    label: str
    count: int
    share: float
    """``count`` over the chart's largest count, 0 to 1: the bar's length."""


@dataclass(frozen=True, slots=True)
class Chart:
    title: str
    total: int
    bars: tuple[Bar, ...]


def folders_of(loc: str) -> tuple[str | None, str | None]:
    """The first two folders of the URL's path, as people read them (percent-decoded,
    control characters escaped); ``None`` where the path has fewer. A path's last segment is
    the page (``guide/install.html``), or a folder's own page when it ends in ``/``
    (``guide/install/``: folders ``guide`` and ``install``). Markup in a name stays text:
    the template escapes every label."""
    try:
        path = urlsplit(loc).path
    except ValueError:
        path = ""
    parts = path.lstrip("/").split("/", 2)[:-1]  # the rest of a long path is never split
    first, second = [*(escaped(unquote(part[:4 * LABEL_ROOM], errors="replace")) or None
                       for part in parts), None, None][:2]
    return first or second, second if first else None


def label(*parts: str | None) -> str:
    """A section's label: its folders (``blog/``, ``docs/guide/``), ``TOP`` for none, cut
    to ``LABEL_ROOM`` characters."""
    named = [part for part in parts if part]
    text = "/".join(named) + "/" if named else TOP
    return text if len(text) <= LABEL_ROOM else text[:LABEL_ROOM - 1] + "\u2026"


def age_of(lastmod: str | None, now: datetime) -> str:
    """Which age bucket a lastmod as written falls in, at ``now``."""
    if not lastmod:
        return NO_LASTMOD
    try:
        moment = as_datetime(parse_moment(lastmod))
    except DateError:
        return NOT_A_DATE
    age = now - moment
    if age < -FUTURE_SLACK:
        return FUTURE
    for limit, label in AGES:
        if age < limit:
            return label
    return OLDER


class Counts:
    """URLs by section label, for at most ``SECTIONS_KEPT`` labels; the URLs of any label
    past those are counted together in ``unkept``."""

    def __init__(self) -> None:
        self.by_label: dict[str, int] = {}
        self.unkept = 0

    def add(self, key: str) -> None:
        if key in self.by_label or len(self.by_label) < SECTIONS_KEPT:
            self.by_label[key] = self.by_label.get(key, 0) + 1
        else:
            self.unkept += 1


class Tally:
    """The counts behind the URL charts, fed one ``<url>`` at a time. URLs are counted by
    their first folder; while they all share one (a project site under ``/project/``), by
    their second too, so that the picture shows the folders inside it."""

    def __init__(self, now: datetime) -> None:
        self.now = now
        self.sections = Counts()
        """By first folder (``TOP`` for none)."""
        self.inner: Counts | None = Counts()
        """While every URL is in one first folder: by first and second folder; ``None`` from
        the first URL outside it on."""
        self.ages: dict[str, int] = {}

    def add(self, loc: str, lastmod: str | None) -> None:
        first, second = folders_of(loc)
        section = label(first)
        if self.inner is not None and (first is None or (self.sections.by_label
                                                         and section not in self.sections.by_label)):
            self.inner = None
        if self.inner is not None:
            self.inner.add(label(first, second))
        self.sections.add(section)
        age = age_of(lastmod, self.now)
        self.ages[age] = self.ages.get(age, 0) + 1


@dataclass(frozen=True, slots=True)
class Answers:
    """What ``--check-pages`` got: how many pages it requested, the count of each HTTP status
    they answered, of pages that gave no answer, and of listed pages it did not request
    (robots.txt, a host not named)."""

    requested: int
    statuses: tuple[tuple[int, int], ...]
    unreachable: int
    not_requested: int


def charts(tally: Tally, answers: Answers | None) -> list[Chart]:
    """The charts drawn: sections, ages, and statuses where pages were checked."""
    counts = tally.inner if tally.inner is not None and len(tally.sections.by_label) == 1 else tally.sections
    ranked = sorted(counts.by_label.items(), key=lambda item: (-item[1], item[0]))
    rest = sum(count for _, count in ranked[SECTIONS_SHOWN:]) + counts.unkept
    sections = ranked[:SECTIONS_SHOWN] + ([(OTHER, rest)] if rest else [])
    ages = [(label, tally.ages.get(label, 0)) for _, label in AGES]
    ages += [(OLDER, tally.ages.get(OLDER, 0)), (NO_LASTMOD, tally.ages.get(NO_LASTMOD, 0))]
    ages += [(label, tally.ages[label]) for label in (FUTURE, NOT_A_DATE) if tally.ages.get(label)]
    drawn = [_chart("URLs by section", sections), _chart("lastmod age", ages)]
    if answers is not None:
        drawn.append(_chart("Pages by status", _status_rows(answers)))
    return drawn


def _status_rows(answers: Answers) -> list[tuple[str, int]]:
    classes = {f"{n}xx": 0 for n in (2, 3, 4, 5)}
    odd = 0
    for status, count in answers.statuses:
        name = f"{status // 100}xx"
        if name in classes:
            classes[name] += count
        else:
            odd += count
    rows = [*classes.items(), (UNREACHABLE, answers.unreachable)]
    if odd:
        rows.append(("other status", odd))
    if answers.not_requested:
        rows.append((NOT_REQUESTED, answers.not_requested))
    return rows


def _chart(title: str, rows: list[tuple[str, int]]) -> Chart:
    largest = max((count for _, count in rows), default=0) or 1
    return Chart(title, sum(count for _, count in rows),
                 tuple(Bar(label, count, count / largest) for label, count in rows))
