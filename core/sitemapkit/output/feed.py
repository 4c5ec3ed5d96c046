"""The change feed: an Atom 1.0 feed of the pages that changed most recently.

sitemaps.org accepts Atom feeds as sitemaps; this one is the delta beside the full sitemap.
A page's moment is the lastmod the sitemap gave it or, without one, when its content was
first seen with its current digest. Newest first, ties by URL; the feed's ``updated`` is its
newest entry, so an unchanged site gives the same bytes.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import urlsplit

from sitemapkit.dates import as_datetime, format_moment, parse_moment
from sitemapkit.lastmod.manifest import Manifest
from sitemapkit.lastmod.state import Record, atomic_text
from sitemapkit.output.names import feed_name
from sitemapkit.output.render import DECLARATION, escape
from sitemapkit.protocol import ATOM_NS
from sitemapkit.settings import Settings
from sitemapkit.site.files import Sink
from sitemapkit.urls import absolute

_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def _moment(record: Record) -> datetime:
    # Atom wants a full date-time (RFC 3339): a date-only lastmod counts as its midnight UTC.
    return as_datetime(parse_moment(record.lastmod or record.first_seen))


def latest_changes(
    records: Iterable[tuple[str, Record]], count: int
) -> list[tuple[datetime, str, Record]]:
    """The ``count`` most recently changed pages, newest first, ties in URL order; only
    ``count`` are held, however many records stream through."""
    keyed = ((_moment(record), loc, record) for loc, record in records)
    return heapq.nsmallest(count, keyed, key=lambda item: (-item[0].timestamp(), item[1]))


def write_changes_feed(
    manifest: Manifest, site_dir: Path | str, settings: Settings, sink: Sink | None = None
) -> tuple[Path, datetime]:
    """Write ``{stem}-changes.atom`` into ``site_dir`` from this build's manifest records
    (once ``manifest.finish()`` has run); return its path and its ``updated`` time.
    ``sink``: the disk by default; a dry run's only counts the bytes."""
    base_url = settings.base_url
    path = Path(site_dir) / feed_name(settings.filename)
    url = absolute(base_url, path.name)
    changes = latest_changes(manifest.records(), settings.changes_feed or 0)
    updated = changes[0][0] if changes else _EPOCH
    site = escape(urlsplit(base_url).netloc + urlsplit(base_url).path.rstrip("/"))
    with atomic_text(path, sink) as out:
        out.write(
            f'{DECLARATION}<feed xmlns="{ATOM_NS}">\n'
            f"<id>{escape(url)}</id>\n"
            f"<title>Recent changes: {site}</title>\n"
            f"<updated>{format_moment(updated)}</updated>\n"
            f'<link rel="self" href="{escape(url)}"/>\n'
            f'<link href="{escape(base_url)}"/>\n'
            f"<author><name>{site}</name></author>\n"
            f"<generator>sitemapkit</generator>\n"
        )
        for moment, loc, record in changes:
            out.write(
                f"<entry><id>{escape(loc)}</id><title>{escape(record.title or loc)}</title>"
                f'<link href="{escape(loc)}"/><updated>{format_moment(moment)}</updated></entry>\n'
            )
        out.write("</feed>\n")
    return path, updated
