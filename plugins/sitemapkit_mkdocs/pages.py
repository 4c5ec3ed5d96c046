"""MkDocs pages -> sitemapkit ``Page``s, from what the plugin held of each as MkDocs wrote it."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File
from mkdocs.structure.pages import Page as MkDocsPage

from sitemapkit.dates import front_matter_dates
from sitemapkit.model import Moment, Page
from sitemapkit.report import Problem

if TYPE_CHECKING:
    from sitemapkit.sources.mkdocstrings import Documented
    from sitemapkit.sources.snippets import Snippets


def page(mkdocs_page: MkDocsPage, head: str | None, languages: tuple[str | None, dict[str, str]] | None,
         snippets: Snippets | None, documented: Documented | None = None) -> Page:
    """The ``Page`` of ``mkdocs_page``, whose output's head is ``head`` (None: a ``--dirty`` build
    did not render it, its facts are the last build's, kept by its written file), in the
    language and with the translations ``languages`` gives (mkdocs-static-i18n), including the files ``snippets``
    (pymdownx.snippets, when it is enabled) puts into it and the modules it documents
    (``documented``: mkdocstrings)."""
    file, meta, markdown = mkdocs_page.file, mkdocs_page.meta, mkdocs_page.markdown
    posts = getattr(mkdocs_page, "posts", None)  # Material's blog archive, category or pagination page
    lang, translations = languages or (None, {})
    problems: list[Problem] = []
    published, modified = _dates(meta, file.src_uri, problems.append) if meta else (None, None)
    return Page(
        url=mkdocs_page.url, source=_source(file), output=file.abs_dest_path, name=file.src_uri,
        title=mkdocs_page.title, meta=meta or {},
        # The page as MkDocs writes it, up to its body (robots, canonical, hreflang), and
        # the rendered Markdown, held by MkDocs anyway (images, the fingerprint): nothing
        # is read back from the written file, and no theme navigation is kept.
        html=head, content=mkdocs_page.content or None,
        lang=lang, translations=translations, published=published, modified=modified, problems=tuple(problems),
        # (a post's own dates are told with the post)
        listed=tuple(_dates(post.meta or {}, post.file.src_uri, None)[1] for post in posts) if posts else (),
        depends_on=(*(snippets.files(markdown) if snippets is not None else ()),
                    *(documented.files(markdown) if documented is not None else ())) if markdown else (),
    )


Held = tuple[MkDocsPage, str | None, tuple[str | None, dict[str, str]] | None]
"""A page as the plugin holds it: the page, its output's head (None: not rendered), its languages."""


def every_page(held: list[Held], documents: list[MkDocsPage], i18n: Any, config: MkDocsConfig) -> list[Held]:
    """The pages of a ``--dirty`` build in MkDocs' order: those it rendered as held, the others
    with no head (their facts are the last build's, kept by their written file) and their
    front matter read as MkDocs reads it."""
    rendered = {id(held_page[0]): held_page for held_page in held}
    pages: list[Held] = []
    for document in documents:
        if (held_page := rendered.pop(id(document), None)) is not None:
            pages.append(held_page)
            continue
        try:
            document.read_source(config)
        except (OSError, ValueError):
            continue  # MkDocs has said what is wrong with it
        pages.append((document, None, languages(document.file, i18n) if i18n else None))
    return [*pages, *rendered.values()]


def languages(file: File, i18n: Any) -> tuple[str | None, dict[str, str]]:
    """The page's language and its other language versions, as mkdocs-static-i18n set them
    on the file (``alternates``: build language -> File, this file included)."""
    lang = getattr(file, "locale_alternate_of", None) or i18n.current_language
    alternates = getattr(file, "alternates", None) or {}
    return lang, {code: other.url for code, other in alternates.items() if code != lang}


def _source(file: File) -> str | None:
    """The page's Markdown file: MkDocs has just read it, unless a plugin generated the page
    (``generated_by``), whose source may be nowhere on disk. Only those are looked for."""
    source = file.abs_src_path
    if getattr(file, "generated_by", None) and not (source and os.path.isfile(source)):
        return None
    return source


def _dates(meta: dict[str, Any], name: str,
           told: Callable[[Problem], None] | None) -> tuple[Moment | None, Moment | None]:
    """The page's dates; ``told`` hears of a value that is not a date."""
    def warn(key: str, message: str) -> None:
        if told is not None:
            told(Problem(name, "date-format", message, field=key))

    return front_matter_dates(meta, warn)
