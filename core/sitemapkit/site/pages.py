"""What a page is, and where it lives: the one definition shared by every adapter (through
the core's entry building), ``sitemapkit build`` and ``validate --site-dir``.

Which written files are no pages the generator knows, and says: an adapter gives the core
such a file as a ``Page`` with ``not_page`` set (Sphinx's generated indexes, MkDocs' theme
``404.html``), or with ``sitemap: false`` (Pelican's drafts, hidden and private pages); the
build records them as left out on purpose, and ``validate --site-dir`` reads that record.
Two things hold for every page, whatever made it: a meta-refresh redirect stub and a template
fragment (no ``<html>``, ``<head>`` or doctype before its body: a theme partial copied as a
static file) are no pages, by their head (``not_a_page``), and the root ``404.html`` is the
site's error page, as static hosts serve it (``error_page``).

Only for a folder no adapter describes (``sitemapkit build`` on unknown HTML, and
``validate --site-dir`` without a build's record) are file names guessed, and only where such
files really sit (``guess_not_a_page``): Sphinx's generated pages at the root of a Sphinx
output (the site's, or a folder's), and Pelican's ``drafts/`` at the root, unless another
generator is known to have built the folder. A page the name-based guess leaves out is named
in the build's summary.

URL <-> file, the one mapping (``url_for_file``, ``files_for_url``): a file is served at its
path, a folder's ``index.html`` as the folder (``a/index.html`` -> ``a/``); an extension-less
URL ``a`` is served by the file ``a``, else ``a.html`` (as GitHub Pages, Netlify and
Cloudflare Pages serve it), else ``a/index.html``.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple
from urllib.parse import quote, unquote, unquote_to_bytes, urljoin, urlsplit

from sitemapkit.patterns import lazy_pattern
from sitemapkit.protocol import ROBOTS_READ_BYTES
from sitemapkit.site.files import read_regular

if TYPE_CHECKING:  # imported only when a robots.txt disallows something
    from protego import Protego

HTML_SUFFIXES = (".html", ".htm")
INDEX_FILES = ("index.html", "index.htm")
ERROR_PAGES = ("404.html", "404.htm")
"""The site's error page, at its root: GitHub, GitLab and Cloudflare Pages and Netlify serve
it for every missing URL, whatever generator wrote it."""

# Pages Sphinx's HTML builders generate, by page name at the output's root (``genindex.html``,
# ``genindex-A.html`` of a split index, ``search.html``, every domain's ``py-modindex.html``;
# ``genindex/index.html`` from the dirhtml builder), and viewcode's sources under ``_modules/``;
# the output may be a folder of the site (``en/latest/``, as Read the Docs deploys them).
_SPHINX_PAGE = r"genindex(?:-[^/]+)?|search|[a-z]+-modindex"
_sphinx_page_file = lazy_pattern(rf"(?:{_SPHINX_PAGE})\.html")
_sphinx_page_folder = lazy_pattern(_SPHINX_PAGE)
_SPHINX_SOURCES = "_modules"


_SPHINX_MARKERS = (".buildinfo", "searchindex.js", "_static/documentation_options.js")
"""Files only a Sphinx HTML build leaves in its output folder."""


_refresh = lazy_pattern(rb"""http-equiv\s*=\s*["']?\s*refresh""", re.IGNORECASE)


_refresh_target = lazy_pattern(rb"""http-equiv\s*=\s*["']?\s*refresh["']?[^>]*?"""
                               rb"""content\s*=\s*["'][^"';]*;\s*url\s*=\s*([^"'\s>]+)""", re.IGNORECASE)

_document = lazy_pattern(rb"<(?:html|head|!doctype)\b")
"""Run over a lower-cased head (no ``re.IGNORECASE``: compiled in a third of the instructions)."""
# RFC 3986 pchar: unreserved, sub-delims, ":" and "@" stay; every other byte is %XX.
_SAFE = "/:@!$&'()*+,;=-._~"
_as_it_is = lazy_pattern(f"[A-Za-z0-9{re.escape(_SAFE)}]*")
"""A name made of those characters alone, which ``quote`` gives back as it is (most names)."""


