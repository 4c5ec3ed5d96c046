"""The ``transform`` option: a user's Python callable given each entry, which returns it
(changed with ``dataclasses.replace``, or not) or ``None`` to leave the page out.

The callable is named ``module:function`` and imported as MkDocs imports its hooks: the
project's folder (the one holding the generator's configuration, or the current folder for
``sitemapkit build``'s ``--config`` or project folder), then the current folder, are put first
on ``sys.path``. Whatever it returns is input like a page's
metadata: every value it returns is checked again as ``entries`` checks a page's own (whatever
it compares equal to: the callable may have changed the very object it was given), and a
value that breaks a rule is dropped with a warning naming the page and the field. A return
value that is neither an ``Entry`` nor ``None`` leaves the page out with a ``transform-error``
warning naming the page (``strict`` makes it fatal). An exception it raises, ``SystemExit``
included, stops the build with a ``TransformError`` naming the page and the exception,
before any file is put in place.
"""

from __future__ import annotations

import dataclasses
import importlib
import sys
from collections.abc import Callable
from datetime import date, datetime
from pathlib import Path
from typing import Any

from sitemapkit.dates import format_moment
from sitemapkit.listing.videos import VideoError, clean_text, video_from_fields
from sitemapkit.model import Alternate, Entry, Image, Moment, NewsArticle, Video
from sitemapkit.protocol import MAX_IMAGES, hreflang_pattern
from sitemapkit.report import Problem, Report, TransformError
from sitemapkit.site.files import inside
from sitemapkit.site.owned import url_key
from sitemapkit.urls import URLError, absolute, encode_url, news_language_pattern, resolve, site_loc
from sitemapkit.values import OptionError, changefreq, priority

UserTransform = Callable[[Entry], Any]
NotFuture = Callable[[str, str, Moment], Moment | None]
"""``(page label, field, moment)`` -> the moment, or None (warned) when it is after the build."""
Renote = Callable[[str, str | None, str | None], None]
"""``(loc noted, loc listed or None, its lastmod text)``: the manifest follows the change
(``Manifest.renote``)."""

_SHOWN = 200
"""Characters of an exception's message a warning quotes (the text is the callable's)."""


def load_transform(spec: str, project_dir: Path) -> UserTransform:
    """The callable ``spec`` (``module:function``, the function possibly ``Class.method``)
    names, imported with ``project_dir``, then the current folder, first on ``sys.path``. A module that cannot be
    imported, or a name that is not there or not callable, is a ``SitemapError`` before
    anything is written: the message names the option, the value and what went wrong."""
    module_name, _, qualname = spec.partition(":")
    folder = str(Path(project_dir).resolve())
    for place in reversed(dict.fromkeys((folder, str(Path.cwd())))):
        if place not in sys.path:
            sys.path.insert(0, place)
    try:
        found: Any = sys.modules.get(module_name)
        if found is not None and inside(getattr(found, "__file__", None), folder):
            found = importlib.reload(found)  # `mkdocs serve` rebuilds: the module as edited since
        else:
            found = importlib.import_module(module_name)
        for part in qualname.split("."):
            found = getattr(found, part)
    except (Exception, SystemExit) as error:  # the user's module: anything it raises on import
        raise _unusable(f"'{spec}' cannot be loaded from {folder} or the installed packages: "
                        f"{_said(error)}") from None
    if not callable(found):
        raise _unusable(f"'{spec}' is a {type(found).__name__}, not a function")
    return found


def _unusable(why: str) -> TransformError:
    return TransformError(f"option 'transform': {why}", Problem("settings", "option-invalid",
                          f"{why}; no sitemap written", field="sitemapkit_transform"))


def _said(error: BaseException) -> str:
    text = f"{type(error).__name__}: {error}"
    return text if len(text) <= _SHOWN else text[:_SHOWN] + "..."


