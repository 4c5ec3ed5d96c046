"""robots.txt: add our ``Sitemap:`` lines (and take out those naming files we no longer
write), keep every other byte, in the file's own line-ending style."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from urllib.parse import urlsplit

from sitemapkit.patterns import lazy_pattern
from sitemapkit.protocol import ROBOTS_READ_BYTES, sitemap_record_pattern
from sitemapkit.report import Problem, SitemapError
from sitemapkit.settings import Settings
from sitemapkit.site.files import Sink, faults_named, read_regular

NEW_ROBOTS = "User-agent: *\nDisallow:\n\nSitemap: {url}\n"


def host_robots(base_url: str) -> str | None:
    """The robots.txt crawlers read for a site below its host's root (``base_url`` with a
    path: ``https://example.org/robots.txt`` for ``https://example.org/docs/``), where a
    robots.txt in the site's own folder would never be read; None for a site at the root."""
    parts = urlsplit(base_url)
    return f"{parts.scheme}://{parts.netloc}/robots.txt" if parts.path not in ("", "/") else None


def robots_where_read(settings: Settings, site_dir: Path, entry: str) -> tuple[Settings, Problem | None]:
    """The settings with robots.txt off for a site below its host's root that has none of its
    own (crawlers would never read one created there), with the note naming the line for the
    root's (``entry``: the file it names); one the site ships is its owner's, kept up to date.
    ``extra_sitemaps`` with no robots.txt and no index to name them is refused (``SitemapError``):
    they would be written nowhere (a mike version's build never has them: the root step
    names them, ``versions.for_the_root``)."""
    note = None
    root = host_robots(settings.base_url)
    if settings.robots_txt and root is not None and not (site_dir / "robots.txt").exists():
        settings = settings.replace(robots_txt=False)
        note = Problem("settings", "robots-below-root", f"robots.txt not written: crawlers read only {root}; "
                       f"add the line 'Sitemap: {settings.base_url}{entry}' there", "info", field="robots_txt")
    if settings.extra_sitemaps and not settings.robots_txt and not settings.sections:
        raise SitemapError("option 'extra_sitemaps' has nowhere to go: this build writes no robots.txt and "
                           "no sitemap index; name those sitemaps in the robots.txt at the host's root")
    return settings, note


class RobotsTooLarge(Exception):
    """A robots.txt over ``protocol.ROBOTS_READ_BYTES``: left as it is, so it names none of
    ``wanted``."""

    def __init__(self, path: Path, size: int) -> None:
        super().__init__(f"{path} is over {ROBOTS_READ_BYTES:,} bytes; left as it is")
        self.path, self.size = path, size


def update_robots_txt(site_dir: Path, sitemap_url: str | Iterable[str]) -> Path:
    """Create ``robots.txt`` naming the sitemap URL(s), or add a ``Sitemap:`` line for each
    one the file lacks. A file that names them all already is not touched at all (bytes and
    mtime), so a rebuild changes nothing."""
    urls = [sitemap_url] if isinstance(sitemap_url, str) else list(sitemap_url)
    sync_robots_txt(site_dir, urls, ())
    return Path(site_dir) / "robots.txt"


def drop_sitemap_line(site_dir: Path, sitemap_url: str) -> bool:
    """Take our ``Sitemap:`` line out of ``robots.txt`` (a build that wrote no sitemap must
    not leave it naming a missing file), keeping every other byte; True when it was there."""
    return sync_robots_txt(site_dir, (), (sitemap_url,))


