"""One page in, its entry out: whether the page is listed, and the value of each field.

Every value is checked here, once, so that the writer only formats. A value that breaks a
rule is dropped with a warning naming the page, the field and the rule; the page stays.
"""

import contextlib
import hashlib
import json
import os
from collections.abc import Callable
from datetime import datetime, timedelta, timezone, tzinfo
from fnmatch import fnmatchcase
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any, NamedTuple
from urllib.parse import quote, unquote

from sitemapkit.dates import as_datetime, format_moment, newest, parse_moment
from sitemapkit.extensions import Alternate, NewsArticle, Video
from sitemapkit.lastmod.sources import LastmodResolver
from sitemapkit.listing.page_fields import (
    Warn,
    alternates,
    image_urls,
    news_article,
    page_moment,
    present_images,
    videos,
)
from sitemapkit.listing.page_keys import NO_KEYS, PageKeys, page_keys
from sitemapkit.model import Entry, Image, Moment, Page, PlainEntry
from sitemapkit.protocol import FUTURE_SLACK, OTHER_VERSION, PAGE_READ_BYTES, hreflang_pattern
from sitemapkit.report import EXAMPLES, Report, examples, plural
from sitemapkit.settings import Rule, Settings
from sitemapkit.site.extract import HtmlFacts, file_digest, read_page_file, read_page_html
from sitemapkit.site.files import inside
from sitemapkit.site.owned import url_key
from sitemapkit.site.pages import Exclude, SiteRobots, error_page, file_exists, fold_index, serving_file
from sitemapkit.urls import MAX_LOC_LENGTH, URLError, encode_url, in_scope, site_loc, site_loc_path, site_path
from sitemapkit.values import OptionError, changefreq, priority

if TYPE_CHECKING:
    from sitemapkit.lastmod.state import Record
    from sitemapkit.listing.entries import Counted
    from sitemapkit.versions import Deployment


class _Field(NamedTuple):
    """A field set by a page key, by the first matching ``rules`` entry, or by the setting of
    the same name (the order Django's sitemaps use: the item's own, then the class's)."""

    name: str
    key: str
    rule: str
    check: Callable[[Any], Any]
    """The page's value as the sitemap takes it (``values``' check of the option); raises
    ``OptionError`` when it is not allowed."""


def _changefreq(value: Any) -> str:
    """A page key's changefreq: text, blanks around it allowed."""
    return changefreq(str(value).strip())


_CHANGEFREQ = _Field("changefreq", "sitemap_changefreq", "changefreq-value", _changefreq)
_PRIORITY = _Field("priority", "sitemap_priority", "priority-range", priority)


Gate = Callable[[Page, str, str], bool]
"""A check on a page's loc and path before it is read: True leaves the page out (and says why)."""
Check = Callable[[Page, HtmlFacts], bool]
"""A check on what a read page says of itself: True leaves it out (and says why)."""
Field = Callable[[Page, PageKeys, HtmlFacts, str, str, Warn], Any]
"""The value of one of an entry's extension fields, from the page, its keys, its facts, its
loc and its path, told of its problems by ``warn``; a field that is off is always empty
(``_none``, ``_no_news``)."""


def _none(page: Page, keys: PageKeys, facts: HtmlFacts, loc: str, path: str, warn: Warn) -> tuple[()]:
    return ()


def _no_images(page: Page, keys: PageKeys, facts: HtmlFacts, loc: str, warn: Warn) -> list[tuple[str, bool]]:
    return []


def _no_news(page: Page, keys: PageKeys, facts: HtmlFacts, loc: str, path: str, warn: Warn) -> None:
    return None


class _Told:
    """A ``Warn`` for the making of one page's entry: it reports each warning and keeps its
    rule, which decides whether the entry may be replayed (``EntryMaker._replayable``)."""

    __slots__ = ("report", "rules")

    def __init__(self, report: Report) -> None:
        self.report = report
        self.rules: list[str] = []

    def __call__(self, page: Page, field: str, rule: str, message: str) -> None:
        self.report.warn(page.label, field, rule, message)
        self.rules.append(rule)

    def asked_again(self) -> bool:
        """Whether every warning is one a replay of the entry gives again (``_ASKED_AGAIN``)."""
        return all(rule in _ASKED_AGAIN for rule in self.rules)


def _written_entry(loc: str, lastmod: Moment | None, changefreq: str | None, priority: float | None,
                   images: tuple[Image, ...], videos: tuple[Video, ...], news: NewsArticle | None,
                   alternates: tuple[Alternate, ...]) -> Entry | PlainEntry:
    """``Entry(...)`` for an entry only the writer reads: a ``PlainEntry`` when it has no video,
    news nor alternates (most pages'), a tuple made for a quarter of what a frozen dataclass
    costs (measured: 3.4 k instructions against 12.9 k)."""
    if videos or news is not None or alternates:
        return Entry(loc, lastmod, changefreq, priority, images, videos, news, alternates)
    return PlainEntry(loc, lastmod, changefreq, priority, images)


