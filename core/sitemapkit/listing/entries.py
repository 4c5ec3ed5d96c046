"""Pages in, entries out: which pages are listed, and with what.

Every value is checked here, once, so that the writer only formats. A value that breaks a
rule is dropped with a warning naming the page, the field and the rule; the page stays.
"""

from __future__ import annotations

import contextlib
import itertools
import os
from array import array
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from datetime import datetime, timedelta, timezone, tzinfo
from fnmatch import fnmatchcase
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple
from urllib.parse import unquote

from sitemapkit.dates import DateError, as_datetime, build_time, format_moment, newest, parse_moment
from sitemapkit.lastmod.sources import LastmodResolver
from sitemapkit.listing.images import decorative
from sitemapkit.listing.page_keys import NO_KEYS, PageKeys, page_keys
from sitemapkit.listing.transform import Transform, UserTransform, load_transform
from sitemapkit.listing.videos import VideoError, clean_text, video_from_fields
from sitemapkit.model import Alternate, Entry, Image, Moment, NewsArticle, Page, Video
from sitemapkit.output.html_sitemap import Listing
from sitemapkit.protocol import FUTURE_SLACK, HREFLANG, MAX_IMAGES, OTHER_VERSION
from sitemapkit.report import Report
from sitemapkit.return_links import without_one_way
from sitemapkit.settings import CHANGEFREQS, Rule, Settings
from sitemapkit.site.extract import HtmlFacts, file_digest, read_page_file, read_page_html
from sitemapkit.site.owned import url_key
from sitemapkit.site.pages import Exclude, error_page, fold_index, not_a_page, robots_rules, serving_file
from sitemapkit.urls import (
    MAX_LOC_LENGTH,
    NEWS_LANGUAGE,
    URLError,
    absolute,
    encode_url,
    in_scope,
    normalise_base_url,
    resolve,
    site_loc,
    site_path,
)

if TYPE_CHECKING:
    from protego import Protego

    from sitemapkit.versions import Deployment


def build_entries(
    pages: Iterable[Page],
    settings: Settings,
    *,
    report: Report | None = None,
    lastmod: LastmodResolver | None = None,
    site_dir: str | os.PathLike[str] | None = None,
    documents: Iterable[Page] = (),
    listing: Listing | None = None,
    project_dir: str | os.PathLike[str] | None = None,
    source_dirs: Iterable[str | os.PathLike[str]] = (),
    deployment: Deployment | None = None,
    transform: UserTransform | None = None,
) -> Iterator[Entry]:
    """One ``Entry`` per listable page, lazily, in the order the pages come. With
    ``site_dir``, pages the site's robots.txt keeps crawlers from are left out.

    Lastmods come from ``settings.lastmod`` as in a build: git history of the pages'
    sources (``source_dirs``: the folders git reads; ``project_dir``: where relative
    sources and ``state_file`` are, the current folder by default) and the fingerprints of
    the manifest an earlier build of the site left (the one of ``site_dir``: pass the folder
    ``generate`` wrote), which is read, not written: ``generate`` keeps it.
    ``lastmod`` is the resolver a build shares with its manifest. ``documents``: files that
    are not HTML (the ``include`` option), listed after the pages with only a loc and a
    lastmod. ``listing`` gathers each entry's title for ``sitemap.html``. ``deployment``:
    the site is one version of versioned documentation (pages canonical to another version
    are left out and named; a home page left out is warned of). The pages of
    ``settings.extra_urls`` follow the pages given, checked as they are. Each entry goes
    through ``settings.transform`` (``transform``: that callable, already loaded; else it is
    loaded from ``project_dir``) before it is listed.
    """
    if not settings.base_url:
        raise ValueError("build_entries needs settings.base_url")
    settings = settings.replace(base_url=normalise_base_url(settings.base_url))
    report = report if report is not None else Report()
    own = lastmod is None
    project = Path(project_dir) if project_dir is not None else Path.cwd()
    if settings.transform and transform is None:
        transform = load_transform(settings.transform, project)
    if lastmod is None:
        lastmod = LastmodResolver(settings, project, report, build_time(), source_dirs, site_dir=site_dir)
    seen = UrlHashes()
    try:
        made = _entries(itertools.chain(pages, extra_pages(settings)), settings, report, lastmod, site_dir,
                        documents, listing, seen, deployment, transform)
        yield from without_one_way(made, report, seen.holds) if settings.alternates else made
    finally:
        if own:
            lastmod.finish()
            lastmod.manifest.close()


