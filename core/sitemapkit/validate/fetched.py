"""A file fetched by URL as the local readers take a file (``Fetched``), and the check of the
Content-Type it is served with (``check_content_type``)."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from sitemapkit.validate.fetch import RESPONSE_SECONDS, Answer, Body

_TYPES = {
    "robots": ("text/plain",),
    "text": ("text/plain",),
    "xml": ("application/xml", "text/xml"),
    "feed": ("application/xml", "text/xml", "application/rss+xml", "application/atom+xml"),
    "gzip": ("application/gzip", "application/x-gzip", "application/octet-stream"),
}


def check_content_type(findings, url: str, value: str, kind: str, gzipped: bool) -> None:
    """``sitemap-content-type`` when the type a fetched file is served as is not one its kind
    (``"robots"``, ``"text"``, ``"xml"``, ``"feed"``; gzip whatever it holds) is served with."""
    served = value.split(";")[0].strip().lower()
    allowed = _TYPES["gzip" if gzipped else kind]
    if served in allowed:
        return
    what = {"robots": "a robots.txt", "text": "a text sitemap", "feed": "a feed"}.get(kind, "an XML sitemap")
    findings.add(url, None, "sitemap-content-type",
                 f"{url} is served as Content-Type: {served or '(none)'}; "
                 f"{'a gzip file' if gzipped else what} is served as {' or '.join(allowed[:2])}")


@dataclass
class Fetched:
    """A sitemap, index, feed or robots.txt fetched by URL, as the local readers take a file:
    ``name`` (the last path segment, for the checks that look at it) and ``open_body()``."""

    url: str
    answer: Answer
    limit: int
    name: str = ""
    parent = None
    """No folder to look beside: what a fetched file names is fetched in turn."""

    def __post_init__(self) -> None:
        self.name = urlsplit(self.url).path.rsplit("/", 1)[-1]
        self._body = self.answer.body(self.limit, RESPONSE_SECONDS * self.answer.client.timeout)

    def open_body(self) -> Body:
        return self._body

    def __str__(self) -> str:
        return self.url