class Plan(NamedTuple):
    """What every page of a build goes through, decided once from the settings and the site
    (issue 36): a feature that is off has no step, and costs nothing per page. ``EntryMaker.made``
    runs the page keys and the loc, then ``gates``, reads the page (``facts``), runs ``checks`` and
    the canonical link, then makes the fields: lastmod, changefreq and priority (by ``rules``
    when there are any), images, videos, news and alternates. With ``replay``, a page that is
    only its written file has, after the gates, the entry an earlier build made of that very
    file replayed instead (``EntryMaker._replayed``)."""

    replay: bool
    """Whether entries are kept and replayed: where facts are kept by file (not in a build that
    renders only what changed), and no field hangs on more than the file (news: the clock and
    the page's title; the change feed and llms.txt: more than the entry)."""
    gates: tuple[Gate, ...]
    facts: Callable[[Page, str], HtmlFacts]
    """The page's facts (``EntryMaker.facts``); where the manifest keeps them, also kept for
    a page handed over with its HTML and its written file (``facts_kept``)."""
    checks: tuple[Check, ...]
    rules: bool
    images: Callable[[Page, PageKeys, HtmlFacts, str, Warn], list[tuple[str, bool]]]
    """The URLs of the images the page names (``page_fields.image_urls``), each then checked
    for a file in the built site (``EntryMaker.present_images``)."""
    videos: Field
    news: Field
    alternates: Field
    entry: Callable[..., Entry | PlainEntry]
    """What makes the entry of the fields: ``Entry``, or where the entries go to the writer alone
    (a build's, with no ``transform``), ``_written_entry``."""


class KeptEntry(NamedTuple):
    """An entry an earlier build made of a page's unchanged file, as ``EntryMaker`` replays it."""

    facts: HtmlFacts
    """What dates the page: its digest and its HTML's dates (nothing else)."""
    title: str | None
    """Its HTML's title, where the build lists titles (``sitemap.html``)."""
    images: list[tuple[str, bool]]
    """The URLs of the images it names (each with whether its generator named it), before the
    built site is asked for their files (and the written page whether it shows them)."""
    alternates: tuple[Alternate, ...]


class Folded(NamedTuple):
    """What a folder's row keeps of one of its pages (``EntryMaker.keep_folder``), besides its
    file: what its entry is made from again when the folder's files are all unchanged."""

    digest: str | None
    """The digest of the page's content, as the manifest has it."""
    answered: str
    """The lastmod source that dated the page: ``meta`` (its HTML's dates), ``fingerprint``
    or ``none``; asked again (``LastmodResolver.again``)."""
    found: str | None
    """What its own metadata said (``meta``), as a W3C date."""
    urls: list[tuple[str, bool]]
    """The URLs of the images it names (``KeptEntry.images``), their files asked again."""


_KeptPage = tuple[str | None, str, Moment | None, list[tuple[str, bool]]]
"""A ``Folded`` as ``EntryMaker`` reads it back: its ``found`` a moment."""


