"""``sitemapkit validate``: a local Search Console for sitemaps.

``validate(paths, site_dir=None)`` checks sitemap, index, news, text and robots.txt files and
RSS 2.0 / Atom 1.0 feeds, plain or gzip, and returns every problem with its file, line, rule
id and severity. A folder stands for the sitemap files in it (robots.txt first, then indexes,
then the rest); an index's children and robots.txt's ``Sitemap:`` files are followed when they
are at hand (by URL path under ``site_dir``, or beside the file that names them) and inside
the folders given: nothing else is ever opened, and only regular files. The rule ids and what
each checks are in ``validate_rules.RULES``; the XML checks are in ``validate_xml``, the feed
checks in ``validate_feed``.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .validate_session import Progress, ValidationProblem

__all__ = ["ValidationProblem", "run_validate", "validate"]


def validate(
    paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    site_dir: str | os.PathLike[str] | None = None,
    *,
    progress: Progress | None = None,
) -> list[ValidationProblem]:
    """Every problem in the files ``paths`` name (files or folders), in file and line order.

    With ``site_dir``, also the sitemap against the built site: listed URLs with no page,
    noindex or non-canonical pages listed, indexable pages not listed. Raises
    ``NotADirectoryError`` when ``site_dir`` is not a folder.
    """
    # The checks (and lxml) load here, not with the package: a build never needs them.
    from .validate_targets import run_targets

    return run_targets(paths, site_dir, progress).problems


# -- command line ---------------------------------------------------------------------------


def run_validate(targets: list[str], site_dir: str | None, fmt: str, strict: bool,
                 progress: bool) -> int:
    """``sitemapkit validate``: print the problems (text lines and a summary, one JSON document,
    or with ``jsonl`` one JSON object per problem) and return the exit status: 0 clean,
    1 problems (warnings only under ``strict``), 2 usage or unreadable input."""
    from .validate_targets import run_targets

    urls = [target for target in targets if _URL_TARGET.match(target)]
    if urls:
        print(f"sitemapkit validate: {urls[0]} is a URL; validate reads local files only for "
              "now: download the sitemap (and robots.txt) and give their paths", file=sys.stderr)
        return 2
    try:
        session = run_targets(targets, site_dir, _show_progress if progress else None)
    except NotADirectoryError as error:
        print(f"sitemapkit validate: {error}", file=sys.stderr)
        return 2
    finally:
        if progress:
            sys.stderr.write("\r\033[K")
    problems = session.problems
    errors = sum(1 for p in problems if p.severity == "error")
    warnings = sum(1 for p in problems if p.severity == "warning")
    files = len(session.files)
    failed = bool(errors or (strict and warnings))
    if fmt == "json":
        json.dump({"files": session.files, "problems": [p.as_dict() for p in problems],
                   "totals": {"files": files, "errors": errors, "warnings": warnings},
                   "ok": not failed}, sys.stdout, ensure_ascii=False, indent=2)
        print()
    else:
        for problem in problems:
            print(json.dumps(problem.as_dict(), ensure_ascii=False) if fmt == "jsonl" else problem,
                  flush=fmt == "jsonl")
    if fmt == "text":
        verdict = "OK" if not problems else "FAILED" if failed else "OK with warnings"
        print(f"{verdict}: {files} file{'s' * (files != 1)} checked, {errors} error"
              f"{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}")
    if any(p.rule == "unreadable" for p in problems):
        return 2
    return 1 if failed else 0


_URL_TARGET = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")


def _show_progress(name: str, done: int, total: int) -> None:
    if total >= 8 * 1024 * 1024:
        sys.stderr.write(f"\r\033[Kchecking {name}: {100 * done // max(total, 1)}%")
        sys.stderr.flush()


def __getattr__(name: str) -> Any:
    if name == "ValidationProblem":
        from .validate_session import ValidationProblem

        return ValidationProblem
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
