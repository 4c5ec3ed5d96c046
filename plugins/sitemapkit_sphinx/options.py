"""sitemapkit's options for a Sphinx build: ``sitemapkit_*`` values, sphinx-sitemap's
``sitemap_*`` values, and where this build's pages live. Every value is read from the
config as the build sees it (conf.py, then ``-D`` overrides)."""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import urljoin

from sitemapkit import OPTION_NAMES, Settings, SettingsError

_LIST = frozenset({list, tuple})
_TYPES = {"exclude": _LIST | {str}, "include": _LIST | {str}, "rules": _LIST, "lastmod": _LIST | {bool, str},
          "priority": {float, int}, "news": {dict}, "indexnow": {dict}, "max_urls": {int},
          "max_bytes": {int}, "changes_feed": {int}}
"""Types of ``sitemapkit_<key>``; other keys take ``bool`` or ``str`` as their default does."""

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


def config_values() -> Iterator[tuple[str, Any, frozenset]]:
    """``(name, default, types)`` of every ``sitemapkit_<key>``. ``None`` means "not set";
    numbers and lists get real defaults so that ``-D`` converts them."""
    defaults = Settings()
    for key in OPTION_NAMES:
        value = getattr(defaults, key, None)
        plain = {bool if isinstance(value, bool) else str}
        default = value if type(value) is int else [] if key in ("exclude", "include", "rules") else None
        yield f"sitemapkit_{key}", default, frozenset(_TYPES.get(key, plain)) | {type(None)}


def _folder(url: str | None) -> str | None:
    """An absolute http(s) URL with its trailing slash; None for empty or relative ones."""
    if not url or not url.startswith(("http://", "https://")) or not url.split("//", 1)[1]:
        return None
    return url if url.endswith("/") else url + "/"


def root_url(config: Any) -> str | None:
    """The URL every language (and, with a scheme, every version) hangs under:
    ``sitemapkit_base_url``, sphinx-sitemap's ``site_url``, or ``html_baseurl``."""
    own = config.sitemapkit_base_url
    if own and _folder(own) is None:
        raise SettingsError(f"sitemapkit_base_url '{own}' must be an absolute http(s) URL such as "
                            "'https://example.org/docs/'")
    return _folder(own) or _folder(getattr(config, "site_url", None)) or _folder(config.html_baseurl)


def _scheme(config: Any) -> str | None:
    """``sitemap_url_scheme`` when conf.py or ``-D`` sets it (sphinx-sitemap, if loaded too,
    gives it a default)."""
    name = "sitemap_url_scheme"
    if name not in getattr(config, "_raw_config", {}) and name not in config.overrides:
        return None
    scheme = config.sitemap_url_scheme
    if scheme is not None and not scheme.endswith("{link}"):
        raise SettingsError(f"sitemap_url_scheme '{scheme}' must end with {{link}}")
    return scheme


def _conf_language(config: Any) -> str | None:
    """The language conf.py names; None when it names none or says ``language = None``
    (which Sphinx turns into ``'en'`` before any extension sees it)."""
    raw = getattr(config, "_raw_config", {})
    language = raw.get("language") or None
    if language == "en" and "__file__" in raw and _says_none(raw["__file__"]):
        return None
    return language


@functools.lru_cache(maxsize=4)
def _says_none(conf_py: str) -> bool:
    tree = ast.parse(Path(conf_py).read_bytes())
    return any(
        isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and node.value.value is None
        and any(isinstance(target, ast.Name) and target.id == "language" for target in node.targets)
        for node in tree.body
    )


def _main_language(config: Any) -> str:
    """The language conf.py names (Sphinx's ``en`` when it names none): it sits at the root;
    a build in another language (``-D language=fr``) is a translation."""
    return _conf_language(config) or "en"


