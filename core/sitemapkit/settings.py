"""``Settings``: the one configuration every adapter and the command line translate into,
made from the option declarations in ``options.py``.

``Settings.from_mapping`` is the front door for user-written configuration: it rejects
unknown keys (suggesting the closest known one) and wrong types with one message that
names the key and what it accepts. Direct construction checks values the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import field, make_dataclass, replace
from typing import Any

from sitemapkit.options import OPTION_NAMES, OPTIONS
from sitemapkit.protocol import MAX_BYTES as PROTOCOL_MAX_BYTES
from sitemapkit.protocol import MAX_URLS as PROTOCOL_MAX_URLS
from sitemapkit.report import Problem
from sitemapkit.urls import masked, normalise_base_url, same_origin
from sitemapkit.values import (
    CHANGEFREQS,
    DEFAULT_INDEXNOW_ENDPOINT,
    LASTMOD_SOURCES,
    IndexNowSettings,
    NewsSettings,
    OptionError,
    Rule,
    stem_of,
)

__all__ = [
    "CHANGEFREQS",
    "DEFAULT_INDEXNOW_ENDPOINT",
    "LASTMOD_SOURCES",
    "OPTION_NAMES",
    "PROTOCOL_MAX_BYTES",
    "PROTOCOL_MAX_URLS",
    "IndexNowSettings",
    "NewsSettings",
    "Rule",
    "Settings",
    "SettingsError",
]


class SettingsError(ValueError):
    """A configuration value sitemapkit cannot use; the message names the key. For a front end
    that names options its own way (Sphinx's ``sitemapkit_max_urls``): ``option``, that key when
    one option is at fault; ``reason``, the message without the key's name; ``suggestion``, the
    known option an unknown key is closest to."""

    def __init__(self, message: str, option: str | None = None, reason: str | None = None,
                 suggestion: str | None = None) -> None:
        super().__init__(message)
        self.option = option
        self.reason = message if reason is None else reason
        self.suggestion = suggestion


class _Checked:
    """What ``Settings`` does beyond holding one field per option: each value is checked, and
    kept in its normalised form, when the settings are made (by keyword: an option's default
    where it is not given)."""

    __slots__ = ()

    def __init__(self, **values: Any) -> None:
        if unknown := values.keys() - OPTION_NAMES:
            raise TypeError(f"Settings() got an unexpected keyword argument {min(unknown)!r}")
        for option in OPTIONS:
            value = values.get(option.name, option.default)
            try:
                checked = option.check(value)
            except OptionError as bad:
                shown = masked(value) if option.name == "base_url" and isinstance(value, str) else value
                reason = f"{bad}, got {shown!r}"
                raise SettingsError(f"option '{option.name}' {reason}", option.name, reason) from None
            object.__setattr__(self, option.name, checked)  # frozen: the dataclass way to normalise
        if self.base_url is not None and self.extra_sitemaps:
            _same_site(self.base_url, self.extra_sitemaps, self.filename)

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any], **overrides: Any) -> Settings:
        """Settings from user configuration; ``overrides`` (adapter facts) win over nothing.

        Keys whose value is ``None`` take their default, so adapters can pass through
        "not set" without knowing the defaults.
        """
        unknown = sorted(set(values) - set(OPTION_NAMES))
        if unknown:
            import difflib  # (only a configuration with a mistake pays for it)

            key = unknown[0]
            close = difflib.get_close_matches(key, OPTION_NAMES, n=1)
            hint = f"; did you mean '{close[0]}'?" if close else f"; known options: {', '.join(OPTION_NAMES)}"
            raise SettingsError(f"unknown option '{key}'{hint}", key, "is not an option of sitemapkit",
                                close[0] if close else None)
        merged = {k: v for k, v in {**values, **overrides}.items() if v is not None}
        return cls(**merged)

    def replace(self, **changes: Any) -> Settings:
        return replace(self, **changes)

    def __repr__(self) -> str:
        """The options set to other than their defaults: the others say nothing."""
        changed = (f"{option.name}={value!r}" for option in OPTIONS
                   if (value := getattr(self, option.name)) != option.default)
        return f"Settings({', '.join(changed)})"


# Performance: settings are never compared (a build keys what it keeps by their values, see
# ``EntryMaker.replay_key``), print only the options set (``_Checked.__repr__``) and are made
# by ``_Checked.__init__``, so no __eq__, __repr__ nor __init__ is generated at import
# (measured: making this class costs every build's import 15 M instructions with all three,
# 9.0 M with the __init__ alone, 3.3 M with none).
Settings = make_dataclass(
    "Settings",
    [(option.name, option.annotation, field(default=option.default)) for option in OPTIONS],
    bases=(_Checked,),
    frozen=True, slots=True, init=False, eq=False, repr=False,
    namespace={"__module__": __name__, "__doc__": "Every option's value, checked: one field per "
               "``options.OPTIONS`` entry, its default the declared one."},
)


def _same_site(base_url: str, sitemaps: tuple[str, ...], filename: str) -> None:
    """Each of ``extra_sitemaps`` on the site's own scheme, host and port (a sitemap names
    only URLs of its own host, and robots.txt only sitemaps search engines will trust), and
    none a file sitemapkit writes itself (an index listing itself)."""
    root = normalise_base_url(base_url)
    stem = stem_of(filename)
    for url in sitemaps:
        why = None
        if not same_origin(url, base_url):
            why = f"on the site's own host ({base_url}); {url!r} is on another (scheme, host or port)"
        elif url.startswith(root) and "/" not in url[len(root):] and url[len(root):].startswith(stem):
            why = f"written by other tools; {url!r} is a file sitemapkit writes itself"
        if why is not None:
            reason = f"must name sitemaps {why}"
            raise SettingsError(f"option 'extra_sitemaps' {reason}", "extra_sitemaps", reason)


MovedTo = Mapping[str, tuple[str, Callable[[Any], Any]]]
"""Another plugin's option name -> (ours, how its value becomes ours; None: it says nothing)."""


def moved_to(values: Mapping[str, Any], old: Mapping[str, Any], table: MovedTo) -> dict[str, Any]:
    """``values`` with each old option of ``table`` set in ``old`` under our name, unless
    ``values`` sets that option itself: ours wins key by key (MkDocs' ``Deprecated(moved_to=)``)."""
    merged = dict(values)
    for name, (ours, convert) in table.items():
        value = old.get(name)
        if merged.get(ours) is None and value is not None and convert(value) is not None:
            merged[ours] = convert(value)
    return merged


def no_base_url(setting: str, given: object, fix: str) -> Problem:
    """Why a build writes no sitemap: the site's absolute URL, which every ``<loc>`` starts
    with, is not configured. ``setting`` is the generator's own name for it, ``fix`` how to
    set it there."""
    why = f"{setting} {given!r} is not an absolute URL" if given else f"{setting} is not set"
    return Problem("settings", "base-url-missing",
                   f"no sitemap written: {why}, and a sitemap lists absolute URLs; {fix}", field=setting)
