"""The one configuration vocabulary every adapter and the command line translate into.

``Settings.from_mapping`` is the front door for user-written configuration: it rejects
unknown keys (suggesting the closest known one) and wrong types with one message that
names the key and what it accepts. Direct construction checks values the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from .pages import check_exclude
from .protocol import MAX_BYTES as PROTOCOL_MAX_BYTES
from .protocol import MAX_URLS as PROTOCOL_MAX_URLS

CHANGEFREQS = ("always", "hourly", "daily", "weekly", "monthly", "yearly", "never")
LASTMOD_SOURCES = ("meta", "git", "fingerprint")
DEFAULT_INDEXNOW_ENDPOINT = "https://api.indexnow.org/indexnow"


class SettingsError(ValueError):
    """A configuration value sitemapkit cannot use; the message names the key."""


@dataclass(frozen=True, slots=True)
class Rule:
    match: str
    changefreq: str | None = None
    priority: float | None = None


@dataclass(frozen=True, slots=True)
class NewsSettings:
    publication: str
    language: str | None
    """None: each page's own language (``Page.lang``, else its ``<html lang>``)."""
    match: str = "*"
    window_hours: float = 48


@dataclass(frozen=True, slots=True)
class IndexNowSettings:
    key: str
    endpoint: str = DEFAULT_INDEXNOW_ENDPOINT
    key_location: str | None = None


@dataclass(frozen=True)
class Settings:
    base_url: str | None = None
    filename: str = "sitemap.xml"
    exclude: tuple[str, ...] = ()
    include: tuple[str, ...] = ()
    include_noindex: bool = False
    changefreq: str | None = None
    priority: float | None = None
    rules: tuple[Rule, ...] = ()
    lastmod: tuple[str, ...] = LASTMOD_SOURCES
    state_file: str = ".cache/sitemapkit/state.json"
    images: bool = True
    videos: bool = True
    news: NewsSettings | None = None
    alternates: bool = True
    x_default: str | None = None
    gzip: bool = False
    txt: bool = False
    robots_txt: bool = True
    max_urls: int = PROTOCOL_MAX_URLS
    max_bytes: int = PROTOCOL_MAX_BYTES
    stylesheet: str | None = None
    html_sitemap: bool = False
    indexnow: IndexNowSettings | None = None
    changes_feed: int | None = None
    strict: bool = False
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)
    """Not a user option: room for an adapter to pass generator facts to the core."""

    def __post_init__(self) -> None:
        for name, check in _CHECKS.items():
            value = getattr(self, name)
            try:
                normalised = check(value)
            except _Bad as bad:
                shown = _masked(value) if name == "base_url" and isinstance(value, str) else value
                raise SettingsError(
                    f"option '{name}' {bad.expected}, got {shown!r}"
                ) from None
            if normalised is not value:
                object.__setattr__(self, name, normalised)

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any], **overrides: Any) -> Settings:
        """Settings from user configuration; ``overrides`` (adapter facts) win over nothing.

        Keys whose value is ``None`` take their default, so adapters can pass through
        "not set" without knowing the defaults.
        """
        unknown = sorted(set(values) - set(OPTION_NAMES))
        if unknown:
            key = unknown[0]
            import difflib  # only to say "did you mean"

            close = difflib.get_close_matches(key, OPTION_NAMES, n=1)
            hint = f"; did you mean '{close[0]}'?" if close else f"; known options: {', '.join(OPTION_NAMES)}"
            raise SettingsError(f"unknown option '{key}'{hint}")
        merged = {k: v for k, v in {**values, **overrides}.items() if v is not None}
        return cls(**merged)

    def replace(self, **changes: Any) -> Settings:
        current = {f.name: getattr(self, f.name) for f in fields(self)}
        return Settings(**{**current, **changes})


OPTION_NAMES: tuple[str, ...] = tuple(
    f.name for f in fields(Settings) if f.name != "extra"
)
"""Every user-facing option, in the order of the contract."""


# ---------------------------------------------------------------- value checks


class _Bad(Exception):
    def __init__(self, expected: str) -> None:
        self.expected = expected


