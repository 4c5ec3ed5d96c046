"""Where a site's languages (and versions) live: folder URLs, URL schemes, locale folders."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from sitemapkit.settings import SettingsError


def folder_url(url: str | None) -> str | None:
    """An absolute http(s) URL with its trailing slash; None for empty or relative ones."""
    if not url or not url.startswith(("http://", "https://")) or not url.split("//", 1)[1]:
        return None
    return url if url.endswith("/") else url + "/"


def folder_prefix(inner: str, outer: str) -> str:
    """Where folder ``inner`` sits inside ``outer`` as a URL prefix: ``""`` or ``fr/``."""
    relative = os.path.relpath(inner, outer).replace(os.sep, "/")
    return "" if relative == "." else relative + "/"


def sub_site(output: str, main_output: str) -> bool:
    """Whether a site written into folder ``output`` is written inside ``main_output`` (a
    translation in its ``fr/``, as i18n_subsites writes one): part of that site's build."""
    inside = folder_prefix(os.path.abspath(output), os.path.abspath(main_output))
    return bool(inside) and not inside.startswith("../")


def check_scheme(scheme: str, name: str) -> str:
    """``scheme`` (``{lang}{version}{link}``-style) if it ends with ``{link}``."""
    if not scheme.endswith("{link}"):
        raise SettingsError(f"{name} '{scheme}' must end with {{link}}")
    return scheme


def fill_scheme(scheme: str, name: str, *, lang: str, version: str, link: str) -> str:
    """``scheme`` filled in; ``lang`` and ``version`` are folders (``fr/``) or empty."""
    try:
        return scheme.format(lang=lang, version=version, link=link)
    except (KeyError, IndexError, ValueError) as error:
        raise SettingsError(f"{name} '{scheme}' can use only {{lang}}, {{version}} and {{link}} ({error})") from None


def locale_codes(folders: Iterable[str | os.PathLike[str]]) -> list[str]:
    """The language codes gettext catalogues exist for: the sub-folders of each locale folder
    (``locales/fr/LC_MESSAGES``), folder by folder, each sorted."""
    found = []
    for folder in map(Path, folders):
        if folder.is_dir():
            found.extend(sorted(child.name for child in folder.iterdir() if child.is_dir()))
    return found
