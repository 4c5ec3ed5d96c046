"""sitemapkit's options for a Sphinx build: ``sitemapkit_*`` values, sphinx-sitemap's
``sitemap_*`` values, and where this build's pages live. Every value is read from the
config as the build sees it (conf.py, then ``-D`` overrides)."""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

from sitemapkit import OPTION_NAMES, Settings, SettingsError
from sitemapkit.options import OPTIONS
from sitemapkit.settings import MovedTo, moved_to
from sitemapkit.translations import check_scheme, fill_scheme, folder_url, locale_codes, state_file_in

_LIST = frozenset({list, tuple})
SPHINX_SITEMAP_SCHEME = "{lang}{version}{link}"  # sphinx-sitemap's default

DROP_IN = {
    "sitemap_url_scheme": (None, frozenset({str, type(None)})),
    "sitemap_locales": ([], _LIST),
    "sitemap_filename": ("sitemap.xml", frozenset({str})),
    "sitemap_excludes": ([], _LIST),
    "sitemap_show_lastmod": (None, frozenset({bool, type(None)})),
    "sitemap_indent": (0, frozenset({int})),
    "site_url": (None, frozenset({str, type(None)})),
}
"""sphinx-sitemap's values. ``sitemap_url_scheme`` unset means "the URL Sphinx gives the
page" (its canonical link); ``sitemap_show_lastmod`` unset means ours; ``sitemap_indent``
is accepted and ignored (with a warning): our XML is compact."""

MOVED_TO: MovedTo = {  # sitemap_excludes adds to sitemapkit_exclude (see settings)
    "sitemap_filename": ("filename", lambda name: name),
    "sitemap_show_lastmod": ("lastmod", lambda shown: ["meta", "git"] if shown else False),
}


def config_values() -> Iterator[tuple[str, Any, frozenset]]:
    """``(name, default, types)`` of every ``sitemapkit_<key>``, from the option declarations.
    ``None`` means "not set"; numbers and empty lists get real defaults so that ``-D``
    converts them."""
    for option in OPTIONS:
        default = option.default
        default = default if type(default) is int else [] if default == () else None
        yield f"sitemapkit_{option.name}", default, frozenset(option.kind.types) | {type(None)}


def root_url(config: Any) -> str | None:
    """The URL every language (and, with a scheme, every version) hangs under:
    ``sitemapkit_base_url``, sphinx-sitemap's ``site_url``, or ``html_baseurl``."""
    own = config.sitemapkit_base_url
    if own and folder_url(own) is None:
        raise SettingsError(f"sitemapkit_base_url '{own}' must be an absolute http(s) URL such as "
                            "'https://example.org/docs/'")
    return folder_url(own) or folder_url(getattr(config, "site_url", None)) or folder_url(config.html_baseurl)


def _scheme(config: Any) -> str | None:
    """``sitemap_url_scheme`` when conf.py or ``-D`` sets it: any value but its default (ours
    is None; sphinx-sitemap, when loaded too, declares its own)."""
    scheme, name = config.sitemap_url_scheme, "sitemap_url_scheme"
    if scheme is None or (scheme == SPHINX_SITEMAP_SCHEME and "sphinx_sitemap" in config.extensions
                          and name not in config.overrides):
        return None
    return check_scheme(scheme, name)


def conf_py(confdir: str | Path) -> dict[str, Any]:
    """conf.py's top-level assignments, by name: the value when it is a literal, else ``...``.

    Sphinx's public ``Config`` cannot say what conf.py itself wrote: it drops names no
    extension declares (a misspelt ``sitemapkit_*``), turns ``language = None`` into ``'en'``
    and lays ``-D`` over conf.py's values; so sitemapkit reads the file, never running it."""
    path = Path(confdir, "conf.py")
    stat = path.stat() if path.is_file() else None
    return _assignments(str(path), stat and (stat.st_mtime_ns, stat.st_size))


@functools.lru_cache(maxsize=4)  # read once per build (and again when conf.py changes)
def _assignments(path: str, version: tuple[int, int] | None) -> dict[str, Any]:
    found: dict[str, Any] = {}
    if version is None:
        return found
    for node in ast.parse(Path(path).read_bytes()).body:
        if not isinstance(node, ast.Assign | ast.AnnAssign) or node.value is None:
            continue
        for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
            if isinstance(target, ast.Name):
                try:
                    found[target.id] = ast.literal_eval(node.value)
                except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                    found[target.id] = ...
    return found


def _conf_language(config: Any, confdir: str | Path) -> str | None:
    """The language conf.py names; None when it names none or says ``language = None``."""
    language = conf_py(confdir).get("language")
    if language is ...:  # computed in conf.py: Sphinx's value, unless -D replaced it
        return None if "language" in config.overrides else config.language
    return language or None


