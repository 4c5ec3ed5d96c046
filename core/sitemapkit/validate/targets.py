"""Which files ``sitemapkit validate`` checks, and in what order: the targets given, the
sitemaps a folder holds, an index's children and robots.txt's ``Sitemap:`` files. A target
given as an http(s) URL is fetched (``validate.fetch``), and so is what it names when it is
on a host the user named (``validate.reach``); a fetched file goes through the same checks as
a local one, read from the response as it arrives."""

from __future__ import annotations

import contextlib
import gzip
import os
import re
import stat
import time
import zlib
from pathlib import Path
from urllib.parse import unquote, urlsplit

from sitemapkit.protocol import MAX_URLS
from sitemapkit.site.files import kind_of
from sitemapkit.site.lock import Waiting, folder_locked
from sitemapkit.urls import shown
from sitemapkit.validate.feeds import FeedChecker
from sitemapkit.validate.rules import check_url
from sitemapkit.validate.session import CHUNK, READ_CAP, Reader, Scope, Session, folder_of, origin_of
from sitemapkit.validate.site import SiteIndex
from sitemapkit.validate.xml import XMLChecker
from sitemapkit.versions import MIKE_VERSIONS, mike_aliases

_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")
_SNIFF = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?(urlset|sitemapindex|rss|feed)[\s>/]")
_XML_SUFFIXES = (".xml", ".xml.gz")
_TXT_SUFFIXES = (".txt", ".txt.gz")


def is_url(target: object) -> bool:
    """Whether a target is given as a URL (any scheme; only http(s) ones are fetched)."""
    return isinstance(target, str) and _URL.match(target) is not None


def run_targets(paths, site_dir, progress, live=None, table=None, waiting: Waiting | None = None) -> Session:
    """Check every file ``paths`` name; the session holds the problems, sorted. ``live``
    (``validate.crawl.Live``): how to fetch URL targets, and whether to check the pages
    the sitemaps list (``session.pages``: how many were requested). ``table``
    (``html_report.UrlTable``) is given every ``<url>`` checked.

    While the local files are read, each folder they are read from (the targets' folders
    and ``site_dir``) is locked for reading (``build.lock``): a build into one of them waits,
    or is waited for (``waiting`` is told the folder), so no file is seen half replaced or
    removed between its index and its children."""
    if isinstance(paths, str | os.PathLike):
        paths = [paths]
    site = None
    if site_dir is not None:
        if not Path(site_dir).is_dir():
            raise NotADirectoryError(f"--site-dir {site_dir} is not a folder")
        site = SiteIndex(Path(site_dir))
    session = Session(site, progress)
    session.table = table
    paths = [path if is_url(path) else Path(path) for path in paths]
    for path in paths:
        if isinstance(path, str) and urlsplit(path).scheme.lower() not in ("http", "https"):
            raise ValueError(f"{path}: only http and https URLs are fetched")
    roots = [_resolved(path if path.is_dir() else path.parent) for path in paths if isinstance(path, Path)]
    if site is not None:
        roots.append(_resolved(site.dir))
    client = listed = None
    urls = [path for path in paths if isinstance(path, str)]
    if live is not None or urls:
        from sitemapkit.validate.crawl import Listed, Live  # urllib3 and protego: loaded only to fetch
        from sitemapkit.validate.fetch import Client
        from sitemapkit.validate.reach import reach_of

        live = live or Live()
        client = Client(live.timeout, live.concurrency, reach_of(urls, live.allow_hosts))
        if live.check_pages:
            listed = session.collect = Listed(live.sample)
    try:
        with contextlib.ExitStack() as reading:
            for folder in sorted(set(roots)):
                reading.enter_context(folder_locked(folder, shared=True, waiting=waiting))
            _run(session, site, roots, paths, client)
        if listed is not None:
            from sitemapkit.validate.crawl import check_pages

            crawler = client
            if not urls and listed.items:  # local sitemaps: their site's host (not its address)
                crawler = Client(live.timeout, live.concurrency,
                                 reach_of((), live.allow_hosts, site=min(listed.items)[2]))
            try:
                session.pages = check_pages(session, crawler, live, listed)
            finally:
                if crawler is not client:
                    crawler.close()
    finally:
        if client is not None:
            client.close()
    order = {name: n for n, name in enumerate(session.files)}
    session.problems.sort(key=lambda p: (order.get(p.where, len(order)), p.line or 0))
    return session


