"""Sphinx adapter: ``extensions = ["sitemapkit_sphinx"]``.

Translation only: ``sitemapkit_*`` (and sphinx-sitemap's ``sitemap_*``) values into
``Settings``, every written document into a ``Page``, and one ``sitemapkit.generate`` call
at ``build-finished``. Per-document data (the doctree's images) lives in a Domain, so
parallel readers merge it and documents not re-read on an incremental build keep theirs.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import quote

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.domains import Domain
from sphinx.errors import ConfigError, ExtensionError
from sphinx.util import logging

from sitemapkit import OPTION_NAMES, Page, Problem, Settings, SettingsError, SitemapError, generate

logger = logging.getLogger(__name__)

BUILDERS = ("html", "dirhtml")
_LIST = frozenset({list, tuple})
_TYPES: Mapping[str, frozenset[type]] = {
    "exclude": _LIST | {str},
    "include_noindex": frozenset({bool}),
    "priority": frozenset({float, int}),
    "rules": _LIST,
    "lastmod": _LIST | {bool, str},
    "news": frozenset({dict}),
    "indexnow": frozenset({dict}),
    "max_urls": frozenset({int}),
    "max_bytes": frozenset({int}),
    "changes_feed": frozenset({int}),
}
"""Types of ``sitemapkit_<key>`` values; a key not named here takes a ``bool`` if its
default is one, else a ``str``. ``None`` (not set) is always accepted."""

_DROP_IN = {
    "sitemap_url_scheme": ("{lang}{version}{link}", frozenset({str})),
    "sitemap_locales": ([], _LIST),
    "sitemap_filename": ("sitemap.xml", frozenset({str})),
    "sitemap_excludes": ([], _LIST),
    "sitemap_show_lastmod": (None, frozenset({bool, type(None)})),
}
"""sphinx-sitemap's values, with its defaults (``sitemap_show_lastmod`` unset means ours)."""


class SitemapDomain(Domain):
    """Holds, per document, the image candidates found in its doctree."""

    name = "sitemapkit"
    label = "sitemapkit"
    initial_data: dict[str, Any] = {"images": {}}  # noqa: RUF012 (Sphinx's own API)
    data_version = 1

    def clear_doc(self, docname: str) -> None:
        self.data["images"].pop(docname, None)

    def merge_domaindata(self, docnames: set[str], otherdata: dict[str, Any]) -> None:
        for docname in docnames:
            if docname in otherdata["images"]:
                self.data["images"][docname] = otherdata["images"][docname]

    def resolve_any_xref(self, *args: Any) -> list:
        return []


def setup(app: Sphinx) -> dict[str, Any]:
    defaults = Settings()
    for key in OPTION_NAMES:
        plain = bool if isinstance(getattr(defaults, key, None), bool) else str
        types = _TYPES.get(key) or frozenset({plain})
        app.add_config_value(f"sitemapkit_{key}", None, "", types=types | {type(None)})
    if "sphinx_sitemap" not in app.config.extensions:
        for name, (default, types) in _DROP_IN.items():
            if name not in app.config:
                app.add_config_value(name, default, "", types=types)
    app.add_domain(SitemapDomain)
    app.connect("config-inited", check_config)
    app.connect("doctree-read", collect_images, priority=900)
    app.connect("build-finished", write_sitemap)
    return {"version": "0.1.0", "parallel_read_safe": True, "parallel_write_safe": True}


# ------------------------------------------------------------------- configuration


def check_config(app: Sphinx, config: Any) -> None:
    if "sphinx_sitemap" in config.extensions:
        logger.warning(
            "sitemapkit_sphinx replaces sphinx_sitemap: remove 'sphinx_sitemap' from extensions "
            "(both write %s)", config.sitemap_filename, type="sitemapkit", subtype="config",
        )
    try:
        settings(config)
    except SettingsError as error:
        raise ConfigError(str(error)) from None


def root_url(config: Any) -> str | None:
    """The URL every language and version hangs under: ``sitemapkit_base_url`` or
    ``html_baseurl``, always with its trailing slash."""
    root = config.sitemapkit_base_url or config.html_baseurl or None
    return root if root is None or root.endswith("/") else root + "/"


