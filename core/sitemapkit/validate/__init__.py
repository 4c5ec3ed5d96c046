"""``sitemapkit validate``: a local Search Console for sitemaps.

``validate(paths, site_dir=None)`` checks sitemap, index, news, text and robots.txt files and
RSS 2.0 / Atom 1.0 feeds, plain or gzip, and returns every problem with its file, line, rule
id and severity. A folder stands for the sitemap files in it (robots.txt first, then indexes,
then the rest); an index's children and robots.txt's ``Sitemap:`` files are followed when they
are at hand (by URL path under ``site_dir``, or beside the file that names them) and inside
the folders given: nothing else is ever opened, and only regular files. The rule ids and what
each checks are in ``protocol.RULES``; the XML checks are in ``validate.xml`` (the streaming),
``xml_values`` and ``xml_extensions`` (each element's value) and ``xml_checks`` (which check
runs on which tag), the feed checks in ``validate.feeds``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sitemapkit.report import Problem
    from sitemapkit.validate.session import Progress

__all__ = ["validate"]


def validate(
    paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    site_dir: str | os.PathLike[str] | None = None,
    *,
    progress: Progress | None = None,
    check_pages: bool = False,
    sample: int | None = None,
    concurrency: int = 4,
    timeout: float = 10.0,
    allow_hosts: Iterable[str] = (),
    max_time: float | None = None,
) -> list[Problem]:
    """Every problem in the files ``paths`` name (files, folders or http(s) URLs, fetched
    with what they name), in file and line order.

    With ``site_dir``, also the sitemap against the built site: listed URLs with no page,
    noindex or non-canonical pages listed, indexable pages not listed. With ``check_pages``,
    every listed URL (or ``sample`` of them) is requested as a crawler would, ``concurrency``
    at a time, each request given ``timeout`` seconds. Only the hosts of URL targets and
    ``allow_hosts`` (``HOST`` or ``HOST:PORT``) are requested. Raises ``NotADirectoryError`` when
    ``site_dir`` is not a folder, ``ValueError`` for a URL that is not http(s). ``max_time``:
    the seconds the whole run may fetch for (``--max-time``; half an hour by default).
    """
    # Loaded here, not with the package: the checks read XML with lxml, the crawler fetches
    # with urllib3 and reads robots.txt with protego, and a build needs none of them.
    from sitemapkit.validate.targets import run_targets

    live = None
    allow_hosts = tuple(allow_hosts)
    if check_pages or allow_hosts or max_time is not None:
        from sitemapkit.validate.crawl import Live

        live = Live(check_pages, sample, concurrency, timeout, allow_hosts=allow_hosts)
        if max_time is not None:
            live.max_time = max_time
    return run_targets(paths, site_dir, progress, live).problems

