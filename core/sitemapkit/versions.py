"""Versioned documentation: where one version is deployed (mike, Read the Docs), and mike's
``versions.json``. The root entry point of a deployment is ``version_index``."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import quote, unquote, urljoin, urlsplit

from sitemapkit.compat import read_the_docs
from sitemapkit.patterns import lazy_pattern
from sitemapkit.report import Problem
from sitemapkit.site.files import read_regular
from sitemapkit.site.pages import refresh_target
from sitemapkit.translations import folder_url
from sitemapkit.urls import in_scope

MIKE_VERSION = "MIKE_DOCS_VERSION"
"""The variable mike sets for the build of each version it deploys (its name for it)."""


MIKE_VERSIONS = "versions.json"
"""The list of versions mike keeps at the root of the deployment: ``[{"version": "1.0",
"title": ..., "aliases": ["latest"]}, ...]``."""


MAX_VERSIONS_FILE = 1 << 20  # a versions.json larger than this is not read
_REDIRECT_BYTES = 1 << 16  # mike's root redirect page is under a kilobyte


# A version's name as a single folder name: no slash, no control character.
_segment = lazy_pattern(r"[^/\\\x00-\x1f]{1,255}")


class Deployment(NamedTuple):
    """Where one version's pages are served (``url``), under the URL every version of the
    documentation hangs under (``root``). A page whose canonical link is below ``root`` but
    not below ``url`` belongs to another version."""

    url: str
    root: str
    selector: bool = False
    """Whether the site's version selector reads this version's sitemap to match its pages
    (Material for MkDocs with mike): its home page must be listed."""
    shared_canonical: bool = False
    """Whether every version's pages carry canonical links under ``root`` without their
    version's folder (sphinx-multiversion builds every ref with the one ``html_baseurl``):
    such a link names the page itself, not another version's."""

    def other_version(self, canonical: str) -> bool:
        return in_scope(canonical, self.root) and not in_scope(canonical, self.url)

    def names_itself(self, canonical: str, loc: str) -> bool:
        """Whether ``canonical`` is the page at ``loc`` named without its version's folder."""
        return self.shared_canonical and loc.startswith(self.url) and canonical == self.root + loc[len(self.url):]


def mike_deployment(site_url: str | None, version: str | None, *, root_url: str | None = None) -> Deployment | None:
    """The version mike is building (``version``, its variable ``MIKE_DOCS_VERSION``), or None.

    mike's MkDocs plugin sets ``site_url`` to the root joined with the version, or with its
    ``canonical_version`` (``https://example.org/project/latest``, no trailing slash): the
    root is the folder above that; the version is deployed at the root plus its own name,
    whatever its canonical links say. ``root_url`` (a ``base_url`` the user gave) is the root
    as it is."""
    if not version or not folder_name(version):
        return None
    root = folder_url(root_url) if root_url else folder_url(urljoin(site_url, ".")) if site_url else None
    if root is None:
        return None
    return Deployment(root + quote(version) + "/", root, selector=True)


class ReadTheDocs(NamedTuple):
    """What a Read the Docs build says of itself in its environment."""

    canonical_url: str | None
    """``READTHEDOCS_CANONICAL_URL``: where this version is served (custom domain included)."""
    version: str | None
    """``READTHEDOCS_VERSION``: the version's slug (``latest``, ``stable``, ``v1.2``)."""

    def deployment(self) -> Deployment | None:
        url = folder_url(self.canonical_url)
        if url is None:
            return None
        slug = f"{self.version}/" if self.version else None
        root = url[: -len(slug)] if slug and url.endswith("/" + slug) else url
        return Deployment(url, root)


VERSION_FOLDER_ROBOTS = ("crawlers read robots.txt only at the host's root, not in a version's folder: run "
                         "'sitemapkit build' on the root of the deployment for its Sitemap: line")


READ_THE_DOCS_ROBOTS = ("Read the Docs serves its own robots.txt at the domain's root (with Disallow: lines "
                        "for hidden versions and a Sitemap: line for its own sitemap.xml)")