def link_url(config: Any, confdir: str | Path, language: str, link: str) -> str:
    """Where ``link`` of the build in ``language`` lives, relative to the root.

    With ``sitemap_url_scheme``: the scheme filled in, ``{lang}`` empty for a language
    conf.py leaves unset, ``{version}`` as ``version/``. Without: translations in
    ``<code>/`` beside the main language (the one conf.py names, else Sphinx's ``en``) at the
    root: a build in another language (``-D language=fr``) is a translation."""
    scheme, own = _scheme(config), _conf_language(config, confdir)
    if scheme is None:
        return link if language == (own or "en") else f"{language}/{link}"
    lang = "" if language == "en" and own is None else language + "/"
    version = config.version + "/" if config.version else ""
    return fill_scheme(scheme, "sitemap_url_scheme", lang=lang, version=version, link=link)


def build_url(config: Any, confdir: str | Path) -> str | None:
    """Where this build's pages are: ``html_baseurl`` (as in each page's canonical link)
    unless ``sitemap_url_scheme`` places them under the root; None without an absolute URL."""
    root = root_url(config)
    if _scheme(config) is None and folder_url(config.html_baseurl):
        return folder_url(config.html_baseurl)
    return None if root is None else root + link_url(config, confdir, config.language, "")


def canonical_clash(config: Any, confdir: str | Path) -> str | None:
    """Why every page would be left out as canonical elsewhere, or None: Sphinx writes
    ``html_baseurl`` plus the page into each canonical link."""
    own = build_url(config, confdir)
    canonical = folder_url(urljoin(own, config.html_baseurl)) if own and config.html_baseurl else None
    if canonical is None or canonical == own:
        return None
    scheme = _scheme(config)
    cause = f"sitemap_url_scheme '{scheme}' puts them" if scheme else "sitemapkit_base_url puts them"
    return (
        f"no sitemap written: html_baseurl gives every page a canonical link under {canonical}, "
        f"but {cause} under {own}, so every page would be left out as canonical elsewhere; "
        f"remove sitemap_url_scheme (pages are then listed at their canonical URLs) or set "
        f"html_baseurl to {own}"
    )


def locales(config: Any, confdir: str | Path) -> list[str]:
    """``sitemap_locales``: ``[None]`` for none; empty for the folders in ``locale_dirs``."""
    listed = list(config.sitemap_locales)
    if listed:
        return [] if listed == [None] else [str(code) for code in listed]
    return locale_codes(Path(confdir, folder) for folder in config.locale_dirs)


def locales_problem(config: Any, confdir: str | Path, others: list[str]) -> str | None:
    """Why ``sitemap_locales`` gives no alternates, or None when they can be written."""
    scheme = _scheme(config)
    if others and scheme is not None and "{lang}" not in scheme:
        return (
            f"sitemap_locales ignored: sitemap_url_scheme '{scheme}' has no {{lang}}, so the "
            f"other languages' URLs are unknown; use '{{lang}}{scheme}' with the site root as "
            "sitemapkit_base_url, or remove sitemap_url_scheme (translations are then at the "
            "root plus '<code>/')"
        )
    own, root = build_url(config, confdir), root_url(config)
    expected = root + link_url(config, confdir, config.language, "") if root else None
    if others and own != expected:
        return (
            f"sitemap_locales ignored: this build's pages are at {own} (html_baseurl), but "
            f"translations of a site rooted at {root} put language '{config.language}' at "
            f"{expected}; set sitemapkit_base_url to the URL all languages hang under"
        )
    return None


def settings(app: Any) -> Settings:
    """``Settings`` for this build. The manifest defaults to ``<doctreedir>/sitemapkit/``,
    with Sphinx's own caches, one per language and version."""
    config, confdir = app.config, app.confdir
    values = {key: config[f"sitemapkit_{key}"] for key in OPTION_NAMES}
    # conf.py names Sphinx does not know are not errors to Sphinx; they are to us.
    values.update({n[11:]: v for n, v in conf_py(confdir).items() if n[:11] == "sitemapkit_" and n[11:] not in values})
    values["base_url"] = build_url(config, confdir)
    values = moved_to(values, {name: config[name] for name in MOVED_TO}, MOVED_TO)
    if config.sitemap_excludes:
        own = values["exclude"]
        values["exclude"] = [*([own] if isinstance(own, str) else own or []), *config.sitemap_excludes]
    if values["state_file"] is None:
        values["state_file"] = state_file_in(Path(app.doctreedir, "sitemapkit"), root_url(config), values["base_url"])
    return Settings.from_mapping(values)
