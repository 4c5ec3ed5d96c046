"""``llms_txt``: ``llms.txt`` (llmstxt.org), the map of a site for language models, and the
Markdown mirror of each page it links (``URL.md``; ``index.html.md`` for a folder URL), with
``llms-full.txt`` (every mirror in one file) when asked.

It lists exactly the sitemap's pages, each once: the links are the ones ``sitemap.html`` is
made from (``html_sitemap.Listing``, gathered as the entries stream to the writer), arranged
by the site's own navigation (``map_sections``). Listing pages (tags, archives, the later
pages of a list) and the sections the option names go under ``## Optional``. A mirror is the
page's main content (``site.content.main_content``: no theme, no script) in Markdown
(``markdown.to_markdown``). Every file goes through the record of sitemapkit's own files
(``site.owned``): a file of the same name that sitemapkit did not write is never replaced.
"""

from __future__ import annotations

import hashlib
import html
import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple
from urllib.parse import unquote

from sitemapkit.model import Outline
from sitemapkit.output.html_sitemap import PAGE_NAME
from sitemapkit.output.map_sections import Item, Link, Section, arrange, own_title
from sitemapkit.output.names import FULL_NAME, LLMS_NAME, is_llms_file
from sitemapkit.report import Report, plural
from sitemapkit.settings import Settings
from sitemapkit.site.content import main_content
from sitemapkit.site.files import AnyTarget, Sink, inside, read_regular
from sitemapkit.site.markup import ATTRIBUTES, attributes, declared_encoding, head_end_mark
from sitemapkit.site.owned import ForeignFileError, Owned
from sitemapkit.site.pages import serving_file
from sitemapkit.values import LlmsTxt

if TYPE_CHECKING:
    from sitemapkit.lastmod.page_facts import PageFacts

ABOUT = ("Each link is a page of this site in Markdown, at its URL followed by .md, in the order of the "
         "site's navigation; the sitemap lists the same pages.")
"""The paragraph under the heading."""
OPTIONAL = "Optional"
"""The section llmstxt.org names for what a reader may skip when its context is short."""
UNTITLED = "Pages"
"""The heading of the site's top-level pages, which its navigation shows under none."""
MAX_PAGE_BYTES = 4 << 20
"""A page is made into Markdown up to this size (the HTML-to-Markdown tree is held whole);
a longer one is linked as it is, as HTML."""

_LISTING_PATH = re.compile(r"(?:[^/]+/){0,2}(?:(?:tags?|categor(?:y|ies)|archives?|authors?|page/[0-9]+)/.*|"
                           r"(?:archives|tags|categories|authors)\.html?|index[0-9]+\.html?)")
"""Listing pages known by their path, in the top folders (a language's, a blog's): tags,
categories, archives, authors, and the later pages of a list (``page/2/``, Pelican's
``index2.html``, ``tag/x2.html``). A deeper ``tags/`` is a page about tags."""
_DESCRIPTION = re.compile(rb"<meta\b" + ATTRIBUTES)
_HEAD_BYTES = 1 << 16
"""Where a page without ``</head>`` or ``<body>`` is taken to end its head."""
# Characters that would end or open a link, an autolink, HTML or a new line in a link line;
# written as character references, which CommonMark and the reference parser (which honours
# no backslash escape) both read as text.
_LINE_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", "[": "&#91;", "]": "&#93;",
                               "`": "&#96;", "\\": "&#92;"})
_URL_ESCAPES = str.maketrans({"(": "%28", ")": "%29", " ": "%20", "<": "%3C", ">": "%3E", "[": "%5B", "]": "%5D"})


def mirror_name(path: str) -> str:
    """The file of a page's mirror below the output folder, from its URL path below the site
    root (percent-encoded): ``guide/`` -> ``guide/index.html.md``, ``a.html`` -> ``a.html.md``."""
    name = unquote(path)
    return name + "index.html.md" if not name or name.endswith("/") else name + ".md"


