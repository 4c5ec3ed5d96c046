"""What each document gives at ``doctree-read``: its images, its ``sitemap*`` fields, the
files it is read from and written to and its title, kept in a Domain, so that ``-j N``
readers merge them and documents an incremental build does not re-read keep theirs."""

from __future__ import annotations

import os
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.domains import Domain

from sitemapkit.compat.sphinx_pages import doctree_image

KINDS = ("images", "fields", "pages")


class SitemapDomain(Domain):
    """Per document: its doctree's images (see ``collect_images``), its ``sitemap*`` fields
    as written (``env.metadata`` has them after smart quotes, which break JSON and ``--`` in
    URLs), and what its Page is made of (see ``collect_page``). Kept small: Sphinx pickles
    the whole environment once per ``-j`` chunk."""

    name = label = "sitemapkit"
    initial_data: dict[str, Any] = {kind: {} for kind in KINDS}  # noqa: RUF012 (Sphinx's API)
    data_version = 5

    def clear_doc(self, docname: str) -> None:
        for kind in KINDS:
            self.data[kind].pop(docname, None)

    def merge_domaindata(self, docnames: set[str], otherdata: dict[str, Any]) -> None:
        for kind in KINDS:
            found = otherdata[kind]
            self.data[kind].update((d, found[d]) for d in docnames if d in found)

    def resolve_any_xref(self, *args: Any) -> list:
        return []


def collect_fields(app: Sphinx, doctree: nodes.document) -> None:
    index = doctree.first_child_not_matching_class(nodes.PreBibliographic)
    if index is None or not isinstance(doctree[index], nodes.docinfo):
        return
    found = {field[0].astext(): field[1].rawsource.strip() or field[1].astext()
             for field in doctree[index].findall(nodes.field) if field[0].astext().startswith("sitemap")}
    _store(app, "fields", found)


def collect_images(app: Sphinx, doctree: nodes.document) -> None:
    found = (doctree_image(node.get("candidates") or {}) for node in doctree.findall(nodes.image))
    _store(app, "images", tuple(image for image in found if image is not None))


def collect_page(app: Sphinx, doctree: nodes.document) -> None:
    """``page_of`` the document, asked of Sphinx once, when the document is read. Sphinx
    answers with Paths and nodes, which were 40% of the final step's work a document, paid
    at every build for documents it did not read again."""
    if hasattr(app.builder, "get_outfilename"):  # an HTML builder
        _store(app, "pages", page_of(app.builder, app.env, app.env.docname))


def page_of(builder: Any, env: Any, docname: str) -> tuple[tuple[str, str, str], str, str, str | None, str]:
    """``(writer, output file, source name, title, link)``: where the builder writes the
    document, its source's name, its title's text and the URL the builder links it by.
    ``writer`` (``writer_of``) says which builder and file and link suffixes the output file
    and the link are for: they may change with no document read again."""
    title = env.titles.get(docname)
    return (writer_of(builder), os.fspath(builder.get_outfilename(docname)), str(env.doc2path(docname, False)),
            title.astext() if title is not None else None, builder.get_target_uri(docname))


def writer_of(builder: Any) -> tuple[str, str, str]:
    """What, besides the output folder and the document, names a document's output file and
    its link (``html_link_suffix`` changes no document's doctree)."""
    return builder.name, getattr(builder, "out_suffix", ""), getattr(builder, "link_suffix", "")


def _store(app: Sphinx, kind: str, found: Any) -> None:
    store = app.env.domains["sitemapkit"].data[kind]
    if found:
        store[app.env.docname] = found
    else:
        store.pop(app.env.docname, None)
