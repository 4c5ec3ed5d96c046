"""What a build did and what it had to leave out, with the reason for each."""

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from sitemapkit.protocol import OTHER_VERSION, rule_entry

_SOURCES = ("meta", "git", "fingerprint")


class _ProblemFields(NamedTuple):
    where: str
    rule: str
    message: str
    severity: str = "warning"
    """``"error"`` or ``"warning"``; or ``"info"`` for a documented fallback that is no fault
    of the site (a shallow clone, a page not yet committed): shown, never counted under
    ``strict``. A build reports no errors: what it cannot list, it leaves out."""
    field: str | None = None
    """The page's field, at build time."""
    line: int | None = None
    """The file's line, when validating."""


class Problem(_ProblemFields):
    """A rule of ``protocol.RULES`` broken somewhere: where, which rule, how badly, and why.

    A build names the page (or the file or setting it could not use) and its ``field``; the
    validator names the file and, when it knows it, the ``line``. The location decides how the
    problem prints: ``page: field: message [rule]`` or ``file:line: severity: message [rule]``.

    A named tuple (Performance: a build that warns of every page makes one a page; measured:
    12.3 k instructions to make a frozen dataclass of these fields, 5.5 k this)."""

    __slots__ = ()

    def __new__(cls, where: str, rule: str, message: str, severity: str = "warning", field: str | None = None,
                line: int | None = None) -> "Problem":
        rule_entry(rule)  # a rule id not in protocol.RULES fails here, where it is raised
        return tuple.__new__(cls, (where, rule, message, severity, field, line))

    @classmethod
    def _make(cls, values: Iterable[object]) -> "Problem":  # (``_replace`` too): checked as made
        return cls(*values)

    def __str__(self) -> str:
        if self.field is not None:
            return f"{self.where}: {self.field}: {self.message} [{self.rule}]"
        where = f"{self.where}:{self.line}" if self.line else self.where
        return f"{where}: {self.severity}: {self.message} [{self.rule}]"

    def as_dict(self) -> dict[str, object]:
        """The JSON form: ``build --format json`` keys a page's problem by page, field and
        level, ``validate --format json`` a file's by file, line and severity."""
        if self.field is not None:
            return {"page": self.where, "field": self.field, "rule": self.rule,
                    "message": self.message, "level": self.severity}
        return {"file": self.where, "line": self.line, "rule": self.rule,
                "severity": self.severity, "message": self.message}


class SitemapError(Exception):
    """A build that cannot go on (no base URL, or warnings under ``strict``)."""


class TransformError(SitemapError):
    """The ``transform`` callable (``listing.transform``) cannot be loaded, or raised at a
    page: the build stops (on Sphinx, which stops only on a crash report: a warning, and no
    sitemap). ``problem`` says it as a build's problem, naming the page (or the option) and
    the exception. Here, not in ``listing.transform``: an adapter catches it in a build that
    has no ``transform`` and does not load that module."""

    def __init__(self, message: str, problem: Problem) -> None:
        super().__init__(message)
        self.problem = problem


KEPT_PROBLEMS = 1000
"""How many warnings, and how many notes, a report keeps to be read back: the first. Every one
is counted, and told to ``on_warning`` as it happens (printed, logged, or kept by whoever needs
them all: ``--format json``), so that a million pages that each warn need no million problems
alive."""


# Performance: never compared, and printed as its summary, so no __eq__ nor __repr__ is made
# at import (1 M instructions each)
@dataclass(slots=True, eq=False, repr=False)
class Report:
    """Collects warnings as they happen (``on_warning`` lets an adapter log each at once),
    and what was written."""

    on_warning: Callable[[Problem], None] | None = None
    warnings: list[Problem] = field(default_factory=list)
    """The first ``KEPT_PROBLEMS`` warnings (``warning_count``: all of them)."""
    notes: list[Problem] = field(default_factory=list)
    """The first ``KEPT_PROBLEMS`` problems of severity ``info`` (``note_count``: all of them)."""
    warning_count: int = 0
    note_count: int = 0
    files: list[Path] = field(default_factory=list)
    url_counts: dict[Path, int] = field(default_factory=dict)
    """URLs listed in each sitemap file of ``files`` (for an index: the sitemaps it lists)."""
    sizes: dict[Path, int] = field(default_factory=dict)
    """Bytes of each file of ``files``; after a dry run, of every file it would have written
    (the manifest too)."""
    urls: int = 0
    images: int = 0
    videos: int = 0
    news: int = 0
    left_out: dict[str, int] = field(default_factory=dict)
    """Pages deliberately not listed, by reason (``noindex``, ``exclude`` ...)."""
    selector_only: int = 0
    """Pages of one version listed at their own URLs though their canonical URL is another
    version's: the sitemap is the version selector's data (Material with mike), not for
    search engines, and the root index of the deployment leaves it out."""
    lastmod_sources: dict[str, int] = field(default_factory=dict)
    """Listed pages by where their lastmod came from: ``meta``, ``git``, ``fingerprint`` or
    ``none`` (no source could date them: no lastmod rather than a made-up one); a page that
    lists others (``sitemap.html``) under its own name: the newest of those dates it."""
    lastmod_hint: str = ""
    """What would date the pages that have none."""
    pages_kept: int = 0
    """Written pages whose facts came from the last build's (the file unchanged since): not read."""
    pages_read: int = 0
    """Written pages read for facts the next build can keep (new or changed files, a first build)."""
    folders_kept: int = 0
    """Runs of a folder's pages whose entries were replayed together (their files all unchanged): of the pages kept."""
    not_pages: dict[str, list[str]] = field(default_factory=dict)
    """Files left out as no page by what they are (generated indexes, error pages, drafts),
    by reason: their names, which the summary gives, never only their count."""

    def warn(self, page: str, field: str, rule: str, message: str) -> None:
        self.add(Problem(page, rule, message, field=field))

    def info(self, page: str, field: str, rule: str, message: str) -> None:
        """Tell without warning: the problem reaches ``on_warning`` (adapters log it at their
        generator's info level) but not ``warnings``, so ``strict`` builds stay green."""
        self.add(Problem(page, rule, message, "info", field=field))

    def add(self, problem: Problem) -> None:
        """The one way a problem is told: counted (``warning_count``, or ``note_count`` for an
        info) and kept while few, then shown (``on_warning``), so that the summary counts
        exactly what was printed and ``strict`` fails whenever a warning was."""
        if problem.severity == "info":
            self.note_count += 1
            kept = self.notes
        else:
            self.warning_count += 1
            kept = self.warnings
        if len(kept) < KEPT_PROBLEMS:
            kept.append(problem)
        if self.on_warning is not None:
            self.on_warning(problem)

    def __repr__(self) -> str:
        return f"<Report: {self.summary()}>"

    def summary(self) -> str:
        """One line: what was listed, where, what was left out, how many warnings."""
        extras = "".join(
            f", {plural(count, label)}"
            for count, label in ((self.images, "image"), (self.videos, "video"), (self.news, "news article"))
            if count
        )
        skipped = ", ".join(f"{_left_out(count, reason)}{named(self.not_pages.get(reason, ()))}"
                            for reason, count in sorted(self.left_out.items()))
        skipped = f"; left out: {skipped}" if skipped else ""
        if self.selector_only:
            skipped += (f"; {self.selector_only} canonical in another version: this version's sitemap is kept "
                        "for the version selector only (the root index leaves it out)")
        where = f" in {', '.join(p.name for p in self.files)}" if self.files else "; no file written"
        sources = self.lastmod_sources
        dated = ", ".join(
            [f"{sources[source]} {source}" for source in _SOURCES if sources.get(source)]
            + [f"{page} by the newest page it lists" for page in sources if page not in (*_SOURCES, "none")]
            + ([f"{sources['none']} none"] if sources.get("none") else [])
        )
        dated = f"; lastmod: {dated}" if dated else ""
        dated += f" ({self.lastmod_hint})" if self.lastmod_hint else ""
        return (f"{plural(self.urls, 'URL')}{extras}{where}{skipped}{dated}; "
                f"{plural(self.warning_count, 'warning')}")


def named(names: Iterable[str]) -> str:
    """`` (genindex.html, search.html)``: the files left out, by name; the files of a folder
    that holds more than ``_NAMED_IN_FOLDER`` of them as that folder (``_modules/lamp/ (12
    files)``, viewcode's sources of a package). ``""`` for none."""
    folders: dict[str, list[str]] = {}
    for name in sorted(names):
        folders.setdefault(name.rpartition("/")[0], []).append(name)
    shown = [f"{folder}/ ({len(inside)} files)" if len(inside) > _NAMED_IN_FOLDER else ", ".join(inside)
             for folder, inside in folders.items()]
    return f" ({', '.join(shown)})" if shown else ""


_NAMED_IN_FOLDER = 5


EXAMPLES = 3
"""How many names a message shows before it says how many more."""


def examples(names: Sequence[str], count: int | None = None) -> str:
    """``a, b, c and 4 more``: the first ``EXAMPLES`` of ``names``, of ``count`` in all
    (``len(names)`` unless given: a caller may keep only the first few)."""
    count = len(names) if count is None else count
    return ", ".join(names[:EXAMPLES]) + (f" and {count - EXAMPLES} more" if count > EXAMPLES else "")


def plural(count: int, noun: str) -> str:
    """``1 image``, ``2 images``, ``0 warnings``, ``2 generated indexes``."""
    if count == 1:
        return f"{count} {noun}"
    return f"{count} {noun}{'es' if noun.endswith(('s', 'x', 'ch', 'sh')) else 's'}"


_CAUSES = frozenset({"noindex", "exclude", "sitemap: false", "static_html: omit", "robots.txt",
                     "canonical elsewhere", OTHER_VERSION})
"""Reasons for leaving a page out that name a cause (``3 noindex``); every other reason names
a kind of file (``2 error pages``, ``5 generated indexes``)."""


def _left_out(count: int, reason: str) -> str:
    return f"{count} {reason}" if reason in _CAUSES else plural(count, reason)
