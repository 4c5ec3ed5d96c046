"""``html_sitemap``: ``sitemap.html``, the site map for people, grouped by section.

The core decides what it lists (exactly the sitemap's URLs, the page itself included) and
groups them; the page is rendered from a Jinja2 template. An adapter passes ``render`` to use
its generator's theme (its template includes ours, ``sitemapkit/sections.html``); without
one, ``sitemapkit/page.html`` makes a plain self-contained page. Either way the core writes
the file, as one of its own (see ``owned``).
"""

import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import NamedTuple
from urllib.parse import unquote

from sitemapkit.dates import as_datetime, format_moment
from sitemapkit.model import Entry, Moment
from sitemapkit.protocol import MAX_URLS
from sitemapkit.report import Report, plural
from sitemapkit.site.files import Sink
from sitemapkit.urls import link_href, site_path

PAGE_NAME = "sitemap.html"
TEMPLATE_NAME = "sitemap.html"
"""The template a theme (or a user's template folder) may provide to replace ours."""
TEMPLATES = Path(os.path.abspath(__file__)).parent.parent / "templates"  # no resolve(): 0.03 ms of file system calls
"""The folder of sitemapkit's own templates: ``sitemapkit/sections.html``, ``sitemapkit/page.html``."""
POLICY = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"
"""The Content-Security-Policy of sitemapkit's self-contained pages (the plain ``sitemap.html``,
the validator's report): their own inline style and nothing else, no script of any origin;
``base-uri`` and ``form-action`` do not fall back to ``default-src``, so they are named."""
MAX_LINKS = MAX_URLS
"""Links on the page: a site map with more helps nobody, and each costs memory until the end."""


class Link(NamedTuple):
    path: str
    """Below the site root, where the page is: ``guide/install/``, ``""`` for home."""
    href: str | None
    """``./`` and the path (``./guide/install/``), as ``urls.link_href`` allows; None when it
    does not, and the page shows the title as text."""
    loc: str
    title: str
    lastmod: str | None
    """``YYYY-MM-DD``, for people."""


class Section(NamedTuple):
    title: str
    path: str
    """``""`` for the pages at the top, else the folder: ``guide/``."""
    links: list[Link]


class Listing:
    """The sitemap's URLs with their titles, gathered as the entries stream to the writer."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.links: list[Link] = []
        self.left = 0
        """URLs past ``MAX_LINKS``, counted only."""
        self.newest: Moment | None = None

    def add(self, entry: Entry, title: str | None) -> None:
        if entry.loc == self.base_url + PAGE_NAME:
            return  # an earlier build's page, found among the site's files: listed once, last
        self._link(entry, title)

    def _link(self, entry: Entry, title: str | None) -> None:
        if entry.lastmod is not None and (self.newest is None or as_datetime(entry.lastmod) > as_datetime(self.newest)):
            self.newest = entry.lastmod
        if len(self.links) >= MAX_LINKS:
            self.left += 1
            return
        path = site_path(entry.loc, self.base_url)
        day = format_moment(entry.lastmod)[:10] if entry.lastmod is not None else None
        self.links.append(Link(path, link_href("./" + path), entry.loc, title or unquote(path) or "/", day))

    def with_page(self, entries: Iterable[Entry], page_url: str,
                  dated: dict[str, int] | None = None) -> Iterator[Entry]:
        """``entries``, then the site map page itself, dated by the newest of what it lists
        (as every page that lists others is). ``dated``: the build's count of listed pages by
        lastmod source, where the page is counted under its own name (or ``none``)."""
        loc = self.base_url + page_url
        yield from (entry for entry in entries if entry.loc != loc)
        if self.links:
            if dated is not None:
                source = page_url if self.newest is not None else "none"
                dated[source] = dated.get(source, 0) + 1
            yield Entry(loc, self.newest)
            self._link(Entry(loc, self.newest), "Site map")

    def sections(self) -> list[Section]:
        """Top-level pages first, then one section per top folder, in path order. A section
        is named by the title of its folder's own page, unless that only repeats the home
        page's (as a blog's year archive often does); then by the folder's name."""
        groups: dict[str, list[Link]] = {}
        for link in self.links:
            head, slash, _ = link.path.partition("/")
            key = head + "/" if slash else ""
            groups.setdefault(key, []).append(link)
        home = next((link.title for link in groups.get("", ()) if link.path in _HOME), None)
        found = []
        for key in sorted(groups):
            own = (key,) if key else _HOME
            links = sorted(groups[key], key=lambda link: (link.path not in own, link.path))
            title = next((link.title for link in links if link.path in own), None)
            if key and title == home:
                title = None
            found.append(Section(title or _folder_title(key) or "Pages", key, links))
        return found

    def warn_left(self, report: Report) -> None:
        if self.left:
            report.warn(PAGE_NAME, "html_sitemap", "html-sitemap-size",
                        f"{plural(self.left, 'URL')} past the first {MAX_LINKS:,} not linked: a page "
                        "of links that long helps nobody; the sitemap lists them all")


_HOME = ("", "index.html", "index.htm")


def _folder_title(key: str) -> str:
    words = unquote(key.strip("/")).replace("-", " ").replace("_", " ").strip()
    return words[:1].upper() + words[1:]


Render = Callable[[list[Section]], str]
"""An adapter's renderer: the sections in, the whole page (in the site's theme) out."""


def environment(*folders: str | Path):
    """A Jinja2 environment over ``folders`` (a user's templates first), then ours."""
    import jinja2

    loaders = [jinja2.FileSystemLoader([str(folder) for folder in folders])] if folders else []
    return jinja2.Environment(
        loader=jinja2.ChoiceLoader([*loaders, jinja2.FileSystemLoader(str(TEMPLATES))]),
        autoescape=True, keep_trailing_newline=True,
    )


def plain_page(sections: list[Section], base_url: str) -> str:
    """The self-contained page ``sitemapkit build`` writes: no theme, no external asset."""
    env = environment()
    return env.get_template("sitemapkit/page.html").render(sections=sections, base_url=base_url,
                                                           home=link_href(base_url), policy=POLICY)


def write_page(folder: Path, sections: list[Section], render: Render | None, base_url: str,
               sink: Sink | None = None) -> Path:
    """Render and write ``sitemap.html`` atomically in ``folder`` (``sink``: the disk by
    default; a dry run's only counts the bytes)."""
    html = render(sections) if render is not None else plain_page(sections, base_url)
    path = folder / PAGE_NAME
    (sink if sink is not None else Sink()).write_file(path, html.encode("utf-8"))
    return path