def robots_left_alone(options: Mapping[str, Any], why: str) -> tuple[dict[str, Any], Problem | None]:
    """The options of one version's build: robots.txt is not written or merged unless
    ``robots_txt`` is set, with a note saying ``why``."""
    if options.get("robots_txt") is not None:
        return dict(options), None
    note = Problem("settings", "robots-version-off", f"robots.txt left alone: {why} (set robots_txt to true "
                   "to write it anyway)", "info", field="robots_txt")
    return {**options, "robots_txt": False}, note


ROOT_STEP_OPTIONS = ("extra_urls", "extra_sitemaps")
"""Options of a version's build under mike that belong to the root of the deployment."""


def for_the_root(options: Mapping[str, Any]) -> tuple[dict[str, Any], Problem | None]:
    """The options of one version's build under mike without those the root step writes once
    for every version (``extra_urls`` would be listed below each version's folder, where no
    page is; a version has no robots.txt to name ``extra_sitemaps``), and the note saying so."""
    given = [name for name in ROOT_STEP_OPTIONS if options.get(name)]
    if not given:
        return dict(options), None
    note = Problem("settings", "version-root-options", f"{' and '.join(given)} left to the root of the "
                   "deployment, written there once for every version: 'sitemapkit build --branch gh-pages', "
                   "run in this project, reads them from here", "info", field=given[0])
    return {key: value for key, value in options.items() if key not in given}, note


def version_build(
    options: Mapping[str, Any], site_url: str | None, environ: Mapping[str, str], *, mike: bool
) -> tuple[Deployment | None, dict[str, Any], tuple[Problem, ...]]:
    """What a build's environment says of the version it builds: where mike (``mike``: its
    plugin is enabled; ``site_url`` as that plugin left it) or Read the Docs deploys it, the
    options with robots.txt left alone unless ``robots_txt`` is set (and, under mike, without
    the root step's options), and the notes saying so. A ``base_url`` option is mike's root;
    on Read the Docs it is where the pages are."""
    root = options.get("base_url")
    if mike and (found := mike_deployment(site_url, environ.get(MIKE_VERSION), root_url=root)) is not None:
        chosen, robots = robots_left_alone(options, VERSION_FOLDER_ROBOTS)
        chosen, moved = for_the_root(chosen)
        return found, chosen, tuple(note for note in (robots, moved) if note is not None)
    docs = read_the_docs(environ)
    if docs is not None:
        found = None if root else docs.deployment()
        chosen, robots = robots_left_alone(options, READ_THE_DOCS_ROBOTS)
        return found, chosen, (robots,) if robots is not None else ()
    return None, dict(options), ()


def site_url_clash(deployment: Deployment, site_url: str | None) -> Problem | None:
    """On Read the Docs, the one warning when MkDocs' ``site_url`` gives every page a
    canonical link outside the versions Read the Docs serves (a host-only ``site_url``):
    every page would be left out, one warning a page; None when it names this version or
    another one."""
    canonical = folder_url(site_url)
    if canonical is None or in_scope(canonical, deployment.root):
        return None
    return Problem("settings", "canonical-clash", f"no sitemap written: site_url {site_url} gives every page "
                   f"a canonical link outside {deployment.url}, where Read the Docs serves this version "
                   "(READTHEDOCS_CANONICAL_URL), so every page would be left out as canonical elsewhere; set "
                   "site_url: !ENV READTHEDOCS_CANONICAL_URL in mkdocs.yml", "warning", field="site_url")


def mike_alias_pairs(path: Path) -> list[tuple[str, str]]:
    """``(alias, version)`` as mike's ``versions.json`` names them: plain folder names only,
    never an alias named as a version is."""
    items = _mike_items(path) or []
    versions = {name for item in items if isinstance(name := item.get("version"), str)}
    pairs = [(alias, version) for item in items
             if isinstance(version := item.get("version"), str) and isinstance(aliases := item.get("aliases"), list)
             for alias in aliases if isinstance(alias, str)]
    return [(alias, version) for alias, version in dict.fromkeys(pairs)
            if alias not in versions and folder_name(alias) and folder_name(version)]


