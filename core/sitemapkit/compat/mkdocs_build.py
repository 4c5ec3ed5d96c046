"""What an MkDocs build's configuration means for its sitemap: the settings of one build (the
site's URL, the version mike or Read the Docs deploys, ``mkdocs serve``), the plugins it works
beside, the files MkDocs copies or renders from no Markdown."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from sitemapkit.compat import read_the_docs
from sitemapkit.compat.material import lost_features
from sitemapkit.model import Page
from sitemapkit.report import Problem
from sitemapkit.settings import Settings, SettingsError, no_base_url
from sitemapkit.site.files import inside
from sitemapkit.site.pages import HTML_SUFFIXES, error_page, url_for_file

if TYPE_CHECKING:
    from sitemapkit.versions import Deployment

THEME_SITEMAP = "sitemap.xml"
"""The template MkDocs renders its own ``sitemap.xml`` (and the ``.gz`` twin) from, and the
file a theme ships it as: sitemapkit's files replace both."""

NO_BASE_URL_FIX = "set 'site_url' in the config file, or 'base_url' under 'plugins: - sitemapkit:'"

SERVE_STATE = ".sitemapkit-serve.json"
"""The manifest of ``mkdocs serve``, in the temporary site MkDocs removes."""

class BuildSettings(NamedTuple):
    """What one build writes with: its ``settings`` (None: no sitemap), where its version is
    deployed, the notes to show first, and the ``error`` that fails the build, if any."""

    settings: Settings | None
    deployment: Deployment | None
    notes: tuple[Problem, ...] = ()
    error: str | None = None


def build_settings(options: Mapping[str, Any], site_url: str | None, environ: Mapping[str, str], *, mike: bool,
                   serving: bool, site_dir: str, theme: str | None, features: Iterable[str] | None,
                   extra: Mapping[str, Any]) -> BuildSettings:
    """The settings of one build from the plugin's ``options`` and MkDocs' ``site_url`` (after
    mike's plugin moved it, ``mike``: it is enabled), the version the ``environ`` says is built
    (``versions.version_build``), and ``mkdocs serve`` (``serving``): served pages have the dev
    server's URLs, so they are kept out of the real manifest (it would forget every real URL),
    in the temporary ``site_dir``, and nothing is sent to IndexNow. Without a URL no sitemap is
    written (a warning; with ``strict`` a failed build); ``theme``, its ``features`` and the
    ``extra`` settings say what Material loses with another ``filename``."""
    deployment, chosen, notes, clash = None, dict(options), (), None
    if mike or read_the_docs(environ) is not None:  # versions is loaded by the builds it concerns
        from sitemapkit.versions import site_url_clash, version_build

        deployment, chosen, notes = version_build(options, site_url, environ, mike=mike)
        if deployment and not mike and not options.get("base_url"):
            clash = site_url_clash(deployment, site_url)
    base_url = deployment.url if deployment else options.get("base_url") or site_url
    if not base_url:
        missing = no_base_url("site_url", None, NO_BASE_URL_FIX)
        if options.get("strict"):
            return BuildSettings(None, deployment, error=str(missing))
        return BuildSettings(None, deployment, (missing,))
    if clash is not None:  # Read the Docs, and a site_url outside every version it serves
        return BuildSettings(None, deployment, error=str(clash)) if options.get("strict") else \
            BuildSettings(None, deployment, (*notes, clash))
    try:
        settings = Settings.from_mapping(chosen, base_url=base_url)
    except SettingsError as error:
        return BuildSettings(None, deployment, notes, str(error))
    if serving:
        state = Path(site_dir, SERVE_STATE).resolve()
        settings = settings.replace(state_file=str(state), indexnow=None)
    lost = lost_features(theme, settings.filename, features, extra)
    return BuildSettings(settings, deployment, (*notes, lost) if lost is not None else notes)


def static_i18n(plugins: Iterable[Any]) -> Any:
    """mkdocs-static-i18n among the enabled ``plugins``, whatever name it was enabled under (by
    what it holds: each language's files, and the language it is building), or None."""
    return next((plugin for plugin in plugins
                 if hasattr(plugin, "i18n_files_per_language") and hasattr(plugin, "building")), None)


def copied_pages(files: Iterable[tuple[str, str | None, str, str]], docs_dir: str) -> list[Page]:
    """The HTML files of ``docs_dir`` MkDocs copies as they are (``static_html``), of its
    static ``files``, each as (URL, source, output, name in ``docs_dir``)."""
    return [Page(url=url, source=source, output=output, name=name, copied=True)
            for url, source, output, name in files if name.endswith(HTML_SUFFIXES) and inside(source, docs_dir)]


def theme_pages(static_templates: Iterable[str], site_dir: str) -> Iterator[Page]:
    """The theme's own pages, rendered from no Markdown (``static_templates``: its
    ``404.html``): no pages, by MkDocs' word, which the build names and records as left out."""
    for name in sorted(static_templates):
        output = Path(site_dir, name)
        if name.endswith(HTML_SUFFIXES) and output.is_file():
            yield Page(url=url_for_file(name), output=output, name=name,
                       not_page=error_page(name) or "theme template")
