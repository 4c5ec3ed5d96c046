"""Pages in, entries out: the rules. (Being written.)"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .lastmod import LastmodResolver
from .model import Entry, Page
from .report import Report
from .settings import Settings


def build_entries(
    pages: Iterable[Page],
    settings: Settings,
    *,
    report: Report | None = None,
    lastmod: LastmodResolver | None = None,
) -> Iterator[Entry]:
    raise NotImplementedError
