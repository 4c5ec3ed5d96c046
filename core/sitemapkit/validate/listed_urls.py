"""The URLs the checked files list, across files: each listed twice in one channel is a
duplicate, each hreflang alternate must be linked back, and each is handed to the checks
given when the run starts (the built site's, the crawler's sample)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from sitemapkit.return_links import ReturnLinks
from sitemapkit.validate.findings import Findings


class SiteCheck(Protocol):
    """``validate.site.SiteIndex`` as the listed URLs use it (``--site-dir``)."""

    def check_listed(self, loc: str, complain: Callable[[str, str], None]) -> None: ...

    def check_image(self, image: str, complain: Callable[[str, str], None]) -> None: ...


Collect = Callable[[int, int, str], None]
"""``collect(file_number, line, url)``: given each URL the first time it is listed, past none
of a file's first 50,000 (``validate.crawl.Listed`` for ``--check-pages``)."""


class ListedUrls:
    """Remembers each listed URL (a hash of it, with its file number and line) so that a
    second listing is reported with where the first was, and return links are checked
    between listed pages. ``site`` checks each listed URL against the built site;
    ``collect`` is given each URL the first time it is listed."""

    def __init__(self, findings: Findings, site: SiteCheck | None = None,
                 collect: Collect | None = None) -> None:
        self.findings = findings
        self.site = site
        self.collect = collect
        # hash(loc) (or of (channel, loc)) -> file number << 32 | line
        self._seen: dict[int, int] = {}
        self._returns: ReturnLinks[tuple[str, list[tuple[str, str, int]]]] = ReturnLinks(self._seen.__contains__)

    def listed(self, number: int, line: int, loc: str, channel: str = "",
               remember: bool = True) -> None:
        """Record ``loc`` at ``line`` of file ``number``; report a duplicate within one
        channel ("" XML, "news", "txt": a page may be in the news sitemap and the main one).
        ``remember=False`` (URLs past a file's 50,000, which search engines never read)
        checks without keeping anything, so memory stays flat however long the file is."""
        files = self.findings.files
        key = hash((channel, loc)) if channel else hash(loc)
        before = self._seen.get(key)
        if before is None and not remember:
            pass
        elif before is None:
            self._seen[key] = (number << 32) | line
            if self.collect is not None:
                self.collect(number, line, loc)
        else:
            where = f"{files[before >> 32]}:{before & 0xFFFFFFFF}"
            self.findings.add(files[number], line, "duplicate-url",
                              f"'{loc}' is listed twice (first at {where})")
        if self.site is not None:
            self.site.check_listed(loc, lambda rule, message: self.findings.add(
                files[number], line, rule, message))

    def image(self, number: int, line: int, image: str) -> None:
        """Check a listed image against the built site: a same-site image must be a file there."""
        if self.site is not None:
            files = self.findings.files
            self.site.check_image(image, lambda rule, message: self.findings.add(files[number], line, rule, message))

    def alternates(self, number: int, loc: str, links: list[tuple[str, str, int]]) -> None:
        """Check return links between listed pages (``return_links``, the check ``build``
        makes too), before ``loc`` counts as listed."""
        decided, _ = self._returns.add(loc, [href for _, href, _ in links], (self.findings.files[number], links))
        for (file, source_links), index, returned in decided:
            if not returned:
                code, href, line = source_links[index]
                self.findings.add(file, line, "hreflang-no-return",
                                  f"alternate hreflang=\"{code}\" names {href}, whose <url> does not link "
                                  "back; search engines ignore one-way hreflang")

    @property
    def waiting(self) -> bool:
        """Whether some alternate waits for its target's <url> to come."""
        return self._returns.waiting
