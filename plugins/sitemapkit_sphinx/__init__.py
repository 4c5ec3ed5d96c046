"""Sphinx adapter: ``extensions = ["sitemapkit_sphinx"]``.

``sitemapkit_*`` and sphinx-sitemap's ``sitemap_*`` values become ``Settings``; every written
document becomes a ``Page`` at ``build-finished``. Per-document data lives in a Domain, so
``-j N`` readers merge it and documents an incremental build does not re-read keep theirs.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.domains import Domain
from sphinx.errors import ExtensionError
from sphinx.util import logging

from sitemapkit import OPTION_NAMES, Page, Problem, SettingsError, SitemapError, __version__, generate
from sitemapkit.compat.sphinx_multiversion import sphinx_multiversion
from sitemapkit.compat.sphinx_sitemap import CONFIG_VALUES, DROP_IN, SphinxConfig
from sitemapkit.options import OPTIONS
from sitemapkit.output.html_sitemap import TEMPLATES
from sitemapkit.settings import no_base_url
from sitemapkit.site.pages import HTML_SUFFIXES, url_for_file
from sitemapkit.site.scan import html_files
from sitemapkit.sources.pyconf import conf_py
from sitemapkit.versions import read_the_docs

from .html_sitemap import outline, renderer

logger = logging.getLogger(__name__)
BUILDERS = ("html", "dirhtml")
KINDS = ("images", "fields")


class SitemapDomain(Domain):
    """Per document: its doctree's images (see ``collect_images``), and its ``sitemap*``
    fields as written (``env.metadata`` has them after smart quotes, which break JSON and
    ``--`` in URLs). Kept small: Sphinx pickles the whole environment once per ``-j`` chunk."""

    name = label = "sitemapkit"
    initial_data: dict[str, Any] = {kind: {} for kind in KINDS}  # noqa: RUF012 (Sphinx's API)
    data_version = 2

    def clear_doc(self, docname: str) -> None:
        for kind in KINDS:
            self.data[kind].pop(docname, None)

    def merge_domaindata(self, docnames: set[str], otherdata: dict[str, Any]) -> None:
        for kind in KINDS:
            found = otherdata[kind]
            self.data[kind].update((d, found[d]) for d in docnames if d in found)

    def resolve_any_xref(self, *args: Any) -> list:
        return []


def setup(app: Sphinx) -> dict[str, Any]:
    for option in OPTIONS:  # None: not set; numbers and lists get real defaults, so that -D converts them
        default = option.default if type(option.default) is int else [] if option.default == () else None
        types = frozenset(option.kind.types) | {type(None)}
        app.add_config_value(f"sitemapkit_{option.name}", default, "", types=types)
    if "sphinx_sitemap" not in app.config.extensions:
        for name, (default, types) in DROP_IN.items():
            if name not in app.config:
                app.add_config_value(name, default, "", types=types)
    app.add_domain(SitemapDomain)
    app.connect("config-inited", check_config)
    app.connect("doctree-read", collect_fields, priority=400)  # before Sphinx drops docinfo
    app.connect("doctree-read", collect_images, priority=900)  # after images are resolved
    app.connect("builder-inited", add_templates)
    app.connect("build-finished", write_sitemap)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}


def compat(app: Sphinx) -> SphinxConfig:
    """What sitemapkit reads of the config as the build sees it (conf.py, then ``-D``). The
    manifest defaults to ``<doctreedir>/sitemapkit/``, with Sphinx's own caches.
    sphinx-multiversion's ``smv_current_version`` and ``smv_metadata`` say which ref is built."""
    config = app.config
    multiversion = sphinx_multiversion(getattr(config, "smv_current_version", None),
                                       getattr(config, "smv_metadata", None), str(app.confdir))
    return SphinxConfig(*(getattr(config, name, None) for name in CONFIG_VALUES), confdir=str(app.confdir),
                        overrides=frozenset(config.overrides), conf_py=conf_py(app.confdir),
                        options={key: config[f"sitemapkit_{key}"] for key in OPTION_NAMES},
                        cache_dir=str(Path(app.doctreedir, "sitemapkit")), read_the_docs=read_the_docs(os.environ),
                        multiversion=multiversion)