class EntryMaker:
    """Makes each page's ``Entry``: decides whether it is listed, then each field's value."""

    def __init__(self, settings: Settings, report: Report, lastmod: LastmodResolver, chosen_out: set[str],
                 site_dir: str | os.PathLike[str] | None = None, deployment: "Deployment | None" = None,
                 robots: SiteRobots | None = None, *, counted: "Counted", by_folder: bool = False,
                 written_only: bool = False):
        """``chosen_out``: where the keys of the pages the site's settings leave out go;
        ``counted``: where the pages left out (by reason) and those listed for a version
        selector only are counted (``entries.Listed``).
        ``robots``: the site's robots.txt, read (None: no site folder).
        ``by_folder``: the pages come a folder at a time from a walk of ``site_dir``, and a run
        of them may be replayed together (``folder``).
        ``written_only``: the entries go to the writer alone (no ``transform``, no caller of
        ``build_entries``), which takes a ``PlainEntry`` as an ``Entry``."""
        self.settings = settings
        self.chosen_out = chosen_out
        self.counted = counted
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
        self.robots = robots.rules if robots is not None else None
        self.titles = settings.html_sitemap or bool(settings.llms_txt)
        self.other_version = 0
        """Pages whose canonical URL is another version's: told once, by ``finish``, not in
        a line a page (an old version's pages all name the latest's)."""
        self.other_version_examples: list[tuple[str, str]] = []
        """``(page, canonical URL)`` of the first few of them."""
        self._folder: tuple[str | None, bool] = (None, False)
        """The folder ``_in_site`` was last asked of, and its answer."""
        self._no_file: Callable[[str], str | None] = lru_cache(maxsize=_IMAGE_FILES_KEPT)(self._no_image_file)
        """``_no_image_file``, asked once a build for an image many pages show (a logo, a
        figure), in bounded memory."""
        self._as_written: Callable[[str], bool] = lru_cache(maxsize=_IMAGE_FILES_KEPT)(_as_written)
        """Whether a kept image URL is one ``encode_url`` gives as it is: asked once a build for
        an image many pages show."""
        self.plan = self._plan(written_only)
        self.replay_key = _replay_key(settings) if self.plan.replay else ""
        """What an entry kept for replay must have been made under (the settings, sitemapkit)."""
        self.folder_key = (f"{self.replay_key} {robots.key}" if by_folder and self.replay_key
                           and robots is not None
                           and deployment is None and not settings.rules and not settings.transform
                           and not self.titles else "")
        """What a folder's entries kept for replay together must have been made under: the
        replay key and the site's robots.txt (its rules are not asked again); empty where a
        folder's pages are not replayed together (pages an adapter hands over, a versioned site's,
        rules, a transform, titles)."""
        self._last_kept: tuple[str | None, tuple[Any, ...] | None] = (None, None)
        """The last kept entry's text and what ``_read_kept`` read of it, for the next page
        whose entry is the same text: most pages' are (their digests are kept apart), and pages
        come a folder at a time. One text, not a table of them: an entry may be long (a
        gallery's image URLs), and memory stays flat."""

    def finish(self) -> None:
        """Tell what only the whole listing shows: the pages canonical in another version."""
        if not self.other_version:
            return
        count, canonical = self.other_version, self.other_version_examples[0][1]
        shown = examples([label for label, _ in self.other_version_examples], count)
        whose = (f"its canonical URL is another version's ({canonical})" if count == 1 else
                 f"their canonical URLs are another version's (such as {canonical})")
        if self.deployment is not None and self.deployment.selector:
            told = f"{plural(count, 'page')} listed for the version selector only ({shown}): {whose}"
        else:
            told = (f"{plural(count, 'page')} left out ({shown}): {whose}; this version's sitemap lists only "
                    f"its own URLs, under {self.base}")
        self.report.info(self.base, "canonical", "canonical-other-version", told)

    def warn(self, page: Page, field: str, rule: str, message: str) -> None:
        self.report.warn(page.label, field, rule, message)

    def left_out(self, reason: str) -> None:
        left_out = self.counted.left_out
        left_out[reason] = left_out.get(reason, 0) + 1

    # ------------------------------------------------------------------ the plan

    def _plan(self, written_only: bool) -> Plan:
        """What every page of this build goes through, from the settings and the site."""
        settings = self.settings
        gates: list[Gate] = [self._not_a_page]
        if self.excludes:
            gates.append(self._excluded)
        gates.append(self._not_written)
        if settings.static_html == "omit":
            gates.append(self._copied)
        if self.robots is not None:
            gates.append(self._kept_from_crawlers)
        checks: list[Check] = [self._markup_not_a_page]
        if not settings.include_noindex:
            checks.append(self._noindex)
        news, now = settings.news, self.now
        keeps_facts = self.resolver.manifest.keeps_facts
        return Plan(
            not (keeps_facts or news or settings.changes_feed or settings.llms_txt),
            tuple(gates),
            self.facts_kept if keeps_facts else self.facts_rendered if self.resolver.manifest.keeps_rendered
            else self.facts,
            tuple(checks), bool(settings.rules),
            self._image_urls if settings.images else _no_images,
            (lambda page, keys, facts, loc, path, warn: videos(page, keys, facts, loc, warn)) if settings.videos
            else _none,
            (lambda page, keys, facts, loc, path, warn: news_article(page, keys, facts, path, news, now, warn))
            if news else _no_news,
            (lambda page, keys, facts, loc, path, warn: alternates(page, facts, loc, self.base, settings.x_default,
                                                                   warn)) if settings.alternates else _none,
            _written_entry if written_only else Entry,
        )

    # ------------------------------------------------------------------ the page

    def made(self, page: Page) -> tuple[Entry | PlainEntry, str | None, Folded | None] | None:
        """The page's entry with its title (for ``sitemap.html``; None when it has no page to
        go to) and what a folder's row keeps of the page (``Folded``) when its entry may be
        replayed with its folder's (None: it may not); or None: the page is left out. The
        plan's steps, in order."""
        for problem in page.problems:  # the adapter's, counted as the build's own
            self.report.add(problem)
        plan = self.plan
        replay = plan.replay and _only_written(page)
        # Only the warnings of a page whose entry may be kept for replay are looked at again
        # (their rules, ``_replayable``): every other page's go to the report alone.
        told = _Told(self.report) if replay else None
        warn: Warn = told or self.warn
        keys = page_keys(page.meta, lambda field, message: warn(page, field, "page-key", message)) \
            if page.meta else NO_KEYS
        if keys.exclude:
            self.left_out("sitemap: false")
            with contextlib.suppress(URLError):
                self.chosen_out.add(url_key(site_loc(self.base, page.url)))
            return None
        try:
            loc, path = site_loc_path(self.base, page.url)
        except URLError as error:
            reason = error.reason
            rule = "loc-length" if reason == "length" else "loc-scope" if reason == "scope" else "loc-invalid"
            warn(page, "loc", rule, f"page left out: {error}")
            return None
        for gate in plan.gates:
            if gate(page, loc, path):
                return None
        if replay:
            kept = self.resolver.manifest.replayed(page.output, loc, partial(self._kept_entry, page))
            if kept is not None:
                return self._replayed(page, loc, path, kept)
        try:
            facts = plan.facts(page, loc)
        except OSError as error:  # a pipe, socket or device named like a page; no permission
            warn(page, "output", "page-unreadable", f"page left out: {page.output} {error.strerror or error}")
            return None
        for label, size in facts.long_values:
            warn(page, label, "url-too-long", f"a {size:,}-byte value left unread: a URL must be "
                 f"under {MAX_LOC_LENGTH} characters")
        if facts.cut:
            warn(page, "output", "page-too-large", f"a {facts.cut:,}-byte page: read from its first "
                 f"{PAGE_READ_BYTES >> 20} MiB only (images, videos, links); its fingerprint covers all of it")
        for check in plan.checks:
            if check(page, facts):
                return None
        if facts.canonical and facts.canonical != loc:
            named = self._canonical_name(page, facts, loc, path)
            if named is None:
                return None
            loc, path = named
        lastmod, answered, found = self.dated(page, keys, facts, loc, warn)
        changefreq, priority = self.frequency_and_priority(page, keys, path, warn)
        urls = plan.images(page, keys, facts, loc, warn)
        entry = plan.entry(
            loc, lastmod, changefreq, priority,
            self.present_images(page, urls, warn) if urls else (),
            plan.videos(page, keys, facts, loc, path, warn),
            plan.news(page, keys, facts, loc, path, warn),
            plan.alternates(page, keys, facts, loc, path, warn),
        )
        title = (page.title or facts.title) if self.titles else None
        if told is not None and self._replayable(facts, entry, told):
            self.resolver.manifest.note_entry(page.output, json.dumps(
                [self.replay_key, facts.modified, facts.published, facts.title if self.titles else None,
                 urls, [[alternate.hreflang, alternate.href] for alternate in entry.alternates],
                 page.lang, page.images]), facts.digest)  # (json's default encoder: made once, not for each page)
            return entry, title, self._folded(page, entry, facts.digest, answered, found, urls, told)
        return entry, title, None

    def _image_urls(self, page: Page, keys: PageKeys, facts: HtmlFacts, loc: str, warn: Warn
                    ) -> list[tuple[str, bool]]:
        if not facts.images and not page.images and not keys.images:
            return []
        return list(image_urls(page, keys, facts, loc, warn))

    def present_images(self, page: Page, urls: list[tuple[str, bool]], warn: Warn, *, in_site: bool | None = None
                       ) -> tuple[Image, ...]:
        """The images of ``urls`` (``Plan.images``) the built site has and the page shows; what
        checks them is made only for a page that has some. ``in_site``: see ``missing_image``."""
        return present_images(page, urls, warn, _shown_in(page), self.missing_image(page, in_site=in_site))

    # replay: the entry an earlier build made of the same file

    def _folded(self, page: Page, entry: Entry, digest: str | None, answered: str, found: Moment | None,
                urls: list[tuple[str, bool]], told: _Told) -> Folded | None:
        """What its folder's row keeps of ``page``, whose entry was just made or replayed, when
        that entry may be replayed with its folder's (None: it may not): the page is its written
        file alone (``_plain``), listed at its own URL with no alternates, videos nor news,
        dated by a source that dates it the same again (``LastmodResolver.lasting``), and
        making it warned only of images (``told``)."""
        if (not self.folder_key or entry.alternates or entry.videos or entry.news is not None
                or not self.resolver.lasting(answered) or not told.asked_again()
                or not _plain(page) or (found is not None) != (answered == "meta")):
            return None
        text = None
        if found is not None:
            text = format_moment(found)
            again = parse_moment(text)
            if again != found or type(again) is not type(found) or getattr(again, "tzinfo", None) != getattr(
                    found, "tzinfo", None):
                return None  # (a date its text does not give back: kept by the page alone)
        return Folded(digest, answered, text, urls)

    def folder(self, folder: str, run: list[Page], where: str) -> list[PlainEntry] | None:
        """The entries (``PlainEntry``) of ``run``, pages the walk handed over together (``folder``:
        the run's key), when an earlier build kept them of the very same files (``keep_folder``; ``Manifest.folder``
        checks each file): each page's lastmod is asked again of the source that dated it, its
        images' files again, and each is counted and noted as ``made`` does. None when anything
        differs: each page then goes through ``made``. ``where``: the folder the run's files
        are in, or whose subfolders' indexes they are (``entries._folder_of``)."""
        if not self.folder_key or not _plain(run[0]):  # (an adapter's pages say more than their files: never kept)
            return None
        outputs = [os.fspath(page.output) for page in run]
        kept = self.resolver.manifest.folder(folder, outputs, self._read_folder)
        if kept is None:
            return None
        dated: list[tuple[str, str, Moment | None, Record | None]] = []
        again, latest, excludes = self.resolver.again, self.latest, self.excludes or None
        for page, (digest, answered, found, _) in zip(run, kept, strict=True):
            if not _plain(page):
                return None
            try:
                loc, path = site_loc_path(self.base, page.url)
            except URLError:
                return None
            if excludes and excludes(path):
                return None  # (asked of each page, as the gate asks: it counts the patterns that match)
            if found is not None and as_datetime(found) > latest:
                return None  # (a date now in the future: dropped, with a warning, by ``made``)
            answers, moment, old = again(page, loc, digest, answered, found)
            if not answers:
                return None
            dated.append((loc, path, moment, old))
        self.resolver.manifest.kept_folder(folder, outputs)
        # The run's files are the walk's, and none is a link (``Manifest.folder`` checked each a
        # regular file): they lie in the site folder where ``where`` does (else each is asked).
        in_site = True if self.site_dir is not None and inside(where, self.site_dir) else None
        entries = []
        # (no keys: ``_plain``; without rules, every page of the run takes the settings' own)
        same = None if self.plan.rules else (self.settings.changefreq, self.settings.priority)
        for page, (loc, path, moment, old), (digest, answered, _, urls) in zip(run, dated, kept, strict=True):
            self.resolver.replay(page, loc, digest, answered, moment, old)
            changefreq, priority = same or self.frequency_and_priority(page, NO_KEYS, path, self.warn)
            entries.append(PlainEntry(loc, moment, changefreq, priority,
                                      self.present_images(page, urls, self.warn, in_site=in_site) if urls else ()))
        return entries

    def keep_folder(self, folder: str, run: list[Page], folded: list[Folded], made: int) -> None:
        """Keep what ``made`` gave of each page of ``run`` (``folded``), the pages of ``folder``
        the walk handed over together, the first begun at ``made`` (``time.time_ns``): for
        ``folder`` to replay them while their files are unchanged."""
        self.resolver.manifest.note_folder(
            folder, [os.fspath(page.output) for page in run], self.folder_key, made,
            json.dumps([[kept.digest, kept.answered, kept.found, kept.urls] for kept in folded]))

    def _read_folder(self, key: str, text: str) -> list[_KeptPage] | None:
        """A folder's kept entries (``keep_folder``), checked, each ``found`` read as a moment;
        None when they were made under another key. Raises ``ValueError`` when they are in no
        shape ``keep_folder`` writes."""
        if key != self.folder_key:
            return None
        try:
            pages = json.loads(text)
        except (ValueError, RecursionError) as error:
            raise ValueError(f"not a folder's entries: {error}") from None
        if type(pages) is not list:
            raise ValueError("a value of the wrong type")
        read: list[_KeptPage] = []
        for kept in pages:
            if type(kept) is not list or len(kept) != 4:
                raise ValueError("a value of the wrong type")
            digest, answered, found, urls = kept
            if (type(digest) not in _TEXT_OR_NONE or type(answered) is not str or answered not in _ANSWERS
                    or type(found) not in _TEXT_OR_NONE or type(urls) is not list
                    or (urls and not all(type(url) is list and len(url) == 2 and type(url[0]) is str
                                         and self._as_written(url[0]) and type(url[1]) is bool for url in urls))):
                raise ValueError("a value of the wrong type")
            read.append((digest, answered, parse_moment(found) if found is not None else None,
                         [(url, by_generator) for url, by_generator in urls] if urls else []))
        return read

    def _replayable(self, facts: HtmlFacts, entry: Entry, told: _Told) -> bool:
        """Whether ``entry``, just made, may be replayed by a later build while the page's file
        is unchanged: it was made from that file alone (its canonical link, when it has one,
        names its own URL; no video, whose fields are not kept), and making it warned of
        nothing a replay would not warn of again (``told``): only of images that have no
        file (asked again)."""
        return (not entry.videos and (not facts.canonical or facts.canonical == entry.loc)
                and told.asked_again())

    def _kept_entry(self, page: Page, text: str, digest: Any) -> KeptEntry | None:
        """An entry ``entry`` kept of ``page`` (``Manifest.replayed``), with the ``digest`` kept
        beside it: the facts that date it, its title, its images' URLs and its alternates; None
        when it was made under other settings, by another sitemapkit, or for a page of another
        language or other images named by its generator. Raises ``ValueError`` when it is in no
        shape ``entry`` writes (each kept URL must be one ``encode_url`` gives as it is, each
        hreflang a code)."""
        if type(digest) not in _TEXT_OR_NONE:
            raise ValueError("a value of the wrong type")
        last, read = self._last_kept
        if text != last:
            read = self._read_kept(text)
            self._last_kept = (text, read)
        if read is None:
            return None
        modified, published, title, urls, alternates, lang, named = read
        if lang != page.lang or named != tuple(page.images):
            return None
        return KeptEntry(HtmlFacts(published=published, modified=modified, digest=digest), title, urls, alternates)

    def _read_kept(self, text: str) -> tuple[Any, ...] | None:
        """A kept entry's text, checked, as ``_kept_entry`` takes it: ``(modified, published,
        title, image URLs, alternates, language, images named by the generator)``; None when it
        was made under another key. Raises ``ValueError`` when it is in no shape ``entry`` writes."""
        try:
            key, modified, published, title, urls, pairs, lang, named = json.loads(text)
        except (TypeError, ValueError, RecursionError) as error:
            raise ValueError(f"not an entry: {error}") from None
        if type(key) is not str:
            raise ValueError("no key")
        if key != self.replay_key:
            return None
        if (not {type(modified), type(published), type(title)} <= _TEXT_OR_NONE
                or type(urls) is not list or type(pairs) is not list
                or (urls and not all(type(url) is list and len(url) == 2 and type(url[0]) is str
                                     and self._as_written(url[0]) and type(url[1]) is bool for url in urls))
                or (pairs and not all(type(pair) is list and len(pair) == 2 and type(pair[0]) is str
                                      and hreflang_pattern().fullmatch(pair[0]) and type(pair[1]) is str
                                      and _as_written(pair[1]) for pair in pairs))):
            raise ValueError("a value of the wrong type")
        return (modified, published, title, [(url, by_generator) for url, by_generator in urls] if urls else [],
                tuple(Alternate(code, href) for code, href in pairs) if pairs else (), lang,
                tuple(named) if type(named) is list else None)

    def _replayed(self, page: Page, loc: str, path: str, kept: KeptEntry
                  ) -> tuple[Entry | PlainEntry, str | None, Folded | None]:
        """The entry kept of the page's unchanged file, with what it does not fix asked again:
        its lastmod (the manifest, git, the clock), changefreq and priority, and which of its
        images the built site has (with their warnings, as a build that read the page gives)."""
        facts, title, urls, alternates = kept
        warn = _Told(self.report)
        changefreq, priority = self.frequency_and_priority(page, NO_KEYS, path, warn)  # no keys: ``_only_written``
        lastmod, answered, found = self.dated(page, NO_KEYS, facts, loc, warn)
        entry = self.plan.entry(
            loc,
            lastmod,
            changefreq,
            priority,
            self.present_images(page, urls, warn) if urls else (),
            (),
            None,
            alternates,
        )
        return entry, (page.title or title) if self.titles else None, self._folded(
            page, entry, facts.digest, answered, found, urls, warn)

    # the gates: left out before the page is read (each says why in the report)

    def _not_a_page(self, page: Page, loc: str, path: str) -> bool:
        if (not_page := page.not_page or error_page(path)) is None:
            return False
        self.left_out(not_page)
        self.report.not_pages.setdefault(not_page, []).append(page.label)
        self.chosen_out.add(url_key(loc))
        return True

    def _excluded(self, page: Page, loc: str, path: str) -> bool:
        if not self.excludes(path):
            return False
        self.left_out("exclude")
        self.chosen_out.add(url_key(loc))
        return True

    def _not_written(self, page: Page, loc: str, path: str) -> bool:
        """A file the generator was to copy and did not write: no page of this build."""
        return page.copied and page.output is not None and not os.path.isfile(page.output)

    def _copied(self, page: Page, loc: str, path: str) -> bool:
        if not page.copied:
            return False
        self.left_out("static_html: omit")
        self.chosen_out.add(url_key(loc))
        return True

    def _kept_from_crawlers(self, page: Page, loc: str, path: str) -> bool:
        if self.robots is None or self.robots.can_fetch(loc, "*"):
            return False
        self.left_out("robots.txt")
        return True

    # the checks: left out for what the page says of itself

    def _markup_not_a_page(self, page: Page, facts: HtmlFacts) -> bool:
        if facts.not_page is None or not self.read_markup(page, facts):
            return False
        self.left_out(facts.not_page)
        return True

    def _noindex(self, page: Page, facts: HtmlFacts) -> bool:
        if not facts.noindex:
            return False
        self.left_out("noindex")
        return True

    def _canonical_name(self, page: Page, facts: HtmlFacts, loc: str, path: str) -> tuple[str, str] | None:
        """The page's loc and path as its canonical link names it, or None: left out (its
        canonical URL is elsewhere, or another version's)."""
        if (canonical := self.canonical(facts.canonical)) == loc:
            return loc, path
        if canonical is not None and self.same_file(canonical, path):
            return canonical, site_path(canonical, self.base)  # the page's own name for itself
        if canonical is not None and self.deployment is not None and self.deployment.names_itself(canonical, loc):
            return loc, path  # every version's canonical links name the page without its version's folder
        if canonical is not None and self.deployment is not None and self.deployment.other_version(canonical):
            self.other_version += 1
            if len(self.other_version_examples) < EXAMPLES:
                self.other_version_examples.append((page.label, canonical))
            if self.deployment.selector:  # the version selector's data: the page at its own URL
                self.counted.selector_only += 1
                return loc, path
            self.left_out(OTHER_VERSION)
            return None
        if canonical is None or not in_scope(canonical, self.base):
            # Not a print view pointing at its original: the site says it lives elsewhere,
            # which usually means base_url (or the generator's site URL) is wrong.
            self.warn(page, "canonical", "canonical-outside",
                      f"page left out: its canonical URL {facts.canonical} is outside {self.base}; "
                      "check base_url")
        self.left_out("canonical elsewhere")
        return None

    def document(self, page: Page) -> tuple[Entry, str | None] | None:
        """A file that is not HTML (``include``): a loc, and a lastmod from its source's git
        history or from the manifest's fingerprint of its bytes, never from the build."""
        loc, path = site_loc_path(self.base, page.url)
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
        entry = Entry(loc, self.lastmod(page, NO_KEYS, HtmlFacts(digest=digest), loc),
                      *self.frequency_and_priority(page, NO_KEYS, path, self.warn))
        return entry, unquote(path.rpartition("/")[2]) or None

    def facts(self, page: Page, loc: str) -> HtmlFacts:
        if page.html is not None:
            return read_page_html(page.html, loc, content=page.content)
        if page.output is not None and page.content is None:  # a written page: its facts may be kept
            return self.resolver.manifest.page_facts(page.output, loc)
        if page.output is not None:
            return read_page_file(page.output, loc, content=page.content)
        if page.content is not None:
            return read_page_html(b"", loc, content=page.content)
        return HtmlFacts()

    def facts_rendered(self, page: Page, loc: str) -> HtmlFacts:
        """``facts`` in a build that renders every page again (MkDocs' full builds): a page
        handed over with its head and its content, and written, has its head's facts kept by
        that head, for the next such build (``Manifest.rendered_facts``)."""
        if page.html is not None and page.content is not None and page.output is not None:
            return self.resolver.manifest.rendered_facts(page.output, loc, page.html, page.content)
        return self.facts(page, loc)

    def facts_kept(self, page: Page, loc: str) -> HtmlFacts:
        """``facts`` in a build that renders only the pages that changed (MkDocs' ``--dirty``):
        a page handed over with its HTML has its facts kept by its written file, for the next
        such build; one handed over with neither its HTML nor its content (not a copied file)
        was not rendered again, and has the facts kept of it."""
        if page.html is None and page.content is None and page.output is not None and not page.copied:
            return self.resolver.manifest.unrendered_facts(page.output, loc)
        facts = self.facts(page, loc)
        if page.html is not None and page.output is not None:
            self.resolver.manifest.keep(page.output, loc, facts)
        return facts

    def missing_image(self, page: Page, *, in_site: bool | None = None) -> Callable[[str], str | None] | None:
        """Why a same-site image of ``page`` is not in the built site (None: it is, or it is
        on another site); None when the built site is not known (no site folder, or one the
        page was not written into: ``--out`` elsewhere, asked only of a page with an image
        whose file is not there). ``in_site``: whether the page's file lies in the site folder,
        where the caller knows (None: asked of the file, ``_in_site``)."""
        if self.site_dir is None:
            return None
        output = page.output
        if in_site or output is None:  # (a folder's replay, whose pages lie in the site: no function made a page)
            return self._no_file

        def missing(url: str) -> str | None:
            why = self._no_file(url)
            return why if why is None or (in_site is None and self._in_site(output)) else None

        return missing

    def _no_image_file(self, url: str) -> str | None:
        """Why the built site has no file for the image ``url``, when it is a same-site one
        (None: it has, or the image is on another site)."""
        if not in_scope(url, self.base):
            return None
        path = site_path(url, self.base)
        if file_exists(self.site_dir if self.site_dir is not None else "", path):
            return None
        return f"no file {unquote(path)} in the built site {os.fspath(self.site_dir or '')}"

    def _in_site(self, output: str | os.PathLike[str]) -> bool:
        """Whether the page file ``output`` lies in the site folder, links resolved. Performance:
        asked of its folder, and the answer kept for the next page of the same folder (pages
        come a folder at a time); a file that is a link itself is asked on its own."""
        folder = os.path.dirname(os.fspath(output))
        if os.path.islink(output):
            return inside(output, self.site_dir)
        if folder != self._folder[0]:
            self._folder = (folder, inside(folder, self.site_dir))
        return self._folder[1]

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

    def frequency_and_priority(self, page: Page, keys: PageKeys, path: str, warn: Warn
                               ) -> tuple[str | None, float | None]:
        """The page's changefreq and priority (``field``). Most pages have no keys for them,
        in a build with no rules: they take the settings' own, with nothing asked."""
        if not self.plan.rules and keys.changefreq is None and keys.priority is None:
            return self.settings.changefreq, self.settings.priority
        rule = self.rule_for(path) if self.plan.rules else None
        return (self.field(page, _CHANGEFREQ, keys.changefreq, rule, warn),
                self.field(page, _PRIORITY, keys.priority, rule, warn))

    def field(self, page: Page, field: _Field, own: Any, rule: Rule | None, warn: Warn) -> Any:
        """The page's own value (a warning when it is not allowed), else the first matching
        rule's, else the setting."""
        if own is not None:
            try:
                return field.check(own)
            except OptionError as error:
                warn(page, field.key, field.rule, f"'{own}' dropped: {field.name} {error}")
        if rule is not None and (value := getattr(rule, field.name)) is not None:
            return value
        return getattr(self.settings, field.name)

    # ------------------------------------------------------------------ lastmod

    def lastmod(self, page: Page, keys: PageKeys, facts: HtmlFacts, loc: str) -> Moment | None:
        return self.dated(page, keys, facts, loc, self.warn)[0]

    def dated(self, page: Page, keys: PageKeys, facts: HtmlFacts, loc: str, warn: Warn
              ) -> tuple[Moment | None, str, Moment | None]:
        """``lastmod``, with the source that answered (``LastmodResolver.dated``) and what the
        page's own metadata said (None: nothing)."""
        if not self.settings.lastmod:
            # still notes the digest in the manifest (IndexNow, change feed)
            self.resolver.lastmod(page, loc, facts.digest, self.feed_title(page, facts))
            return None, "none", None
        override = modified = None  # (most pages give neither: no call for them)
        if keys.lastmod is not None:
            override = self.not_future(page, "sitemap_lastmod",
                                       page_moment(page, "sitemap_lastmod", keys.lastmod, warn), warn)
        if page.modified is not None:
            modified = self.not_future(page, "modified", page.modified, warn)
        if modified is None and page.listed:
            modified = newest(page.listed)
        # A page whose source is known is dated by it (front matter, then git): the HTML's
        # article dates are what a theme printed, for a Jekyll collection's document the build's time.
        if modified is None and page.source is None and facts.modified:
            modified = self.not_future(page, "article:modified_time",
                                       page_moment(page, "article:modified_time", facts.modified, warn), warn)
        if modified is None and page.source is None and facts.published:
            modified = self.not_future(page, "article:published_time",
                                       page_moment(page, "article:published_time", facts.published, warn), warn)
        found, answered = self.resolver.dated(page, loc, facts.digest, self.feed_title(page, facts), override, modified)
        if override is not None:
            return override, answered, modified
        # (the page's own date, when it answered as it was, was checked above)
        checked = found is modified and modified is page.modified
        return found if checked else self.not_future(page, "lastmod", found, warn), answered, modified

    def not_future(self, page: Page, field: str, moment: Moment | None, warn: Warn) -> Moment | None:
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
            warn(page, field, "lastmod-future",
                      f"{format_moment(moment)} dropped: it is after the build time {format_moment(self.now)}")
            return None
        return moment

    def feed_title(self, page: Page, facts: HtmlFacts) -> str | None:
        """The title the manifest keeps for the change feed. Without a feed it is not read
        from the HTML: a feed turned on later reads every page's title in its own build."""
        return page.title or (facts.title if self.settings.changes_feed else None)


