"""``sitemapkit_html_sitemap = True`` with Sphinx: ``sitemap.html`` rendered by the builder's
``handle_page``, the path every page (and every ``html-collect-pages`` page) takes through the
theme's ``layout.html``. It runs at ``build-finished``, where the sitemap is decided: the
pages ``html-collect-pages`` yields are rendered before the site's own files are all in place
(robots.txt among them), and before the sitemap knows what it lists. A ``sitemap.html`` in a
``templates_path`` folder (or the theme) wins over sitemapkit's."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

from sphinx.jinja2glue import SphinxFileSystemLoader

from sitemapkit.build.html_sitemap import TEMPLATE_NAME, TEMPLATES, Render, Section

OURS = Path(__file__).resolve().parent / "templates"


def add_templates(app: Any) -> None:
    """``builder-inited``: sitemapkit's templates, found after the project's and the theme's."""
    templates = getattr(app.builder, "templates", None)
    if templates is not None and hasattr(templates, "loaders"):
        templates.loaders.extend([SphinxFileSystemLoader(str(OURS)), SphinxFileSystemLoader(str(TEMPLATES))])


def renderer(app: Any) -> Render | None:
    """The theme's renderer; None (sitemapkit's plain page) under ``dirhtml``, whose theme
    links are relative to ``sitemap/``, not to the ``sitemap.html`` beside the sitemap."""
    if app.builder.name != "html":
        return None

    def render(sections: list[Section]) -> str:
        scratch = Path(app.outdir, ".sitemapkit-sitemap.html.tmp")
        try:
            app.builder.handle_page("sitemap", {"title": "Site map", "sections": sections}, TEMPLATE_NAME,
                                    outfilename=scratch)
            return scratch.read_text(encoding=app.config.html_output_encoding)
        finally:
            with contextlib.suppress(FileNotFoundError):
                scratch.unlink()

    return render