def _entries(
    pages: Iterable[Page],
    settings: Settings,
    report: Report,
    lastmod: LastmodResolver,
    site_dir: str | os.PathLike[str] | None,
    documents: Iterable[Page],
    listing: Listing | None,
    seen: UrlHashes,
    deployment: Deployment | None,
    transform: UserTransform | None,
) -> Iterator[Entry]:
    """The entries of ``pages`` then ``documents``, each URL once (``seen``: those listed),
    each through ``transform``."""
    maker = _EntryMaker(settings, report, lastmod, site_dir, deployment)
    change = None
    if transform is not None and settings.transform:
        change = Transform(transform, settings.transform, maker.base, report,
                           lambda label, field, moment: maker.not_future(Page(label), field, moment),
                           lastmod.manifest.renote)
    maker.robots = robots_rules(site_dir) if site_dir is not None else None
    marked = ((page, False) for page in pages)
    for page, document in itertools.chain(marked, ((file, True) for file in documents)):
        home = deployment is not None and deployment.selector and not document and maker.home(page)
        before = dict(report.left_out) if home else None
        entry = maker.document(page) if document else maker.entry(page)
        if entry is not None and change is not None:
            entry = change(entry)
        if entry is None:
            if before is not None:
                why = ", ".join(reason for reason, count in report.left_out.items() if count != before.get(reason))
                report.warn(page.label, "loc", "version-home-left-out",
                            f"this version's home page {maker.base} is left out of its sitemap ({why or 'a warning'}): "
                            "Material's version selector finds a version's pages through that sitemap and "
                            "cannot match them without it")
            continue
        if not seen.add(entry.loc):
            report.warn(page.label, "loc", "duplicate-url", f"{entry.loc} is listed already")
            continue
        if listing is not None:
            listing.add(entry, maker.title)
        yield entry
    for pattern in maker.excludes.unmatched():
        report.warn("settings", "exclude", "exclude-unmatched",
                          f"pattern '{pattern}' matched no page; check its spelling (gitignore-style)")


def extra_pages(settings: Settings) -> Iterator[Page]:
    """The pages of ``extra_urls``, each named for messages by the option and its URL, with
    its lastmod as a ``sitemap_lastmod`` page key (checked as one)."""
    for extra in settings.extra_urls:
        meta = {"sitemap_lastmod": extra.lastmod} if extra.lastmod not in (None, "") else {}
        yield Page(url=extra.loc, meta=meta, name=f"extra_urls: {extra.loc}")


class UrlHashes:
    """The URLs listed so far, for duplicate detection, as 64-bit hashes in one open-addressing
    table (an ``array``): at most 32 bytes a URL, where a ``set`` of the URLs costs their
    strings and a ``set`` of their hashes about 80 bytes each (an int object and a slot).
    Two of a million URLs share a hash with a chance of about 3 in 100 million."""

    def __init__(self) -> None:
        self._mask = (1 << 12) - 1
        self._table = array("q", bytes(8 << 12))
        self._count = 0

    def holds(self, key: int) -> bool:
        """Whether a URL whose ``hash()`` is ``key`` was noted."""
        key = key or 1
        table, mask = self._table, self._mask
        slot = key & mask
        while found := table[slot]:
            if found == key:
                return True
            slot = (slot + 1) & mask
        return False

    def add(self, url: str) -> bool:
        """Note ``url``; False when it was noted before."""
        key = hash(url) or 1  # 0 marks a free slot
        table, mask = self._table, self._mask
        slot = key & mask
        while found := table[slot]:
            if found == key:
                return False
            slot = (slot + 1) & mask
        table[slot] = key
        self._count += 1
        if self._count * 2 > mask:  # at most half full: probes stay short
            self._grow()
        return True

    def _grow(self) -> None:
        old = self._table
        self._mask = mask = self._mask * 2 + 1
        self._table = table = array("q", bytes(8 * (mask + 1)))
        for key in old:
            if key:
                slot = key & mask
                while table[slot]:
                    slot = (slot + 1) & mask
                table[slot] = key


class _Field(NamedTuple):
    """A field set by a page key, by the first matching ``rules`` entry, or by the setting of
    the same name (the order Django's sitemaps use: the item's own, then the class's)."""

    name: str
    key: str
    rule: str
    parse: Callable[[Any], Any]
    """The page's value as the sitemap takes it; None when it is not allowed."""
    allowed: str