def _run(session: Session, site: SiteIndex | None, roots: list[Path], paths: list, client) -> None:
    run = _Targets(session, site, roots, client)
    # robots.txt files among the targets first, all of them before any sitemap they name:
    # which sitemaps each names decides whether a URL on another host is cross-submitted
    run.pending = []
    for path in paths:
        if _is_robots_file(path):
            run.target(path)
    pending, run.pending = run.pending, None
    for follow in pending:
        run._follow(*follow)
    for path in paths:
        run.target(path)
    if site is not None and run.urlsets:
        site.unlisted(lambda relative, message: session.add(
            str(site.dir / relative), None, "page-not-listed", message))


class _Targets:
    """Finds the files to check and follows the sitemaps they name."""

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
        self.pending: list[tuple] | None = None
        """While robots.txt targets are read first, the sitemaps they name, to follow after."""

    def target(self, path: Path | str) -> None:
        if isinstance(path, str):
            self.check_remote(path, given=True)
        elif path.is_dir():
            files = self._discover(path)
            if all(file.name == "robots.txt" for file in files):
                self.session.add(
                    str(path), None, "folder-no-sitemap",
                    "no sitemap in this folder: no sitemap*.txt, no .xml file whose root is <urlset> "
                    "or <sitemapindex>" + (", only robots.txt was checked" if files else ", nothing was checked"),
                )
            for file in files:
                self.check(file)
        else:
            self.check(path, given=True)

    def _discover(self, folder: Path) -> list[Path]:
        robots, indexes, others = [], [], []
        for here, dirs, files in os.walk(folder):
            # mike's aliases (copies, redirect pages) repeat a version's files under another
            # name: the root index and robots.txt name the versions' own sitemaps only.
            aliases = mike_aliases(Path(here)) if MIKE_VERSIONS in files else set()
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in aliases)
            names = set(files)
            for name in sorted(files):
                path = Path(here) / name
                if not self._admit(path):
                    continue
                if name == "robots.txt":
                    robots.append(path)
                elif name.endswith(".gz") and name[:-3] in names:
                    self._twin(Path(here) / name[:-3], path)
                elif name.endswith(_TXT_SUFFIXES) and name.startswith("sitemap"):
                    others.append(path)
                elif name.endswith(_XML_SUFFIXES):
                    kind = _sniff(path)
                    if kind == b"sitemapindex":
                        indexes.append(path)
                    elif kind == b"urlset":
                        others.append(path)
        return robots + indexes + others

    def _admit(self, path: Path, via: tuple[str, int] | None = None,
               given: bool = False) -> bool:
        """Whether ``path`` may be opened: a regular file (a pipe, socket or device would block
        or never end) that, symlinks and ``..`` resolved, lies in a folder validate was given
        (a target named on the command line always may). Reports why not, once."""
        resolved = _resolved(path)
        if resolved in self.done:
            return False
        if not given and not any(resolved.is_relative_to(root) for root in self.roots):
            self.done.add(resolved)
            file, line = via if via is not None else (str(path), None)
            self.session.add(file, line, "outside-targets",
                             f"{path} resolves to {resolved}, outside the folders given to "
                             "validate (the targets' folders and --site-dir); not opened")
            return False
        try:
            mode = os.stat(path).st_mode
        except OSError:
            return True  # check() says it is missing
        if not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
            self.done.add(resolved)
            if given:  # what the user asked to check cannot be read: input error, exit 2
                self.session.file_number(str(path))
                self.session.add(str(path), None, "unreadable",
                                 f"{path} is {kind_of(mode)}, not a regular file; nothing read")
            else:
                self.session.add(str(path), None, "not-regular-file",
                                 f"{path} is not a regular file (a pipe, socket or device); skipped")
            return False
        return True

    def _twin(self, plain: Path, packed: Path) -> None:
        """A ``.gz`` twin is checked by comparing it with its plain file, not twice over."""
        self.done.add(packed.resolve())
        if not self._admit(plain):
            return
        try:
            with open(plain, "rb") as one, gzip.open(packed, "rb") as other:
                while True:
                    a, b = one.read(CHUNK), other.read(CHUNK)
                    if a != b:
                        break
                    if not a:
                        return
        except (gzip.BadGzipFile, EOFError, zlib.error) as error:
            self.session.add(str(packed), None, "unreadable", f"not a valid gzip file, cannot "
                             f"decompress: {error}")
            return
        except OSError as error:  # gone or unreadable: not a fault of its gzip data
            self.session.add(str(packed), None, "unreadable", f"cannot read "
                             f"{error.filename or packed}: {error.strerror or error}")
            return
        self.session.add(str(packed), None, "gzip-twin-differs",
                         f"{packed.name} does not decompress to {plain.name}; rebuild both")

    def check(self, path: Path, url: str | None = None, via: tuple[str, int] | None = None,
              robots: frozenset[str] = frozenset(), given: bool = False,
              named_at: tuple[str, int] | None = None) -> None:
        """Check one file. ``via``: the index entry that listed it, if one did; ``named_at``:
        the index entry or robots.txt line that named it (where a refusal to open it is
        reported); ``robots``: the origins whose robots.txt led here; ``given``: a target
        named by the user, opened wherever it is."""
        if not self._admit(path, named_at or via, given):
            return
        self.done.add(_resolved(path))
        name = str(path)
        if not path.is_file():
            self.session.file_number(name)
            self.session.add(name, None, "unreadable", f"{path} does not exist or is not a file")
            return
        try:
            head = _head(path)
        except OSError as error:
            self.session.file_number(name)
            self.session.add(name, None, "unreadable", f"cannot read {path}: {error}")
            return
        self._dispatch(path, name, head, url, via, robots)

    def _dispatch(self, path, name: str, head: bytes, url: str | None,
                  via: tuple[str, int] | None, robots: frozenset[str]) -> str | None:
        """Check a file (local, or ``fetch.Fetched``) by what its first bytes show it is;
        returns ``"robots"``, ``"text"``, ``"feed"``, ``"xml"`` or ``None`` (not a sitemap)."""
        stripped = head.lstrip(b"\xef\xbb\xbf \t\r\n")
        if path.name == "robots.txt" or (not stripped.startswith(b"<") and _robots_like(stripped)):
            self._robots(path, name)
            return "robots"
        scope = self._scope(path, url, robots)
        if not stripped.startswith(b"<") and (path.name.endswith(_TXT_SUFFIXES) or stripped[:4] == b"http"):
            if stripped and b"://" not in stripped:
                self.session.file_number(name)
                self.session.add(name, None, "not-a-sitemap",
                                 f"{path.name} is not a sitemap: no line of its start "
                                 f"({min(len(stripped), 4096):,} bytes) is a URL, so it is no text "
                                 "sitemap; nothing in it was checked or quoted")
                return None
            self._text(path, name, scope)
            return "text"
        if (not stripped.startswith(b"<") and not path.name.endswith(_XML_SUFFIXES)
                and stripped[:2] not in (b"\xff\xfe", b"\xfe\xff", b"\x00<")):
            self.session.add(name, None, "not-a-sitemap",
                             f"{path.name} is not a sitemap (XML or text), a feed or a robots.txt"
                             + ("; it is empty" if not stripped else "") + "; nothing in it was "
                             "checked")
            return None
        found = _SNIFF.search(stripped)
        if found is not None and found.group(1) in (b"rss", b"feed"):
            FeedChecker(self.session, path, name, scope).run()
            return "feed"
        checker = XMLChecker(self.session, path, name, scope)
        kind = checker.run()
        if kind == "urlset":
            self.urlsets += 1
        if kind == "sitemapindex":
            if via is not None:
                self.session.add(via[0], via[1], "index-nested",
                                 f"{url} is itself a sitemap index; an index may list sitemaps "
                                 "only, never another index")
                return "xml"
            for loc, line in checker.children:
                self._follow(loc, path.parent, url, (name, line), nested=True, robots=robots)
        return "xml"

    def check_remote(self, url: str, via: tuple[str, int] | None = None,
                     robots: frozenset[str] = frozenset(), given: bool = False,
                     named_at: tuple[str, int] | None = None) -> None:
        """Fetch one file by URL (up to 5 redirects, http(s) only) and check it as a local
        one, read from the response as it arrives and never past the local limits. A file
        that cannot be fetched is ``unreadable`` when given, else ``sitemap-fetch`` where it
        was named; a 200 answer is also checked for its Content-Type."""
        from sitemapkit.validate.fetch import (  # urllib3
            MAX_WAIT,
            Fetched,
            FetchError,
            Refusal,
            check_content_type,
            retry_after,
        )

        if url in self.fetched:
            return
        self.fetched.add(url)
        try:
            answer = self.client.fetch(url)
            delay = retry_after(answer)
            if delay is not None and delay <= MAX_WAIT:  # asked to come back soon: once
                answer.close()
                time.sleep(delay)
                answer = self.client.fetch(url)
            elif delay is not None:
                self.session.add(*(named_at or via or (url, None)), "wait-capped",
                                 f"{url} answered HTTP {answer.status} with Retry-After: {delay:g} s, "
                                 f"longer than sitemapkit waits ({MAX_WAIT:g} s); not asked again")
        except FetchError as error:
            rule = "fetch-refused" if isinstance(error, Refusal) else "sitemap-fetch"
            return self._unfetched(url, str(error), given, named_at or via, rule)
        try:
            if answer.status != 200:
                reason = answer.response.reason or ""
                return self._unfetched(url, f"it answered HTTP {answer.status} {reason}".rstrip(),
                                       given, named_at or via)
            fetched = Fetched(url, answer, READ_CAP)
            raw = fetched.open_body().peek(16 * 1024)
            kind = self._dispatch(fetched, url, _unpacked(raw), url, via, robots)
            if kind is not None:
                check_content_type(self.session, url, answer.header("Content-Type"), kind,
                                   raw[:2] == b"\x1f\x8b")
        finally:
            answer.close()

    def _unfetched(self, url: str, why: str, given: bool, named_at: tuple[str, int] | None,
                   rule: str = "sitemap-fetch") -> None:
        if given or named_at is None:
            self.session.file_number(url)
            self.session.add(url, None, "unreadable", f"cannot fetch {url}: {why}")
        elif rule == "fetch-refused":
            self.session.add(*named_at, rule, why if why.startswith(url) else f"{url} was not fetched: {why}")
        else:
            self.session.add(*named_at, rule, f"{url} cannot be fetched: {why}")

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
                nested: bool = False, robots: frozenset[str] = frozenset()) -> None:
        url = without_dot_segments(url)
        if beside is None:  # named by a fetched file: fetched in turn
            self.check_remote(url, via if nested else None, robots, named_at=via)
            return
        local = self._locate(url, beside, parent_url)
        if local is not None:
            self.check(local, url, via if nested else None, robots, named_at=via)
        elif self.site is not None and self.site.relative(url) is not None:
            self.session.add(*via, "page-missing", f"{url} is not in {self.site.dir}; "
                             "it would be a 404")
        else:
            self.session.add(*via, "sitemap-not-found",
                             f"{url} is not at hand (looked beside {via[0]}); not checked")

    def _locate(self, url: str, beside: Path, parent_url: str | None) -> Path | None:
        """The local file of a sitemap named by URL: under --site-dir by its path, else in the
        naming file's folder, by the path below that file's own URL when it is known, or else
        by the longest tail of the URL path found there."""
        if self.site is not None:
            relative = self.site.relative(url)
            if relative is not None and _present(self.site.dir / unquote(relative)):
                return self.site.dir / unquote(relative)
        path = unquote(urlsplit(url).path)
        if parent_url is not None:
            folder = urlsplit(folder_of(parent_url)).path
            if path.startswith(folder):
                candidate = beside / path[len(folder):]
                if _present(candidate):
                    return candidate
        segments = [s for s in path.split("/") if s and s != ".."]
        known = self.folder_paths.get(beside)
        if known is not None:
            rest = [s for s in path[len(known):].split("/") if s and s != ".."] if path.startswith(known) else []
            return beside.joinpath(*rest) if rest and _present(beside.joinpath(*rest)) else None
        for cut in range(len(segments)):
            candidate = beside.joinpath(*segments[cut:])
            if _present(candidate):
                self.folder_paths[beside] = "/" + "".join(segment + "/" for segment in segments[:cut])
                return candidate
        return None

    # -- text sitemaps and robots.txt ------------------------------------------------------

    def _lines(self, path: Path, name: str):
        """``(number, text)`` of each line, decoded as UTF-8; bounded like every read."""
        reader = Reader(path, name, self.session.progress)
        rest = b""
        number = 0
        bad_encoding = False
        try:
            while True:
                chunk = reader.read(CHUNK)
                if not chunk:
                    break
                *lines, rest = (rest + chunk).split(b"\n")
                for raw in lines:
                    number += 1
                    try:
                        yield number, raw.decode("utf-8")
                    except UnicodeDecodeError:
                        if not bad_encoding:
                            self.session.add(name, number, "encoding",
                                             "this line is not UTF-8; the file must be UTF-8")
                        bad_encoding = True
            if rest and not reader.over:
                yield number + 1, rest.decode("utf-8", "replace")
        finally:
            reader.close()
            if reader.error:
                self.session.add(name, None, "unreadable", reader.error)
            if reader.over:
                self.session.add(name, None, "size-limit", "the file is over 52,428,800 bytes "
                                 "uncompressed; split it")

    def _text(self, path: Path, name: str, scope: Scope) -> None:
        number = self.session.file_number(name)
        count = written = 0
        for line, text in self._lines(path, name):
            value = text.strip().lstrip("\ufeff")
            if not value:
                continue
            written += 1
            if "://" not in value or " " in value.split("://", 1)[0]:
                self.session.add(name, line, "txt-line",
                                 f"'{shown(value, 60)}' is not a URL; a text sitemap holds one "
                                 "absolute URL per line and nothing else")
                continue
            finding = scope.check(value, "URL", minimum=False)
            if finding is not None:
                self.session.add(name, line, *finding)
                if finding[0] not in ("loc-fragment", "loc-host", "loc-scope"):
                    continue
            count += 1
            if count == MAX_URLS + 1:
                self.session.add(name, line, "url-count",
                                 f"more than {MAX_URLS:,} URLs in one text sitemap; split it")
            self.session.listed(number, line, value, "txt", remember=count <= MAX_URLS)
        if not written:
            self.session.add(name, None, "sitemap-empty", "the text sitemap lists no URL",
                             "warning")
        self.session.close_file(name)

    def _robots(self, path: Path, name: str) -> None:
        """A robots.txt (by name, or by content: lines of robots fields): its ``Sitemap:``
        lines (field names in any case), misspelt ones, and the sitemaps they name."""
        self.session.file_number(name)
        named: list[tuple[str, int]] = []
        sitemap_lines = 0
        for line, text in self._lines(path, name):
            field, colon, value = text.partition(":")
            if not colon:
                continue
            field = field.strip().lstrip("\ufeff")
            value = value.split("#", 1)[0].strip()
            if field.lower() != "sitemap":
                if _MISSPELT.fullmatch(field):
                    sitemap_lines += 1
                    self.session.add(name, line, "robots-sitemap-field",
                                     f"'{shown(field, 60)}:' is not a field crawlers read, so "
                                     f"'{shown(value, 60)}' is ignored; write 'Sitemap:'")
                continue
            sitemap_lines += 1
            finding = check_url(value, "Sitemap:")
            if finding is not None and finding[0] == "loc-relative":
                self.session.add(name, line, "robots-sitemap-relative",
                                 f"Sitemap: '{value}' is a relative URL; write the full URL "
                                 "with http:// or https:// and the host (crawlers do not "
                                 "resolve it)")
            elif finding is not None:
                self.session.add(name, line, *finding)
            else:
                named.append((value, line))
        if not sitemap_lines:
            self.session.add(name, None, "robots-no-sitemap",
                             "robots.txt names no sitemap; add a 'Sitemap: <full URL>' line")
        self.session.close_file(name)
        if not named:
            return
        # The host this robots.txt is served from: a file cannot say; the host of the first
        # sitemap it names is the usual answer (cross-submission names others after it).
        origin = origin_of(getattr(path, "url", None) or named[0][0])  # a fetched one knows
        self.session.robots.setdefault(origin, set()).update(url for url, _ in named)
        for url, line in named:
            follow = (url, path.parent, origin_of(url) + "robots.txt", (name, line), False,
                      frozenset({origin}))
            if self.pending is not None:
                self.pending.append(follow)
            else:
                self._follow(*follow)


