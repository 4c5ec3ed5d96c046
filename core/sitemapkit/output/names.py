"""The names of the files a build writes into its output folder, decided by its settings.

Every name sitemapkit puts in an output folder comes from here or from a constant this module
writes (``feed``, ``html_sitemap`` take theirs from here): ``filename`` and its stem make the
sitemap family (``sitemap.xml``, the index's children ``sitemap-N-<hash>.xml``, the news
sitemaps, the text sitemaps, their ``.gz`` twins, the change feed), and ``sitemap.html`` and
the IndexNow key file are named by their own options.

``OwnNames`` is what the record of sitemapkit's own files (``owned``) is checked against: a
build replaces or removes a recorded file only when the *current* settings make its name.
The record is an input like any other file in the output folder, so a name it gives that
these settings do not make (``index.html``, ``../x``, ``sitemap.txt`` with ``txt`` off) is
never acted on, whatever size and digest the record gives it.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from sitemapkit.settings import IndexNowSettings, Settings
from sitemapkit.urls import absolute, in_scope, site_path
from sitemapkit.values import LlmsTxt, section_name, stem_of

LLMS_NAME = "llms.txt"
FULL_NAME = "llms-full.txt"
MIRROR = r"(?:[^/]+/)*[^/]+\.md"
"""``llms_txt``'s Markdown mirror of a page, below the output folder (``output.llms``)."""
_LLMS = rf"(?:[^/]+/)?(?:{re.escape(LLMS_NAME)}|{re.escape(FULL_NAME)})|{MIRROR}"
"""``llms_txt``'s files: ``llms.txt`` at the root and in each language's folder, the mirrors."""


def is_llms_file(name: str) -> bool:
    """Whether ``name`` (below the output folder) is one of ``llms_txt``'s files."""
    return re.fullmatch(_LLMS, name) is not None

PAGE_NAME = "sitemap.html"
"""The page for people that lists the sitemap's pages (``html_sitemap``)."""

DIGEST = 12
"""Hex digits of a child sitemap's content digest in its name (``sitemap-1-0123456789ab.xml``)."""


def feed_name(filename: str) -> str:
    """``sitemap.xml`` -> ``sitemap-changes.atom`` (the change feed, ``output.feed``)."""
    return stem_of(filename) + "-changes.atom"


def child_name(stem: str, number: int, digest: str) -> str:
    """The index's child ``number``, named by its content: ``sitemap-1-0123456789ab.xml``."""
    return f"{stem}-{number}-{digest}.xml"


def numbered_name(first: str, suffix: str, number: int) -> str:
    """``sitemap-news.xml``, ``sitemap-news-2.xml`` ... (``sitemap.txt``, ``sitemap-2.txt``)."""
    return f"{first}{suffix}" if number == 1 else f"{first}-{number}{suffix}"


OTHER_SECTION = "other"
"""The section of the pages no ``sections`` prefix matches: ``sitemap-other.xml``."""


def news_names(filename: str) -> str:
    """The news sitemaps' names as a pattern: ``sitemap-news.xml``, ``sitemap-news-2.xml`` ..."""
    return rf"{re.escape(stem_of(filename))}-news(?:-[1-9]\d*)?\.xml"


def is_news_name(name: str, filename: str) -> bool:
    """Whether ``name`` is one of the news sitemaps' (``news_names``): their pattern is compiled
    only for a name that begins as theirs (a build that writes no news never compiles it)."""
    return name.startswith(f"{stem_of(filename)}-news") and re.fullmatch(news_names(filename), name) is not None


def section_names(settings: Settings) -> list[tuple[str, str]]:
    """``(prefix, name)`` of each of ``sections``, then ``("", "other")`` for the rest."""
    return [(prefix, section_name(prefix)) for prefix in settings.sections or ()] + [("", OTHER_SECTION)]


def section_file(stem: str, name: str, number: int | None = None, digest: str = "") -> str:
    """A section's sitemap: ``sitemap-blog.xml``; split, ``sitemap-blog-1-0123456789ab.xml`` ..."""
    return f"{stem}-{name}.xml" if number is None else f"{stem}-{name}-{number}-{digest}.xml"


def sections_index(filename: str) -> str:
    """``sitemap-index.xml``: the sections' index where ``filename`` must stay a urlset."""
    return f"{stem_of(filename)}-index.xml"


def index_name(settings: Settings, keep_urlset: bool) -> str:
    """The file robots.txt names: ``filename``, except with ``sections`` where ``filename``
    must stay a ``<urlset>`` (``keep_urlset``: a theme reads it, see ``compat.material``): then
    the sections' index is ``sitemap-index.xml`` and ``filename`` lists every page as before."""
    return sections_index(settings.filename) if settings.sections and keep_urlset else settings.filename