def not_a_page(head: bytes, lowered: bytes | None = None) -> str | None:
    """Why a file whose head is ``head`` is not a page (``"redirect"``, ``"fragment"``), or
    ``None`` for a page. ``head``: the page's bytes before ``</head>`` or ``<body>``
    (``HtmlFacts.head``); ``lowered``: its lower-cased copy, when the caller has one."""
    lowered = lowered if lowered is not None else head.lower()
    if not head or _document().search(lowered) is None:
        return "fragment"
    # A plain find first, in any case (``rEfResh`` is HTML too): a case-insensitive regex over
    # every head costs ~40 times more than lowering it.
    if b"refresh" in lowered and _refresh().search(head):
        return "redirect"
    return None


def refresh_target(head: bytes) -> str | None:
    """The URL, as written, that the meta-refresh redirect in ``head`` sends its reader to
    (mike's root ``index.html``), or ``None``."""
    found = _refresh_target().search(head)
    return found.group(1).decode("ascii", "replace") if found is not None else None


def error_page(path: str) -> str | None:
    """``"error page"`` for the site's root ``404.html`` (``path``: its URL path below the
    site root, or its file name), else ``None``."""
    return "error page" if path in ERROR_PAGES else None


def sphinx_output(folder: str | os.PathLike[str]) -> bool:
    """Whether ``folder`` is the output of a Sphinx HTML build (by the files only it leaves)."""
    return any(os.path.isfile(os.path.join(folder, marker)) for marker in _SPHINX_MARKERS)


# A language's folder as generators name them (en, fr, pt-br, zh-hans): two letters, so that
# a three-letter folder such as Pelican's tag/ is never taken for one.
_language_folder = lazy_pattern(r"[a-z]{2}(?:[-_][A-Za-z]{2,4})?")


PELICAN_DRAFTS = "drafts/"
"""Where Pelican writes drafts (``DRAFT_SAVE_AS``), at the root of its output."""


def guess_not_a_page(name: str, site_dir: str | os.PathLike[str], generator: str | None = None) -> str | None:
    """For a folder of HTML no adapter describes (``site_dir``): why the file ``name``
    (site-relative, as written) is no page, guessed from where it sits, or ``None``
    (``NotPages``, asked of one file)."""
    folder, slash, file = name.rpartition("/")
    return NotPages(site_dir, generator).of(folder + slash, [file]).get(file)


class NotPages:
    """For a folder of HTML no adapter describes (``site_dir``): which files are no pages,
    guessed from where they sit. Sphinx's ``genindex``, ``search`` and module indexes, and
    ``_modules/`` (viewcode), are generated indexes at the root of a Sphinx output
    (``sphinx_output``: the site's, or a folder's such as ``en/latest/``); Pelican writes
    drafts to a root ``drafts/`` (``pelican_drafts``); the root ``404.html`` is the error
    page, and so is that of a language's folder (Hugo writes ``en/404.html``, one a language).
    Anywhere else a name means nothing: ``plugins/search/`` and ``tag/404.html`` are pages.
    ``generator``: the one known to have built the folder (``sitemapkit build`` in an MkDocs
    project: ``MkDocs``), else None.

    What decides is where a folder sits: a walk asks once a folder (``of``), and whether a
    root ``drafts/`` is Pelican's once a build; each file is asked only for its own name."""

    def __init__(self, site_dir: str | os.PathLike[str], generator: str | None = None) -> None:
        self.site_dir = site_dir
        self.generator = generator
        self._drafts: bool | None = None

    def of(self, folder: str, names: Sequence[str]) -> dict[str, str]:
        """Why each of the files ``names`` of ``folder`` (site-relative: ``""`` at the root,
        else ``a/b/``) that is no page is none, by name; the pages are not in it."""
        segments = folder.split("/")[:-1]
        if folder.startswith(PELICAN_DRAFTS) and self._pelican_drafts():
            return dict.fromkeys(names, "draft")
        if _SPHINX_SOURCES in segments:  # viewcode's: everything under the first _modules/
            root = "".join(f"{segment}/" for segment in segments[:segments.index(_SPHINX_SOURCES)])
            return dict.fromkeys(names, "generated index") if sphinx_output(os.path.join(self.site_dir, root)) else {}
        pattern = _sphinx_page_file()
        why = dict.fromkeys([name for name in names if pattern.fullmatch(name)], "generated index")
        if why and not sphinx_output(os.path.join(self.site_dir, folder)):
            why = {}
        if segments and _sphinx_page_folder().fullmatch(segments[-1]):  # Sphinx dirhtml: genindex/index.html
            parent = folder[: -len(segments[-1]) - 1]
            if "index.html" in names and sphinx_output(os.path.join(self.site_dir, parent)):
                why["index.html"] = "generated index"
        if not segments or (len(segments) == 1 and _language_folder().fullmatch(segments[0])):
            why.update((name, "error page") for name in names if error_page(name) is not None)
        return why

    def _pelican_drafts(self) -> bool:
        if self._drafts is None:
            self._drafts = pelican_drafts(self.site_dir, self.generator)
        return self._drafts