def mirrored_page(path: str) -> str:
    """The URL path of the page a mirror's URL path stands for (``mirror_name`` undone):
    ``guide/index.html.md`` -> ``guide/``; a path that is no mirror's stays as it is."""
    page = path[:-3] if path.endswith(".md") else path
    return page[: -len("index.html")] if page == "index.html" or page.endswith("/index.html") else page


def mirror_url(loc: str) -> str:
    """A page's mirror's URL: the page's, and ``.md`` (``index.html.md`` after a ``/``)."""
    return loc + "index.html.md" if loc.endswith("/") else loc + ".md"


def line_text(text: str) -> str:
    """``text`` on one line of ``llms.txt``, as text only: no link, autolink or HTML can start
    in it, and it cannot end the link it is part of."""
    return " ".join(text.split()).translate(_LINE_ESCAPES)


def link_line(title: str, url: str, description: str | None) -> str:
    """``- [Title](url): description``, each part escaped (``line_text``)."""
    line = f"- [{line_text(title) or '/'}]({url.translate(_URL_ESCAPES)})"
    note = line_text(description) if description else ""
    return f"{line}: {note}" if note else line


VERSIONS_ABOUT = ("Each version of this documentation has its own llms.txt, linking its pages in Markdown: the "
                  "first link is the default version's, the others are under Optional.")
"""The paragraph under the heading of a versioned deployment's root ``llms.txt``."""
DEFAULT_SECTION = "Documentation"


def heading(data: bytes) -> tuple[str | None, str | None]:
    """The H1 and the blockquote (the site's name and summary) that open an ``llms.txt``, as
    plain text (character references read), or None where it has none."""
    lines = iter(line.strip() for line in data.decode("utf-8", "replace").splitlines())
    first = next((line for line in lines if line), "")
    if not first.startswith("# "):
        return None, None
    quoted = []
    for line in lines:
        if line.startswith(">"):
            quoted.append(line[1:].strip())
        elif line or quoted:
            break
    name = html.unescape(first[2:]).strip() or None
    return name, html.unescape(" ".join(quoted)).strip() or None


class VersionFile(NamedTuple):
    """One version's ``llms.txt``, as the root one links it."""

    name: str
    title: str
    url: str


def versions_llms(name: str, summary: str | None, default: VersionFile, others: Iterable[VersionFile]) -> bytes:
    """The root ``llms.txt`` of a versioned deployment: the site's name and summary, the
    default version's ``llms.txt`` first, the other versions' under ``Optional``."""
    quote = f"> {line_text(summary)}\n\n" if summary else ""
    first = link_line(default.title, default.url, f"the default version ({default.name}): its pages in Markdown")
    lines = [f"# {line_text(name)}\n\n{quote}{VERSIONS_ABOUT}\n\n## {DEFAULT_SECTION}\n\n{first}\n"]
    rest = [link_line(other.title, other.url, f"version {other.name}: its pages in Markdown") + "\n"
            for other in others]
    if rest:
        lines += [f"\n## {OPTIONAL}\n\n", *rest]
    return "".join(lines).encode()


class Chapter(NamedTuple):
    """One ``##`` section of ``llms.txt`` and the pages it links, in order."""

    title: str
    links: list[Link]


def chapters(links: list[Link], outline: Outline | None, base_url: str, optional: Iterable[str] = ()) -> list[Chapter]:
    """The sections of ``llms.txt``: the site's navigation (as ``sitemap.html`` shows it)
    flattened, each page once; listing pages, the sections named in ``optional`` and the
    pages the map folds away (the later pages of a list) under ``Optional`` at the end."""
    moved = {name.casefold() for name in optional}
    found: list[Chapter] = []
    later: list[Link] = []
    used: set[str] = set()
    for section in arrange(links, outline, base_url):
        title = section.title or UNTITLED
        pages = list(_pages(section))
        used.update(link.loc for link in pages)
        if title.casefold() in moved or title == OPTIONAL:
            later.extend(pages)
            continue
        later.extend(link for link in pages if _lists(link))
        kept = [link for link in pages if not _lists(link)]
        if kept:
            found.append(Chapter(_unique(title, section.title is None, found), kept))
    later.extend(link for link in links if link.loc not in used)
    return found + ([Chapter(OPTIONAL, later)] if later else [])


