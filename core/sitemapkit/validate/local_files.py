"""The local files ``sitemapkit validate`` may open: a folder's sitemaps (its walk, in
order: robots.txt, indexes, the rest), whether a path lies in the folders given, a ``.gz``
twin compared with its plain file, and where a sitemap named by URL is on disk. Each is a
function of what it reads: ``findings`` (where a refusal is told), ``roots`` (the folders
given, resolved) and ``done`` (the files admitted or refused so far, filled here)."""

from __future__ import annotations

import gzip
import os
import re
import stat
import zlib
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

from sitemapkit.site.files import kind_of
from sitemapkit.validate.findings import Findings
from sitemapkit.validate.session import CHUNK, folder_of
from sitemapkit.validate.text_files import robots_like
from sitemapkit.versions import MIKE_VERSIONS, mike_aliases

if TYPE_CHECKING:
    from sitemapkit.validate.site import SiteIndex

SNIFF = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?(urlset|sitemapindex|rss|feed)[\s>/]")
XML_SUFFIXES = (".xml", ".xml.gz")
TXT_SUFFIXES = (".txt", ".txt.gz")


def discover(folder: Path, findings: Findings, roots: list[Path], done: set[Path]) -> list[Path]:
    """The sitemaps and robots.txt files in ``folder`` that may be opened, in the order they
    are checked; a ``.gz`` twin beside its plain file is compared with it here instead."""
    robots, indexes, others = [], [], []
    for here, dirs, files in os.walk(folder):
        # mike's aliases (copies, redirect pages) repeat a version's files under another
        # name: the root index and robots.txt name the versions' own sitemaps only.
        aliases = mike_aliases(Path(here)) if MIKE_VERSIONS in files else set()
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in aliases)
        names = set(files)
        for name in sorted(files):
            path = Path(here) / name
            if not admit(path, findings, roots, done):
                continue
            if name == "robots.txt":
                robots.append(path)
            elif name.endswith(".gz") and name[:-3] in names:
                check_twin(Path(here) / name[:-3], path, findings, roots, done)
            elif name.endswith(TXT_SUFFIXES) and name.startswith("sitemap"):
                others.append(path)
            elif name.endswith(XML_SUFFIXES):
                kind = _sniff(path)
                if kind == b"sitemapindex":
                    indexes.append(path)
                elif kind == b"urlset":
                    others.append(path)
    return robots + indexes + others


def admit(path: Path, findings: Findings, roots: list[Path], done: set[Path],
          via: tuple[str, int] | None = None, given: bool = False) -> bool:
    """Whether ``path`` may be opened: a regular file (a pipe, socket or device would block
    or never end) that, symlinks and ``..`` resolved, lies in a folder validate was given
    (a target named on the command line always may). Reports why not, once."""
    resolved = resolved_path(path)
    if resolved in done:
        return False
    if not given and not any(resolved.is_relative_to(root) for root in roots):
        done.add(resolved)
        file, line = via if via is not None else (str(path), None)
        findings.add(file, line, "outside-targets",
                                  f"{path} resolves to {resolved}, outside the folders given to "
                                  "validate (the targets' folders and --site-dir); not opened")
        return False
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return True  # check() says it is missing
    if not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        done.add(resolved)
        if given:  # what the user asked to check cannot be read: input error, exit 2
            findings.file_number(str(path))
            findings.add(str(path), None, "unreadable",
                                      f"{path} is {kind_of(mode)}, not a regular file; nothing read")
        else:
            findings.add(str(path), None, "not-regular-file",
                                      f"{path} is not a regular file (a pipe, socket or device); skipped")
        return False
    return True


def check_twin(plain: Path, packed: Path, findings: Findings, roots: list[Path], done: set[Path]) -> None:
    """A ``.gz`` twin is checked by comparing it with its plain file, not twice over."""
    done.add(packed.resolve())
    if not admit(plain, findings, roots, done):
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
        findings.add(str(packed), None, "unreadable", f"not a valid gzip file, cannot "
                                  f"decompress: {error}")
        return
    except OSError as error:  # gone or unreadable: not a fault of its gzip data
        findings.add(str(packed), None, "unreadable", f"cannot read "
                                  f"{error.filename or packed}: {error.strerror or error}")
        return
    findings.add(str(packed), None, "gzip-twin-differs",
                              f"{packed.name} does not decompress to {plain.name}; rebuild both")


def locate(url: str, beside: Path, parent_url: str | None, site: SiteIndex | None,
           folder_paths: dict[Path, str], named_by: tuple[str, ...] = ()) -> Path | None:
    """The local file of a sitemap named by URL: under ``site`` (--site-dir) by its path,
    else in the naming file's folder, by the path below that file's own URL when it is known,
    or else by the longest tail of the URL path found there that is not the naming file
    (``named_by``) itself. ``folder_paths``: a local folder's URL path, learned (here) from
    the first sitemap found in it by a tail of its URL."""
    naming = {resolved_path(Path(file)) for file in named_by}
    if site is not None:
        relative = site.relative(url)
        if relative is not None:  # by its path below the site root, never by its name alone
            candidate = site.dir / unquote(relative)
            return candidate if _present(candidate) and resolved_path(candidate) not in naming else None
    path = unquote(urlsplit(url).path)
    if parent_url is not None:
        folder = urlsplit(folder_of(parent_url)).path
        if path.startswith(folder):
            candidate = beside / path[len(folder):]
            if _present(candidate) and resolved_path(candidate) not in naming:
                return candidate  # else: that URL was a guess (robots.txt's, at the host's root)
    segments = [s for s in path.split("/") if s and s != ".."]
    known = folder_paths.get(beside)
    if known is not None:
        rest = [s for s in path[len(known):].split("/") if s and s != ".."] if path.startswith(known) else []
        return beside.joinpath(*rest) if rest and _present(beside.joinpath(*rest)) else None
    for cut in range(len(segments)):
        candidate = beside.joinpath(*segments[cut:])
        if resolved_path(candidate) in naming:
            break  # the naming file itself, found by its name alone: not the sitemap it names
        if _present(candidate):
            folder_paths[beside] = "/" + "".join(segment + "/" for segment in segments[:cut])
            return candidate
    return None


def _present(path: Path) -> bool:
    """Whether something other than a folder is at ``path`` (a stat, nothing opened); a pipe
    counts, so that it is reported as one rather than as missing."""
    try:
        return not stat.S_ISDIR(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def is_robots_file(path: Path | str) -> bool:
    """Whether a target is a robots.txt file (by name, or a regular file read as one)."""
    if isinstance(path, str):  # a URL: by its name only (it is fetched once, in order)
        return urlsplit(path).path.endswith("/robots.txt")
    if path.name == "robots.txt":
        return True
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return False
        stripped = read_head(path).lstrip(b"\xef\xbb\xbf \t\r\n")
    except OSError:
        return False
    return not stripped.startswith(b"<") and robots_like(stripped)


def resolved_path(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # a symlink loop
        return path.absolute()


def read_head(path: Path) -> bytes:
    with open(path, "rb") as raw:
        head = raw.read(4096)
    if head[:2] == b"\x1f\x8b":
        try:
            with gzip.open(path, "rb") as packed:
                head = packed.read(4096)
        except (OSError, EOFError, zlib.error):
            return b"<"  # let the XML reader say what is wrong with it
    return head


def _sniff(path: Path) -> bytes | None:
    try:
        found = SNIFF.search(read_head(path))
    except OSError:
        return None
    return found.group(1) if found else None
