"""MkDocs pages -> sitemapkit ``Page``s, from what the plugin held of each as MkDocs wrote it."""

from __future__ import annotations

import os
from typing import Any

from mkdocs.plugins import get_plugin_logger
from mkdocs.structure.files import File
from mkdocs.structure.pages import Page as MkDocsPage

from sitemapkit.dates import front_matter_dates
from sitemapkit.model import Moment, Page
from sitemapkit.sources.mkdocstrings import Documented
from sitemapkit.sources.snippets import Snippets

log = get_plugin_logger("sitemapkit")


def page(mkdocs_page: MkDocsPage, head: str, languages: tuple[str, dict[str, str]] | None,
         snippets: Snippets | None, documented: Documented | None = None) -> Page:
    """The ``Page`` of ``mkdocs_page``, whose output's head is ``head``, in the language and with
    the translations ``languages`` gives (mkdocs-static-i18n), including the files ``snippets``
    (pymdownx.snippets, when it is enabled) puts into it and the modules it documents
    (``documented``: mkdocstrings)."""
    file, meta, markdown = mkdocs_page.file, mkdocs_page.meta, mkdocs_page.markdown
    posts = getattr(mkdocs_page, "posts", None)  # Material's blog archive, category or pagination page
    lang, translations = languages or (None, {})
    published, modified = _dates(meta, file.src_uri) if meta else (None, None)
    return Page(
        url=mkdocs_page.url, source=_source(file), name=file.src_uri, title=mkdocs_page.title, meta=meta or {},
        # The page as MkDocs writes it, up to its body (robots, canonical, hreflang), and
        # the rendered Markdown, held by MkDocs anyway (images, the fingerprint): nothing
        # is read back from the written file, and no theme navigation is kept.
        html=head, content=mkdocs_page.content or None,
        lang=lang, translations=translations, published=published, modified=modified,
        listed=tuple(_dates(post.meta or {}, post.file.src_uri)[1] for post in posts) if posts else (),
        depends_on=(*(snippets.files(markdown) if snippets is not None else ()),
                    *(documented.files(markdown) if documented is not None else ())) if markdown else (),
    )


def _source(file: File) -> str | None:
    """The page's Markdown file: MkDocs has just read it, unless a plugin generated the page
    (``generated_by``), whose source may be nowhere on disk. Only those are looked for."""
    source = file.abs_src_path
    if getattr(file, "generated_by", None) and not (source and os.path.isfile(source)):
        return None
    return source


def _dates(meta: dict[str, Any], name: str) -> tuple[Moment | None, Moment | None]:
    return front_matter_dates(meta, lambda message: log.warning(f"{name}: {message}"))