def check_config(app: Sphinx, config: Any) -> None:
    """As Sphinx does for its own mistyped values: a warning naming the value (``-W`` makes it
    fatal), and the build goes on, without a sitemap (a ``ConfigError`` is a crash report)."""
    site = compat(app)
    try:
        for problem in site.warnings():
            _log(problem)
        site.settings()
    except SettingsError as error:
        _log(invalid(error))


def invalid(error: SettingsError) -> Problem:
    """The warning for a value sitemapkit cannot use, the option named as conf.py spells it."""
    if error.option is None:  # a sphinx-sitemap value: the message names it
        return Problem("settings", "option-invalid", f"{error}; no sitemap written", field="conf.py")
    hint = f" (did you mean sitemapkit_{error.suggestion}?)" if error.suggestion else ""
    return Problem("settings", "option-invalid", f"{error.reason}{hint}; no sitemap written",
                   field=f"sitemapkit_{error.option}")


def collect_fields(app: Sphinx, doctree: nodes.document) -> None:
    index = doctree.first_child_not_matching_class(nodes.PreBibliographic)
    if index is None or not isinstance(doctree[index], nodes.docinfo):
        return
    found = {field[0].astext(): field[1].rawsource.strip() or field[1].astext()
             for field in doctree[index].findall(nodes.field) if field[0].astext().startswith("sitemap")}
    _store(app, "fields", found)


def collect_images(app: Sphinx, doctree: nodes.document) -> None:
    """Per image a str (a local file's path, or a remote URL) or, for ``name.*``, the
    ``(mimetype, path)`` pairs the builder picks from at the end."""
    found = []
    for node in doctree.findall(nodes.image):
        candidates = node.get("candidates") or {}
        if "?" in candidates:  # data: or remote; Sphinx calls a URI with :// remote
            if "://" in candidates["?"]:
                found.append(candidates["?"])
        elif "*" in candidates:
            found.append(candidates["*"])
        elif candidates:
            found.append(tuple(candidates.items()))
    _store(app, "images", tuple(found))


def _store(app: Sphinx, kind: str, found: Any) -> None:
    store = app.env.domains["sitemapkit"].data[kind]
    if found:
        store[app.env.docname] = found
    else:
        store.pop(app.env.docname, None)


def write_sitemap(app: Sphinx, exception: BaseException | None) -> None:
    if exception is not None or app.builder.name not in BUILDERS:
        return
    site = compat(app)
    try:
        chosen = site.settings()
    except SettingsError:
        return  # warned at config-inited
    if chosen.base_url is None:
        _log(no_base_url("html_baseurl", app.config.html_baseurl, "set html_baseurl (or sitemapkit_base_url) "
                         "in conf.py to the site's absolute URL, such as 'https://example.org/docs/'"))
        return
    if (clash := site.canonical_clash()) is not None:
        _log(clash)
        return
    if (unversioned := site.unversioned_canonical()) is not None:
        _log(unversioned)
    try:
        found = pages(app, site, chosen.base_url)
        report = generate(found, app.outdir, chosen, project_dir=app.confdir, source_dirs=[app.srcdir],
                          on_warning=_log, render_html=renderer(app) if chosen.html_sitemap else None,
                          outline=outline(app) if chosen.html_sitemap else None,
                          deployment=site.deployment(), checkouts=site.checkouts())
    except SitemapError as error:
        raise ExtensionError(f"sitemapkit: {error}") from None
    logger.info("sitemapkit: %s", report.summary())


