"""What each document gives at ``doctree-read``: its images and its ``sitemap*`` fields, kept in
a Domain, so that ``-j N`` readers merge them and documents an incremental build does not
re-read keep theirs."""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.domains import Domain

from sitemapkit.compat.sphinx_pages import doctree_image

KINDS = ("images", "fields")


class SitemapDomain(Domain):
    """Per document: its doctree's images (see ``collect_images``), and its ``sitemap*``
    fields as written (``env.metadata`` has them after smart quotes, which break JSON and
    ``--`` in URLs). Kept small: Sphinx pickles the whole environment once per ``-j`` chunk."""

    name = label = "sitemapkit"
    initial_data: dict[str, Any] = {kind: {} for kind in KINDS}  # noqa: RUF012 (Sphinx's API)
    data_version = 2

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


def _store(app: Sphinx, kind: str, found: Any) -> None:
    store = app.env.domains["sitemapkit"].data[kind]
    if found:
        store[app.env.docname] = found
    else:
        store.pop(app.env.docname, None)
