"""What each option's value must be: checks that return the value ``Settings`` keeps
(normalised: lower-case choices, tuples for lists) or raise ``OptionError`` saying what the
value must be. ``Settings`` puts the option's name in front of that."""

import re
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple
from urllib.parse import urlsplit

from sitemapkit.patterns import lazy_pattern
from sitemapkit.protocol import CHANGEFREQS, NEWS_WINDOW_HOURS, hreflang_pattern
from sitemapkit.site.pages import check_exclude
from sitemapkit.urls import (
    MAX_LOC_LENGTH,
    URLError,
    base_url_problem,
    encode_url,
    indexnow_key_pattern,
    news_language_pattern,
    normalise_base_url,
    url_text_problem,
)

LASTMOD_SOURCES = ("meta", "git", "fingerprint")
STATIC_HTML = ("list", "omit")
DEFAULT_INDEXNOW_ENDPOINT = "https://api.indexnow.org/indexnow"


class OptionError(ValueError):
    """What a value must be ("must be true or false"); the caller names the option."""


class Rule(NamedTuple):
    match: str
    changefreq: str | None = None
    priority: float | None = None


class NewsSettings(NamedTuple):
    publication: str
    language: str | None
    """None: each page's own language (``Page.lang``, else its ``<html lang>``)."""
    match: str = "*"
    window_hours: float = NEWS_WINDOW_HOURS


class ExtraUrl(NamedTuple):
    """A page of ``extra_urls``: its URL (absolute, or below the site root) and, if given, its
    lastmod as written (checked like a page's ``sitemap_lastmod``)."""

    loc: str
    lastmod: Any = None


class IndexNowSettings(NamedTuple):
    key: str
    endpoint: str = DEFAULT_INDEXNOW_ENDPOINT
    key_location: str | None = None


class LlmsTxt(NamedTuple):
    """``llms_txt`` on: the table form's settings (``True`` is all of their defaults)."""

    summary: str | None = None
    """The blockquote under the H1; None: the site's description (its generator's, else the
    home page's meta description)."""
    optional: tuple[str, ...] = ()
    """Sections of the site's navigation listed under ``## Optional`` (listing pages always are)."""
    full: bool = False
    """Also write ``llms-full.txt``: every linked page's Markdown, in the order of ``llms.txt``."""


def llms_txt(value: Any) -> LlmsTxt | bool:
    """``false``, ``true``, or ``{summary: TEXT, optional: [SECTION, ...], full: BOOL}``."""
    expected = "must be true, false or {summary: TEXT, optional: [SECTION, ...], full: true}"
    if isinstance(value, LlmsTxt) or value is False:
        return value
    if value is True:
        return LlmsTxt()
    if not isinstance(value, Mapping):
        raise OptionError(expected)
    extra = set(value) - {"summary", "optional", "full"}
    if extra:
        raise OptionError(f"{expected} (unknown key '{sorted(extra)[0]}')")
    summary, full = value.get("summary"), value.get("full", False)
    optional = value.get("optional", ())
    optional = (optional,) if isinstance(optional, str) else optional
    if summary is not None and (not isinstance(summary, str) or not summary.strip()):
        raise OptionError(f"{expected}; 'summary' must be text")
    if not isinstance(optional, list | tuple) or not all(isinstance(name, str) and name.strip() for name in optional):
        raise OptionError(f"{expected}; 'optional' must be a list of section names")
    if not isinstance(full, bool):
        raise OptionError(f"{expected}; 'full' must be true or false")
    return LlmsTxt(summary and " ".join(summary.split()), tuple(name.strip() for name in optional), full)


