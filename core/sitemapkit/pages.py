"""What a page is, and where it lives: the one definition shared by every adapter (through
the core's entry building), ``sitemapkit build`` and ``validate --site-dir``.

A built HTML file is *not a page* when it is a generated index (Sphinx's ``genindex``, its
domain indices such as ``py-modindex``, ``search``, viewcode sources under ``_modules/``), an
error page (``404``), a draft (Pelican writes drafts under ``drafts/``), a meta-refresh
redirect stub, or a template fragment (no ``<html>``, ``<head>`` or doctype before its body:
a theme partial copied as a static file). Hidden pages carry no sign of it in the HTML a
generator writes; the adapters know them from the generator (Pelican's ``Status: hidden``).

The test reads only the page's URL path and the head bytes the core reads anyway.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote, unquote, unquote_to_bytes, urljoin, urlsplit

from .build.files import read_regular
from .build.robots import MAX_ROBOTS_BYTES

if TYPE_CHECKING:  # imported only when a robots.txt disallows something
    from protego import Protego

HTML_SUFFIXES = (".html", ".htm")
INDEX_FILES = ("index.html", "index.htm")

# Generated pages, by their last path segment (``genindex.html``, or ``genindex/`` from
# Sphinx's dirhtml builder); ``*-modindex`` covers every domain's module index.
_GENERATED = re.compile(r"(?:genindex|search|[a-z]+-modindex|404)(?:\.html?|/)?")
_NOT_PAGE_FOLDERS = {"_modules": "generated index", "drafts": "draft"}
_REFRESH = re.compile(rb"""http-equiv\s*=\s*["']?\s*refresh""", re.IGNORECASE)
_DOCUMENT = re.compile(rb"<(?:html|head|!doctype)\b", re.IGNORECASE)
# RFC 3986 pchar: unreserved, sub-delims, ":" and "@" stay; every other byte is %XX.
_SAFE = "/:@!$&'()*+,;=-._~"


def not_a_page(path: str, head: bytes | None = None) -> str | None:
    """Why the file at site-relative URL ``path`` is not a page (``"generated index"``,
    ``"error page"``, ``"draft"``, ``"redirect"``, ``"fragment"``), or ``None`` for a page.

    ``head``: the page's bytes before ``</head>`` or ``<body>`` (``HtmlFacts.head``); ``None``
    when the HTML was not read, and then only the path counts.
    """
    segments = path.split("/")
    last = segments[-1] or (segments[-2] + "/" if len(segments) > 1 else "")
    if _GENERATED.fullmatch(last):
        return "error page" if last.startswith("404") else "generated index"
    for segment in segments[:-1]:
        reason = _NOT_PAGE_FOLDERS.get(segment)
        if reason is not None:
            return reason
    if head is None:
        return None
    if not head or _DOCUMENT.search(head) is None:
        return "fragment"
    # Two plain finds first: a case-insensitive regex over every head costs ~40 times more.
    if (b"efresh" in head or b"EFRESH" in head) and _REFRESH.search(head):
        return "redirect"
    return None


def robots_rules(site_dir: str | os.PathLike[str]) -> Protego | None:
    """The site's own robots.txt rules, when it disallows anything: a page crawlers may not
    fetch is not listed (search engines report a listed, blocked URL as an error). Read by
    protego, as ``validate --check-pages`` reads a live robots.txt: RFC 9309 matching (``*``,
    ``$``, the longest rule wins), which ``urllib.robotparser`` does not do. Ask it with
    ``can_fetch(url, "*")``."""
    try:  # a regular file only: a named pipe there must not hang the build
        text = read_regular(Path(site_dir) / "robots.txt", MAX_ROBOTS_BYTES).decode("utf-8", "replace")
    except OSError:
        return None
    if not _disallows_something(text):  # no rule, or only "Disallow:" (allow all), as ours has
        return None
    from protego import Protego

    return Protego.parse(text)