_MISSPELT = re.compile(r"(?i)(xml[\s_-]*)?site[\s_-]*maps?([\s_-]*url)?")
"""Field names meant as ``Sitemap`` that crawlers do not read (``Site-map``, ``Sitemaps``)."""
# A robots.txt record, known or not (RFC 9309, 2.2.4: crawlers skip the ones they do not
# know): a field name, then a colon; never a URL's scheme ("https://" is a text sitemap's line).
_RECORD = re.compile(rb"[A-Za-z][\w-]*[ \t]*:(?!//)")
_GROUP_OR_SITEMAP = re.compile(rb"(?i)(?:user-?agent|sitemap)[ \t]*:")


def _robots_like(head: bytes) -> bool:
    """Whether a file reads as robots.txt: most full lines of its start (comments and blank
    lines aside) are ``field: value`` records, and one is ``User-agent`` or ``Sitemap``. Records
    no crawler knows (``Content-Signal:``, ``Robot-version:``, a misspelt ``Desallow:``) count:
    crawlers skip them. A text sitemap's lines are URLs, which never match."""
    lines = head.split(b"\n")
    if len(head) >= 4096:
        lines = lines[:-1]  # the last one may be cut
    fields = [line.strip() for line in lines if line.strip() and not line.strip().startswith(b"#")]
    records = sum(1 for line in fields if _RECORD.match(line))
    return records * 2 > len(fields) and any(_GROUP_OR_SITEMAP.match(line) for line in fields)


