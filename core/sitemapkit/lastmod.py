"""Where a page's lastmod comes from: metadata, git, or the content-fingerprint manifest.
(Being written: see the lastmod task.)"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from .model import Moment, Page
from .report import Report
from .settings import Settings


@dataclass
class Changes:
    """What changed since the last build, from the manifest."""

    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)


class LastmodResolver:
    def __init__(self, settings: Settings, project_dir: Path, report: Report, now: datetime) -> None:
        self.settings = settings
        self.project_dir = project_dir
        self.report = report
        self.now = now

    def lastmod(
        self, page: Page, loc: str, digest: str | None, title: str | None = None
    ) -> Moment | None:
        """The first answer of the sources in ``settings.lastmod``.

        ``digest`` is a hash of the page's main content (None when no HTML was read); it is
        recorded in the manifest whatever source answers, with ``title`` for the change feed.
        """
        if "meta" in self.settings.lastmod and page.modified is not None:
            return page.modified
        return None

    def finish(self) -> Changes:
        """Save the manifest; say what changed."""
        return Changes()
