"""Small sitemap documents for the validator's tests: a urlset with every namespace, a
``<url>`` of any content, a file written plain or gzipped, and the rules a run found."""

from __future__ import annotations

import gzip
from datetime import datetime, timezone
from pathlib import Path

from sitemapkit import Problem

NOW = datetime(2026, 1, 15, 12, 0, tzinfo=timezone.utc)
NS = {
    "": "http://www.sitemaps.org/schemas/sitemap/0.9",
    "image": "http://www.google.com/schemas/sitemap-image/1.1",
    "video": "http://www.google.com/schemas/sitemap-video/1.1",
    "news": "http://www.google.com/schemas/sitemap-news/0.9",
    "xhtml": "http://www.w3.org/1999/xhtml",
}
ROOT = "https://example.com/"


def urlset(body: str) -> str:
    declared = " ".join(
        f'xmlns{":" + prefix if prefix else ""}="{uri}"' for prefix, uri in NS.items()
    )
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset {declared}>\n{body}\n</urlset>\n'


def url(inner: str = "", loc: str = ROOT + "a/") -> str:
    return f"<url><loc>{loc}</loc>{inner}</url>"


def write(tmp_path: Path, text: str | bytes, name: str = "sitemap.xml") -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, str):
        text = text.encode("utf-8")
    path.write_bytes(gzip.compress(text, mtime=0) if name.endswith(".gz") else text)
    return path


def rules(problems: list[Problem]) -> set[str]:
    return {p.rule for p in problems}


VIDEO_FULL = """<video:video>
  <video:thumbnail_loc>https://example.com/t.jpg</video:thumbnail_loc>
  <video:title>Grilling steaks</video:title>
  <video:description>How to grill steaks.</video:description>
  <video:content_loc>https://example.com/v.mp4</video:content_loc>
  <video:player_loc>https://example.com/player?v=1</video:player_loc>
  <video:duration>600</video:duration>
  <video:expiration_date>2027-11-05T19:20:30+08:00</video:expiration_date>
  <video:rating>4.2</video:rating>
  <video:view_count>12345</video:view_count>
  <video:publication_date>2025-11-05T19:20:30+08:00</video:publication_date>
  <video:tag>steak</video:tag><video:tag>meat</video:tag>
  <video:family_friendly>yes</video:family_friendly>
  <video:restriction relationship="allow">IE GB US CA</video:restriction>
  <video:requires_subscription>no</video:requires_subscription>
  <video:uploader info="https://example.com/users/grill">GrillyMcGrillerson</video:uploader>
  <video:platform relationship="allow">web tv</video:platform>
  <video:live>no</video:live>
</video:video>"""
NEWS_FULL = """<news:news>
  <news:publication><news:name>The Example Times</news:name><news:language>en</news:language>
  </news:publication>
  <news:publication_date>2026-01-15T08:00:00Z</news:publication_date>
  <news:title>Companies A, B in merger talks</news:title>
</news:news>"""
LINKS = (
    '<xhtml:link rel="alternate" hreflang="en" href="https://example.com/a/"/>'
    '<xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/a/"/>'
    '<xhtml:link rel="alternate" hreflang="x-default" href="https://example.com/a/"/>'
)
