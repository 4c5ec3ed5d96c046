"""Whether a Sphinx build writes a sitemap, and what it says: the warnings at ``config-inited``
(as Sphinx warns of its own mistyped values: ``-W`` makes them fatal, and the build goes on),
and at ``build-finished`` the settings, or why no sitemap is written."""

from __future__ import annotations

from sitemapkit.compat.sphinx_sitemap import SphinxConfig
from sitemapkit.report import Problem
from sitemapkit.settings import Settings, SettingsError, no_base_url

NO_BASE_URL_FIX = ("set html_baseurl (or sitemapkit_base_url) in conf.py to the site's absolute URL, such as "
                   "'https://example.org/docs/'")


def invalid(error: SettingsError) -> Problem:
    """The warning for a value sitemapkit cannot use, the option named as conf.py spells it."""
    if error.option is None:  # a sphinx-sitemap value: the message names it
        return Problem("settings", "option-invalid", f"{error}; no sitemap written", field="conf.py")
    hint = f" (did you mean sitemapkit_{error.suggestion}?)" if error.suggestion else ""
    return Problem("settings", "option-invalid", f"{error.reason}{hint}; no sitemap written",
                   field=f"sitemapkit_{error.option}")


def config_problems(site: SphinxConfig) -> list[Problem]:
    """What ``config-inited`` says of ``site``: the values sitemapkit takes but does not follow
    (``SphinxConfig.warnings``), then a value it cannot use (``invalid``); a value that breaks
    the first step is the one problem."""
    try:
        found = site.warnings()
    except SettingsError as error:
        return [invalid(error)]
    try:
        site.settings()
    except SettingsError as error:
        found.append(invalid(error))
    return found


def build_settings(site: SphinxConfig) -> tuple[Settings | None, list[Problem]]:
    """What ``build-finished`` writes with, and what it says first: the settings, or None when
    no sitemap is written (a value ``config_problems`` warned of; no absolute URL; canonical
    links every page would be left out by, ``SphinxConfig.canonical_clash``), with why; and
    under sphinx-multiversion, the warning of canonical links without the version's folder."""
    try:
        chosen = site.settings()
    except SettingsError:
        return None, []  # warned at config-inited
    if chosen.base_url is None:
        return None, [no_base_url("html_baseurl", site.html_baseurl, NO_BASE_URL_FIX)]
    if (clash := site.canonical_clash()) is not None:
        return None, [clash]
    unversioned = site.unversioned_canonical()
    return chosen, [unversioned] if unversioned is not None else []