def boolean(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    raise OptionError("must be true or false")


def optional(check):
    def inner(value: Any) -> Any:
        return None if value is None else check(value)

    return inner


def text(value: Any) -> str:
    if isinstance(value, str) and value.strip():
        return value
    raise OptionError("must be a non-empty string")


def http_url(value: Any) -> str:
    if isinstance(value, str) and value.startswith(("http://", "https://")) and "//" in value:
        host = value.split("//", 1)[1].split("/", 1)[0]
        if host:
            return value
    raise OptionError("must be an absolute http(s) URL such as 'https://example.com/docs/'")


def base_url(value: Any) -> str:
    """Scheme and host lower-cased, the default port dropped, a trailing ``/``; anything a
    ``<loc>`` must not carry is refused by name."""
    if not isinstance(value, str):
        raise OptionError("must be an absolute http(s) URL such as 'https://example.com/docs/'")
    problem = base_url_problem(value)
    if problem is None:
        try:
            return normalise_base_url(value)
        except URLError as error:
            problem = str(error)
    raise OptionError(problem)


def filename(value: Any) -> str:
    if (
        isinstance(value, str) and value.strip() == value and value not in ("", ".", "..")
        and not value.startswith(".") and value.isprintable() and len(value) <= 200
        and "/" not in value and "\\" not in value and value.lower() != "robots.txt"
    ):
        return value
    raise OptionError("must be a plain file name such as 'sitemap.xml' (not hidden, not robots.txt)")


def stem_of(filename: str) -> str:
    """``sitemap.xml`` -> ``sitemap``: the start of every other name of the sitemap family
    (``output.names``)."""
    return filename[:-4] if filename.endswith(".xml") else filename


def language(value: Any) -> str:
    code = value.strip().replace("_", "-") if isinstance(value, str) else ""
    if hreflang_pattern().fullmatch(code) and code.lower() != "x-default":
        return code
    raise OptionError("must be a language code such as 'en' or 'pt-BR' (language[-Script][-REGION])")


def stylesheet(value: Any) -> str:
    """An http(s) URL or a path on the site (``/sitemap.xsl``, ``sitemap.xsl``): a browser
    loads an XSL stylesheet only from the sitemap's own origin, and never a
    ``javascript:`` or ``data:`` one."""
    if isinstance(value, str) and 0 < len(value) < MAX_LOC_LENGTH and value.isprintable():
        text = value.strip()
        scheme = text.partition(":")[0].lower() if ":" in text.partition("/")[0] else ""
        if text == value and " " not in text and scheme in ("", "http", "https") and not text.startswith("//"):
            return value
    raise OptionError("must be an http(s) URL or a path on the site such as '/sitemap.xsl'")


def globs(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if isinstance(value, Iterable) and not isinstance(value, Mapping):
        items = tuple(value)
        if all(isinstance(item, str) for item in items):
            return items
    raise OptionError("must be a list of glob patterns such as ['blog/drafts/*', '404.html']")


def exclude_patterns(value: Any) -> tuple[str, ...]:
    patterns = globs(value)
    try:
        check_exclude(patterns)
    except ValueError as error:
        raise OptionError(f"{error} (see git's gitignore: 'drafts/', '**/print/', '404.html')") from None
    return patterns


def name_globs(value: Any) -> tuple[str, ...]:
    """Version names or globs (``dev``, ``0.*``): each one folder name, matched whole."""
    items = globs(value)
    for item in items:
        if not item.strip() or "/" in item or not item.isprintable():
            raise OptionError(f"must be a list of version names or globs such as ['dev', '0.*']; {item!r} is not one")
    return items


def static_html(value: Any) -> str:
    if isinstance(value, str) and value.lower() in STATIC_HTML:
        return value.lower()
    raise OptionError(f"must be one of {', '.join(STATIC_HTML)}")


def changefreq(value: Any) -> str:
    """A ``<changefreq>`` value, lower-cased: the one check of the option, of a page's
    ``sitemap_changefreq`` and of what a ``transform`` returns."""
    if isinstance(value, str) and value.lower() in CHANGEFREQS:
        return value.lower()
    raise OptionError(f"must be one of {', '.join(CHANGEFREQS)}")


def priority(value: Any) -> float:
    """A ``<priority>`` value, a number from 0.0 to 1.0 (or its text): the one check of the
    option, of a page's ``sitemap_priority`` and of what a ``transform`` returns."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = -1.0
    if isinstance(value, bool) or not 0.0 <= number <= 1.0:
        raise OptionError("must be a number from 0.0 to 1.0")
    return number


def whole(low: int, high: int | None = None):
    def inner(value: Any) -> int:
        whole = isinstance(value, int) and not isinstance(value, bool)
        if whole and value >= low and (high is None or value <= high):
            return value
        upper = f" to {high}" if high is not None else " or more"
        raise OptionError(f"must be a whole number from {low}{upper}")

    return inner


def rules(value: Any) -> tuple[Rule, ...]:
    expected = "must be a list of {match: GLOB, changefreq: ..., priority: ...}"
    if isinstance(value, Mapping) or not isinstance(value, Iterable) or isinstance(value, str):
        raise OptionError(expected)
    rules = []
    for item in value:
        if isinstance(item, Rule):
            rules.append(item)
            continue
        if not isinstance(item, Mapping) or not isinstance(item.get("match"), str):
            raise OptionError(expected)
        extra = set(item) - {"match", "changefreq", "priority"}
        if extra:
            raise OptionError(f"{expected} (unknown key '{sorted(extra)[0]}' in a rule)")
        rules.append(
            Rule(
                match=item["match"],
                changefreq=optional(changefreq)(item.get("changefreq")),
                priority=optional(priority)(item.get("priority")),
            )
        )
    return tuple(rules)


def lastmod(value: Any) -> tuple[str, ...]:
    expected = f"must be false or a list drawn from {', '.join(LASTMOD_SOURCES)}"
    if value is False:
        return ()
    if isinstance(value, str):
        value = [value]
    if isinstance(value, Iterable) and not isinstance(value, Mapping):
        sources = tuple(value)
        if all(s in LASTMOD_SOURCES for s in sources) and len(set(sources)) == len(sources):
            return sources
    raise OptionError(expected)


def news(value: Any) -> NewsSettings:
    expected = (
        "must be {publication: NAME, language: CODE, match: GLOB, window_hours: HOURS}"
    )
    if isinstance(value, NewsSettings):
        return value
    if not isinstance(value, Mapping):
        raise OptionError(expected)
    extra = set(value) - {"publication", "language", "match", "window_hours"}
    if extra:
        raise OptionError(f"{expected} (unknown key '{sorted(extra)[0]}')")
    publication, language = value.get("publication"), value.get("language")
    if not isinstance(publication, str) or not publication.strip():
        raise OptionError(f"{expected}; 'publication' is required")
    if language is not None and (not isinstance(language, str)
                                 or not news_language_pattern().fullmatch(language.lower())):
        raise OptionError(f"{expected}; 'language' must be an ISO 639 code such as 'en' (or zh-cn, zh-tw)")
    match = value.get("match", "*")
    hours = value.get("window_hours", NEWS_WINDOW_HOURS)
    if not isinstance(match, str):
        raise OptionError(f"{expected}; 'match' must be a glob")
    if isinstance(hours, bool) or not isinstance(hours, int | float) or hours <= 0:
        raise OptionError(f"{expected}; 'window_hours' must be a positive number")
    return NewsSettings(publication.strip(), language and language.lower(), match, hours)


def indexnow(value: Any) -> IndexNowSettings:
    expected = "must be {key: KEY, endpoint: URL}"
    if isinstance(value, IndexNowSettings):
        return value
    if not isinstance(value, Mapping):
        raise OptionError(expected)
    extra = set(value) - {"key", "endpoint", "key_location"}
    if extra:
        raise OptionError(f"{expected} (unknown key '{sorted(extra)[0]}')")
    key = value.get("key")
    if not isinstance(key, str) or not indexnow_key_pattern().fullmatch(key):
        raise OptionError(f"{expected}; 'key' must be 8 to 128 characters from a-z, A-Z, 0-9 and '-'")
    endpoint = value.get("endpoint", DEFAULT_INDEXNOW_ENDPOINT)
    try:
        endpoint = http_url(endpoint)
    except OptionError:
        raise OptionError(f"{expected}; 'endpoint' must be an http(s) URL") from None
    location = value.get("key_location")
    if location is not None and not isinstance(location, str):
        raise OptionError(f"{expected}; 'key_location' must be a URL")
    return IndexNowSettings(key, endpoint, location)


def _listed(value: Any, expected: str) -> tuple[Any, ...]:
    """A list (a lone string stands for a list of one)."""
    if isinstance(value, str):
        return (value,)
    if isinstance(value, Iterable) and not isinstance(value, Mapping):
        return tuple(value)
    raise OptionError(expected)


def extra_sitemaps(value: Any) -> tuple[str, ...]:
    """Absolute http(s) URLs, encoded as a ``<loc>`` is; ``Settings`` checks their host
    against ``base_url``."""
    expected = "must be a list of absolute http(s) sitemap URLs such as 'https://example.com/shop/sitemap.xml'"
    found: list[str] = []
    for item in _listed(value, expected):
        if not isinstance(item, str) or not item.strip().lower().startswith(("http://", "https://")):
            raise OptionError(f"{expected}; {item!r} is not one")
        if (problem := url_text_problem(item.strip())) is not None:
            raise OptionError(f"{expected}; {item!r} {problem}")
        try:
            url = encode_url(item.strip())
        except URLError as error:
            raise OptionError(f"{expected}; {item!r}: {error}") from None
        if urlsplit(url).path.lower().endswith("/robots.txt"):
            raise OptionError(f"{expected}; {item!r} is a robots.txt, not a sitemap: name the sitemaps it names")
        found.append(url)
    return tuple(dict.fromkeys(found))


def extra_urls(value: Any) -> tuple[ExtraUrl, ...]:
    """Each a URL string, or ``{loc: URL, lastmod: DATE}``; the URLs and dates are checked
    with the pages (a bad one is dropped with a warning), the shape here."""
    expected = "must be a list of URLs, or of {loc: URL, lastmod: DATE}"
    found = []
    for item in _listed(value, expected):
        if isinstance(item, ExtraUrl):
            found.append(item)
            continue
        if isinstance(item, Mapping):
            extra = set(item) - {"loc", "lastmod"}
            if extra:
                raise OptionError(f"{expected} (unknown key '{sorted(extra)[0]}')")
            loc, lastmod = item.get("loc"), item.get("lastmod")
        else:
            loc, lastmod = item, None
        if not isinstance(loc, str) or not loc.strip():
            raise OptionError(f"{expected}; {item!r} has no URL")
        if (problem := url_text_problem(loc.strip())) is not None:
            raise OptionError(f"{expected}; {loc!r} {problem}")
        found.append(ExtraUrl(loc.strip(), lastmod))
    return tuple(found)


SECTION_RESERVED = ("news", "other", "index")
"""Section names that would clash with other files of the sitemap family."""


def sections(value: Any) -> tuple[str, ...]:
    """Site-relative folder paths, each ending in ``/`` (``blog`` is ``blog/``), none twice,
    none inside another, each giving a file name of its own (``section_name``)."""
    expected = "must be a list of folder paths below the site root such as ['blog/', 'docs/']"
    found: list[str] = []
    for item in _listed(value, expected):
        path = item.strip().strip("/") if isinstance(item, str) else ""
        parts = path.split("/")
        if not path or any(part in ("", ".", "..") for part in parts) or not path.isprintable() \
                or any(char in path for char in ":*?[]"):  # a prefix, not a URL nor a glob
            raise OptionError(f"{expected}; {item!r} is not one")
        prefix = path + "/"
        name = section_name(prefix)
        if name in SECTION_RESERVED or name.startswith("news-"):
            raise OptionError(f"{expected}; {item!r} would be named like another sitemap file ({name})")
        for other in found:
            if prefix.startswith(other) or other.startswith(prefix) or section_name(other) == name:
                raise OptionError(f"{expected}, none twice or inside another; {item!r} and {other!r} overlap")
        found.append(prefix)
    if not found:
        raise OptionError(expected)
    return tuple(found)


def section_name(prefix: str) -> str:
    """The name a section's sitemap carries: ``blog/`` -> ``blog``, ``docs/api/`` ->
    ``docs-api``, every character that is not a lower-case letter or digit a ``-``."""
    return re.sub(r"[^a-z0-9]+", "-", prefix.lower()).strip("-") or "section"


_callable = lazy_pattern(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*:[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")


def transform(value: Any) -> str:
    if isinstance(value, str) and _callable().fullmatch(value.strip()):
        return value.strip()
    raise OptionError("must name a Python callable as 'module:function', such as 'sitemap_hooks:transform'")
