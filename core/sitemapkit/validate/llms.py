"""``validate`` on ``llms.txt`` (llmstxt.org): given as a target, or found in ``--site-dir``
(at its root and in each folder below it that holds one, a language's).

The format as the reference parser reads it: the H1 first; then a summary and paragraphs;
then ``##`` sections, each line of which is blank or a link line ``- [title](url)``, with an
optional ``: notes`` (any other line stops the reference parser). With ``--site-dir``, each
link is resolved to a file of the site (a page's Markdown mirror, ``URL.md``, the page, or
another of the site's own ``llms.txt``: the root one of a versioned deployment links each
version's, which is read once, as a file of its own, never through the link);
the page it stands for must be one the checked sitemaps list, and each page they list must be
linked by one ``llms.txt``, once. Checked after the sitemaps, whose listed pages it needs.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import unquote, urlsplit

from sitemapkit.output.llms import mirrored_page
from sitemapkit.output.names import LLMS_NAME
from sitemapkit.site.files import read_regular
from sitemapkit.site.pages import HTML_SUFFIXES, serving_file
from sitemapkit.validate.findings import Findings
from sitemapkit.validate.site import SiteIndex
from sitemapkit.versions import mike_aliases

NAME = LLMS_NAME
MAX_BYTES = 16 << 20
"""An ``llms.txt`` is read up to this size: one that long lists pages no model reads."""
_HEADING = re.compile(r"#[ \t]+\S.*")
_SECTION = re.compile(r"##[ \t]*(.*)")
_LINK = re.compile(r"-\s*\[([^\]]+)\]\(([^)]+)\)(?::\s*(.*))?")
"""A link line as the reference parser reads it (its ``parse_link`` pattern, whole line)."""
_SAFE_URL = re.compile(r"(?:https?://|\.{0,2}/|[^:/?#]+(?:[/?#]|$))\S*", re.IGNORECASE)


def site_files(site: SiteIndex) -> list[Path]:
    """The ``llms.txt`` files of a built site: at its root, and one folder down (a language's,
    or a version's; never a mike alias's, a copy of the version it names)."""
    found = [site.dir / NAME] if (site.dir / NAME).is_file() else []
    aliases = mike_aliases(site.dir)
    found += sorted(path for path in site.dir.glob(f"*/{NAME}")
                    if path.is_file() and path.parent.name not in aliases)
    return found


class LlmsCheck:
    """The ``llms.txt`` files of one run, and the pages they link (``--site-dir``)."""

    def __init__(self, findings: Findings, site: SiteIndex | None) -> None:
        self.findings, self.site = findings, site
        self.sitemaps = False
        """Whether a sitemap was checked (set by the caller): only then is a linked page
        checked against what the sitemaps list."""
        self.linked: dict[str, tuple[str, int]] = {}
        """Built page file -> where an ``llms.txt`` first linked it."""
        self.own = {path.relative_to(site.dir).as_posix() for path in site_files(site)} if site is not None else set()
        """The site's own ``llms.txt`` files, by path below the site root: the ones another may link."""

    def check(self, path: Path) -> None:
        name = str(path)
        self.findings.file_number(name)
        try:
            data = read_regular(path, MAX_BYTES + 1)
        except OSError as error:
            self.findings.add(name, None, "unreadable", f"cannot read {path}: {error}")
            return
        if len(data) > MAX_BYTES:
            self.findings.add(name, None, "llms-format", f"over {MAX_BYTES >> 20} MiB: not read")
            return
        sections = 0
        for number, line, kind in _lines(data.decode("utf-8", "replace")):
            if kind == "heading":
                self.findings.add(name, number, "llms-format",
                                  "the file must start with an H1 (`# Site name`), its only required part")
            elif kind == "h1":
                self.findings.add(name, number, "llms-format", "a second H1: the file has one, on its first line")
            elif kind == "section":
                sections += 1
            elif kind == "loose":
                self.findings.add(name, number, "llms-format",
                                  "a link line before any `##` section: readers take links from sections only")
            elif kind == "other":
                self.findings.add(name, number, "llms-line",
                                  f"not a link line (`- [title](url): notes`) inside a section: {line[:80]!r}")
            elif kind == "link":
                self._link(path, name, number, line)
        if not sections:
            self.findings.add(name, None, "llms-format", "no `##` section: the file links no page")
        self.findings.close_file(name)

    def _link(self, path: Path, name: str, number: int, line: str) -> None:
        found = _LINK.search(line)
        assert found is not None
        url = found.group(2).strip()
        if not _SAFE_URL.fullmatch(url):
            self.findings.add(name, number, "llms-link", f"{url[:80]!r} is neither an http(s) URL nor a path")
            return
        if self.site is None:
            return
        relative = self._relative(path, url)
        if relative is None:
            return  # another site's page: not this site's to resolve
        served = serving_file(self.site.dir, relative)
        if served is None:
            self.findings.add(name, number, "llms-link-missing", f"{url} is no file of {self.site.dir}: a 404")
            return
        if served.rpartition("/")[2] == NAME:  # another llms.txt: a page of none, read as a file of its own
            if served not in self.own:
                self.findings.add(name, number, "llms-link-index",
                                  f"{url} links {served}, no llms.txt of the site's own (an alias's copy of a "
                                  "version's, or one deeper than a version's or language's folder): link the "
                                  "version's own")
            return
        built = serving_file(self.site.dir, mirrored_page(relative))
        if built is None or not built.endswith(HTML_SUFFIXES):
            return  # a Markdown file of the site's own, not a mirror
        if built in self.linked:
            self.findings.add(name, number, "llms-duplicate",
                              f"{url} links {built} again (first at {':'.join(map(str, self.linked[built]))})")
            return
        self.linked[built] = (name, number)
        if self.sitemaps and not self.site.listed(built):
            self.findings.add(name, number, "llms-not-listed",
                              f"{url} links {built}, a page no checked sitemap lists (noindex, excluded, "
                              "canonical elsewhere?): llms.txt and the sitemap should list the same pages")

    def _relative(self, path: Path, url: str) -> str | None:
        """The link's path below the site root (percent-encoded), or None when it is another site's."""
        if re.match(r"https?://", url, re.IGNORECASE):
            return self.site.relative(url) if self.site is not None else None
        folder = path.parent.relative_to(self.site.dir).as_posix() if self.site is not None else ""
        target = urlsplit(url).path
        if target.startswith("/"):
            return target.lstrip("/")
        return ("" if folder == "." else folder + "/") + target

    def unlinked(self) -> Iterator[tuple[str, str]]:
        """``(built file, message)`` for each page the checked sitemaps list that no ``llms.txt``
        links (with ``--site-dir``)."""
        if self.site is None or not self.sitemaps:
            return
        for built in self.site.listed_files():
            if built.endswith(HTML_SUFFIXES) and built not in self.linked:
                yield built, (f"{unquote(built)} is listed in the sitemap but no llms.txt links it: "
                              "the two should list the same pages")


def _lines(text: str) -> Iterator[tuple[int, str, str]]:
    """``(line number, line, kind)`` of each line that matters: ``heading`` (the first is no
    H1), ``h1`` (a second one), ``section``, ``link``, ``loose`` (a link line before any
    section) and ``other`` (any other line inside a section)."""
    first = True
    in_section = False
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped:
            continue
        if first:
            first = False
            if not _HEADING.fullmatch(stripped):
                yield number, stripped, "heading"
            continue
        if _SECTION.fullmatch(stripped):
            in_section = True
            yield number, stripped, "section"
        elif _HEADING.fullmatch(stripped):
            yield number, stripped, "h1"
        elif _LINK.search(stripped):  # as the reference parser takes a link line
            yield number, stripped, "link" if in_section else "loose"
        elif in_section:
            yield number, stripped, "other"