def _unique(title: str, untitled: bool, found: list[Chapter]) -> str:
    """A section's heading, unlike those before it (readers key the sections by heading): the
    top-level pages after a section of the navigation are "More pages"."""
    taken = {chapter.title.casefold() for chapter in found} | {OPTIONAL.casefold()}
    if untitled and title.casefold() in taken:
        title = "More pages"
    unique, number = title, 2
    while unique.casefold() in taken:
        unique, number = f"{title} ({number})", number + 1
    return unique


def _pages(section: Section) -> Iterator[Link]:
    """The section's pages in order, each with the title the map shows for it (the
    navigation's, else the page's own without the site's name)."""
    if section.link is not None:
        yield section.link._replace(title=section.title or section.link.title, read=False)
    pending = list(reversed(section.items))
    while pending:
        item: Item = pending.pop()
        if item.link is not None:
            yield item.link._replace(title=item.title, read=False)
        pending.extend(reversed(item.items))


def _lists(link: Link) -> bool:
    """Whether the page lists others: as its generator says, or by its name alone."""
    return link.lists or _LISTING_PATH.fullmatch(unquote(link.path)) is not None


class _Page(NamedTuple):
    title: str
    url: str
    description: str | None
    markdown: str | None


class Written(NamedTuple):
    files: list[Path]
    """The site's ``llms.txt``, and ``llms-full.txt`` when asked."""
    mirrors: list[Path]
    """The mirrors, and each other language's ``llms.txt``."""
    removed: list[Path]
    """The mirrors of an earlier build whose pages are no longer listed, removed."""


class _Out(NamedTuple):
    """Where the files of one build go, and what was put there so far."""

    sink: Sink
    owned: Owned
    targets: list[AnyTarget]
    """Every file written, closed, committed together once the record expects them."""
    foreign: list[str]
    """Mirrors not written: a file of that name is not sitemapkit's."""
    unread: list[str]
    """Pages linked as HTML: no regular file of the site serves them, or they are too long."""
    kept: list[Path]
    """Mirrors the last build wrote as this one would: left as they are."""
    folders: dict[Path, bool]
    """Whether each folder a mirror goes to is in the site (not a link out of it)."""
    made: PageFacts | None = None
    """The mirrors the last build made, each with what it made it from (kept beside the
    manifest), or None."""
    converter: str = ""
    """What makes a mirror (``_converter``): part of each mirror's source fingerprint."""