def default_version(root: Path, names: list[str], base_url: str) -> str | None:
    """The version of ``names`` (in ``versions.json`` order) a reader of the deployment at
    ``root`` (served at ``base_url``) is sent to: the one mike's root ``index.html`` redirects
    to (``mike set-default``, often through an alias), else the one aliased ``latest``, else
    the first listed (mike lists the newest first); None when ``names`` is empty. The one
    place the default version is decided."""
    aliases = dict(mike_alias_pairs(root / MIKE_VERSIONS))
    target = _redirect_folder(root, base_url)
    for chosen in (aliases.get(target, target) if target else None, aliases.get("latest")):
        if chosen in names:
            return chosen
    return names[0] if names else None


def _redirect_folder(root: Path, base_url: str) -> str | None:
    """The top folder the meta refresh of ``root/index.html`` sends readers to (``latest/``
    in mike's redirect page), or None: no such page, no refresh, or one leaving the deployment."""
    try:
        found = refresh_target(read_regular(root / "index.html", _REDIRECT_BYTES))
    except OSError:
        return None
    if found is None:
        return None
    target = urljoin(base_url, found)
    path, folder = urlsplit(target).path, urlsplit(base_url).path
    if not in_scope(target, base_url) or not path.startswith(folder):
        return None
    name = unquote(path[len(folder):]).partition("/")[0]
    return name if folder_name(name) else None


def mike_titles(path: Path) -> dict[str, str]:
    """Each version's title as mike's ``versions.json`` gives it (``mike deploy --title``)."""
    return {name: title for item in _mike_items(path) or []
            if isinstance(name := item.get("version"), str) and isinstance(title := item.get("title"), str)}


def folder_name(name: str) -> bool:
    """Whether ``name`` is one plain folder name: no slash, no control character, not a dot folder."""
    return _segment().fullmatch(name) is not None and name not in (".", "..")


def mike_versions(path: Path) -> list[str] | None:
    """The versions (never the aliases) mike's ``versions.json`` lists, or None without one."""
    items = _mike_items(path)
    if items is None:
        return None
    return list(dict.fromkeys(name for item in items if isinstance(name := item.get("version"), str)))


def mike_hidden(path: Path) -> set[str]:
    """The versions mike's ``versions.json`` marks hidden (``mike deploy --prop-set hidden=true``:
    ``"properties": {"hidden": true}``; a list naming ``"hidden"`` counts too)."""
    hidden = set()
    for item in _mike_items(path) or []:
        properties, name = item.get("properties"), item.get("version")
        if isinstance(name, str) and (properties.get("hidden") is True if isinstance(properties, dict)
                                      else isinstance(properties, list) and "hidden" in properties):
            hidden.add(name)
    return hidden


def mike_aliases(folder: Path) -> set[str]:
    """The alias folders (symbolic links, copies, redirect pages) the ``versions.json`` of
    ``folder`` names, when it has one: names of plain folders only, never a version's own."""
    return {alias for alias, _ in mike_alias_pairs(folder / MIKE_VERSIONS)}


def mike_folders(folder: Path) -> set[str]:
    """The version and alias folders the ``versions.json`` of ``folder`` names, if it has one:
    each a site of its own (its ``404.html`` is its error page)."""
    versions = mike_versions(folder / MIKE_VERSIONS) or []
    return {name for name in versions if folder_name(name)} | mike_aliases(folder)


def _mike_items(path: Path) -> list[dict[str, Any]] | None:
    try:
        data = json.loads(read_regular(path, MAX_VERSIONS_FILE + 1))
    except (OSError, ValueError, RecursionError):  # none, unreadable, not JSON, nested too deep
        return None
    return [item for item in data if isinstance(item, dict)] if isinstance(data, list) else None