def _shown_in(page: Page) -> Callable[[str], bool] | None:
    """Whether the page as written shows an image its generator named (its file's name is in
    the page's HTML): read once, for the pages whose generator names images."""
    if not page.images or page.output is None:
        return None
    written: list[bytes] = []

    def shown(url: str) -> bool:
        if not written:
            try:
                with open(page.output, "rb") as handle:
                    written.append(handle.read(_SHOWN_READ))
            except OSError:
                written.append(b"")
        name = url.split("#", 1)[0].split("?", 1)[0].rstrip("/").rpartition("/")[2]
        return bool(name) and any(spelling.encode("utf-8", "replace") in written[0]
                                  for spelling in {name, unquote(name), quote(unquote(name))})

    return shown


def _only_written(page: Page) -> bool:
    """Whether all the page gives besides what dates it, its language and the images its
    generator names (kept with the entry, and compared) is its written file (a page of
    ``sitemapkit build``, a Sphinx document with no metadata): its entry is made from that
    file's facts and the settings alone."""
    return (page.output is not None and page.html is None and page.content is None and not page.meta
            and not page.translations)


def _plain(page: Page) -> bool:
    """Whether the page is its written file alone (``_only_written``), its generator saying
    nothing more of it (no source, dates, title, language, images, problems; not copied, not
    known to be no page): its entry is made of that file and the settings alone."""
    return (_only_written(page) and page.source is None and not page.depends_on and page.modified is None
            and page.published is None and not page.listed and page.title is None and page.lang is None
            and not page.images and not page.problems and page.not_page is None and not page.copied)