def write_llms(site_dir: Path, links: list[Link], outline: Outline | None, settings: Settings, sink: Sink,
               report: Report, owned: Owned, languages: Iterable[str] = (), made: PageFacts | None = None) -> Written:
    """Write ``llms.txt``, the mirrors and (``full``) ``llms-full.txt`` into ``site_dir``, and
    remove the stale mirrors. ``languages``: the hreflang codes of the site's translations;
    the pages in a top folder named by one (``fr/``) get their own ``llms.txt`` there, the
    root's lists the rest. ``owned``: the record of sitemapkit's own files in ``site_dir``,
    read after the sitemaps were written; the caller settles it with what this returns.
    ``made``: the facts kept beside the manifest, where each mirror is kept with the
    fingerprint of the content it was made from: a page whose main content has that
    fingerprint is not converted again; the caller saves them."""
    options = settings.llms_txt if isinstance(settings.llms_txt, LlmsTxt) else LlmsTxt()
    base_url = settings.base_url
    if settings.html_sitemap:  # listed in the sitemap too, after the pages it maps
        links = [*links, Link(PAGE_NAME, "./" + PAGE_NAME, base_url + PAGE_NAME, "Site map", None, lists=True)]
    codes = {code.lower() for code in languages}
    folders: dict[str, list[Link]] = {}
    for link in links:
        top, slash, rest = link.path.partition("/")
        if slash and unquote(top).lower() in codes:
            folders.setdefault(top + "/", []).append(link._replace(path=rest))
    rest = [link for link in links if link.path.partition("/")[0] + "/" not in folders]
    out = _Out(sink, owned, [], [], [], [], {}, made, _converter() if made is not None else "")
    site_name = outline.site_name if outline is not None else None
    name = (outline.name if outline is not None else None) or site_name
    summary = options.summary or (outline.description if outline is not None else None)
    try:
        _write_one(site_dir, base_url, rest, outline, name, summary, options, out)
        for folder, found in sorted(folders.items()):
            _write_one(site_dir / unquote(folder), base_url + folder, found, Outline((), site_name), name, None,
                       options, out)
        closed = [pair for target in out.targets for pair in target.close()]
        owned.expect(closed)
        written = [path for target in out.targets for path in target.commit()] + out.kept
    except BaseException:
        for target in out.targets:
            target.abort()
        raise
    if out.foreign:
        report.warn(str(site_dir), "llms_txt", "llms-mirror-foreign",
                    f"{plural(len(out.foreign), 'mirror')} not written ({', '.join(out.foreign[:3])}"
                    f"{' ...' if len(out.foreign) > 3 else ''}): a file of that name is not sitemapkit's; "
                    "llms.txt links the page itself instead")
    if out.unread:
        report.info(str(site_dir), "llms_txt", "llms-mirror-missing",
                    f"{plural(len(out.unread), 'page')} linked as HTML in llms.txt ({', '.join(out.unread[:3])}"
                    f"{' ...' if len(out.unread) > 3 else ''}): no file of the site serves it, it is over "
                    f"{MAX_PAGE_BYTES >> 20} MiB, its elements are nested too deep to convert, or its "
                    "folder is a link out of the site")
    named = {owned.name_of(path) for path in written}
    stale = [path for path in owned.stale(named) if is_llms_file(owned.name_of(path))]
    tops = [path for path in written if path.parent == site_dir and path.name in (LLMS_NAME, FULL_NAME)]
    return Written(tops, [path for path in written if path not in tops], sink.remove(stale))


def _write_one(folder: Path, base_url: str, links: list[Link], outline: Outline | None, name: str | None,
               summary: str | None, options: LlmsTxt, out: _Out) -> None:
    """``llms.txt`` (and ``llms-full.txt``) of the pages ``links`` (their paths below ``folder``,
    served at ``base_url``)."""
    if not links:
        return
    site_name = outline.site_name if outline is not None else None
    home = next((link for link in links if link.path in ("", "index.html", "index.htm")), None)
    home_read = _read(folder, home.path) if home is not None else None
    if not name and home is not None:
        name = own_title(home.title, None) if home.read else home.title
    summary = summary or (home_read[1] if home_read is not None else None)
    out.owned.check([out.owned.name_of(folder / LLMS_NAME)])
    llms = _target(out.sink, folder / LLMS_NAME, out.targets)
    full = _target(out.sink, folder / FULL_NAME, out.targets) if options.full else None
    if full is not None:
        out.owned.check([out.owned.name_of(folder / FULL_NAME)])
    quote = f"> {line_text(summary)}\n\n" if summary else ""
    for target in (llms, full) if full is not None else (llms,):
        # The paragraph under the heading and summary: the reference parser reads neither without one.
        target.write(f"# {line_text(name or base_url)}\n\n{quote}{ABOUT}\n".encode())
    for chapter in chapters(links, outline, base_url, options.optional):
        llms.write(f"\n## {line_text(chapter.title)}\n\n".encode())
        for link in chapter.links:
            page = _mirror(folder, link, site_name, out)
            described = page.description if page.description != summary else None
            llms.write((link_line(page.title, page.url, described) + "\n").encode())
            if full is not None and page.markdown is not None:
                full.write(f"\n---\n\n<!-- {page.url} -->\n\n{page.markdown.strip()}\n".encode())