def without_dot_segments(url: str) -> str:
    """``url`` with its path's ``.`` and ``..`` segments (``%2e`` too) removed as RFC 3986
    (5.2.4) says: ``https://h/a/../../x`` is ``https://h/x``, never above the root."""
    parts = urlsplit(url)
    segments = parts.path.split("/")
    if not any(unquote(segment) in (".", "..") for segment in segments):
        return url
    kept: list[str] = []
    for segment in segments[1:]:
        dots = unquote(segment)
        if dots == "..":
            if kept:
                kept.pop()
        elif dots != ".":
            kept.append(segment)
    if unquote(segments[-1]) in (".", ".."):
        kept.append("")  # "a/.." names the folder: keep its slash
    return parts._replace(path="/" + "/".join(kept)).geturl()


def _present(path: Path) -> bool:
    """Whether something other than a folder is at ``path`` (a stat, nothing opened); a pipe
    counts, so that it is reported as one rather than as missing."""
    try:
        return not stat.S_ISDIR(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def _is_robots_file(path: Path | str) -> bool:
    """Whether a target is a robots.txt file (by name, or a regular file read as one)."""
    if isinstance(path, str):  # a URL: by its name only (it is fetched once, in order)
        return urlsplit(path).path.endswith("/robots.txt")
    if path.name == "robots.txt":
        return True
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return False
        stripped = _head(path).lstrip(b"\xef\xbb\xbf \t\r\n")
    except OSError:
        return False
    return not stripped.startswith(b"<") and _robots_like(stripped)


def _resolved(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # a symlink loop
        return path.absolute()


def _head(path: Path) -> bytes:
    with open(path, "rb") as raw:
        head = raw.read(4096)
    if head[:2] == b"\x1f\x8b":
        try:
            with gzip.open(path, "rb") as packed:
                head = packed.read(4096)
        except (OSError, EOFError, zlib.error):
            return b"<"  # let the XML reader say what is wrong with it
    return head


def _unpacked(raw: bytes) -> bytes:
    """The first bytes of a fetched file, gunzipped when it is gzip (at most 4 KiB)."""
    if raw[:2] != b"\x1f\x8b":
        return raw[:4096]
    try:
        return zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(raw, 4096)
    except zlib.error:
        return b"<"  # let the XML reader say what is wrong with it


def _sniff(path: Path) -> bytes | None:
    try:
        found = _SNIFF.search(_head(path))
    except OSError:
        return None
    return found.group(1) if found else None
