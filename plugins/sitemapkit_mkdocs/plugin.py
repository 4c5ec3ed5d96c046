"""``plugins: [sitemapkit]``: MkDocs pages in, sitemapkit's files out, in place of MkDocs'
own ``sitemap.xml``."""

from __future__ import annotations

import itertools
import logging
import os
import signal
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority, get_plugin_logger
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page as MkDocsPage

from sitemapkit.compat.material import reads_urlset
from sitemapkit.compat.mkdocs_build import (
    THEME_SITEMAP,
    build_settings,
    copied_pages,
    static_i18n,
    theme_pages,
)
from sitemapkit.generate import generate
from sitemapkit.model import Page
from sitemapkit.report import Problem, SitemapError
from sitemapkit.settings import Settings

# Loaded with the plugin, while MkDocs' heap is small: a collection its import set off at
# post-build would walk every page MkDocs holds (generate itself freezes that heap).
from sitemapkit.site.extract import head_of
from sitemapkit.site.files import inside
from sitemapkit.sources import MKDOCSTRINGS, SNIPPETS

from .options import SitemapkitConfig
from .pages import Held, every_page, languages, page

if TYPE_CHECKING:
    from sitemapkit.sources.mkdocstrings import Documented
    from sitemapkit.sources.snippets import Snippets
    from sitemapkit.versions import Deployment

log = get_plugin_logger("sitemapkit")