def pages(app: Sphinx, site: SphinxConfig, base_url: str) -> Iterator[Page]:
    """One Page per document the builder wrote, in docname order, then the pages it
    generated (``generated``)."""
    env, builder, srcdir = app.env, app.builder, Path(app.srcdir)
    others, problem = site.translations()
    if problem is not None:
        _log(problem)
    fields, images = env.domains["sitemapkit"].data["fields"], env.domains["sitemapkit"].data["images"]
    for docname in sorted(env.found_docs):
        output = builder.get_outfilename(docname)
        if not os.path.isfile(output):
            continue
        link, title, name = builder.get_target_uri(docname), env.titles.get(docname), str(env.doc2path(docname, False))
        yield Page(url=link, source=srcdir / name, output=Path(output), name=name, lang=site.language,
                   meta={**env.metadata.get(docname, {}), **fields.get(docname, {})},
                   title=title.astext() if title is not None else None,
                   translations={code: site.page_url(code, link) for code in others},
                   images=tuple(_image_urls(images.get(docname, ()), builder, base_url)),
                   depends_on=tuple(sorted(str(srcdir / path) for path in env.dependencies.get(docname, ()))))
    yield from generated(app)


def generated(app: Sphinx) -> Iterator[Page]:
    """The HTML files the builder wrote from no document. Its general index (each letter's page
    of a split one too), search page, domain indices (``py-modindex``) and viewcode's module
    sources go to the core as no pages, which the build names and records as left out; the
    ``html_additional_pages`` rendered from the project's templates are pages; the
    ``html_extra_path`` files it copied as they are go as such (``static_html``)."""
    builder, outdir, config = app.builder, Path(app.outdir), app.config
    names = [name for name, *_ in getattr(builder, "domain_indices", ())]
    if getattr(builder, "search", False):
        names.append("search")
    if getattr(builder, "use_index", False):
        names.append("genindex")
        if config.html_split_index:  # genindex-all, genindex-A ...: one a letter, at the root
            names += sorted({entry.removesuffix(".html") for entry in os.listdir(outdir)
                             if entry.startswith("genindex-")})
    files = {_written(builder, name): "generated index" for name in names}
    if "sphinx.ext.viewcode" in app.extensions:
        files.update((f"_modules/{name}", "generated index") for name in html_files(outdir / "_modules"))
    files.update((_written(builder, name), None) for name in config.html_additional_pages
                 if name not in app.env.found_docs)
    for name, why in files.items():
        if (outdir / name).is_file():
            yield Page(url=url_for_file(name), output=outdir / name, name=name, not_page=why)
    for extra in map(Path(app.confdir).joinpath, config.html_extra_path):
        for name in [extra.name] if extra.is_file() else html_files(extra):
            if name.endswith(HTML_SUFFIXES) and (outdir / name).is_file():
                yield Page(url=url_for_file(name), source=extra if extra.is_file() else extra / name,
                           output=outdir / name, name=name, copied=True)


def _written(builder: Any, pagename: str) -> str:
    """The output file of ``pagename``, relative to the output folder (``genindex.html``, or
    ``genindex/index.html`` under dirhtml)."""
    return Path(builder.get_outfilename(pagename)).relative_to(builder.outdir).as_posix()


def _image_urls(found: tuple[str | tuple, ...], builder: Any, base_url: str) -> Iterator[str]:
    """Where the builder put each image: remote URLs as written, local ones in ``_images/``."""
    for path in found:
        if isinstance(path, tuple):
            kinds = dict(path)
            path = next((kinds[kind] for kind in builder.supported_image_types if kind in kinds), None)
        elif "://" in path:
            yield path
            continue
        if path in builder.env.images:
            yield f"{base_url}{builder.imagedir}/{quote(builder.env.images[path][1])}"


def add_templates(app: Sphinx) -> None:
    """``builder-inited``: sitemapkit's templates, found after the project's and the theme's."""
    if hasattr(templates := getattr(app.builder, "templates", None), "loaders"):
        # Imported here, where the builder has loaded it already: a builder with no templates
        # (text, man, linkcheck) never loads it (measured: about 1 ms, 3 M instructions).
        from sphinx.jinja2glue import SphinxFileSystemLoader

        templates.loaders.append(SphinxFileSystemLoader(str(TEMPLATES)))


def _log(problem: Problem) -> None:
    if problem.severity == "info":
        logger.info("sitemapkit: %s", problem)
    else:
        # Sphinx tags the line itself with [sitemapkit.<rule>]: the rule is not repeated.
        logger.warning("sitemapkit: %s: %s: %s", problem.where, problem.field, problem.message,
                       type="sitemapkit", subtype=problem.rule)