def sync_robots_txt(site_dir: Path, wanted: Iterable[str], unwanted: Iterable[str],
                    sink: Sink | None = None, own_names: Iterable[str] = (), listed_before: str | None = None) -> bool:
    """Make ``robots.txt`` name every URL of ``wanted`` and none of ``unwanted`` (sitemaps of
    ours this build did not write), creating it when it is absent and there is something to
    name. A line naming one of ``own_names`` (the files of ours) in a folder under which the
    sitemap this build replaced listed its URLs (``listed_before``, its first ``<loc>``) was
    written for that sitemap's base URL (a staging host, http before https): it goes too.
    True when the file was written (in a dry run, ``sink``'s, when it would be). Raises
    ``RobotsTooLarge`` (nothing written) for a file over ``protocol.ROBOTS_READ_BYTES``."""
    sink = sink if sink is not None else Sink()
    path = Path(site_dir) / "robots.txt"
    wanted = list(dict.fromkeys(wanted))
    unwanted = {url.encode() for url in set(unwanted) - set(wanted)}
    names = {name.encode() for name in own_names}
    with faults_named(path, "read"):
        try:
            old = read_regular(path, ROBOTS_READ_BYTES + 1)
        except FileNotFoundError:
            old = None
    if old is None:
        if not wanted:
            return False
        text = NEW_ROBOTS.format(url=wanted[0]) + "".join(f"Sitemap: {url}\n" for url in wanted[1:])
        _replace(path, text.encode(), sink)
        return True
    if len(old) > ROBOTS_READ_BYTES:
        raise RobotsTooLarge(path, _size(path, len(old)))
    newline = _newline(old)
    lines = old.split(newline)
    named = {_named(line) for line in lines} - {None}
    unwanted |= {url for url in named if url.decode("utf-8", "surrogateescape") not in wanted
                 and _moved_own(url, names, listed_before)}
    kept = [line for line in lines if _named(line) not in unwanted]
    missing = [url.encode() for url in wanted if url.encode() not in named]
    if len(kept) == len(lines) and not missing:
        return False
    data = newline.join(kept)
    if missing:
        if data and not data.endswith(newline):
            data += newline
        data += b"".join(b"Sitemap: " + url + newline for url in missing)
    _replace(path, data, sink)
    return True


def _newline(data: bytes) -> bytes:
    """The file's own line ending: CRLF, CR alone (old Mac files) or LF; LF for a new one."""
    if b"\r\n" in data:
        return b"\r\n"
    if b"\r" in data and b"\n" not in data:
        return b"\r"
    return b"\n"


def _moved_own(url: bytes, names: set[bytes], listed_before: str | None) -> bool:
    """Whether ``url`` names one of our files (``names``) in the folder the replaced sitemap's
    URLs were under (``https://staging.example.org/sitemap.xml``)."""
    folder, _, name = url.rpartition(b"/")
    if listed_before is None or name not in names or b"?" in url or b"#" in url:
        return False
    text = folder.decode("utf-8", "surrogateescape") + "/"
    return text.count("/") >= 3 and listed_before.startswith(text)


_loc_element = lazy_pattern(rb"<(?:\w+:)?loc>\s*([^<\s]+)\s*</(?:\w+:)?loc>")


_PEEK = 65536


def first_loc(path: Path) -> str | None:
    """The first ``<loc>`` of the sitemap (or index) at ``path`` before a build replaces it:
    where the URLs of the build that wrote it were (None: no file, or no loc near its start)."""
    try:
        data = read_regular(path, _PEEK)
    except OSError:
        return None
    found = _loc_element().search(data)
    return found.group(1).decode("utf-8", "replace") if found else None


def _named(line: bytes) -> bytes | None:
    """The URL a ``Sitemap:`` line names, as its bytes; None for any other line."""
    found = sitemap_record_pattern().fullmatch(line.rstrip(b"\r\n").decode("utf-8", "surrogateescape"))
    return found.group(1).encode("utf-8", "surrogateescape") if found else None


def _replace(path: Path, data: bytes, sink: Sink) -> None:
    mode = _mode(path)
    sink.write_file(path, data)
    if mode is not None and not sink.dry_run:
        with faults_named(path, "set the permissions of"):
            os.chmod(path, mode)


def _mode(path: Path) -> int | None:
    """Keep the permissions of a robots.txt we rewrite."""
    try:
        return path.stat().st_mode & 0o7777
    except FileNotFoundError:
        return None


def _size(path: Path, at_least: int) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return at_least