def link_url(config: Any, language: str, link: str) -> str:
    """``sitemap_url_scheme`` filled in, relative to the root URL.

    ``{lang}`` is empty for the language conf.py leaves unset (Sphinx's default ``en``), so a
    single-language project gets no ``/en/``; ``{version}`` is ``version/`` when set.
    """
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
    root = root_url(config)
    prefix = link_url(config, config.language, "\0")
    if not prefix.endswith("\0"):
        raise SettingsError(f"sitemap_url_scheme '{config.sitemap_url_scheme}' must end with {{link}}")
    return None if root is None else root + prefix[:-1]


def locales(app: Sphinx) -> list[str]:
    """sphinx-sitemap's ``sitemap_locales``: ``[None]`` for none, empty for those found
    in ``locale_dirs``."""
    listed = list(app.config.sitemap_locales)
    if listed == [None]:
        return []
    if listed:
        return [str(code) for code in listed]
    found = []
    for folder in app.config.locale_dirs:
        path = Path(app.confdir, folder)
        if path.is_dir():
            found.extend(sorted(child.name for child in path.iterdir() if child.is_dir()))
    return found


def settings(config: Any) -> Settings:
    values = {key: config[f"sitemapkit_{key}"] for key in OPTION_NAMES}
    # conf.py names Sphinx does not know are not errors to Sphinx; they are to us.
    raw = getattr(config, "_raw_config", {})
    values.update({name[11:]: raw[name] for name in raw if name.startswith("sitemapkit_")
                   and name[11:] not in values})
    values["base_url"] = build_url(config)
    if values["filename"] is None:
        values["filename"] = config.sitemap_filename
    excludes = list(config.sitemap_excludes)
    if excludes:
        own = values["exclude"]
        values["exclude"] = [*([own] if isinstance(own, str) else own or []), *excludes]
    if values["lastmod"] is None and config.sitemap_show_lastmod is not None:
        values["lastmod"] = ["meta", "git"] if config.sitemap_show_lastmod else False
    return Settings.from_mapping(values)


# ------------------------------------------------------------------------ reading


def collect_images(app: Sphinx, doctree: nodes.document) -> None:
    domain = app.env.domains["sitemapkit"]
    found = [dict(node["candidates"]) for node in doctree.findall(nodes.image) if "candidates" in node]
    if found:
        domain.data["images"][app.env.docname] = found
    else:
        domain.data["images"].pop(app.env.docname, None)


# ------------------------------------------------------------------------ writing


def write_sitemap(app: Sphinx, exception: BaseException | None) -> None:
    if exception is not None or app.builder.name not in BUILDERS:
        return
    chosen = settings(app.config)
    if chosen.base_url is None:
        logger.warning(
            "no sitemap written: set html_baseurl (or sitemapkit_base_url) in conf.py to the "
            "site's absolute URL", type="sitemapkit", subtype="base_url",
        )
        return
    try:
        report = generate(pages(app, chosen.base_url), app.outdir, chosen,
                          project_dir=app.confdir, on_warning=_log)
    except SitemapError as error:
        raise ExtensionError(f"sitemapkit: {error}") from None
    logger.info("sitemapkit: %s", report.summary())


def pages(app: Sphinx, base_url: str) -> Iterator[Page]:
    """One Page per document the builder wrote, in docname order."""
    env, builder, config = app.env, app.builder, app.config
    own = config.language
    others = [code for code in locales(app) if code != own]
    images = env.domains["sitemapkit"].data["images"]
    for docname in sorted(env.found_docs):
        output = Path(builder.get_outfilename(docname))
        if not output.is_file():
            continue
        link = builder.get_target_uri(docname)
        title = env.titles.get(docname)
        yield Page(
            url=link,
            source=Path(env.doc2path(docname)),
            output=output,
            meta=env.metadata.get(docname, {}),
            title=title.astext() if title is not None else None,
            lang=own,
            translations={code: root_url(config) + link_url(config, code, link) for code in others},
            images=tuple(_image_urls(images.get(docname, ()), builder, base_url)),
            name=str(env.doc2path(docname, False)),
        )


def _image_urls(candidates: list[dict[str, str]], builder: Any, base_url: str) -> Iterator[str]:
    """Where the builder put each image: remote URLs as written, local ones in ``_images/``."""
    for found in candidates:
        if "?" in found:
            if "://" in found["?"]:
                yield found["?"]
            continue
        path = found.get("*") or next(
            (found[kind] for kind in builder.supported_image_types if kind in found), None
        )
        if path in builder.env.images:
            yield f"{base_url}{builder.imagedir}/{quote(builder.env.images[path][1])}"


def _log(problem: Problem) -> None:
    logger.warning("sitemapkit: %s", problem, type="sitemapkit", subtype=problem.rule)
