"""sitemapkit's options for a Sphinx build: ``sitemapkit_*`` values, sphinx-sitemap's
``sitemap_*`` values, and where this build's pages live under the site's root URL."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path, PurePosixPath
from typing import Any

from sitemapkit import OPTION_NAMES, Settings, SettingsError

_LIST = frozenset({list, tuple})
_TYPES = {"exclude": _LIST | {str}, "rules": _LIST, "lastmod": _LIST | {bool, str},
          "priority": {float, int}, "news": {dict}, "indexnow": {dict}, "max_urls": {int},
          "max_bytes": {int}, "changes_feed": {int}}
"""Types of ``sitemapkit_<key>``; other keys take ``bool`` or ``str`` as their default does."""

DROP_IN = {
    "sitemap_url_scheme": ("{lang}{version}{link}", frozenset({str})),
    "sitemap_locales": ([], _LIST),
    "sitemap_filename": ("sitemap.xml", frozenset({str})),
    "sitemap_excludes": ([], _LIST),
    "sitemap_show_lastmod": (None, frozenset({bool, type(None)})),
}
"""sphinx-sitemap's values, with its defaults (``sitemap_show_lastmod`` unset means ours)."""


def config_values() -> Iterator[tuple[str, Any, frozenset]]:
    """``(name, default, types)`` of every ``sitemapkit_<key>``. ``None`` means "not set";
    numbers and lists get real defaults so that ``-D`` converts them."""
    defaults = Settings()
    for key in OPTION_NAMES:
        value = getattr(defaults, key, None)
        plain = {bool if isinstance(value, bool) else str}
        default = value if type(value) is int else [] if key in ("exclude", "rules") else None
        yield f"sitemapkit_{key}", default, frozenset(_TYPES.get(key, plain)) | {type(None)}


def root_url(config: Any) -> str | None:
    """The URL every language and version hangs under: ``sitemapkit_base_url`` or
    ``html_baseurl``, always with its trailing slash."""
    root = config.sitemapkit_base_url or config.html_baseurl or None
    return root if root is None or root.endswith("/") else root + "/"


def link_url(config: Any, language: str, link: str) -> str:
    """``sitemap_url_scheme`` filled in. ``{lang}`` is empty for the language conf.py leaves
    unset (Sphinx's default ``en``): no ``/en/`` unasked. ``{version}`` is ``version/``."""
    raw = getattr(config, "_raw_config", {})
    primary = raw.get("language") or "en"
    lang = "" if language == primary and "language" not in raw else language + "/"
    version = config.version + "/" if config.version else ""
    try:
        return config.sitemap_url_scheme.format(lang=lang, version=version, link=link)
    except (KeyError, IndexError, ValueError) as error:
        raise SettingsError(
            f"sitemap_url_scheme '{config.sitemap_url_scheme}' can use only {{lang}}, "
            f"{{version}} and {{link}} ({error})"
        ) from None


def build_url(config: Any) -> str | None:
    """Where this build's output folder is served: the root plus the scheme's prefix."""
    if not config.sitemap_url_scheme.endswith("{link}"):
        raise SettingsError(f"sitemap_url_scheme '{config.sitemap_url_scheme}' must end with {{link}}")
    root = root_url(config)
    return None if root is None else root + link_url(config, config.language, "")


def locales(config: Any, confdir: Path) -> list[str]:
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


def settings(config: Any) -> Settings:
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
    prefix = link_url(config, config.language, "")
    if values["state_file"] is None and prefix:
        # Each language/version build of one project keeps its own manifest.
        default = PurePosixPath(Settings().state_file)
        values["state_file"] = str(default.parent / prefix / default.name)
    if isinstance(values["news"], Mapping) and "language" not in values["news"]:
        code = config.language.lower().replace("_", "-")  # news wants fr, zh-cn, not fr-ca
        code = code if code in ("zh-cn", "zh-tw") else code.split("-")[0]
        values["news"] = {**values["news"], "language": code}
    return Settings.from_mapping(values)