def _replay_key(settings: Settings) -> str:
    """What a kept entry was made under: the settings, sitemapkit's version, and the size and
    time of the modules that make entries (an editable install's edits change them)."""
    from sitemapkit import __version__, urls
    from sitemapkit.listing import page_fields

    makers = (os.stat(name) for name in (__file__, page_fields.__file__, urls.__file__))
    made = f"{settings!r}\n{__version__}\n" + " ".join(f"{s.st_size}:{s.st_mtime_ns}" for s in makers)
    return hashlib.sha256(made.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _as_written(url: str) -> bool:
    """Whether ``url`` is one ``encode_url`` gives as it is: checked, as the sitemap takes it."""
    try:
        return encode_url(url) == url
    except URLError:
        return False


_ANSWERS = frozenset({"meta", "fingerprint", "none"})
"""The lastmod sources a folder's kept entries may have been dated by (``_folded``)."""
_ASKED_AGAIN = frozenset({"image-missing", "image-count"})
"""The rules of the warnings a replayed entry gives again: whether an image has its file."""
_TEXT_OR_NONE = frozenset({str, type(None)})
_IMAGE_FILES_KEPT = 4096
"""How many image paths' answers (is the file there?) a build keeps at once."""
_SHOWN_READ = 8 << 20
"""How much of a written page is looked at for the images it shows."""
_OFFSET_CHANGE = timedelta(hours=3)
"""More than a zone's UTC offset moves in one change (daylight saving time: one hour)."""
