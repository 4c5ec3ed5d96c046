"""``html_sitemap``: ``sitemap.html``, the site map for people, in the site's own order.

The core decides what it lists (the sitemap's URLs, never the page itself) and arranges them
by the site's navigation, which the adapter hands over as an ``Outline`` (``map_sections``);
the page is rendered from a Jinja2 template. An adapter passes ``render`` to use its
generator's theme (its template includes ours, ``sitemapkit/sections.html``); without one, or
when the theme cannot render it (an error, or a page without the sections: a theme without the
block sitemapkit fills), ``sitemapkit/page.html`` makes a plain self-contained page, with a
warning. Either way the core writes the file, as one of its own (see ``owned``).
"""

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from urllib.parse import unquote

from sitemapkit.dates import as_datetime, format_moment
from sitemapkit.model import Entry, Moment, Outline
from sitemapkit.output import TEMPLATES
from sitemapkit.output.map_sections import Item, Link, Section, arrange
from sitemapkit.output.names import PAGE_NAME
from sitemapkit.protocol import MAX_URLS
from sitemapkit.report import Report, plural
from sitemapkit.site.files import Sink
from sitemapkit.urls import link_href, shown, site_path

__all__ = ["PAGE_NAME", "TEMPLATES", "Item", "Link", "Listing", "Section", "body", "environment", "plain_page",
           "write_page"]

TEMPLATE_NAME = "sitemap.html"
"""The template a theme (or a user's template folder) may provide to replace ours."""
POLICY = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"
"""The Content-Security-Policy of sitemapkit's self-contained pages (the plain ``sitemap.html``,
the validator's report): their own inline style and nothing else, no script of any origin;
``base-uri`` and ``form-action`` do not fall back to ``default-src``, so they are named."""
SECTIONS_MARK = "sitemapkit-sections"
"""The class of the element ``sitemapkit/sections.html`` puts the map in: a page rendered
without it did not show the map."""
MAX_LINKS = MAX_URLS
"""Links on the page: a site map with more helps nobody, and each costs memory until the end."""


class Listing:
    """The sitemap's URLs with their titles, gathered as the entries stream to the writer."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.links: list[Link] = []
        self.left = 0
        """URLs past ``MAX_LINKS``, counted only."""
        self.newest: Moment | None = None
        self.languages: set[str] = set()
        """The hreflang codes of the entries' alternates: the site's languages (``llms_txt``)."""

    def add(self, entry: Entry, title: str | None, read: str | None = None, lists: bool = False) -> None:
        """``title``: the page's own, from its generator; ``read``: else the one its HTML gives;
        ``lists``: the page lists others."""
        if entry.loc == self.base_url + PAGE_NAME:
            return  # an earlier build's page, found among the site's files: the map never lists itself
        if entry.alternates:
            self.languages.update(alternate.hreflang for alternate in entry.alternates)
        if entry.lastmod is not None and (self.newest is None or as_datetime(entry.lastmod) > as_datetime(self.newest)):
            self.newest = entry.lastmod
        if len(self.links) >= MAX_LINKS:
            self.left += 1
            return
        path = site_path(entry.loc, self.base_url)
        day = format_moment(entry.lastmod)[:10] if entry.lastmod is not None else None
        shown = title or read
        self.links.append(Link(path, link_href("./" + path), entry.loc, shown or unquote(path) or "/", day,
                               read=not title and bool(read), lists=lists))

    def with_page(self, entries: Iterable[Entry], page_url: str,
                  dated: dict[str, int] | None = None) -> Iterator[Entry]:
        """``entries``, then the site map page itself, dated by the newest of what it lists
        (as every page that lists others is). ``dated``: the build's count of listed pages by
        lastmod source, where the page is counted under its own name (or ``none``). The
        sitemap lists the page; the page does not list itself."""
        loc = self.base_url + page_url
        yield from (entry for entry in entries if entry.loc != loc)
        if self.links:
            if dated is not None:
                source = page_url if self.newest is not None else "none"
                dated[source] = dated.get(source, 0) + 1
            yield Entry(loc, self.newest)

    def sections(self, outline: Outline | None = None) -> list[Section]:
        """The map's sections, in the order of the site's navigation (``outline``) when an
        adapter gives it, else by folder (``map_sections``)."""
        return arrange(self.links, outline, self.base_url)

    def warn_left(self, report: Report) -> None:
        if self.left:
            report.warn(PAGE_NAME, "html_sitemap", "html-sitemap-size",
                        f"{plural(self.left, 'URL')} past the first {MAX_LINKS:,} not linked: a page "
                        "of links that long helps nobody; the sitemap lists them all")


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


def body(sections: list[Section]) -> str:
    """The map as a page's content: its heading and sections (``sitemapkit/body.html``), for a
    theme that puts a page's rendered content in its own layout (MkDocs' ``main.html``,
    Sphinx's ``page.html``)."""
    return environment().get_template("sitemapkit/body.html").render(sections=sections)


def write_page(folder: Path, sections: list[Section], render: Render | None, base_url: str,
               sink: Sink | None = None, report: Report | None = None) -> Path:
    """Render and write ``sitemap.html`` atomically in ``folder`` (``sink``: the disk by
    default; a dry run's only counts the bytes): in the site's theme (``render``) when it
    renders the map, else sitemapkit's plain page, with a warning in ``report``."""
    html = _in_theme(sections, render, report if report is not None else Report()) if render is not None else None
    if html is None:
        html = plain_page(sections, base_url)
    path = folder / PAGE_NAME
    (sink if sink is not None else Sink()).write_file(path, html.encode("utf-8"))
    return path


def _in_theme(sections: list[Section], render: Render, report: Report) -> str | None:
    """The page as the theme renders it, or None when the theme fails (an error, or a page
    without the map: the theme has none of the blocks sitemapkit's template fills)."""
    try:
        html = render(sections)
    except Exception as error:  # the theme's templates and the generator's own code: any error
        why = f"rendering it failed ({type(error).__name__}: {shown(str(error), 200)})"
    else:
        if SECTIONS_MARK in html:
            return html
        why = "the page it rendered does not show the map (the theme's template has no place for a page's content)"
    report.warn(PAGE_NAME, "html_sitemap", "html-sitemap-theme",
                f"the site's theme cannot show the site map: {why}; sitemapkit's own plain page "
                "written instead (a sitemap.html template of your own that includes "
                "sitemapkit/sections.html shows it in the theme)")
    return None
