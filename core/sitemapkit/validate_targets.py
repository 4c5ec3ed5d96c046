"""Which files ``sitemapkit validate`` checks, and in what order: the targets given, the
sitemaps a folder holds, an index's children and robots.txt's ``Sitemap:`` files."""

from __future__ import annotations

import gzip
import os
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

from .validate_rules import MAX_URLS, check_url
from .validate_session import CHUNK, Reader, Scope, Session, folder_of
from .validate_site import SiteIndex
from .validate_xml import XMLChecker

_SNIFF = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?(urlset|sitemapindex|rss|feed)[\s>/]")
_XML_SUFFIXES = (".xml", ".xml.gz")
_TXT_SUFFIXES = (".txt", ".txt.gz")


def run_targets(paths, site_dir, progress) -> Session:
    """Check every file ``paths`` name; the session holds the problems, sorted."""
    if isinstance(paths, str | os.PathLike):
        paths = [paths]
    site = None
    if site_dir is not None:
        if not Path(site_dir).is_dir():
            raise NotADirectoryError(f"--site-dir {site_dir} is not a folder")
        site = SiteIndex(Path(site_dir))
    session = Session(site, progress)
    run = _Targets(session, site)
    for path in paths:
        run.target(Path(path))
    if site is not None and run.urlsets:
        site.unlisted(lambda relative, message: session.add(
            str(site.dir / relative), None, "page-not-listed", message))
    order = {name: n for n, name in enumerate(session.files)}
    session.problems.sort(key=lambda p: (order.get(p.file, len(order)), p.line or 0))
    return session


class _Targets:
    """Finds the files to check and follows the sitemaps they name."""

    def __init__(self, session: Session, site: SiteIndex | None) -> None:
        self.session = session
        self.site = site
        self.done: set[Path] = set()
        self.urlsets = 0

    def target(self, path: Path) -> None:
        if path.is_dir():
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
            self.check(path)

    def _discover(self, folder: Path) -> list[Path]:
        robots, indexes, others = [], [], []
        for here, dirs, files in os.walk(folder):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            names = set(files)
            for name in sorted(files):
                path = Path(here) / name
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

    def _twin(self, plain: Path, packed: Path) -> None:
        """A ``.gz`` twin is checked by comparing it with its plain file, not twice over."""
        self.done.add(packed.resolve())
        try:
            with open(plain, "rb") as one, gzip.open(packed, "rb") as other:
                while True:
                    a, b = one.read(CHUNK), other.read(CHUNK)
                    if a != b:
                        break
                    if not a:
                        return
        except (OSError, EOFError) as error:
            self.session.add(str(packed), None, "unreadable", f"cannot decompress: {error}")
            return
        self.session.add(str(packed), None, "gzip-twin-differs",
                         f"{packed.name} does not decompress to {plain.name}; rebuild both")

    def check(self, path: Path, url: str | None = None, via: tuple[str, int] | None = None) -> None:
        """Check one file; ``via`` names the index entry that listed it, if one did."""
        try:
            resolved = path.resolve()
        except OSError:
            resolved = path
        if resolved in self.done:
            return
        self.done.add(resolved)
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
        if path.name == "robots.txt":
            self._robots(path, name)
            return
        stripped = head.lstrip(b"\xef\xbb\xbf \t\r\n")
        if not stripped.startswith(b"<") and (path.name.endswith(_TXT_SUFFIXES) or stripped[:4] == b"http"):
            self._text(path, name, self._scope(path, url))
            return
        checker = XMLChecker(self.session, path, name, self._scope(path, url))
        kind = checker.run()
        if kind == "urlset":
            self.urlsets += 1
        if kind == "sitemapindex":
            if via is not None:
                self.session.add(via[0], via[1], "index-nested",
                                 f"{url} is itself a sitemap index; an index may list sitemaps "
                                 "only, never another index")
                return
            for loc, line in checker.children:
                self._follow(loc, path.parent, url, (name, line), nested=True)

    def _scope(self, path: Path, url: str | None) -> Scope:
        if url is not None or self.site is None:
            return Scope(url)
        try:
            folder = path.resolve().parent.relative_to(self.site.dir.resolve()).as_posix()
        except ValueError:
            return Scope()
        return Scope(None, self.site, "" if folder == "." else folder + "/")

    def _follow(self, url: str, beside: Path, parent_url: str | None, via: tuple[str, int],
                nested: bool = False) -> None:
        local = self._locate(url, beside, parent_url)
        if local is not None:
            self.check(local, url, via if nested else None)
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
            if relative is not None and (self.site.dir / unquote(relative)).is_file():
                return self.site.dir / unquote(relative)
        path = unquote(urlsplit(url).path)
        if parent_url is not None:
            folder = urlsplit(folder_of(parent_url)).path
            if path.startswith(folder):
                candidate = beside / path[len(folder):]
                if candidate.is_file():
                    return candidate
        segments = [s for s in path.split("/") if s and s != ".."]
        for cut in range(len(segments)):
            candidate = beside.joinpath(*segments[cut:])
            if candidate.is_file():
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
                                 f"'{value[:60]}' is not a URL; a text sitemap holds one absolute "
                                 "URL per line and nothing else")
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
            self.session.listed(number, line, value, "txt")
        if not written:
            self.session.add(name, None, "sitemap-empty", "the text sitemap lists no URL",
                             "warning")
        self.session.close_file(name)

    def _robots(self, path: Path, name: str) -> None:
        self.session.file_number(name)
        named: list[tuple[str, int]] = []
        for line, text in self._lines(path, name):
            field, colon, value = text.partition(":")
            if not colon or field.strip().lower() != "sitemap":
                continue
            value = value.split("#", 1)[0].strip()
            finding = check_url(value, "Sitemap:")
            if finding is not None and finding[0] in ("loc-relative", "loc-scheme"):
                self.session.add(name, line, "robots-sitemap-relative",
                                 f"Sitemap: '{value}' must be a full URL with http:// or "
                                 "https:// and the host; crawlers do not resolve it")
            elif finding is not None:
                self.session.add(name, line, *finding)
            else:
                named.append((value, line))
        if not named:
            self.session.add(name, None, "robots-no-sitemap",
                             "robots.txt names no sitemap; add a 'Sitemap: <full URL>' line")
        self.session.close_file(name)
        for url, line in named:
            root = f"{urlsplit(url).scheme}://{urlsplit(url).netloc}/robots.txt"
            self._follow(url, path.parent, root, (name, line))


def _head(path: Path) -> bytes:
    with open(path, "rb") as raw:
        head = raw.read(4096)
    if head[:2] == b"\x1f\x8b":
        try:
            with gzip.open(path, "rb") as packed:
                head = packed.read(4096)
        except (OSError, EOFError):
            return b"<"  # let the XML reader say what is wrong with it
    return head


def _sniff(path: Path) -> bytes | None:
    try:
        found = _SNIFF.search(_head(path))
    except OSError:
        return None
    return found.group(1) if found else None
