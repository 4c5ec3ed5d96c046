"""What a Sphinx HTML build wrote, in sitemapkit's terms: each document's images (which of
a doctree's images are listed, and where the builder puts them), and the files it writes from
no document, and which of them are pages: its general index (each letter's page of a split
one too), search page, domain indices (``py-modindex``) and viewcode's module sources are
generated indexes; the ``html_additional_pages`` rendered from the project's templates are
pages; the ``html_extra_path`` files it copies as they are go as such (``static_html``)."""

from __future__ import annotations

import os
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from sitemapkit.model import Page
from sitemapkit.site.pages import HTML_SUFFIXES, url_for_file
from sitemapkit.site.scan import html_files

GENERATED_INDEX = "generated index"
"""Why the core leaves an index Sphinx generated out (it names and records it)."""

Image = str | tuple[tuple[str, str], ...]
"""An image of a document as its doctree names it: a local file's path or a remote URL, or
for ``name.*`` the ``(mimetype, path)`` pairs the builder picks from at the end."""


def doctree_image(candidates: Mapping[str, str]) -> Image | None:
    """The image of one image node's ``candidates`` (what Sphinx resolved it to), or None: a
    ``data:`` URI is no image to list (Sphinx calls a URI with ``://`` remote)."""
    if "?" in candidates:
        return candidates["?"] if "://" in candidates["?"] else None
    if "*" in candidates:
        return candidates["*"]
    return tuple(candidates.items()) or None


def image_urls(found: Iterable[Image], supported: Sequence[str], copied: Mapping[str, tuple[Any, str]],
               imagedir: str, base_url: str) -> Iterator[str]:
    """Where the builder put each image: remote URLs as written, local ones in ``imagedir``
    under the name ``copied`` (the environment's images: path -> (documents, file name))
    gives them; of a ``name.*`` image, the first of the builder's ``supported`` types."""
    for path in found:
        if isinstance(path, tuple):
            kinds = dict(path)
            path = next((kinds[kind] for kind in supported if kind in kinds), None)
        elif "://" in path:
            yield path
            continue
        if path in copied:
            yield f"{base_url}{imagedir}/{quote(copied[path][1])}"


def generated_pages(
    outdir: Path, written: Callable[[str], str | os.PathLike[str]], *, domain_indices: Iterable[str], search: bool,
    genindex: bool, split_index: bool, viewcode: bool, additional: Iterable[str], documents: Collection[str],
    extra_paths: Iterable[Path],
) -> Iterator[Page]:
    """One ``Page`` per file the builder wrote from no document, in ``outdir``. As no pages,
    the indexes it generates (``domain_indices``, such as ``py-modindex``; ``search``;
    ``genindex`` and, ``split_index``, its pages ``genindex-all``, ``genindex-A`` ..., one a
    letter, at the root of ``outdir``) and viewcode's sources (``viewcode``: the extension is
    loaded); as pages, the ``additional`` pages not named as one of the ``documents``; then,
    as copied as they are, the HTML files of the ``extra_paths`` (absolute). ``written`` gives
    a page name's output file (the builder's ``get_outfilename``: ``genindex.html``, or
    ``genindex/index.html`` under dirhtml)."""

    def relative(name: str) -> str:
        return Path(written(name)).relative_to(outdir).as_posix()

    names = list(domain_indices)
    if search:
        names.append("search")
    if genindex:
        names.append("genindex")
        if split_index:
            names += sorted({entry.removesuffix(".html") for entry in os.listdir(outdir)
                             if entry.startswith("genindex-")})
    files: dict[str, str | None] = {relative(name): GENERATED_INDEX for name in names}
    if viewcode:
        files.update((f"_modules/{name}", GENERATED_INDEX) for name in html_files(outdir / "_modules"))
    files.update((relative(name), None) for name in additional if name not in documents)
    for name, why in files.items():
        if (outdir / name).is_file():
            yield Page(url=url_for_file(name), output=outdir / name, name=name, not_page=why)
    for extra in extra_paths:
        for name in [extra.name] if extra.is_file() else html_files(extra):
            if name.endswith(HTML_SUFFIXES) and (outdir / name).is_file():
                yield Page(url=url_for_file(name), source=extra if extra.is_file() else extra / name,
                           output=outdir / name, name=name, copied=True)



def made_from(source: str, dependencies: Collection[str], srcdir: str, site_wide: str) -> tuple[str, ...]:
    """The files the document at ``source`` is made from, of its ``dependencies`` (Sphinx's,
    relative to ``srcdir``), as absolute paths, sorted: without those every document gets
    through ``site_wide`` (``rst_prolog`` and ``rst_epilog``, joined), which date no page
    (a link target added there changes no page anyone reads), unless the document's own
    source includes them too."""
    if not dependencies:  # most documents: nothing to read
        return ()
    from sitemapkit.sources.rst import included  # (loaded by the builds whose documents include files)

    folder, top = Path(source).parent, Path(srcdir)
    everywhere = included(site_wide, folder, top)
    paths = {os.path.normpath(os.path.join(srcdir, path)) for path in dependencies}
    if everywhere & paths:
        try:
            own = Path(source).read_text(encoding="utf-8", errors="replace")
        except OSError:
            own = ""
        paths -= everywhere - included(own, folder, top)
    return tuple(sorted(paths))
