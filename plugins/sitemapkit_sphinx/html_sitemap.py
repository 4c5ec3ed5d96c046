"""``sitemapkit_html_sitemap = True`` with Sphinx: ``sitemap.html`` in the theme, following the
root toctree (``outline``)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from jinja2 import TemplateNotFound
from sphinx import addnodes
from sphinx.application import Sphinx

from sitemapkit.model import NavItem, Outline
from sitemapkit.output.html_sitemap import TEMPLATE_NAME, Render, Section, body


def renderer(app: Sphinx) -> Render | None:
    """``sitemapkit_html_sitemap``: ``sitemap.html`` rendered by the builder's ``handle_page``,
    at ``build-finished``, where the sitemap is decided (pages ``html-collect-pages`` yields
    come before the site's own files are all in place, and before the sitemap knows what it
    lists): the map as the page's ``body`` in the theme's ``page.html``, the way Sphinx renders
    every document, so it sits in the theme's content area in any theme (Furo's layout.html
    is an error page). A ``sitemap.html`` in a ``templates_path`` folder (or the theme) is
    rendered instead, with the map's ``sections``. None (sitemapkit's plain page) under
    ``dirhtml``, whose theme links are relative to ``sitemap/``, not to the ``sitemap.html``
    beside the sitemap."""
    if app.builder.name != "html":
        return None

    def render(sections: list[Section]) -> str:
        scratch = Path(app.outdir, ".sitemapkit-sitemap.html.tmp")
        try:
            app.builder.templates.environment.get_template(TEMPLATE_NAME)
        except TemplateNotFound:  # the usual case: the map as a page of the site
            template, context = "page.html", {**PAGE_CONTEXT, "body": body(sections)}
        else:
            template, context = TEMPLATE_NAME, {"title": TITLE, "sections": sections}
        try:
            app.builder.handle_page("sitemap", context, template, outfilename=scratch)
            return scratch.read_text(encoding=app.config.html_output_encoding)
        finally:
            with contextlib.suppress(FileNotFoundError):
                scratch.unlink()

    return render


TITLE = "Site map"
PAGE_CONTEXT = {"title": TITLE, "parents": [], "prev": None, "next": None, "meta": {}, "metatags": "",
                "rellinks": [], "sourcename": "", "toc": "", "display_toc": False, "page_source_suffix": ""}
"""What ``page.html`` finds for a document (Sphinx's ``get_doc_context``), for a page with no
source, no local contents and no neighbours."""


def outline(app: Sphinx) -> Outline:
    """The site's navigation: the root document, then its toctrees, each under its caption
    (one without a caption: its entries at the top), each entry with the entries of its own
    toctrees below it; titles as the toctrees give them, else the documents' own."""
    env, root = app.env, app.config.root_doc
    seen = {root}
    items = [NavItem(None, app.builder.get_target_uri(root))]
    for toctree in _toctrees(env, root):
        found = tuple(_entries(app, toctree, seen))
        caption = toctree.get("caption")
        items += [NavItem(caption, None, found)] if caption else found
    return Outline(tuple(items), app.config.html_title or app.config.project, app.config.project)


def _toctrees(env: Any, docname: str) -> Iterator[addnodes.toctree]:
    toc = env.tocs.get(docname)
    return toc.findall(addnodes.toctree) if toc is not None else iter(())


def _entries(app: Sphinx, toctree: addnodes.toctree, seen: set[str]) -> Iterator[NavItem]:
    env = app.env
    for title, ref in toctree["entries"]:
        if ref not in env.all_docs:  # a URL, or "self"
            if ref != "self":
                yield NavItem(title, ref)
            continue
        if ref in seen:
            continue
        seen.add(ref)
        below = tuple(item for nested in _toctrees(env, ref) for item in _entries(app, nested, seen))
        yield NavItem(title or None, app.builder.get_target_uri(ref), below)
