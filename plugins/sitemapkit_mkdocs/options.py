"""The plugin's options, typed the MkDocs way; sitemapkit's ``Settings`` checks the values."""

from __future__ import annotations

from typing import Any

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.base import ValidationError

from sitemapkit import OPTION_NAMES, Settings, SettingsError
from sitemapkit.settings import CHANGEFREQS


class SitemapkitConfig(base.Config):
    """Every option is optional: unset means the core's default, which lives in one place."""

    base_url = c.Optional(c.Type(str))
    filename = c.Optional(c.Type(str))
    exclude = c.Optional(c.ListOfItems(c.Type(str)))
    include = c.Optional(c.ListOfItems(c.Type(str)))
    include_noindex = c.Optional(c.Type(bool))
    changefreq = c.Optional(c.Choice(CHANGEFREQS))
    priority = c.Optional(c.Type((int, float)))
    rules = c.Optional(c.ListOfItems(c.Type(dict)))
    lastmod = c.Optional(c.Type((list, bool)))
    state_file = c.Optional(c.Type(str))
    images = c.Optional(c.Type(bool))
    videos = c.Optional(c.Type(bool))
    news = c.Optional(c.Type(dict))
    alternates = c.Optional(c.Type(bool))
    x_default = c.Optional(c.Type(str))
    gzip = c.Optional(c.Type(bool))
    txt = c.Optional(c.Type(bool))
    robots_txt = c.Optional(c.Type(bool))
    max_urls = c.Optional(c.Type(int))
    max_bytes = c.Optional(c.Type(int))
    stylesheet = c.Optional(c.Type(str))
    html_sitemap = c.Optional(c.Type(bool))
    indexnow = c.Optional(c.Type(dict))
    changes_feed = c.Optional(c.Type(int))
    strict = c.Optional(c.Type(bool))

    def as_mapping(self) -> dict[str, Any]:
        return {name: self.get(name) for name in OPTION_NAMES}

    def validate(self):
        """MkDocs only warns on unknown keys; sitemapkit's contract makes them errors. Values
        that pass the type check are then checked by ``Settings`` (ranges, choices, shapes)."""
        failed, warnings = super().validate()
        for key in sorted(set(self.keys()) - set(OPTION_NAMES)):
            warnings = [w for w in warnings if w[0] != key]
            failed.append((key, ValidationError(_settings_error({key: True}))))
        for key, value in self.as_mapping().items() if not failed else ():
            message = _settings_error({key: value}) if value is not None else None
            if message:
                failed.append((key, ValidationError(message)))
        return failed, warnings


def _settings_error(values: dict[str, Any]) -> str | None:
    try:
        Settings.from_mapping(values)
    except SettingsError as error:
        return str(error)
    return None