def _changefreq(value: Any) -> str | None:
    value = str(value).strip().lower()
    return value if value in CHANGEFREQS else None


def _priority(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if 0.0 <= number <= 1.0 else None


_CHANGEFREQ = _Field("changefreq", "sitemap_changefreq", "changefreq-value", _changefreq,
                     f"changefreq must be one of {', '.join(CHANGEFREQS)}")
_PRIORITY = _Field("priority", "sitemap_priority", "priority-range", _priority, "priority must be 0.0-1.0")


class _EntryMaker:
    """Makes each page's ``Entry``: decides whether it is listed, then each field's value."""

    def __init__(self, settings: Settings, report: Report, lastmod: LastmodResolver,
                 site_dir: str | os.PathLike[str] | None = None, deployment: Deployment | None = None):
        self.settings = settings
        self.site_dir = site_dir
        self.deployment = deployment
        """The built site, where the files are that serve each URL (None: not known)."""
        self.base = settings.base_url or ""
        self.report = report
        self.resolver = lastmod
        self.now = lastmod.now
        self.latest = self.now + FUTURE_SLACK
        self._early: dict[tzinfo, datetime] = {}
        self.excludes = Exclude(settings.exclude)
        self.robots: Protego | None = None
        self.title: str | None = None
        """The title of the page ``entry`` last listed (for ``sitemap.html``)."""
        self.titles = settings.html_sitemap

    def warn(self, page: Page, field: str, rule: str, message: str) -> None:
        self.report.warn(page.label, field, rule, message)

    def left_out(self, reason: str) -> None:
        self.report.left_out[reason] = self.report.left_out.get(reason, 0) + 1

    # ------------------------------------------------------------------ the page

    def entry(self, page: Page) -> Entry | None:
        meta = page.meta
        keys = page_keys(meta, lambda field, message: self.warn(page, field, "page-key", message)) if meta else NO_KEYS
        if keys.exclude:
            self.left_out("sitemap: false")
            with contextlib.suppress(URLError):
                self.report.chosen_out.add(url_key(site_loc(self.base, page.url)))
            return None
        try:
            loc = site_loc(self.base, page.url)
        except URLError as error:
            reason = error.reason
            rule = "loc-length" if reason == "length" else "loc-scope" if reason == "scope" else "loc-invalid"
            self.warn(page, "loc", rule, f"page left out: {error}")
            return None
        path = site_path(loc, self.base)
        if (not_page := page.not_page or error_page(path)) is not None:
            self.left_out(not_page)
            self.report.not_pages.setdefault(not_page, []).append(page.label)
            self.report.chosen_out.add(url_key(loc))
            return None
        if self.excludes and self.excludes(path):
            self.left_out("exclude")
            self.report.chosen_out.add(url_key(loc))
            return None
        if page.copied and self.settings.static_html == "omit":
            self.left_out("static_html: omit")
            self.report.chosen_out.add(url_key(loc))
            return None
        if self.robots is not None and not self.robots.can_fetch(loc, "*"):
            self.left_out("robots.txt")
            return None
        try:
            facts = self.facts(page, loc)
        except OSError as error:  # a pipe, socket or device named like a page; no permission
            self.warn(page, "output", "page-unreadable",
                      f"page left out: {page.output} {error.strerror or error}")
            return None
        for label, size in facts.long_values:
            self.warn(page, label, "url-too-long", f"a {size:,}-byte value left unread: a URL must be "
                      f"under {MAX_LOC_LENGTH} characters")
        not_page = not_a_page(facts.head) if self.read_markup(page, facts) else None
        if not_page is not None:
            self.left_out(not_page)
            return None
        if facts.noindex and not self.settings.include_noindex:
            self.left_out("noindex")
            return None
        if facts.canonical and facts.canonical != loc and (canonical := self.canonical(facts.canonical)) != loc:
            if canonical is not None and self.same_file(canonical, path):
                loc, path = canonical, site_path(canonical, self.base)  # the page's own name for itself
            elif canonical is not None and self.deployment is not None and self.deployment.names_itself(canonical, loc):
                pass  # every version's canonical links name the page without its version's folder
            elif canonical is not None and self.deployment is not None and self.deployment.other_version(canonical):
                self.report.info(page.label, "canonical", "canonical-other-version",
                                 f"page left out: its canonical URL {canonical} is another version's; this "
                                 f"version's sitemap lists only its own URLs, under {self.base}")
                self.left_out(OTHER_VERSION)
                return None
            else:
                if canonical is None or not in_scope(canonical, self.base):
                    # Not a print view pointing at its original: the site says it lives elsewhere,
                    # which usually means base_url (or the generator's site URL) is wrong.
                    self.warn(page, "canonical", "canonical-outside",
                              f"page left out: its canonical URL {facts.canonical} is outside {self.base}; "
                              "check base_url")
                self.left_out("canonical elsewhere")
                return None

        settings = self.settings
        rule = self.rule_for(path) if settings.rules else None
        if self.titles:
            self.title = page.title or facts.title
        return Entry(
            loc,
            self.lastmod(page, keys, facts, loc),
            self.field(page, _CHANGEFREQ, keys.changefreq, rule),
            self.field(page, _PRIORITY, keys.priority, rule),
            self.images(page, keys, facts, loc) if settings.images else (),
            self.videos(page, keys, facts, loc) if settings.videos else (),
            self.news(page, keys, facts, path) if settings.news else None,
            self.alternates(page, facts, loc) if settings.alternates else (),
        )

    def document(self, page: Page) -> Entry | None:
        """A file that is not HTML (``include``): a loc, and a lastmod from its source's git
        history or from the manifest's fingerprint of its bytes, never from the build."""
        loc = site_loc(self.base, page.url)
        path = site_path(loc, self.base)
        if self.excludes and self.excludes(path):
            self.left_out("exclude")
            return None
        if self.robots is not None and not self.robots.can_fetch(loc, "*"):
            self.left_out("robots.txt")
            return None
        try:
            digest = file_digest(page.output)
        except OSError as error:
            self.warn(page, "output", "page-unreadable", f"file left out: {page.output} {error.strerror or error}")
            return None
        keys = NO_KEYS
        facts = HtmlFacts(digest=digest)
        rule = self.rule_for(path) if self.settings.rules else None
        self.title = unquote(path.rpartition("/")[2]) or None
        return Entry(loc, self.lastmod(page, keys, facts, loc), self.field(page, _CHANGEFREQ, keys.changefreq, rule),
                     self.field(page, _PRIORITY, keys.priority, rule))

    def facts(self, page: Page, loc: str) -> HtmlFacts:
        if page.html is not None:
            return read_page_html(page.html, loc, content=page.content)
        if page.output is not None:
            return read_page_file(page.output, loc, content=page.content)
        if page.content is not None:
            return read_page_html(b"", loc, content=page.content)
        return HtmlFacts()

    def home(self, page: Page) -> bool:
        """Whether ``page`` is the site's home page (``base_url`` itself)."""
        try:
            return fold_index(site_path(site_loc(self.base, page.url), self.base)) == ""
        except URLError:
            return False

    def same_file(self, canonical: str, path: str) -> bool:
        """Whether ``canonical`` names the page at ``path`` in another spelling: its folder's
        ``index.html`` (``a/index.html`` for ``a/``, as Sphinx's canonical links do), or,
        in a known site folder, any URL the same file serves (``a`` for ``a/``, as Docusaurus
        writes it; ``a`` for ``a.html``), by the one URL <-> file mapping."""
        if not in_scope(canonical, self.base):
            return False
        named = site_path(canonical, self.base)
        if fold_index(named) == fold_index(path):
            return True
        if self.site_dir is None:
            return False
        served = serving_file(self.site_dir, named)
        return served is not None and served == serving_file(self.site_dir, path)

    @staticmethod
    def read_markup(page: Page, facts: HtmlFacts) -> bool:
        """Whether ``facts`` come from the page's own markup (not only from the content an
        adapter gave, nor from a file that was missing or empty)."""
        if page.html is None and page.output is None:
            return False
        return bool(facts.head) or (page.content is None and facts.digest is not None)

    def rule_for(self, path: str) -> Rule | None:
        return next((r for r in self.settings.rules if fnmatchcase(path, r.match.lstrip("/"))), None)

    def canonical(self, url: str) -> str | None:
        try:
            return encode_url(url)
        except URLError:
            return None

    # ------------------------------------------------------------ simple fields

    def field(self, page: Page, field: _Field, own: Any, rule: Rule | None) -> Any:
        """The page's own value (a warning when it is not allowed), else the first matching
        rule's, else the setting."""
        if own is not None:
            value = field.parse(own)
            if value is not None:
                return value
            self.warn(page, field.key, field.rule, f"'{own}' dropped: {field.allowed}")
        if rule is not None and (value := getattr(rule, field.name)) is not None:
            return value
        return getattr(self.settings, field.name)

    def moment(self, page: Page, field: str, value: Any) -> Moment | None:
        if value is None or value == "":
            return None
        try:
            return parse_moment(value)
        except DateError as error:
            self.warn(page, field, "date-format", f"dropped: {error}")
            return None

    # ------------------------------------------------------------------ lastmod

    def lastmod(self, page: Page, keys: PageKeys, facts: HtmlFacts, loc: str) -> Moment | None:
        if not self.settings.lastmod:
            # still notes the digest in the manifest (IndexNow, change feed)
            self.resolver.lastmod(page, loc, facts.digest, self.feed_title(page, facts))
            return None
        override = self.not_future(page, "sitemap_lastmod", self.moment(page, "sitemap_lastmod", keys.lastmod))
        modified = self.not_future(page, "modified", page.modified)
        if modified is None and page.listed:
            modified = newest(page.listed)
        # A page whose source is known is dated by it (front matter, then git): the HTML's
        # article dates are what a theme printed, for a Jekyll collection's document the build's time.
        if modified is None and page.source is None:
            modified = self.not_future(page, "article:modified_time",
                                       self.moment(page, "article:modified_time", facts.modified))
        if modified is None and page.source is None:
            modified = self.not_future(page, "article:published_time",
                                       self.moment(page, "article:published_time", facts.published))
        if modified is not page.modified:
            page = replace(page, modified=modified)
        found = self.resolver.lastmod(page, loc, facts.digest, self.feed_title(page, facts), override=override)
        return override if override is not None else self.not_future(page, "lastmod", found)

    def not_future(self, page: Page, field: str, moment: Moment | None) -> Moment | None:
        """``moment``, unless it is after the build's now (beyond a day's slack for a date
        in a zone ahead of UTC): a lastmod in the future is dropped, as validate flags it."""
        if moment is None:
            return None
        zone = getattr(moment, "tzinfo", None)
        if zone is not None and zone is not timezone.utc:
            # Performance: first compared with the latest moment in the page's own zone, minus a
            # margin for its offset changes: two datetimes of one zone compare as they are, with
            # no UTC offset worked out for each (measured: 0.3 µs instead of 2.1 µs a Pelican date).
            early = self._early.get(zone)
            if early is None:
                early = self._early[zone] = self.latest.astimezone(zone) - _OFFSET_CHANGE
            if moment <= early:
                return moment
        if as_datetime(moment) > self.latest:
            self.warn(page, field, "lastmod-future",
                      f"{format_moment(moment)} dropped: it is after the build time {format_moment(self.now)}")
            return None
        return moment

    def feed_title(self, page: Page, facts: HtmlFacts) -> str | None:
        """The title the manifest keeps for the change feed. Without a feed it is not read
        from the HTML: a feed turned on later reads every page's title in its own build."""
        return page.title or (facts.title if self.settings.changes_feed else None)

    # ------------------------------------------------------------------- images

    def images(self, page: Page, keys: PageKeys, facts: HtmlFacts, loc: str) -> tuple[Image, ...]:
        if not facts.images and not page.images and not keys.images:
            return ()
        found: dict[str, None] = {}
        # The HTML's images passed the filter where their tags were read; the generator's and
        # the page keys' pass it here: badges, pixels and logos are no page's images.
        given = (raw for raw in (*page.images, *keys.images) if not decorative(raw))
        for raw in (*facts.images, *given):
            try:
                found.setdefault(encode_url(resolve(loc, raw)), None)
            except URLError as error:
                self.warn(page, "image", "image-loc", f"image dropped: {error}")
        if len(found) > MAX_IMAGES:
            self.warn(
                page, "images", "image-count",
                f"{len(found)} images; only the first {MAX_IMAGES} are listed (Google's limit per URL)",
            )
        return tuple(Image(url) for url in list(found)[:MAX_IMAGES])

    # ------------------------------------------------------------------- videos

    def videos(self, page: Page, keys: PageKeys, facts: HtmlFacts, loc: str) -> tuple[Video, ...]:
        if not keys.videos and not facts.videos:
            return ()
        videos: list[Video] = []
        for fields in keys.videos:
            try:
                video, problems = video_from_fields(fields, loc)
            except VideoError as error:
                self.warn(page, f"sitemap_video.{error.field}", error.rule, f"video dropped: {error}")
                continue
            for field, rule, message in problems:
                self.warn(page, f"sitemap_video.{field}", rule, message)
            videos.append(video)
        for fields in facts.videos:
            # A <video> element is listed only when its markup carries every required field.
            try:
                video, _ = video_from_fields(fields, loc)
            except VideoError:
                continue
            if all(v.content_loc != video.content_loc for v in videos):
                videos.append(video)
        return tuple(videos)

    # --------------------------------------------------------------------- news

    def news(self, page: Page, keys: PageKeys, facts: HtmlFacts, path: str) -> NewsArticle | None:
        news = self.settings.news
        assert news is not None
        if keys.news is False or not fnmatchcase(path, news.match.lstrip("/")):
            return None
        fields = keys.news or {}
        published = (
            self.moment(page, "sitemap_news.publication_date", fields.get("publication_date"))
            or page.published
            or self.moment(page, "article:published_time", facts.published)
        )
        if published is None:
            return None
        when = as_datetime(published)
        if not self.now - timedelta(hours=news.window_hours) <= when <= self.now + _CLOCK_SKEW:
            return None
        title = clean_text(fields.get("title") or page.title or facts.title)
        if not title:
            self.warn(page, "sitemap_news.title", "news-required", "news entry dropped: no title")
            return None
        language = str(fields.get("language") or news.language or _news_language(page.lang or facts.lang))
        language = language.strip().lower().replace("_", "-")
        if not NEWS_LANGUAGE.fullmatch(language):
            self.warn(
                page, "sitemap_news.language", "news-language",
                f"news entry dropped: '{language}' is not an ISO 639 code (or zh-cn, zh-tw)"
                if language else "news entry dropped: no language (set news.language, or the page's own)",
            )
            return None
        name = clean_text(fields.get("publication") or fields.get("name") or news.publication) or news.publication
        return NewsArticle(name, language, published, title)

    # --------------------------------------------------------------- alternates

    def alternates(self, page: Page, facts: HtmlFacts, loc: str) -> tuple[Alternate, ...]:
        if not page.translations and not facts.alternates:
            return ()
        versions: dict[str, str] = {}
        own = _language_code(page.lang or facts.lang or "")
        for code, url in (*page.translations.items(), *facts.alternates):
            code = _language_code(code)
            if not HREFLANG.fullmatch(code):
                self.warn(page, "hreflang", "hreflang-code", f"alternate '{code}' dropped: not a language code")
                continue
            try:
                versions.setdefault(code, encode_url(absolute(self.base, url)))
            except URLError as error:
                self.warn(page, "hreflang", "hreflang-href", f"alternate '{code}' dropped: {error}")
        if own and HREFLANG.fullmatch(own):
            versions[own] = loc
        elif versions:
            self.warn(page, "lang", "hreflang-self", "the page's own language is unknown; alternates kept without it")
        others = [code for code, url in versions.items() if url != loc and code != "x-default"]
        if not others:
            return ()
        x_default = self.settings.x_default
        if x_default and "x-default" not in versions:
            target = versions.get(_language_code(x_default))
            if target:
                versions["x-default"] = target
        return tuple(
            Alternate(code, versions[code])
            for code in sorted(versions, key=lambda c: (c == "x-default", c.lower()))
        )


_CLOCK_SKEW = timedelta(minutes=5)
_OFFSET_CHANGE = timedelta(hours=3)
"""More than a zone's UTC offset moves in one change (daylight saving time: one hour)."""


def _news_language(code: str | None) -> str:
    """A page's language as news wants it: ``fr`` for ``fr_CA``; only Chinese keeps its
    script (``zh-cn``, ``zh-tw``)."""
    code = (code or "").strip().lower().replace("_", "-")
    return code if code in ("zh-cn", "zh-tw") else code.split("-")[0]


def _language_code(code: str) -> str:
    """``fr_FR`` (Sphinx, Pelican, gettext) is ``fr-FR`` to hreflang."""
    return code.strip().replace("_", "-")

