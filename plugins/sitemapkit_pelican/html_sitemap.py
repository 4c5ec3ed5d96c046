"""``html_sitemap: true`` with Pelican: ``sitemap.html`` rendered with Pelican's own Jinja2
environment and context (the theme's ``base.html``, its menus, ``SITENAME``). A
``sitemap.html`` in the theme or in ``THEME_TEMPLATES_OVERRIDES`` wins over sitemapkit's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jinja2

from sitemapkit.build.html_sitemap import PAGE_NAME, TEMPLATE_NAME, TEMPLATES, Render, Section

OURS = Path(__file__).resolve().parent / "templates"


def renderer(generator: Any) -> Render:
    """A renderer with ``generator``'s environment (the theme's templates first) and context."""
    env: jinja2.Environment = generator.env
    env.loader = jinja2.ChoiceLoader([env.loader, jinja2.FileSystemLoader([str(OURS), str(TEMPLATES)])])
    context = generator.context

    def render(sections: list[Section]) -> str:
        local = {**context, "output_file": PAGE_NAME, "page_name": "sitemap", "sections": sections}
        if context.get("RELATIVE_URLS"):
            local["SITEURL"] = "."  # the page is at the site's root
        return env.get_template(TEMPLATE_NAME).render(local)

    return render