class SitemapkitPlugin(BasePlugin[SitemapkitConfig]):
    def __init__(self) -> None:
        self.settings: Settings | None = None
        self.held: list[Held] = []
        """Each page as MkDocs handed it over: the page, its output's head, its languages."""
        self.i18n: Any = None
        """mkdocs-static-i18n, whatever name it was enabled under, or None."""
        self.project_dir = Path.cwd()
        self.dirty = self.serving = False
        self.copied: list[Page] = []
        """The HTML files of docs_dir MkDocs copies as they are."""
        self.documents: list[MkDocsPage] = []
        """With ``--dirty``, every page of the build, in MkDocs' order: it renders only some."""
        self.theme: tuple[Any, Any, Files] | None = None
        """The theme's environment, the nav and the files of this build, for ``sitemap.html``."""
        self.deployment: Deployment | None = None
        """Where the version being built is served (mike, Read the Docs), or None."""
        self.snippets: Snippets | None = None
        self.documented: Documented | None = None
        """mkdocstrings, when it is enabled: the modules API pages document."""
        """pymdownx.snippets as configured, when it is enabled: the files pages include."""
        self.notes: tuple[Problem, ...] = ()
        """What the configuration says of this build (Material's lost features, the version
        deployed), told by the core with its own problems."""

    def on_startup(self, *, command: str, dirty: bool) -> None:
        self.dirty, self.serving = dirty, command == "serve"
        if self.serving and signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
            # A stopped `mkdocs serve` removes its temporary site (and our serve manifest in
            # it) on Ctrl-C only: SIGTERM (a service manager, a test runner) takes that path too.
            signal.signal(signal.SIGTERM, _interrupt)

    def on_shutdown(self) -> None:
        self.serving = False  # MkDocs may hand this plugin object to a later build
        if signal.getsignal(signal.SIGTERM) is _interrupt:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)

    # After plugins that move site_url at the default priority (mike's, to the version it
    # deploys), before mkdocs-static-i18n's (-100), whatever the order in plugins:.
    @event_priority(-50)
    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        config.theme.static_templates.discard(THEME_SITEMAP)  # and its .gz twin: ours replace both
        self.i18n = static_i18n(config.plugins.values())
        if self._nested():
            return config  # mkdocs-static-i18n building another language: keep the settings
        found = build_settings(self.config.as_mapping(), config.site_url, os.environ, mike="mike" in config.plugins,
                               serving=self.serving, site_dir=config.site_dir, theme=config.theme.name,
                               features=config.theme.get("features"), extra=config.extra)
        self.settings, self.deployment = found.settings, found.deployment
        # Told with the build's own problems, and counted with them; without a sitemap, now.
        self.notes = found.notes
        if found.error is not None or self.settings is None:
            for note in found.notes:
                _log(note)  # MkDocs' --strict makes a warning a failed build
        if found.error is not None:
            raise PluginError(found.error)
        if self.settings is None:
            return config
        file = config.config_file_path
        self.project_dir = Path(file).resolve().parent if file else Path.cwd()
        # Each module loaded only by a build that enables its extension or plugin (here, while
        # MkDocs' heap is small). The extension takes relative base paths from the folder MkDocs runs in.
        self.snippets = self.documented = None
        if SNIPPETS in config.markdown_extensions:
            from sitemapkit.sources.snippets import Snippets

            self.snippets = Snippets.from_options(config.mdx_configs.get(SNIPPETS), Path.cwd())
        documenting = config.plugins.get(MKDOCSTRINGS)
        if documenting is not None:
            from sitemapkit.sources.mkdocstrings import Documented

            self.documented = Documented.from_options(dict(getattr(documenting, "config", None) or {}),
                                                      self.project_dir)
        return config

    def on_files(self, files: Files, config: MkDocsConfig) -> Files:
        # Out of static_templates, the theme's sitemap.xml would be copied as a raw file.
        theme_map = files.get_file_from_path(THEME_SITEMAP)
        if theme_map is not None and not inside(theme_map.abs_src_path, config.docs_dir):
            files.remove(theme_map)
        return files

    def on_nav(self, nav: Any, config: MkDocsConfig, files: Files) -> Any:
        if not self._nested():
            self.theme = (None, nav, files) if self.settings and (self.settings.html_sitemap or
                                                                   self.settings.llms_txt) else None
        return nav

    def on_env(self, env: Any, config: MkDocsConfig, files: Files) -> Any:
        if self._nested():
            return env
        if self.theme is not None:
            self.theme = (env, *self.theme[1:])
        # The files as MkDocs copies them: after every plugin's on_files (mkdocs-static-i18n
        # renames a language's files) and exclude_docs (a theme's custom_dir in docs_dir).
        self.copied = copied_pages(((file.url, file.abs_src_path, file.abs_dest_path, file.src_uri)
                                    for file in files.static_pages() if file.inclusion.is_included()),
                                   config.docs_dir)
        if self.dirty:
            self.documents = [file.page for file in files.documentation_pages()
                              if file.page is not None and file.inclusion.is_included()]
        return env

    def on_pre_build(self, config: MkDocsConfig) -> None:
        if not self._nested():
            self.held = []  # each build (and each `serve` rebuild) starts clean

    @event_priority(-100)  # the page as written: after plugins that rewrite it (minifiers)
    def on_post_page(self, output: str, page: MkDocsPage, config: MkDocsConfig) -> str:
        # Drafts are rendered only for `serve` (MkDocs' build renders the included pages
        # alone): asked only there, decided once a build by on_startup's command.
        if not self.serving or not page.file.inclusion.is_excluded():
            # Performance: only what this moment alone knows is taken now (the output's head,
            # the language being built); the rest is read at post-build in one pass, where the
            # code stays in the CPU's caches (measured: 16 µs a page less on 1,000 heavy pages).
            self.held.append((page, head_of(output), languages(page.file, self.i18n) if self.i18n else None))
        return output

    @event_priority(-150)  # after mkdocs-static-i18n (-100) has built the other languages
    def on_post_build(self, config: MkDocsConfig) -> None:
        if self._nested() or self.settings is None:
            return
        held, self.held = self.held, []
        if self.dirty:
            held = every_page(held, self.documents, self.i18n, config)
        if self.theme:  # sitemap.html in the theme: loaded only by a build that writes it
            from .html_sitemap import outline, renderer
        try:
            pages = itertools.chain((page(*held_page, self.snippets, self.documented) for held_page in held),
                                    theme_pages(config.theme.static_templates, config.site_dir), self.copied)
            report = generate(pages, config.site_dir, self.settings, project_dir=self.project_dir,
                              source_dirs=[config.docs_dir], on_warning=_log,
                              render_html=renderer(*self.theme, config) if self.settings.html_sitemap else None,
                              outline=outline(self.theme[1], config) if self.theme else None,
                              deployment=self.deployment, keep_urlset=reads_urlset(config.theme.name),
                              problems=self.notes, keep_facts=self.dirty, keep_rendered=not self.dirty)
        except SitemapError as error:
            raise PluginError(str(error)) from None
        log.info(report.summary())

    def _nested(self) -> bool:
        return bool(getattr(self.i18n, "building", False))


def _log(problem: Problem) -> None:
    log.log(logging.INFO if problem.severity == "info" else logging.WARNING, str(problem))


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt
