"""The plugin's options, typed the MkDocs way from sitemapkit's declarations
(``sitemapkit.options.OPTIONS``); sitemapkit's ``Settings`` then checks the values."""

from __future__ import annotations

from typing import Any

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.base import ValidationError

from sitemapkit.options import OPTIONS, Option
from sitemapkit.settings import OPTION_NAMES, Settings, SettingsError


def config_option(option: Option) -> c.BaseConfigOption:
    """The MkDocs config option for one of ours. Every one is optional: unset means the
    core's default, which lives in one place."""
    kind = option.kind
    if kind.choices and kind.types == (str,):
        return c.Optional(c.Choice(kind.choices))
    if kind.item is not None:
        return c.Optional(c.ListOfItems(c.Type(kind.item)))
    return c.Optional(c.Type(kind.types if len(kind.types) > 1 else kind.types[0]))


class _Checked(base.Config):
    def as_mapping(self) -> dict[str, Any]:
        return {name: self.get(name) for name in OPTION_NAMES}

    def validate(self):
        """MkDocs only warns on unknown keys; sitemapkit's contract makes them errors. Values
        that pass the type check are then checked by ``Settings`` (ranges, choices, shapes)."""
        failed, warnings = super().validate()
        unknown = sorted(set(self.keys()) - set(OPTION_NAMES))
        warnings = [warning for warning in warnings if warning[0] not in unknown]
        given = {key: value for key, value in self.as_mapping().items() if value is not None}
        checked = dict.fromkeys(unknown, True) if unknown or failed else given
        for key, value in checked.items():
            try:
                Settings.from_mapping({key: value})
            except SettingsError as error:
                failed.append((key, ValidationError(str(error))))
        return failed, warnings


SitemapkitConfig = type("SitemapkitConfig", (_Checked,), {
    "__module__": __name__, **{option.name: config_option(option) for option in OPTIONS},
})