def _boolean(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    raise _Bad("must be true or false")


def _optional(check):
    def inner(value: Any) -> Any:
        return None if value is None else check(value)

    return inner


def _text(value: Any) -> str:
    if isinstance(value, str) and value.strip():
        return value
    raise _Bad("must be a non-empty string")


def _http_url(value: Any) -> str:
    if isinstance(value, str) and value.startswith(("http://", "https://")) and "//" in value:
        host = value.split("//", 1)[1].split("/", 1)[0]
        if host:
            return value
    raise _Bad("must be an absolute http(s) URL such as 'https://example.com/docs/'")


def _masked(url: str) -> str:
    from .urls import masked

    return masked(url)


def _base_url(value: Any) -> str:
    """Scheme and host lower-cased, the default port dropped, a trailing ``/``; anything a
    ``<loc>`` must not carry is refused by name."""
    from .urls import URLError, base_url_problem, normalise_base_url

    if not isinstance(value, str):
        raise _Bad("must be an absolute http(s) URL such as 'https://example.com/docs/'")
    problem = base_url_problem(value)
    if problem is None:
        try:
            return normalise_base_url(value)
        except URLError as error:
            problem = str(error)
    raise _Bad(problem)


def _filename(value: Any) -> str:
    if (
        isinstance(value, str) and value.strip() == value and value not in ("", ".", "..")
        and not value.startswith(".") and value.isprintable() and len(value) <= 200
        and "/" not in value and "\\" not in value and value.lower() != "robots.txt"
    ):
        return value
    raise _Bad("must be a plain file name such as 'sitemap.xml' (not hidden, not robots.txt)")


def _language(value: Any) -> str:
    from .urls import HREFLANG

    code = value.strip().replace("_", "-") if isinstance(value, str) else ""
    if HREFLANG.fullmatch(code) and code.lower() != "x-default":
        return code
    raise _Bad("must be a language code such as 'en' or 'pt-BR' (language[-Script][-REGION])")


def _stylesheet(value: Any) -> str:
    """An http(s) URL or a path on the site (``/sitemap.xsl``, ``sitemap.xsl``): a browser
    loads an XSL stylesheet only from the sitemap's own origin, and never a
    ``javascript:`` or ``data:`` one."""
    from .urls import MAX_LOC_LENGTH

    if isinstance(value, str) and 0 < len(value) < MAX_LOC_LENGTH and value.isprintable():
        text = value.strip()
        scheme = text.partition(":")[0].lower() if ":" in text.partition("/")[0] else ""
        if text == value and " " not in text and scheme in ("", "http", "https") and not text.startswith("//"):
            return value
    raise _Bad("must be an http(s) URL or a path on the site such as '/sitemap.xsl'")


def _globs(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if isinstance(value, Iterable) and not isinstance(value, Mapping):
        items = tuple(value)
        if all(isinstance(item, str) for item in items):
            return items
    raise _Bad("must be a list of glob patterns such as ['blog/drafts/*', '404.html']")


def _exclude_patterns(value: Any) -> tuple[str, ...]:
    patterns = _globs(value)
    try:
        check_exclude(patterns)
    except ValueError as error:
        raise _Bad(f"{error} (see git's gitignore: 'drafts/', '**/print/', '404.html')") from None
    return patterns


def _include_patterns(value: Any) -> tuple[str, ...]:
    """``include``: gitignore-style patterns, as ``exclude``, naming files that are not HTML."""
    if isinstance(value, str):
        value = [value]
    if isinstance(value, Iterable) and not isinstance(value, Mapping):
        patterns = tuple(value)
        if all(isinstance(item, str) for item in patterns):
            try:
                check_exclude(patterns)
            except ValueError as error:
                raise _Bad(f"{error} (see git's gitignore: '*.pdf', 'papers/')") from None
            return patterns
    raise _Bad("must be a list of gitignore-style patterns such as ['*.pdf', 'papers/']")


def _changefreq(value: Any) -> str:
    if isinstance(value, str) and value.lower() in CHANGEFREQS:
        return value.lower()
    raise _Bad(f"must be one of {', '.join(CHANGEFREQS)}")


def _priority(value: Any) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = -1.0
    if isinstance(value, bool) or not 0.0 <= number <= 1.0:
        raise _Bad("must be a number from 0.0 to 1.0")
    return number


def _whole(low: int, high: int | None = None):
    def inner(value: Any) -> int:
        whole = isinstance(value, int) and not isinstance(value, bool)
        if whole and value >= low and (high is None or value <= high):
            return value
        upper = f" to {high}" if high is not None else " or more"
        raise _Bad(f"must be a whole number from {low}{upper}")

    return inner


def _rules(value: Any) -> tuple[Rule, ...]:
    expected = "must be a list of {match: GLOB, changefreq: ..., priority: ...}"
    if isinstance(value, Mapping) or not isinstance(value, Iterable) or isinstance(value, str):
        raise _Bad(expected)
    rules = []
    for item in value:
        if isinstance(item, Rule):
            rules.append(item)
            continue
        if not isinstance(item, Mapping) or not isinstance(item.get("match"), str):
            raise _Bad(expected)
        extra = set(item) - {"match", "changefreq", "priority"}
        if extra:
            raise _Bad(f"{expected} (unknown key '{sorted(extra)[0]}' in a rule)")
        rules.append(
            Rule(
                match=item["match"],
                changefreq=_optional(_changefreq)(item.get("changefreq")),
                priority=_optional(_priority)(item.get("priority")),
            )
        )
    return tuple(rules)


def _lastmod(value: Any) -> tuple[str, ...]:
    expected = f"must be false or a list drawn from {', '.join(LASTMOD_SOURCES)}"
    if value is False:
        return ()
    if isinstance(value, str):
        value = [value]
    if isinstance(value, Iterable) and not isinstance(value, Mapping):
        sources = tuple(value)
        if all(s in LASTMOD_SOURCES for s in sources) and len(set(sources)) == len(sources):
            return sources
    raise _Bad(expected)


def _news(value: Any) -> NewsSettings:
    expected = (
        "must be {publication: NAME, language: CODE, match: GLOB, window_hours: HOURS}"
    )
    if isinstance(value, NewsSettings):
        return value
    if not isinstance(value, Mapping):
        raise _Bad(expected)
    extra = set(value) - {"publication", "language", "match", "window_hours"}
    if extra:
        raise _Bad(f"{expected} (unknown key '{sorted(extra)[0]}')")
    publication, language = value.get("publication"), value.get("language")
    if not isinstance(publication, str) or not publication.strip():
        raise _Bad(f"{expected}; 'publication' is required")
    from .urls import NEWS_LANGUAGE

    if language is not None and (not isinstance(language, str) or not NEWS_LANGUAGE.fullmatch(language.lower())):
        raise _Bad(f"{expected}; 'language' must be an ISO 639 code such as 'en' (or zh-cn, zh-tw)")
    match = value.get("match", "*")
    hours = value.get("window_hours", 48)
    if not isinstance(match, str):
        raise _Bad(f"{expected}; 'match' must be a glob")
    if isinstance(hours, bool) or not isinstance(hours, int | float) or hours <= 0:
        raise _Bad(f"{expected}; 'window_hours' must be a positive number")
    return NewsSettings(publication.strip(), language and language.lower(), match, hours)


def _indexnow(value: Any) -> IndexNowSettings:
    from .urls import INDEXNOW_KEY

    expected = "must be {key: KEY, endpoint: URL}"
    if isinstance(value, IndexNowSettings):
        return value
    if not isinstance(value, Mapping):
        raise _Bad(expected)
    extra = set(value) - {"key", "endpoint", "key_location"}
    if extra:
        raise _Bad(f"{expected} (unknown key '{sorted(extra)[0]}')")
    key = value.get("key")
    if not isinstance(key, str) or not INDEXNOW_KEY.fullmatch(key):
        raise _Bad(f"{expected}; 'key' must be 8 to 128 characters from a-z, A-Z, 0-9 and '-'")
    endpoint = value.get("endpoint", DEFAULT_INDEXNOW_ENDPOINT)
    try:
        endpoint = _http_url(endpoint)
    except _Bad:
        raise _Bad(f"{expected}; 'endpoint' must be an http(s) URL") from None
    location = value.get("key_location")
    if location is not None and not isinstance(location, str):
        raise _Bad(f"{expected}; 'key_location' must be a URL")
    return IndexNowSettings(key, endpoint, location)


def _mapping(value: Any) -> Mapping[str, Any]:
    if isinstance(value, Mapping):
        return value
    raise _Bad("must be a mapping")


_CHECKS = {
    "base_url": _optional(_base_url),
    "filename": _filename,
    "exclude": _exclude_patterns,
    "include": _include_patterns,
    "include_noindex": _boolean,
    "changefreq": _optional(_changefreq),
    "priority": _optional(_priority),
    "rules": _rules,
    "lastmod": _lastmod,
    "state_file": _text,
    "images": _boolean,
    "videos": _boolean,
    "news": _optional(_news),
    "alternates": _boolean,
    "x_default": _optional(_language),
    "gzip": _boolean,
    "txt": _boolean,
    "robots_txt": _boolean,
    "max_urls": _whole(1, PROTOCOL_MAX_URLS),
    "max_bytes": _whole(1024, PROTOCOL_MAX_BYTES),
    "stylesheet": _optional(_stylesheet),
    "html_sitemap": _boolean,
    "indexnow": _optional(_indexnow),
    "changes_feed": _optional(_whole(1)),
    "strict": _boolean,
    "extra": _mapping,
}