def pelican_drafts(site_dir: str | os.PathLike[str], generator: str | None) -> bool:
    """Whether a root ``drafts/`` of ``site_dir`` holds Pelican's drafts: in the output of
    Pelican (``generator``), or of a generator not known, unless its files say Sphinx built
    it. Any other generator's ``drafts/`` is a folder of pages like any other (an MkDocs
    project's ``docs/drafts/``). Asked only of a file under ``drafts/``."""
    if generator is None:
        return not sphinx_output(site_dir)
    return generator == "Pelican"


def robots_rules(site_dir: str | os.PathLike[str]) -> Protego | None:
    """The site's own robots.txt rules, when it disallows anything: a page crawlers may not
    fetch is not listed (search engines report a listed, blocked URL as an error). Read by
    protego, as ``validate --check-pages`` reads a live robots.txt: RFC 9309 matching (``*``,
    ``$``, the longest rule wins), which ``urllib.robotparser`` does not do. Ask it with
    ``can_fetch(url, "*")``."""
    return _rules(_robots_text(site_dir))


class SiteRobots(NamedTuple):
    """The site's robots.txt, read once: its rules and their key."""

    rules: Protego | None
    """``robots_rules``."""
    key: str
    """What ``rules`` were read from, as a short key: what was decided under another
    robots.txt is decided again."""


def site_robots(site_dir: str | os.PathLike[str]) -> SiteRobots:
    """The site's robots.txt rules (``robots_rules``) and their key, from one reading of it."""
    text = _robots_text(site_dir)
    key = "" if text is None else hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return SiteRobots(_rules(text), key)


def _rules(text: str | None) -> Protego | None:
    if text is None or not _disallows_something(text):  # no rule, or only "Disallow:" (allow all), as ours has
        return None
    from protego import Protego

    return Protego.parse(text)


def _robots_text(site_dir: str | os.PathLike[str]) -> str | None:
    try:  # a regular file only: a named pipe there must not hang the build
        return read_regular(Path(site_dir) / "robots.txt", ROBOTS_READ_BYTES).decode("utf-8", "replace")
    except OSError:
        return None


def _disallows_something(text: str) -> bool:
    """Whether a ``Disallow`` line of ``text`` names a path: an empty one allows everything,
    and checking every page against such rules would cost each build for nothing."""
    for line in text.splitlines():
        key, colon, value = line.split("#", 1)[0].partition(":")
        if colon and key.strip().lower() == "disallow" and value.strip():
            return True
    return False


def url_for_file(name: str, folder: str = "") -> str:
    """The URL path (percent-encoded, below the site root) a web server serves the built file
    ``name`` (site-relative, ``/``-separated) at: ``a/index.html`` -> ``a/``,
    ``q?a=1.html`` -> ``q%3Fa=1.html``; a folder's name (``a/``) gives its URL. ``folder``:
    the URL of the folder ``name`` is in (``url_for_file`` of it), when ``name`` is a file of
    it: a walk encodes each folder once. Names the file system could not decode (kept by
    Python as surrogate escapes) are encoded as the bytes they are."""
    # Performance: a plain name is checked in one call, not encoded and quoted (``fsencode``,
    # ``quote`` and ``quote_from_bytes``: three Python calls a file; measured: 0.14 G of the
    # 24.1 G instructions of a first build of a 30,000-page folder)
    encoded = name if _as_it_is().fullmatch(name) else quote(os.fsencode(name), safe=_SAFE)
    return folder + fold_index(encoded)