def fixed_names(settings: Settings) -> list[str]:
    """The output names known before a page is read (checked before anything is written):
    the entry point, the first text and news sitemaps, their twins, the change feed."""
    stem = stem_of(settings.filename)
    names = [settings.filename]
    if settings.txt:
        names.append(numbered_name(stem, ".txt", 1))
    if settings.news is not None:
        names.append(numbered_name(f"{stem}-news", ".xml", 1))
    if settings.gzip:
        names += [name + ".gz" for name in names]
    if settings.changes_feed:
        names.append(feed_name(settings.filename))
    return names


def beside_names(settings: Settings) -> list[str]:
    """The files ``generate`` writes beside the sitemaps once they are written (the change
    feed, ``sitemap.html``): the writer checks their names and spares them."""
    full = isinstance(settings.llms_txt, LlmsTxt) and settings.llms_txt.full
    return [name for name, on in ((feed_name(settings.filename), settings.changes_feed),
                                  (PAGE_NAME, settings.html_sitemap), (LLMS_NAME, settings.llms_txt),
                                  (FULL_NAME, full)) if on]


def key_url(indexnow: IndexNowSettings, base_url: str) -> str:
    """Where the IndexNow key file is served: ``key_location``, else ``{key}.txt`` at the
    site root."""
    return indexnow.key_location or absolute(base_url, f"{indexnow.key}.txt")


def key_file_name(settings: Settings) -> str | None:
    """The name of the IndexNow key file a build writes at the top of its output folder, or
    None (no IndexNow, or the key served from elsewhere or from a subfolder)."""
    if settings.indexnow is None or not settings.base_url:
        return None
    base_url = settings.base_url
    location = key_url(settings.indexnow, base_url)
    if not in_scope(location, base_url):
        return None
    name = site_path(location, base_url)
    return name if name and "/" not in name else None


class OwnNames(NamedTuple):
    """The file names one build's settings make in its output folder."""

    made: re.Pattern[str]
    """Every name these settings make (with ``gzip``, the twins too)."""
    family: str
    """Every name ``filename`` makes under any settings, as a pattern: the sitemap family,
    ``sitemap.html``. A recorded name of the family that these settings do not make is the
    file of a build with an option now off; any other recorded name means the record was
    altered. Asked of such names only: compiled when first asked (2.7 M instructions)."""
    llms: bool
    """Whether these settings make ``llms_txt``'s files (a build without them never asks
    for their pattern)."""

    def allows(self, name: str) -> bool:
        """Whether a file named ``name`` may be replaced or removed on the record's word."""
        return self.made.fullmatch(name) is not None

    def in_family(self, name: str) -> bool:
        return re.fullmatch(self.family, name) is not None

    def written_later(self, name: str) -> bool:
        """Whether ``name`` is a file of ``llms_txt`` (``llms.txt``, a mirror): written, and
        its stale ones removed, by that step, after the sitemaps."""
        return self.llms and is_llms_file(name) and self.allows(name)


def own_names(settings: Settings) -> OwnNames:
    """The names the settings make: the one place that derives them."""
    stem = re.escape(stem_of(settings.filename))
    entry, feed = re.escape(settings.filename), re.escape(feed_name(settings.filename))
    children = rf"{stem}-[1-9]\d*-[0-9a-f]{{{DIGEST}}}\.xml"
    news, texts = news_names(settings.filename), rf"{stem}(?:-[1-9]\d*)?\.txt"
    twinned = [entry, children, news]  # news: whenever an entry carries an article
    if settings.txt:
        twinned.append(texts)
    if settings.sections:
        parts = "|".join(re.escape(name) for _, name in section_names(settings))
        twinned += [rf"{stem}-(?:{parts})(?:-[1-9]\d*-[0-9a-f]{{{DIGEST}}})?\.xml", rf"{stem}-index\.xml"]
    alone = []
    if settings.changes_feed:
        alone.append(feed)
    if settings.html_sitemap:
        alone.append(re.escape(PAGE_NAME))
    if settings.llms_txt:
        alone.append(_LLMS)
    key = key_file_name(settings)
    if key is not None:
        alone.append(re.escape(key))
    twins = "(?:\\.gz)?" if settings.gzip else ""
    made = rf"(?:{'|'.join(twinned)}){twins}" + "".join(f"|{name}" for name in alone)
    legacy = rf"{stem}-[1-9]\d*(?:-[0-9a-f]+)?\.xml"  # the children of older versions too
    sections = rf"{stem}-[a-z0-9]+(?:-[a-z0-9]+)*\.xml"  # any section's files, the sections' index
    family = rf"(?:{entry}|{legacy}|{news}|{texts}|{sections})(?:\.gz)?|{feed}|{re.escape(PAGE_NAME)}|{_LLMS}"
    return OwnNames(re.compile(made), family, bool(settings.llms_txt))