def _target(sink: Sink, path: Path, targets: list[AnyTarget]) -> AnyTarget:
    target = sink.open_target(path)
    targets.append(target)
    return target


def _mirror(site_dir: Path, link: Link, site_name: str | None, out: _Out) -> _Page:
    """The page's line: its mirror written (to a target committed with the others), or, when
    none can be made, the page itself."""
    title = own_title(link.title, site_name) if link.read else link.title
    read = _read(site_dir, link.path)
    path = site_dir / mirror_name(link.path)
    if path.parent not in out.folders:
        out.folders[path.parent] = inside(path.parent, out.owned.folder)
    if read is None or not out.folders[path.parent]:  # a folder linked from elsewhere: never written into
        out.unread.append(link.loc)
        return _Page(title, link.loc, None, None)
    content, description = read
    name = out.owned.name_of(path)
    try:
        out.owned.check([name])
    except ForeignFileError:
        out.foreign.append(name)
        return _Page(title, link.loc, description, None)
    source = hashlib.sha256(f"{out.converter}\0{content}".encode("utf-8", "surrogatepass")).hexdigest()
    data = out.made.mirror(name, source) if out.made is not None else None
    if data is not None:  # made from this very content by the last build: not converted again
        text = data.decode("utf-8")
        out.made.note_mirror(name, source, None)
    else:
        from sitemapkit.output.markdown import to_markdown  # markdownify: only a build with llms_txt loads it

        try:
            text = to_markdown(content)
        except RecursionError:  # elements nested thousands deep: no page of a generator's, a hostile one
            out.unread.append(link.loc)
            return _Page(title, link.loc, description, None)
        data = text.encode("utf-8")
        if out.made is not None:
            out.made.note_mirror(name, source, data)
    if out.owned.holds(path, data):  # as the last build wrote it: left alone (and its date with it)
        out.kept.append(path)
        return _Page(title, mirror_url(link.loc), description, text)
    out.sink.make_dir(path.parent)
    target = _target(out.sink, path, out.targets)
    target.write(data)
    target.close()  # one file open at a time, however many pages: put in place with the others
    return _Page(title, mirror_url(link.loc), description, text)


def _converter() -> str:
    """What makes a mirror from a page's content: this sitemapkit's converter module (as
    installed: an editable install's edits count) and the versions of markdownify and
    BeautifulSoup. A mirror another made is made again."""
    from importlib.metadata import PackageNotFoundError, version
    from importlib.util import find_spec

    from sitemapkit import __version__

    spec = find_spec("sitemapkit.output.markdown")
    info = os.stat(spec.origin) if spec is not None and spec.origin else None
    parts = [f"sitemapkit {__version__}", f"{info.st_size}:{info.st_mtime_ns}" if info else "?"]
    for package in ("markdownify", "beautifulsoup4"):
        try:
            parts.append(f"{package} {version(package)}")
        except PackageNotFoundError:
            parts.append(f"{package} ?")
    return " ".join(parts)


def _read(site_dir: Path, path: str) -> tuple[str, str | None] | None:
    """The main content of the page at ``path`` (as text) and its meta description; None when
    no regular file of the site serves it, or it is too long to convert."""
    name = serving_file(site_dir, path)
    if name is None:
        return None
    try:
        data = read_regular(site_dir / name, MAX_PAGE_BYTES + 1)
    except OSError:
        return None
    if len(data) > MAX_PAGE_BYTES:
        return None
    encoding = declared_encoding(data)
    return main_content(data).decode(encoding, "replace"), _description(data, encoding)


def _description(data: bytes, encoding: str) -> str | None:
    """``<meta name="description">`` of the page's head."""
    end = head_end_mark().search(data)
    head = data[: end.start()] if end is not None else data[:_HEAD_BYTES]
    for found in _DESCRIPTION.finditer(head.lower()):
        attrs = attributes(head[found.start(1):found.end(1)], encoding)
        if attrs.get("name", "").strip().lower() == "description":
            text = " ".join(attrs.get("content", "").split())
            return text or None
    return None