def urls_for_files(names: Sequence[str], folder: str = "") -> list[str]:
    """``url_for_file`` of each of ``names``, the files of one folder whose URL is ``folder``.
    Performance: the names are checked together, in one call, when each is its own URL (most
    folders' are: a file's URL is then the folder's and its name; measured on 30,000 files,
    a walk's loop included: 9.0 k instructions a file by ``url_for_file``, 3.0 k together)."""
    if _as_it_is().fullmatch("".join(names)):
        return [folder if name in INDEX_FILES else folder + name for name in names]
    return [url_for_file(name, folder) for name in names]


def files_for_url(path: str) -> tuple[str, ...]:
    """The built files that may serve the URL ``path`` (percent-encoded, below the site
    root), in the order a static host looks for them; the inverse of ``url_for_file``. A
    folder URL (``a/``) is served by its index; any other by the file of that name, else,
    when the name does not end in ``.html``, by ``a.html`` (an extension-less URL, as GitHub
    Pages, Netlify and Cloudflare Pages serve it: Pelican's ``ARTICLE_URL = '{slug}'`` with
    ``ARTICLE_SAVE_AS = '{slug}.html'``), else by the folder's index ``a/index.html``."""
    name = os.fsdecode(unquote_to_bytes(path))
    if not name or name.endswith("/"):
        return tuple(name + index for index in INDEX_FILES)
    html = () if name.endswith(HTML_SUFFIXES) else (name + ".html",)
    return (name, *html, *(f"{name}/{index}" for index in INDEX_FILES))


def serving_file(site_dir: str | os.PathLike[str], url: str) -> str | None:
    """The site-relative file of ``site_dir`` that serves ``url`` (a URL path below the site
    root, percent-encoded: ``a/``, ``a.html``, ``a``; a query or fragment is no part of it),
    by ``files_for_url``; ``None`` when no file answers (the URL would be a 404) or the path
    leaves the folder."""
    # not urlsplit: a path such as "A:.html" is no scheme here
    path = url.split("#", 1)[0].split("?", 1)[0].lstrip("/")
    candidates = files_for_url(path)
    if ".." in candidates[0].split("/") or candidates[0].startswith("/"):
        return None
    return next((name for name in candidates if os.path.isfile(os.path.join(site_dir, name))), None)


def clean_url(url: str) -> str:
    """A page's URL as a host serving clean URLs spells it (VitePress' ``cleanUrls``):
    ``a/b.html`` -> ``a/b`` (``files_for_url`` finds ``a/b.html`` for it); a folder's stays."""
    if url in ERROR_PAGES or not url.endswith(".html") or url.endswith("/.html"):
        return url
    return url.removesuffix(".html")


def file_exists(site_dir: str | os.PathLike[str], url: str) -> bool:
    """Whether the file the URL path ``url`` (below the site root, percent-encoded) names as
    it is, not as a page (an image, a download), is in ``site_dir``: ``files_for_url``'s
    first name, inside the folder."""
    name = files_for_url(url.split("#", 1)[0].split("?", 1)[0].lstrip("/"))[0]
    if not name or name.endswith("/") or ".." in name.split("/"):
        return False
    return os.path.isfile(os.path.join(site_dir, name))


def fold_index(path: str) -> str:
    """``a/index.html`` -> ``a/``, ``index.html`` -> ``""``: a folder's index is served as
    the folder. No encoding (for paths that are URLs already)."""
    if not path.endswith(INDEX_FILES):  # most paths: one call (measured: 4.1 -> 1.6 k instructions)
        return path
    for index in INDEX_FILES:
        if path == index:
            return ""
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
        if not self.patterns:  # the default: nothing to match, and pathspec not even imported
            self._spec, self._unmatched, self._never = None, {}, set()
            return
        # Performance: pathspec is imported only by a build that excludes something (measured:
        # about 9 ms, which neither Sphinx nor Pelican import themselves; MkDocs has it already).
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
        if self._spec is None:
            return False
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
        import pathspec  # see Exclude

        try:
            pathspec.GitIgnoreSpec.from_lines([text])
        except ValueError:
            raise ValueError(f"'{text}' is not a gitignore-style pattern") from None
