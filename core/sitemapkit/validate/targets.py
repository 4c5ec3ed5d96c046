"""Which files ``sitemapkit validate`` checks, and in what order: the targets given, the
sitemaps a folder holds, an index's children and robots.txt's ``Sitemap:`` files. A target
given as an http(s) URL is fetched (``validate.fetch``), and so is what it names when it is
on a host the user named (``validate.reach``); a fetched file goes through the same checks as
a local one, read from the response as it arrives."""

from __future__ import annotations

import contextlib
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from sitemapkit.report import Problem, plural
from sitemapkit.site.lock import Waiting, folder_locked
from sitemapkit.site.owned import chosen_out, named_extras
from sitemapkit.urls import remove_dot_segments
from sitemapkit.validate.feeds import FeedChecker
from sitemapkit.validate.findings import Findings
from sitemapkit.validate.glance import Answers
from sitemapkit.validate.listed_urls import ListedUrls
from sitemapkit.validate.llms import NAME as LLMS_NAME
from sitemapkit.validate.llms import LlmsCheck
from sitemapkit.validate.llms import site_files as llms_files
from sitemapkit.validate.local_files import (
    SNIFF,
    TXT_SUFFIXES,
    XML_SUFFIXES,
    admit,
    discover,
    is_robots_file,
    locate,
    read_head,
    resolved_path,
)
from sitemapkit.validate.session import Scope, Session
from sitemapkit.validate.site import SiteIndex
from sitemapkit.validate.text_files import Follow, check_robots, check_text, robots_like
from sitemapkit.validate.url_targets import fetch_and_check
from sitemapkit.validate.xml import XMLChecker
from sitemapkit.versions import MIKE_VERSIONS

_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")