def _disallows_something(text: str) -> bool:
    """Whether a ``Disallow`` line of ``text`` names a path: an empty one allows everything,
    and checking every page against such rules would cost each build for nothing."""
    for line in text.splitlines():
        key, colon, value = line.split("#", 1)[0].partition(":")
        if colon and key.strip().lower() == "disallow" and value.strip():
            return True
    return False


def url_for_file(name: str) -> str:
    """The URL path (percent-encoded, below the site root) a web server serves the built file
    ``name`` (site-relative, ``/``-separated) at: ``a/index.html`` -> ``a/``,
    ``q?a=1.html`` -> ``q%3Fa=1.html``. Names the file system could not decode (kept by
    Python as surrogate escapes) are encoded as the bytes they are."""
    return fold_index(quote(os.fsencode(name), safe=_SAFE))


def files_for_url(path: str) -> tuple[str, ...]:
    """The built files that may serve the URL ``path`` (percent-encoded, below the site
    root), most likely first; the inverse of ``url_for_file``."""
    name = os.fsdecode(unquote_to_bytes(path))
    if not name or name.endswith("/"):
        return tuple(name + index for index in INDEX_FILES)
    return (name, *(f"{name}/{index}" for index in INDEX_FILES))


def fold_index(path: str) -> str:
    """``a/index.html`` -> ``a/``, ``index.html`` -> ``""``: a folder's index is served as
    the folder. No encoding (for paths that are URLs already)."""
    if path in INDEX_FILES:
        return ""
    for index in INDEX_FILES:
        if path.endswith("/" + index):
            return path[: -len(index)]
    return path


def url_from_root(folder: str, url: str) -> str:
    """``url``, as a page in the site folder ``folder`` (``""``, or ``fr/`` for a sub-site
    built into it) links it (``x.html``, ``/x.html``, ``../x.html``), as a URL path from the
    site root, a folder's index folded; an absolute URL stays as it is."""
    if "://" in url[:12]:
        return url
    joined = urlsplit(urljoin("http://site/" + folder, url.lstrip("/")))
    return fold_index(joined.path.lstrip("/")) + (f"?{joined.query}" if joined.query else "")


class Exclude:
    """The ``exclude`` option: gitignore-style patterns (``drafts/``, ``**/print/``,
    ``404.html``; ``*`` stops at ``/``, ``!`` re-includes) on the site-relative URL path,
    matched by pathspec as git matches them. Remembers which patterns matched something."""

    def __init__(self, patterns: Iterable[str]) -> None:
        self.patterns = tuple(patterns)
        if not self.patterns:
            return  # importing pathspec costs every build ~10 ms: only for the sites that use it
        import pathspec

        self._spec = pathspec.GitIgnoreSpec.from_lines(self.patterns)
        self._unmatched = {
            pattern.pattern: pattern for pattern in self._spec.patterns if pattern.include is not None
        }
        # Lines pathspec reads as no pattern at all (``a[b``, ``/``) never match anything either.
        self._never = {text for text in self.patterns if text.strip() and not text.startswith("#")
                       and all(p.include is None for p in pathspec.GitIgnoreSpec.from_lines([text]).patterns)}

    def __bool__(self) -> bool:
        return bool(self.patterns)

    def __call__(self, path: str) -> bool:
        """Whether ``path`` (percent-encoded, as in the sitemap) is excluded."""
        path = unquote(path)
        if self._unmatched:
            for text, pattern in list(self._unmatched.items()):
                if pattern.match_file(path) is not None:
                    del self._unmatched[text]
        return self._spec.match_file(path)

    def unmatched(self) -> list[str]:
        """The patterns that matched no path so far, as the user wrote them."""
        return [text for text in self.patterns if text in self._unmatched or text in self._never]


def check_exclude(patterns: Iterable[str]) -> None:
    """Raise ``ValueError`` naming the first pattern git itself would refuse (``!``, ``\\``)."""
    for text in patterns:
        import pathspec

        try:
            pathspec.GitIgnoreSpec.from_lines([text])
        except ValueError:
            raise ValueError(f"'{text}' is not a gitignore-style pattern") from None
