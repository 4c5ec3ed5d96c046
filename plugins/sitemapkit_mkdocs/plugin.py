"""``plugins: [sitemapkit]``: MkDocs pages in, sitemapkit's files out, in place of MkDocs'
own ``sitemap.xml``."""

from __future__ import annotations

import itertools
import logging
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority, get_plugin_logger
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page as MkDocsPage

from sitemapkit.compat.material import lost_features, reads_urlset
from sitemapkit.dates import front_matter_dates
from sitemapkit.generate import generate
from sitemapkit.model import Moment, Page
from sitemapkit.report import Problem, SitemapError
from sitemapkit.settings import Settings, SettingsError, no_base_url

# Loaded with the plugin, while MkDocs' heap is small: a collection its import set off at
# post-build would walk every page MkDocs holds (generate itself freezes that heap).
from sitemapkit.site.extract import head_of
from sitemapkit.site.pages import HTML_SUFFIXES, error_page, url_for_file
from sitemapkit.sources.snippets import EXTENSION as SNIPPETS
from sitemapkit.sources.snippets import Snippets
from sitemapkit.versions import Deployment, version_build

from .html_sitemap import outline, renderer
from .options import SitemapkitConfig

log = get_plugin_logger("sitemapkit")


class SitemapkitPlugin(BasePlugin[SitemapkitConfig]):
    def __init__(self) -> None:
        self.settings: Settings | None = None
        self.held: list[tuple[MkDocsPage, str, tuple[str, dict[str, str]] | None]] = []
        """Each page as MkDocs handed it over: the page, its output's head, its languages."""
        self.i18n: Any = None
        """mkdocs-static-i18n, whatever name it was enabled under, or None."""
        self.project_dir = Path.cwd()
        self.dirty = self.serving = False
        self.copied: list[Page] = []
        """The HTML files of docs_dir MkDocs copies as they are."""
        self.theme: tuple[Any, Any, Files] | None = None
        """The theme's environment, the nav and the files of this build, for ``sitemap.html``."""
        self.deployment: Deployment | None = None
        """Where the version being built is served (mike, Read the Docs), or None."""
        self.snippets: Snippets | None = None
        """pymdownx.snippets as configured, when it is enabled: the files pages include."""

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
        # MkDocs renders sitemap.xml (and its .gz twin) from this template: ours replaces both.
        config.theme.static_templates.discard("sitemap.xml")
        self.i18n = next((plugin for plugin in config.plugins.values()
                          if hasattr(plugin, "i18n_files_per_language") and hasattr(plugin, "building")), None)
        if self._nested():
            return config  # mkdocs-static-i18n building another language: keep the settings
        self.settings = None
        self.deployment, options, note = version_build(self.config.as_mapping(), config.site_url, os.environ,
                                                       mike="mike" in config.plugins)
        base_url = self.deployment.url if self.deployment else self.config.base_url or config.site_url
        if not base_url:
            message = str(no_base_url("site_url", None, "set 'site_url' in the config file, or 'base_url' "
                                      "under 'plugins: - sitemapkit:'"))
            if self.config.strict:
                raise PluginError(message)
            log.warning(message)  # MkDocs' --strict makes this a failed build
            return config
        if note is not None:
            _log(note)
        try:
            settings = Settings.from_mapping(options, base_url=base_url)
        except SettingsError as error:
            raise PluginError(str(error)) from None
        if self.serving:
            # Served pages have the dev server's URLs: keep them out of the real manifest (it
            # would forget every real URL), in the temporary site MkDocs removes; no IndexNow.
            state = Path(config.site_dir, ".sitemapkit-serve.json").resolve()
            settings = settings.replace(state_file=str(state), indexnow=None)
        self.settings = settings
        lost = lost_features(config.theme.name, settings.filename, config.theme.get("features"), config.extra)
        if lost is not None:
            _log(lost)
        file = config.config_file_path
        self.project_dir = Path(file).resolve().parent if file else Path.cwd()
        # The extension takes relative base paths from the folder MkDocs runs in.
        self.snippets = (Snippets.from_options(config.mdx_configs.get(SNIPPETS), Path.cwd())
                         if SNIPPETS in config.markdown_extensions else None)
        return config

    def on_files(self, files: Files, config: MkDocsConfig) -> Files:
        # Out of static_templates, the theme's sitemap.xml would be copied as a raw file.
        theme_map = files.get_file_from_path("sitemap.xml")
        if theme_map is not None and not _inside(theme_map.abs_src_path, config.docs_dir):
            files.remove(theme_map)
        if not self._nested():  # .html files in docs_dir, copied as they are (static_html)
            self.copied = [Page(url=file.url, source=file.abs_src_path, output=file.abs_dest_path, name=file.src_uri,
                                copied=True)
                           for file in files.static_pages()
                           if file.src_uri.endswith(HTML_SUFFIXES) and _inside(file.abs_src_path, config.docs_dir)]
        return files

    def on_nav(self, nav: Any, config: MkDocsConfig, files: Files) -> Any:
        if not self._nested():
            self.theme = (None, nav, files) if self.settings and self.settings.html_sitemap else None
        return nav

    def on_env(self, env: Any, config: MkDocsConfig, files: Files) -> Any:
        if self.theme is not None and not self._nested():
            self.theme = (env, *self.theme[1:])
        return env

    def on_pre_build(self, config: MkDocsConfig) -> None:
        if not self._nested():
            self.held = []  # each build (and each `serve` rebuild) starts clean

    @event_priority(-100)  # the page as written: after plugins that rewrite it (minifiers)
    def on_post_page(self, output: str, page: MkDocsPage, config: MkDocsConfig) -> str:
        if not page.file.inclusion.is_excluded():  # drafts rendered only for `serve`
            # Performance: only what this moment alone knows is taken now (the output's head,
            # the language being built); the rest is read at post-build in one pass, where the
            # code stays in the CPU's caches (measured: 16 µs a page less on 1,000 heavy pages).
            self.held.append((page, head_of(output), _languages(page.file, self.i18n) if self.i18n else None))
        return output

    @event_priority(-150)  # after mkdocs-static-i18n (-100) has built the other languages
    def on_post_build(self, config: MkDocsConfig) -> None:
        if self._nested() or self.settings is None:
            return
        held, self.held = self.held, []
        if self.dirty and (Path(config.site_dir) / self.settings.filename).exists():
            # --dirty renders only changed pages: a sitemap of those would lose the rest.
            log.info("--dirty build: the sitemap of the last full build is kept")
            return
        try:
            pages = itertools.chain((_page(*page, self.snippets) for page in held), _theme_pages(config),
                                    self.copied)
            report = generate(pages, config.site_dir, self.settings, project_dir=self.project_dir,
                              source_dirs=[config.docs_dir], on_warning=_log,
                              render_html=renderer(*self.theme, config) if self.theme else None,
                              outline=outline(self.theme[1], config) if self.theme else None,
                              deployment=self.deployment, keep_urlset=reads_urlset(config.theme.name))
        except SitemapError as error:
            raise PluginError(str(error)) from None
        log.info(report.summary())

    def _nested(self) -> bool:
        return bool(getattr(self.i18n, "building", False))


