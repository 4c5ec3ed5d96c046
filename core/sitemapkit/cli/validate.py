"""``sitemapkit validate`` on the command line: the problems printed as text, one JSON
document or JSON lines, a progress line on a terminal, and the exit status. The checks are
the library's (``validate.targets``, and ``validate.crawl`` for ``--check-pages``); the CLI's
parser is in ``cli``."""

from __future__ import annotations

import json
import sys
from urllib.parse import urlsplit

from sitemapkit.cli.progress import CLEAR, ProgressLine, megabytes
from sitemapkit.dates import build_time
from sitemapkit.report import plural
from sitemapkit.validate.glance import Tally, charts
from sitemapkit.validate.html_report import UrlTable, write_report
from sitemapkit.validate.targets import is_url, run_targets

BIG_FILE = 8 * 1024 * 1024
"""Bytes from which reading a file shows a progress line."""


def run_validate(targets: list[str], site_dir: str | None, fmt: str, strict: bool,
                 progress: bool, live=None, quiet: bool = False) -> int:
    """``sitemapkit validate``: print the problems (text lines and a summary, one JSON document,
    or with ``jsonl`` one JSON object per problem, with ``html`` one self-contained page of the
    URLs and the problems by rule) and return the exit status: 0 clean, 1 problems (warnings
    only under ``strict``), 2 usage or unreadable input. ``live`` (``validate.crawl.Live``):
    fetching and ``--check-pages``. ``quiet``: the problems only, no summary line."""
    for target in targets:
        if is_url(target) and urlsplit(target).scheme.lower() not in ("http", "https"):
            print(f"sitemapkit validate: {target}: only http:// and https:// URLs are fetched "
                  "(give a local file by its path)", file=sys.stderr)
            return 2
    if live is not None and progress:
        live.progress = ProgressLine("pages checked")
    table = tally = None
    if fmt == "html":
        tally = Tally(build_time())
        table = UrlTable(tally)
    try:
        outcome = run_targets(targets, site_dir, file_progress() if progress else None, live, table,
                              waiting=_waiting)
    except NotADirectoryError as error:
        print(f"sitemapkit validate: {error}", file=sys.stderr)
        return 2
    finally:
        if progress:
            sys.stderr.write(CLEAR)
    problems = outcome.problems
    errors, warnings = outcome.total("error"), outcome.total("warning")  # shown or not
    files = len(outcome.files)
    failed = bool(errors or (strict and warnings))
    totals = {"files": files, "errors": errors, "warnings": warnings}
    if outcome.pages is not None:
        totals["pages"] = outcome.pages
    notes = outcome.total("info")
    verdict = "FAILED" if failed else "OK with warnings" if errors or warnings else "OK"
    if table is not None:
        write_report(sys.stdout, outcome, table, targets=targets, verdict=verdict, errors=errors,
                     warnings=warnings, charts=charts(tally, outcome.answers))
    elif fmt == "json":
        json.dump({"files": outcome.files, "problems": [p.as_dict() for p in problems],
                   "totals": totals, "ok": not failed}, sys.stdout, ensure_ascii=False, indent=2)
        print()
    else:
        for problem in problems:
            print(json.dumps(problem.as_dict(), ensure_ascii=False) if fmt == "jsonl" else problem,
                  flush=fmt == "jsonl")
    if fmt == "text" and not quiet:
        pages = "" if outcome.pages is None else f", {plural(outcome.pages, 'page')} requested"
        noted = f", {plural(notes, 'note')}" if notes else ""
        print(f"{verdict}: {plural(files, 'file')} checked{pages}, {plural(errors, 'error')}, "
              f"{plural(warnings, 'warning')}{noted}")
    if any(p.rule == "unreadable" for p in problems):
        return 2
    return 1 if failed else 0


def _waiting(folder) -> None:
    print(f"sitemapkit validate: a build is writing into {folder}: waiting for it to finish",
          file=sys.stderr, flush=True)


def file_progress():
    """``progress(file, bytes_read, bytes_total)`` for the run: a progress line for each
    file of ``BIG_FILE`` bytes or more (smaller ones are read in a blink)."""
    lines: dict[str, ProgressLine] = {}

    def show(name: str, done: int, total: int) -> None:
        if total >= BIG_FILE:
            line = lines.get(name) or lines.setdefault(name, ProgressLine(f"of {name} read", megabytes))
            line(done, total)

    return show