def is_url(target: object) -> bool:
    """Whether a target is given as a URL (any scheme; only http(s) ones are fetched)."""
    return isinstance(target, str) and _URL.match(target) is not None


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one ``validate`` run found: the files checked, in order, and the problems in file
    and line order; ``answers``: with ``--check-pages``, how many pages were requested and
    what they answered (``None`` without)."""

    files: list[str]
    problems: list[Problem]
    answers: Answers | None = None
    counts: dict[str, int] | None = None
    """Every problem found by severity, those past the shown ones included (None: count
    ``problems``)."""

    def total(self, severity: str) -> int:
        """How many problems of ``severity`` were found, shown or not."""
        if self.counts is not None:
            return self.counts.get(severity, 0)
        return sum(1 for p in self.problems if p.severity == severity)

    @property
    def pages(self) -> int | None:
        """With ``--check-pages``: how many pages were requested."""
        return None if self.answers is None else self.answers.requested


def run_targets(paths, site_dir, progress, live=None, table=None, waiting: Waiting | None = None) -> Outcome:
    """Check every file ``paths`` name. ``live`` (``validate.crawl.Live``): how to fetch URL
    targets, and whether to check the pages the sitemaps list. ``table``
    (``html_report.UrlTable``) is given every ``<url>`` checked.

    While the local files are read, each folder they are read from (the targets' folders
    and ``site_dir``) is locked for reading (``site.lock``): a build into one of them waits,
    or is waited for (``waiting`` is told the folder), so no file is seen half replaced or
    removed between its index and its children."""
    if isinstance(paths, str | os.PathLike):
        paths = [paths]
    site = None
    if site_dir is not None:
        if not Path(site_dir).is_dir():
            raise NotADirectoryError(f"--site-dir {site_dir} is not a folder")
        site = SiteIndex(Path(site_dir))
    paths = [path if is_url(path) else Path(path) for path in paths]
    for path in paths:
        if isinstance(path, str) and urlsplit(path).scheme.lower() not in ("http", "https"):
            raise ValueError(f"{path}: only http and https URLs are fetched")
    roots = [resolved_path(path if path.is_dir() else path.parent) for path in paths if isinstance(path, Path)]
    if site is not None:
        roots.append(resolved_path(site.dir))
    client = listed = None
    urls = [path for path in paths if isinstance(path, str)]
    if live is not None or urls:
        from sitemapkit.validate.crawl import Listed, Live  # urllib3 and protego: loaded only to fetch
        from sitemapkit.validate.fetch import Client
        from sitemapkit.validate.reach import reach_of

        live = live or Live()
        client = Client(live.timeout, live.concurrency, reach_of(urls, live.allow_hosts),
                        deadline=time.monotonic() + live.max_time)
        if live.check_pages:
            listed = Listed(live.sample)
    findings = Findings()
    session = Session(findings, ListedUrls(findings, site, listed), progress=progress, table=table)
    answers = None
    try:
        with contextlib.ExitStack() as reading:
            for folder in sorted(set(roots)):
                reading.enter_context(folder_locked(folder, shared=True, waiting=waiting))
            _run(session, site, roots, paths, client)
        if listed is not None:
            answers = _check_pages(findings, client, live, listed, bool(urls))
    finally:
        if client is not None:
            client.close()
    if client is not None and client.skipped:
        findings.add(str(paths[0]), None, "max-time",
                     f"the run stopped fetching at --max-time ({live.max_time:g} s): "
                     f"{plural(client.skipped, 'URL')} (sitemaps or pages) not fetched, nor checked; "
                     "raise --max-time to check everything")
    return Outcome(findings.files, findings.in_file_order(), answers, dict(findings.counts))


def _check_pages(findings: Findings, client, live, listed, urls_given: bool) -> Answers:
    """``--check-pages``: request the pages ``listed`` holds; how many were requested and
    what they answered."""
    from sitemapkit.validate.crawl import check_pages
    from sitemapkit.validate.fetch import Client
    from sitemapkit.validate.reach import reach_of

    crawler = client
    if not urls_given and listed.items:  # local sitemaps: their site's host (not its address)
        crawler = Client(live.timeout, live.concurrency,
                         reach_of((), live.allow_hosts, site=min(listed.items)[2]), deadline=client.deadline)
    try:
        return check_pages(findings, crawler, live, listed)
    finally:
        if crawler is not client:
            client.skipped += crawler.skipped
            crawler.close()


def _run(session: Session, site: SiteIndex | None, roots: list[Path], paths: list, client) -> None:
    run = _Targets(session, site, roots, client)
    llms = [path for path in paths if isinstance(path, Path) and path.name == LLMS_NAME and path.is_file()]
    paths = [path for path in paths if not any(path is given for given in llms)]
    # robots.txt files among the targets first, all of them before any sitemap they name:
    # which sitemaps each names decides whether a URL on another host is cross-submitted
    run.pending = []
    for path in paths:
        if is_robots_file(path):
            run.target(path)
    pending, run.pending = run.pending, None
    for follow in pending:
        run._follow(*follow)
    for path in paths:
        run.target(path)
    if site is not None and run.urlsets:
        site.unlisted(lambda relative, message: session.findings.add(
            str(site.dir / relative), None, "page-not-listed", message))
    # llms.txt, given or in --site-dir: after the sitemaps, whose pages it must link
    if site is not None:
        llms += [path for path in llms_files(site) if resolved_path(path) not in {resolved_path(p) for p in llms}]
    if llms:
        check = LlmsCheck(session.findings, site)
        check.sitemaps = bool(run.urlsets)
        for path in llms:
            check.check(path)
        for built, message in check.unlinked():
            session.findings.add(str(site.dir / built), None, "llms-page-missing", message)


class _Targets:
    """Finds the files to check and follows the sitemaps they name: what one run has seen
    (the files opened, the URLs fetched, the folders' URL paths), handed to the finders of
    ``local_files``, ``url_targets`` and ``text_files`` as arguments."""

    def __init__(self, session: Session, site: SiteIndex | None, roots: list[Path], client=None) -> None:
        self.session = session
        self.client = client
        """The HTTP client (``validate.fetch.Client``) when a target is a URL."""
        self.fetched: set[str] = set()
        self.site = site
        self.roots = roots
        """The folders validate may open files in: each target's own folder (a folder target
        itself) and --site-dir, resolved. Nothing outside them is ever opened."""
        self.done: set[Path] = set()
        self.folder_paths: dict[Path, str] = {}
        """A local folder's URL path, learned from the first sitemap found in it by the tail
        of its URL: the sitemaps named next are looked for there by that mapping only, so
        another tool's ``/shop/sitemap.xml``, absent here, is never taken for ``sitemap.xml``."""
        self.urlsets = 0
        self.pending: list[Follow] | None = None
        """While robots.txt targets are read first, the sitemaps they name, to follow after."""

    def target(self, path: Path | str) -> None:
        if isinstance(path, str):
            self.check_remote(path, given=True)
        elif path.is_dir():
            files = discover(path, self.session.findings, self.roots, self.done)
            if all(file.name == "robots.txt" for file in files):
                self.session.findings.add(
                    str(path), None, "folder-no-sitemap",
                    "no sitemap in this folder: no sitemap*.txt, no .xml file whose root is <urlset> "
                    "or <sitemapindex>" + (", only robots.txt was checked" if files else ", nothing was checked"),
                )
            for file in files:
                self.check(file)
        else:
            self.check(path, given=True)

    def check(self, path: Path, url: str | None = None, via: tuple[str, int] | None = None,
              robots: frozenset[str] = frozenset(), given: bool = False,
              named_at: tuple[str, int] | None = None) -> None:
        """Check one file. ``via``: the index entry that listed it, if one did; ``named_at``:
        the index entry or robots.txt line that named it (where a refusal to open it is
        reported); ``robots``: the origins whose robots.txt led here; ``given``: a target
        named by the user, opened wherever it is."""
        if not admit(path, self.session.findings, self.roots, self.done, named_at or via, given):
            return
        self.done.add(resolved_path(path))
        name = str(path)
        if not path.is_file():
            self.session.findings.file_number(name)
            self.session.findings.add(name, None, "unreadable", f"{path} does not exist or is not a file")
            return
        try:
            head = read_head(path)
        except OSError as error:
            self.session.findings.file_number(name)
            self.session.findings.add(name, None, "unreadable", f"cannot read {path}: {error}")
            return
        self._dispatch(path, name, head, url, via, robots)

    def check_remote(self, url: str, via: tuple[str, int] | None = None, robots: frozenset[str] = frozenset(),
                     given: bool = False, named_at: tuple[str, int] | None = None) -> None:
        """Fetch the file at ``url`` and check it (once a run); the arguments as ``check``'s."""
        if url in self.fetched:
            return
        self.fetched.add(url)
        fetch_and_check(url, self.client, self.session.findings,
                        lambda fetched, head: self._dispatch(fetched, url, head, url, via, robots),
                        given, named_at or via)

    def _dispatch(self, path, name: str, head: bytes, url: str | None,
                  via: tuple[str, int] | None, robots: frozenset[str]) -> str | None:
        """Check a file (local, or ``fetched.Fetched``) by what its first bytes show it is;
        returns ``"robots"``, ``"text"``, ``"feed"``, ``"xml"`` or ``None`` (not a sitemap)."""
        stripped = head.lstrip(b"\xef\xbb\xbf \t\r\n")
        if path.name == "robots.txt" or (not stripped.startswith(b"<") and robots_like(stripped)):
            follows = check_robots(self.session, path, name)
            if self.pending is not None:
                self.pending.extend(follows)
            else:
                for follow in follows:
                    self._follow(*follow)
            return "robots"
        scope = self._scope(path, url, robots)
        if not stripped.startswith(b"<") and (path.name.endswith(TXT_SUFFIXES) or stripped[:4] == b"http"):
            if stripped and b"://" not in stripped:
                self.session.findings.file_number(name)
                self.session.findings.add(name, None, "not-a-sitemap",
                                          f"{path.name} is not a sitemap: no line of its start "
                                          f"({min(len(stripped), 4096):,} bytes) is a URL, so it is no text "
                                          "sitemap; nothing in it was checked or quoted")
                return None
            check_text(self.session, path, name, scope)
            return "text"
        if (not stripped.startswith(b"<") and not path.name.endswith(XML_SUFFIXES)
                and stripped[:2] not in (b"\xff\xfe", b"\xfe\xff", b"\x00<")):
            self.session.findings.add(name, None, "not-a-sitemap",
                                      f"{path.name} is not a sitemap (XML or text), a feed or a robots.txt"
                                      + ("; it is empty" if not stripped else "") + "; nothing in it was "
                                      "checked")
            return None
        found = SNIFF.search(stripped)
        if found is not None and found.group(1) in (b"rss", b"feed"):
            FeedChecker(self.session, path, name, scope).run()
            return "feed"
        checker = XMLChecker(self.session, path, name, scope)
        kind = checker.run()
        if kind == "urlset":
            self.urlsets += 1
        if kind == "sitemapindex":
            if via is not None:
                self.session.findings.add(via[0], via[1], "index-nested",
                                          f"{url} is itself a sitemap index; an index may list sitemaps "
                                          "only, never another index")
                return "xml"
            found = [self._follow(loc, path.parent, url, (name, line), nested=True, robots=robots)
                     for loc, line in checker.children]
            if via is None and isinstance(path, Path) and (path.parent / MIKE_VERSIONS).is_file():
                self._versions_named(path, name, checker.children, found)
        return "xml"

    def _versions_named(self, path: Path, name: str, children: list[tuple[str, int]],
                        found: list[Path | None]) -> None:
        """The root index of a versioned deployment (``versions.json`` beside it): each
        version the root step would list (``version_index.find_versions``) must be named."""
        from sitemapkit.version_index import find_versions, version_keys

        root = resolved_path(path.parent)
        base = None
        named: set[str] = set()
        for (loc, _), local in zip(children, found, strict=True):
            if local is None:
                continue
            below = resolved_path(local).relative_to(root).as_posix() if resolved_path(local).is_relative_to(
                root) else None
            if below and "/" in below:
                named.add(below.split("/", 1)[0])
                if base is None and loc.endswith("/" + below):
                    base = loc[: -len(below)]
        versions = find_versions(path.parent, path.name, base) if base else None
        chosen = chosen_out(path.parent) or set()  # exclude_versions, as the root step recorded them
        for version in versions.listed if versions else ():
            if version not in named and version_keys(base, [version])[0] not in chosen:
                self.session.findings.add(name, None, "version-not-indexed",
                                          f"version {version} of {MIKE_VERSIONS} has a sitemap of its own that "
                                          f"{path.name} does not name: run the root step after each deploy "
                                          "(sitemapkit build --branch gh-pages)")

    def _scope(self, path: Path, url: str | None, robots: frozenset[str] = frozenset()) -> Scope:
        if url is not None or self.site is None:
            return Scope(url, robots=self.session.robots, named_by=robots,
                         strict_host=self.site is not None)
        try:
            folder = path.resolve().parent.relative_to(self.site.dir.resolve()).as_posix()
        except ValueError:
            return Scope()
        return Scope(None, self.site, "" if folder == "." else folder + "/", self.session.robots)

    def _follow(self, url: str, beside: Path | None, parent_url: str | None, via: tuple[str, int],
                nested: bool = False, robots: frozenset[str] = frozenset()) -> Path | None:
        """Check the sitemap ``url`` names, fetched or at hand; its local file, if one."""
        parts = urlsplit(url)
        path = remove_dot_segments(parts.path)  # "https://h/a/../../x" is "https://h/x"
        if path != parts.path:
            url = parts._replace(path=path).geturl()
        if beside is None:  # named by a fetched file: fetched in turn
            self.check_remote(url, via if nested else None, robots, named_at=via)
            return None
        local = locate(url, beside, parent_url, self.site, self.folder_paths, (via[0],))
        if local is not None:
            self.check(local, url, via if nested else None, robots, named_at=via)
        elif url in named_extras(self.site.dir if self.site is not None else beside, url, None):
            self.session.findings.add(*via, "sitemap-elsewhere", f"{url} is another tool's sitemap "
                                      "(extra_sitemaps, as the build recorded): not checked")
        elif self.site is not None:
            self.session.findings.add(*via, "sitemap-missing", f"{url} is not in {self.site.dir}; "
                                      "it would be a 404")
        else:
            self.session.findings.add(*via, "sitemap-not-found",
                                      f"{url} is not at hand (looked beside {via[0]}); not checked")
        return local
