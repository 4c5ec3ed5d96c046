"""Sphinx adapter: ``extensions = ["sitemapkit_sphinx"]``.

``sitemapkit_*`` and sphinx-sitemap's ``sitemap_*`` values become ``Settings``; every written
document becomes a ``Page`` at ``build-finished``. Per-document data lives in a Domain, so
``-j N`` readers merge it and documents an incremental build does not re-read keep theirs.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.util import logging

from sitemapkit import OPTION_NAMES, Page, Problem, SitemapError, __version__, generate
from sitemapkit.compat import read_the_docs
from sitemapkit.compat.sphinx_checks import build_settings, config_problems
from sitemapkit.compat.sphinx_multiversion import sphinx_multiversion
from sitemapkit.compat.sphinx_pages import generated_pages, image_urls, made_from
from sitemapkit.compat.sphinx_sitemap import CONFIG_VALUES, DROP_IN, SphinxConfig
from sitemapkit.options import OPTIONS
from sitemapkit.output import TEMPLATES
from sitemapkit.report import TransformError
from sitemapkit.sources.pyconf import conf_py

from .documents import SitemapDomain, collect_fields, collect_images, collect_page, page_of, writer_of

logger = logging.getLogger(__name__)
BUILDERS = ("html", "dirhtml")


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
    app.connect("doctree-read", collect_page, priority=900)  # after Sphinx's collectors (the title)
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
    for problem in config_problems(compat(app)):
        _log(problem)


def write_sitemap(app: Sphinx, exception: BaseException | None) -> None:
    if exception is not None or app.builder.name not in BUILDERS:
        return
    site = compat(app)
    chosen, problems = build_settings(site)
    if chosen is None:  # no sitemap, no summary: told now
        for problem in problems:
            _log(problem)
        return
    others, problem = site.translations()
    if chosen.html_sitemap or chosen.llms_txt:  # Performance: the views are loaded by the builds that use them
        from .html_sitemap import outline, renderer
    try:
        found = pages(app, site, chosen.base_url, others)
        report = generate(found, app.outdir, chosen, project_dir=app.confdir, source_dirs=[app.srcdir],
                          problems=[*problems, *([problem] if problem is not None else [])],
                          on_warning=_log, render_html=renderer(app) if chosen.html_sitemap else None,
                          outline=outline(app) if chosen.html_sitemap or chosen.llms_txt else None,
                          deployment=site.deployment(), checkouts=site.checkouts())
    except TransformError as error:  # the user's callable: a warning, as a wrong value is (-W: fatal)
        _log(error.problem)
        return
    except SitemapError as error:
        # One line and a failed build, as Sphinx ends one whose warnings are errors (an
        # exception here would be Sphinx's crash report, with its traceback).
        logger.error("sitemapkit: %s", error, type="sitemapkit")
        app.statuscode = 1
        return
    logger.info("sitemapkit: %s", report.summary())


def pages(app: Sphinx, site: SphinxConfig, base_url: str, others: Iterable[str]) -> Iterator[Page]:
    """One Page per document the builder wrote, in docname order, then the files it wrote
    from no document (``generated_pages``); ``others``: the languages of the translations."""
    env, builder, srcdir, outdir = app.env, app.builder, os.fspath(app.srcdir), os.path.join(app.outdir, "")
    sources = os.path.join(srcdir, "")  # each document's source: this, then its name (relative)
    data = env.domains["sitemapkit"].data
    fields, images, kept_pages, writer = data["fields"], data["images"], data["pages"], writer_of(builder)
    site_wide = "\n".join(filter(None, (app.config.rst_prolog, app.config.rst_epilog)))
    # Performance: paths, titles and links as text, kept from when the document was read
    # (``collect_page``): no Path nor node's text made per document, most of this loop's work
    # before (measured: 4.2 M to 2.5 M bytecodes for the final step of an incremental build
    # of 1,000 documents), nor the builder asked for its link.
    for docname in sorted(env.found_docs):
        kept = kept_pages.get(docname)
        if kept is None or kept[0] != writer or not kept[1].startswith(outdir):  # read for another
            kept = page_of(builder, env, docname)  # builder, file suffix or output folder
        _, output, name, title, link = kept
        # Written? Asked without a stat: the core stats the file once, to replay or read it,
        # and says so of one that is no regular file (measured: 7.4 M instructions of the final
        # step of an incremental build of 1,000 documents with os.path.isfile, 1.2 M with this).
        if not os.access(output, os.F_OK):
            continue
        source = sources + name  # (os.path.join's checks, for a name known relative: 6 M instructions)
        meta, own, shown = env.metadata.get(docname), fields.get(docname), images.get(docname)
        # (most documents have no metadata, no sitemap fields, no images and no translations:
        # none is made for them)
        yield Page(url=link, source=source, output=output, name=name, lang=site.language,
                   meta={**(meta or {}), **own} if own else meta or {},
                   title=title,
                   translations={code: site.page_url(code, link) for code in others} if others else {},
                   images=tuple(image_urls(shown, builder.supported_image_types, env.images, builder.imagedir,
                                           base_url)) if shown else (),
                   depends_on=made_from(source, env.dependencies.get(docname, ()), srcdir, site_wide))
    yield from generated(app)


def generated(app: Sphinx) -> Iterator[Page]:
    """The files the builder wrote from no document (see ``generated_pages``)."""
    builder, config = app.builder, app.config
    return generated_pages(Path(app.outdir), builder.get_outfilename,
                           domain_indices=[name for name, *_ in getattr(builder, "domain_indices", ())],
                           search=bool(getattr(builder, "search", False)),
                           genindex=bool(getattr(builder, "use_index", False)), split_index=config.html_split_index,
                           viewcode="sphinx.ext.viewcode" in app.extensions, additional=config.html_additional_pages,
                           documents=app.env.found_docs,
                           extra_paths=map(Path(app.confdir).joinpath, config.html_extra_path))


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