class Transform:
    """Applies the user's callable to each entry and checks what comes back."""

    def __init__(self, call: UserTransform, spec: str, base_url: str, report: Report, chosen_out: set[str],
                 left_out: dict[str, int], not_future: NotFuture, renote: Renote) -> None:
        """``chosen_out``: where the key of a page the callable leaves out goes, ``left_out``:
        where it is counted (see ``entries.Listed``)."""
        self.call, self.spec, self.base, self.report = call, spec, base_url, report
        self.chosen_out, self.left_out = chosen_out, left_out
        self.not_future, self.renote = not_future, renote

    def __call__(self, entry: Entry) -> Entry | None:
        """The entry the callable returns, its changed values checked; None: left out. The
        manifest's record of the page follows: moved, re-dated or dropped with it."""
        loc, lastmod = entry.loc, entry.lastmod  # as they were: the callable may change the object itself
        result = self.changed(entry)
        if result is None:
            self.renote(loc, None, None)
        elif result.loc != loc or result.lastmod != lastmod:
            self.renote(loc, result.loc, None if result.lastmod is None else format_moment(result.lastmod))
        return result

    def changed(self, entry: Entry) -> Entry | None:
        label = entry.loc
        try:
            result = self.call(entry)
        except (Exception, SystemExit) as error:  # the user's code: the build stops, naming the page
            problem = Problem(label, "transform-error", f"transform {self.spec} raised {_said(error)}; no "
                              "sitemap is written: fix the transform", field="transform")
            raise TransformError(str(problem), problem) from None
        if result is None:  # left out on purpose: validate --site-dir does not miss it (owned.chosen_out)
            self.left_out["transform"] = self.left_out.get("transform", 0) + 1
            self.chosen_out.add(url_key(entry.loc))
            return None
        if type(result) is not Entry:
            self.report.warn(label, "transform", "transform-error",
                             f"page left out: transform {self.spec} returned a {type(result).__name__}; it "
                             "must return the Entry (changed with dataclasses.replace, or not) or None")
            return None
        # Checked as a new entry, always: an equal result may be the very object given, its
        # fields changed behind the frozen dataclass's back (object.__setattr__).
        return self.checked(result, _UNSET, label)

    def warn(self, label: str, field: str, rule: str, message: str) -> None:
        self.report.warn(label, f"transform: {field}", rule, message)

    def checked(self, new: Entry, old: Any, label: str) -> Entry | None:
        """``new`` with each value that differs from ``old`` (``_UNSET``: every value)
        checked as a page's own is."""
        changes: dict[str, Any] = {}
        loc = old.loc
        if new.loc != old.loc:
            try:
                loc = changes["loc"] = site_loc(self.base, new.loc) if isinstance(new.loc, str) else None
            except URLError as error:
                rule = {"length": "loc-length", "scope": "loc-scope"}.get(error.reason or "", "loc-invalid")
                self.warn(label, "loc", rule, f"page left out: {error}")
                return None
            if loc is None:
                self.warn(label, "loc", "loc-invalid", f"page left out: loc {new.loc!r} is not a URL")
                return None
        if new.lastmod != old.lastmod:
            changes["lastmod"] = self.lastmod(label, new.lastmod)
        if new.changefreq != old.changefreq:
            value = new.changefreq.strip() if isinstance(new.changefreq, str) else new.changefreq
            changes["changefreq"] = self.value(label, "changefreq", "changefreq-value", changefreq, value,
                                               new.changefreq)
        if new.priority != old.priority:
            # A number, as an Entry holds it; the text a page key may give is no Entry's value.
            value = new.priority if isinstance(new.priority, int | float) else ""
            changes["priority"] = self.value(label, "priority", "priority-range", priority, value, new.priority)
        if new.images != old.images:
            changes["images"] = self.images(label, new.images, loc)
        if new.videos != old.videos:
            changes["videos"] = self.videos(label, new.videos, loc)
        if new.news != old.news:
            changes["news"] = self.news(label, new.news)
        if new.alternates != old.alternates:
            changes["alternates"] = self.alternates(label, new.alternates)
        return dataclasses.replace(new, **changes)

    def dropped(self, label: str, field: str, rule: str, value: Any, why: str) -> None:
        self.warn(label, field, rule, f"{str(value)[:_SHOWN]!r} dropped: {why}")

    def lastmod(self, label: str, value: Any) -> Moment | None:
        if value is None:
            return None
        if type(value) is not date and not (isinstance(value, datetime) and value.utcoffset() is not None):
            return self.dropped(label, "lastmod", "date-format", value, "must be a date or a datetime with a "
                                "time zone")
        return self.not_future(label, "transform: lastmod", value)

    def value(self, label: str, field: str, rule: str, check: Callable[[Any], Any], value: Any,
              given: Any) -> Any:
        """``value`` (``given`` as returned, made ready for ``check``) as ``check`` (the option's
        own, from ``values``) takes it; None, with a warning, when it is not allowed."""
        if given is None:
            return None
        try:
            return check(value)
        except OptionError as error:
            return self.dropped(label, field, rule, given, f"{field} {error}")

    def images(self, label: str, images: Any, loc: str) -> tuple[Image, ...]:
        found: dict[str, None] = {}
        for image in _items(images):
            try:
                if not isinstance(image, Image) or not isinstance(image.loc, str):
                    raise URLError(f"{image!r} is not an Image")
                found.setdefault(encode_url(resolve(loc, image.loc)), None)
            except URLError as error:
                self.warn(label, "images", "image-loc", f"image dropped: {error}")
        if len(found) > MAX_IMAGES:
            self.warn(label, "images", "image-count",
                      f"{len(found)} images; only the first {MAX_IMAGES} are listed (Google's limit per URL)")
        return tuple(Image(url) for url in list(found)[:MAX_IMAGES])

    def videos(self, label: str, videos: Any, loc: str) -> tuple[Video, ...]:
        kept = []
        for video in _items(videos):
            if not isinstance(video, Video):
                self.warn(label, "videos", "video-required", f"{video!r} dropped: not a Video")
                continue
            try:
                checked, problems = video_from_fields(_video_fields(video), loc)
            except VideoError as error:
                self.warn(label, f"videos.{error.field}", error.rule, f"video dropped: {error}")
                continue
            for field, rule, message in problems:
                self.warn(label, f"videos.{field}", rule, message)
            kept.append(checked)
        return tuple(kept)

    def news(self, label: str, article: Any) -> NewsArticle | None:
        if article is None:
            return None
        why = None
        if not isinstance(article, NewsArticle):
            why = "not a NewsArticle"
        elif not isinstance(article.language, str) or not news_language_pattern().fullmatch(article.language):
            why = "language must be an ISO 639 code (or zh-cn, zh-tw)"
        elif not clean_text(article.title) or not clean_text(article.publication_name):
            why = "title and publication_name are required"
        elif type(article.publication_date) is not date and not (
                isinstance(article.publication_date, datetime) and article.publication_date.utcoffset() is not None):
            why = "publication_date must be a date or a datetime with a time zone"
        if why is not None:
            return self.dropped(label, "news", "news-required", article, why)
        return article._replace(title=clean_text(article.title), publication_name=clean_text(article.publication_name))

    def alternates(self, label: str, alternates: Any) -> tuple[Alternate, ...]:
        kept: dict[str, Alternate] = {}
        for item in _items(alternates):
            if not isinstance(item, Alternate) or not isinstance(item.hreflang, str) \
                    or not hreflang_pattern().fullmatch(item.hreflang) or not isinstance(item.href, str):
                self.warn(label, "alternates", "hreflang-code", f"{item!r} dropped: not an Alternate with a "
                          "language code")
                continue
            try:
                kept.setdefault(item.hreflang, Alternate(item.hreflang, encode_url(absolute(self.base, item.href))))
            except URLError as error:
                self.warn(label, "alternates", "hreflang-href", f"alternate '{item.hreflang}' dropped: {error}")
        return tuple(kept.values())


class _Unset:
    """An entry none of whose values equals anything: every value of the result is checked."""

    def __getattr__(self, name: str) -> object:
        return self

    def __eq__(self, other: object) -> bool:
        return False

    def __ne__(self, other: object) -> bool:
        return True

    __hash__ = None  # type: ignore[assignment]


_UNSET = _Unset()


def _items(value: Any) -> tuple[Any, ...]:
    """The items of a field given as a tuple or a list, or as one item (a ``Video`` or an
    ``Alternate`` is a named tuple: one item, not a sequence of them)."""
    if isinstance(value, tuple | list) and not isinstance(value, Video | Alternate):
        return tuple(value)
    return (value,) if value else ()


def _video_fields(video: Video) -> dict[str, Any]:
    """A video as page keys give one, to be checked by the same code."""
    fields = {}
    for name, value in video._asdict().items():
        if name in ("restriction", "platform") and isinstance(value, tuple) and len(value) == 2:
            value = f"{value[0]} {' '.join(map(str, value[1]))}"
        if isinstance(value, bool):
            value = "yes" if value else "no"
        if value is not None and value != ():
            fields[name] = value
    return fields