def link_url(config: Any, language: str, link: str) -> str:
    """Where ``link`` of the build in ``language`` lives, relative to the root.

    With ``sitemap_url_scheme``: the scheme filled in, ``{lang}`` empty for a language
    conf.py leaves unset, ``{version}`` as ``version/``. Without: translations in
    ``<code>/`` beside the main language at the root."""
    scheme = _scheme(config)
    if scheme is None:
        return link if language == _main_language(config) else f"{language}/{link}"
    lang = "" if language == "en" and _conf_language(config) is None else language + "/"
    version = config.version + "/" if config.version else ""
    try:
        return scheme.format(lang=lang, version=version, link=link)
    except (KeyError, IndexError, ValueError) as error:
        raise SettingsError(
            f"sitemap_url_scheme '{scheme}' can use only {{lang}}, {{version}} and {{link}} ({error})"
        ) from None


def build_url(config: Any) -> str | None:
    """Where this build's pages are: ``html_baseurl`` (as in each page's canonical link)
    unless ``sitemap_url_scheme`` places them under the root; None without an absolute URL."""
    root = root_url(config)
    if _scheme(config) is None and _folder(config.html_baseurl):
        return _folder(config.html_baseurl)
    return None if root is None else root + link_url(config, config.language, "")


def canonical_clash(config: Any) -> str | None:
    """Why every page would be left out as canonical elsewhere, or None: Sphinx writes
    ``html_baseurl`` plus the page into each canonical link."""
    own = build_url(config)
    canonical = _folder(urljoin(own, config.html_baseurl)) if own and config.html_baseurl else None
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
    if listed == [None]:
        return []
    if listed:
        return [str(code) for code in listed]
    found = []
    for folder in config.locale_dirs:
        path = Path(confdir, folder)
        if path.is_dir():
            found.extend(sorted(child.name for child in path.iterdir() if child.is_dir()))
    return found


def locales_problem(config: Any, others: list[str]) -> str | None:
    """Why ``sitemap_locales`` gives no alternates, or None when they can be written."""
    scheme = _scheme(config)
    if others and scheme is not None and "{lang}" not in scheme:
        return (
            f"sitemap_locales ignored: sitemap_url_scheme '{scheme}' has no {{lang}}, so the "
            f"other languages' URLs are unknown; use '{{lang}}{scheme}' with the site root as "
            "sitemapkit_base_url, or remove sitemap_url_scheme (translations are then at the "
            "root plus '<code>/')"
        )
    own, root = build_url(config), root_url(config)
    expected = root + link_url(config, config.language, "") if root else None
    if others and own != expected:
        return (
            f"sitemap_locales ignored: this build's pages are at {own} (html_baseurl), but "
            f"translations of a site rooted at {root} put language '{config.language}' at "
            f"{expected}; set sitemapkit_base_url to the URL all languages hang under"
        )
    return None


def settings(config: Any, doctreedir: str | Path) -> Settings:
    """``Settings`` for this build. The manifest defaults to ``<doctreedir>/sitemapkit/``,
    with Sphinx's own caches, one per language and version."""
    values = {key: config[f"sitemapkit_{key}"] for key in OPTION_NAMES}
    # conf.py names Sphinx does not know are not errors to Sphinx; they are to us.
    raw = getattr(config, "_raw_config", {})
    values.update({n[11:]: raw[n] for n in raw if n[:11] == "sitemapkit_" and n[11:] not in values})
    values["base_url"] = build_url(config)
    if values["filename"] is None:
        values["filename"] = config.sitemap_filename
    if config.sitemap_excludes:
        own = values["exclude"]
        values["exclude"] = [*([own] if isinstance(own, str) else own or []), *config.sitemap_excludes]
    if values["lastmod"] is None and config.sitemap_show_lastmod is not None:
        values["lastmod"] = ["meta", "git"] if config.sitemap_show_lastmod else False
    if values["state_file"] is None:
        root, own = root_url(config), values["base_url"]
        prefix = own[len(root):] if root and own and own.startswith(root) else ""
        name = PurePosixPath(Settings().state_file).name
        values["state_file"] = str(Path(doctreedir, "sitemapkit", prefix, name))
    return Settings.from_mapping(values)
