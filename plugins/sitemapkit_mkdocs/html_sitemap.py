"""``html_sitemap: true`` with MkDocs: ``sitemap.html`` rendered by the theme's own Jinja2
environment. A ``sitemap.html`` in the theme's ``custom_dir`` (or the theme) is rendered as
MkDocs renders its static templates (``404.html``), with the map's ``sections``; without one,
the map is a page of the site: ``main.html`` with the map as the page's content, the way MkDocs
renders every page, so it sits in the theme's content area. The page follows the site's
``nav`` (``outline``)."""

from __future__ import annotations

import jinja2
from mkdocs.commands.build import get_context
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure import StructureItem
from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page

from sitemapkit.model import NavItem, Outline
from sitemapkit.output.html_sitemap import PAGE_NAME, TEMPLATE_NAME, TEMPLATES, Render, Section, body

TITLE = "Site map"


def renderer(env: jinja2.Environment, nav: Navigation, files: Files, config: MkDocsConfig) -> Render:
    """``sitemap.html`` in the theme's environment, sitemapkit's templates found after the theme's."""
    env.loader = jinja2.ChoiceLoader([env.loader, jinja2.FileSystemLoader(str(TEMPLATES))])

    def render(sections: list[Section]) -> str:
        try:
            template, context = env.get_template(TEMPLATE_NAME), get_context(nav, files, config, base_url=".")
            context["sections"] = sections
        except jinja2.TemplateNotFound:  # the usual case: the map as a page of the site
            page = _page(config, body(sections))
            template, context = env.get_template("main.html"), get_context(nav, files, config, page)
        template = config.plugins.on_pre_template(template, template_name=TEMPLATE_NAME, config=config)
        context = config.plugins.on_template_context(context, template_name=TEMPLATE_NAME, config=config)
        return config.plugins.on_post_template(template.render(context), template_name=TEMPLATE_NAME, config=config)

    return render


def _page(config: MkDocsConfig, content: str) -> Page:
    """A page at ``sitemap.html`` whose content is the map, from no Markdown file (nothing to
    edit: no edit link)."""
    file = File("sitemap.md", None, config.site_dir, config.use_directory_urls, dest_uri=PAGE_NAME)
    page = Page(TITLE, file, config)
    page.content, page.edit_url = content, None
    return page


def outline(nav: Navigation, config: MkDocsConfig) -> Outline:
    """The site's ``nav`` as MkDocs (and the plugins that add to it) made it: its sections,
    pages and links in order, with the titles the theme shows."""
    return Outline(tuple(map(_item, nav.items)), config.site_name, description=config.site_description)


def _item(item: StructureItem) -> NavItem:
    if item.is_section:
        return NavItem(item.title, None, tuple(map(_item, item.children)))
    # Material's blog views (index, archive, category) keep their pagination in ``pages``, the
    # view itself first, and the posts they list, newest first: shown below the view (each post
    # once, under the first view that lists it).
    pages = getattr(item, "pages", None) or ()
    later = tuple(page.url for page in pages[1:]) if pages and pages[0] is item else ()
    posts = tuple(NavItem(post.title, post.url) for post in getattr(item, "posts", None) or ())
    return NavItem(item.title, item.url, posts, later)
