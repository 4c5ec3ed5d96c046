"""sitemapkit for Pelican: ``PLUGINS = ["sitemapkit_pelican"]`` (or no PLUGINS line at all: the
namespace plugin ``pelican.plugins.sitemapkit`` registers this), options in ``SITEMAPKIT``.
Each file Pelican writes is noted; when the main run ends, the core writes the sitemaps. The
i18n_subsites runs inside it write into folders of its output and join its one sitemap."""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jinja2
from pelican import signals
from pelican.log import console

from sitemapkit import Problem, generate
from sitemapkit.compat.pelican_sitemap import PelicanSitemap, no_site_url, plugin_conflict, read_settings
from sitemapkit.translations import sub_site

from .heads import HeadKeeper
from .outline import outline
from .pages import Run, site_pages

if TYPE_CHECKING:
    from sitemapkit.output.html_sitemap import Render, Section

log = logging.getLogger(__name__)
OURS = Path(__file__).resolve().parent / "templates"  # sitemap.html in the theme's base.html


class _Build:
    """The build in progress: its main run, its options, the runs that join its sitemap and
    the head keeper of their generators' Jinja2 environments."""

    def __init__(self, main: Any = None, options: PelicanSitemap | None = None) -> None:
        self.main, self.options, self.runs, self.keeper = main, options, list[Run](), HeadKeeper()


_build = _Build()


def start_run(pelican: Any) -> None:
    """Fires on every run, ``--autoreload``'s included. A run writing inside the main run's output
    (i18n_subsites' ``fr/``) is part of its build; any other starts a new build. A bad option is
    a ``PelicanSitemapError`` here, when the run starts, which Pelican ends in one CRITICAL line
    (raised while Pelican is made, ``--print-settings`` would print it with a traceback)."""
    if _build.main is not None and _build.main is not pelican and sub_site(pelican.output_path,
                                                                            _build.main.output_path):
        return
    _build.__init__(pelican, read_settings(pelican.settings))
    if _build.options is None:  # no sitemap, no summary: told now (else with the build's own, counted)
        _warn(no_site_url(pelican.settings.get("SITEURL")))
        if (conflict := _conflict(pelican)) is not None:
            _warn(conflict)


def note_run(generator: Any) -> None:
    if _build.options is not None:
        _build.runs.append(Run(generator, _build.runs[0].output if _build.runs else None))


def keep_heads(generator: Any) -> None:
    """Each page's head as Pelican renders it: its writer renders a page, writes it and signals
    ``content_written`` with the same context, so the file need not be read back."""
    if _build.options is not None:
        _build.keeper.keep(generator.env)


def collect(path: str, context: dict[str, Any]) -> None:
    head = _build.keeper.take(context)
    runs = _build.runs
    if len(runs) > 1:  # i18n_subsites runs the sub-sites before the main run writes: the folder says whose
        where = os.path.abspath(path)
        runs = [max((run for run in runs if where.startswith(run.output + os.sep)), key=lambda run: len(run.output),
                    default=runs[-1])]
    if runs:
        runs[-1].add(path, context, head)


def write(pelican: Any) -> None:
    runs, options, settings = _build.runs, _build.options, pelican.settings
    if pelican is not _build.main or not runs:
        return  # a sub-site: its pages wait for the main run
    _build.__init__()
    render = _renderer(runs[0].generator) if options.settings.html_sitemap else None
    # SitemapError (warnings under strict) propagates: Pelican reports it and exits 1.
    conflict = _conflict(pelican)
    report = generate(
        site_pages(runs, options), runs[0].output, options.settings, problems=(conflict,) if conflict else (),
        project_dir=_project_dir(settings["PATH"], settings["OUTPUT_PATH"]),
        source_dirs=[os.path.abspath(settings["PATH"])], on_warning=_warn, render_html=render,
        outline=outline(runs[0]) if render is not None or options.settings.llms_txt else None,
    )
    # Printed as Pelican prints its own "Done: Processed ..." line: shown at the default log level.
    console.print(f"sitemapkit: {report.summary()}", markup=False, highlight=False, soft_wrap=True)


def _conflict(pelican: Any) -> Problem | None:
    return plugin_conflict({getattr(p, "__name__", "") for p in pelican.plugins})


def _project_dir(source: str, output: str) -> str:
    """Where a relative ``state_file`` lives (Pelican names no project folder): the folder
    holding both the content and the output, unless that is the file system's root."""
    source = os.path.abspath(source)
    common = os.path.commonpath([source, os.path.abspath(output)])
    return common if os.path.dirname(common) != common else source


def _renderer(generator: Any) -> Render:
    """``sitemap.html`` in the main run's Jinja2 environment (a theme's own template wins) and context."""
    # (loaded by the builds that write the page: most do not)
    from sitemapkit.output.html_sitemap import PAGE_NAME, TEMPLATE_NAME, TEMPLATES

    env, context = generator.env, generator.context
    env.loader = jinja2.ChoiceLoader([env.loader, jinja2.FileSystemLoader([str(OURS), str(TEMPLATES)])])

    def render(sections: list[Section]) -> str:
        local = {**context, "output_file": PAGE_NAME, "page_name": "sitemap", "sections": sections}
        if context.get("RELATIVE_URLS"):
            local["SITEURL"] = "."  # the page is at the site's root
        return env.get_template(TEMPLATE_NAME).render(local)

    return render


def _warn(problem: Problem) -> None:
    (log.info if problem.severity == "info" else log.warning)("sitemapkit: %s", problem)


def register() -> None:
    """Connect to Pelican's signals; connecting twice (PLUGINS and auto-discovery) is a no-op."""
    signals.get_generators.connect(start_run)
    signals.generator_init.connect(keep_heads)
    signals.article_generator_finalized.connect(note_run)
    signals.content_written.connect(collect)
    signals.finalized.connect(write)
