"""sitemapkit for Pelican: ``PLUGINS = ["sitemapkit_pelican"]`` (or no PLUGINS line at all: the
namespace plugin ``pelican.plugins.sitemapkit`` registers this), options in ``SITEMAPKIT``.

Every file Pelican writes (``content_written``) becomes a ``Page``; when the main run ends
(``finalized``) the core writes the sitemaps. i18n_subsites runs its sub-sites inside the
main run, writing into folders of its output: their pages join the main run's and one
complete sitemap is written, once.
"""

from __future__ import annotations

import logging
import os
from typing import Any

from pelican import signals

from sitemapkit import Problem, generate
from sitemapkit.build.html_sitemap import Render
from sitemapkit.project import project_dir
from sitemapkit.settings import no_base_url
from sitemapkit.translations import folder_prefix

from .html_sitemap import renderer
from .options import Options, absolute_dir, read_options
from .pages import Collected, site_pages

log = logging.getLogger(__name__)


class _Build:
    """What one build (a main run and the sub-site runs inside it) has collected so far."""

    def __init__(self, main: Any = None, options: Options | None = None) -> None:
        self.main, self.options, self.collected = main, options, Collected()
        self.render: Render | None = None


_build = _Build()


def check_settings(pelican: Any) -> None:
    read_options(pelican.settings)
    if "pelican.plugins.sitemap" in {getattr(p, "__name__", "") for p in pelican.plugins}:
        log.warning("sitemapkit: pelican-sitemap is enabled too and writes its own sitemap.xml: "
                    "remove it from PLUGINS, or uninstall it when Pelican finds plugins by itself "
                    "(sitemapkit reads its SITEMAP setting)")


def start_run(pelican: Any) -> None:
    # get_generators, not initialized: it fires on every run, --autoreload included.
    if _build.main is not None and _build.main is not pelican and _is_subsite(pelican.output_path):
        return
    options = read_options(pelican.settings)
    _build.__init__(pelican, options)
    if options is None:
        _warn(no_base_url("SITEURL", pelican.settings.get("SITEURL"), "pelican-quickstart's pelicanconf.py "
                          "(development settings) leaves it empty: build with `pelican content -s "
                          "publishconf.py`, which sets SITEURL = 'https://...', or set SITEMAPKIT['base_url']"))


def _is_subsite(output_path: str) -> bool:
    """A run writing inside the main run's output (i18n_subsites' ``fr/``) belongs to it; any
    other run (a rebuild after an error, a new settings file) starts a new build."""
    inside = folder_prefix(absolute_dir(output_path), absolute_dir(_build.main.output_path))
    return inside != "" and not inside.startswith("../")


def note_index_urls(generator: Any) -> None:
    """Where Pelican links the index pages it writes without a paginator."""
    settings, output = generator.settings, generator.output_path
    found = {}
    for template in settings["DIRECT_TEMPLATES"]:
        save_as = settings.get(f"{template.upper()}_SAVE_AS", f"{template}.html")
        found[save_as] = settings.get(f"{template.upper()}_URL", f"{template}.html")
    for periods in generator.period_archives.values():
        found.update((period["save_as"], period["url"]) for period in periods)
    for group in (generator.tags.keys(), (c for c, _ in generator.categories),
                  (a for a, _ in generator.authors)):
        found.update((item.save_as, item.url) for item in group)
    _build.collected.index_urls.update(
        (os.path.join(absolute_dir(output), save_as), url) for save_as, url in found.items() if save_as
    )


def note_theme(generator: Any) -> None:
    """The main run's theme renders ``sitemap.html`` (``html_sitemap``)."""
    main, options = _build.main, _build.options
    if options is not None and options.settings.html_sitemap and generator.output_path == main.output_path:
        _build.render = renderer(generator)


def collect(path: str, context: dict[str, Any]) -> None:
    if _build.options is not None:
        _build.collected.add(path, context)


def write(pelican: Any) -> None:
    if pelican is not _build.main or _build.options is None:
        return  # a sub-site: its pages wait for the main run
    collected, options, render = _build.collected, _build.options, _build.render
    _build.__init__()
    # SitemapError (warnings under strict) propagates: Pelican reports it and exits 1.
    report = generate(
        site_pages(collected, pelican.output_path, options, _warn), absolute_dir(pelican.output_path),
        options.settings, project_dir=project_dir(pelican.settings["PATH"], pelican.settings["OUTPUT_PATH"]),
        source_dirs=[absolute_dir(pelican.settings["PATH"])], on_warning=_warn, render_html=render,
    )
    log.info("sitemapkit: %s", report.summary())


def _warn(problem: Problem) -> None:
    (log.info if problem.severity == "info" else log.warning)("sitemapkit: %s", problem)


def register() -> None:
    """Connect to Pelican's signals; connecting twice (PLUGINS and auto-discovery) is a no-op."""
    signals.initialized.connect(check_settings)
    signals.get_generators.connect(start_run)
    signals.article_generator_finalized.connect(note_index_urls)
    signals.article_generator_finalized.connect(note_theme)
    signals.content_written.connect(collect)
    signals.finalized.connect(write)