def _page(
    page: MkDocsPage, head: str, languages: tuple[str, dict[str, str]] | None, snippets: Snippets | None
) -> Page:
    file, meta = page.file, page.meta
    posts = getattr(page, "posts", None)  # Material's blog archive, category or pagination page
    lang, translations = languages or (None, {})
    published, modified = _dates(meta, file.src_uri) if meta else (None, None)
    return Page(
        url=page.url, source=_source(file), name=file.src_uri, title=page.title, meta=meta or {},
        # The page as MkDocs writes it, up to its body (robots, canonical, hreflang), and
        # the rendered Markdown, held by MkDocs anyway (images, the fingerprint): nothing
        # is read back from the written file, and no theme navigation is kept.
        html=head, content=page.content or None,
        lang=lang, translations=translations, published=published, modified=modified,
        listed=tuple(_dates(post.meta or {}, post.file.src_uri)[1] for post in posts) if posts else (),
        depends_on=snippets.files(page.markdown) if snippets is not None and page.markdown else (),
    )


def _theme_pages(config: MkDocsConfig) -> Iterator[Page]:
    """The theme's own pages, rendered from no Markdown (``static_templates``: its
    ``404.html``): no pages, by MkDocs' word, which the build names and records as left out."""
    for name in sorted(config.theme.static_templates):
        output = Path(config.site_dir, name)
        if name.endswith(HTML_SUFFIXES) and output.is_file():
            yield Page(url=url_for_file(name), output=output, name=name,
                       not_page=error_page(name) or "theme template")


def _source(file: File) -> str | None:
    """The page's Markdown file: MkDocs has just read it, unless a plugin generated the page
    (``generated_by``), whose source may be nowhere on disk. Only those are looked for."""
    source = file.abs_src_path
    if getattr(file, "generated_by", None) and not (source and os.path.isfile(source)):
        return None
    return source


def _inside(path: str | None, folder: str) -> bool:
    return path is not None and Path(path).resolve().is_relative_to(Path(folder).resolve())


def _dates(meta: dict[str, Any], name: str) -> tuple[Moment | None, Moment | None]:
    return front_matter_dates(meta, lambda message: log.warning(f"{name}: {message}"))


def _languages(file: File, i18n: Any) -> tuple[str | None, dict[str, str]]:
    """The page's language and its other language versions, as mkdocs-static-i18n set them
    on the file (``alternates``: build language -> File, this file included)."""
    lang = getattr(file, "locale_alternate_of", None) or i18n.current_language
    alternates = getattr(file, "alternates", None) or {}
    return lang, {code: other.url for code, other in alternates.items() if code != lang}


def _log(problem: Problem) -> None:
    log.log(logging.INFO if problem.severity == "info" else logging.WARNING, str(problem))


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt
