"""Pages of a folder of built HTML, for sites whose generator has no adapter."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from sitemapkit.model import Page
from sitemapkit.site.pages import HTML_SUFFIXES, Exclude, NotPages, url_for_file, urls_for_files


def site_folders(site_dir: Path | str) -> Iterator[tuple[str, str, list[str]]]:
    """Each folder of a built site, in a stable order (a folder, then its folders by name);
    hidden folders skipped: its site-relative name (``""`` at the root, else ``a/b/``), its
    path (ending in a separator: a file's path is it and the file's name) and the names of
    its files, sorted. The one walk of a built site: its pages, the files ``include`` names,
    other tools' sitemaps."""
    top = os.fspath(site_dir)
    start = len(os.path.join(top, ""))  # the walk's folders are top joined with their names
    for path, dirs, files in os.walk(top):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        folder = "" if path == top else path[start:].replace(os.sep, "/") + "/"
        yield folder, os.path.join(path, ""), sorted(files)


def site_files(site_dir: Path | str) -> Iterator[str]:
    """Site-relative paths (``a/b.html``) of the files of a built site, in a stable order
    (each folder's files by name, then its folders by name); hidden folders skipped."""
    for folder, _, names in site_folders(site_dir):
        for name in names:
            yield folder + name


def html_files(site_dir: Path) -> Iterator[str]:
    """Site-relative paths of the HTML files, in a stable order; hidden folders skipped."""
    return (relative for relative in site_files(site_dir) if relative.endswith(HTML_SUFFIXES))


def pages_in(site_dir: Path | str, generator: str | None = None) -> Iterator[Page]:
    """One ``Page`` per HTML file, at the URL a web server gives it (``a/index.html`` -> ``a/``,
    every other byte of the name percent-encoded). No generator says which files are no
    pages here: they are guessed from where they sit (``pages.NotPages``, once a folder;
    ``generator``: the one known to have built the folder, else None), and the core leaves
    them out, by name. The HTML is read later, one page at a time, by the core's rules, which
    also leave out redirect stubs and fragments (``pages.not_a_page``).
    """
    for folder, path, html, why in html_by_folder(site_dir, generator):
        for name, url in zip(html, urls_for_files(html, url_for_file(folder)), strict=True):
            yield Page(url=url, output=path + name, name=folder + name, not_page=why.get(name) if why else None)


def html_by_folder(site_dir: Path | str, generator: str | None = None
                   ) -> Iterator[tuple[str, str, list[str], dict[str, str]]]:
    """Each folder of ``site_dir`` holding HTML files (``site_folders``): its name, its path,
    the names of its HTML files, and why each of those that is no page is none, as guessed
    once a folder (``pages.NotPages``; ``generator``: the one known to have built the site)."""
    not_pages = NotPages(site_dir, generator)
    for folder, path, names in site_folders(site_dir):
        html = [name for name in names if name.endswith(HTML_SUFFIXES)]
        if html:
            yield folder, path, html, not_pages.of(folder, html)


def documents_in(
    site_dir: Path | str,
    patterns: Iterable[str],
    source_dirs: Iterable[Path | str] = (),
    ours: Callable[[str], bool] = lambda name: False,
    unmatched: Callable[[list[str]], None] = lambda patterns: None,
) -> Iterator[Page]:
    """One ``Page`` per file that is not HTML whose site-relative path matches ``patterns``
    (the ``include`` option: gitignore-style, as ``exclude``), in a stable order. Its source
    is the file of the same relative path in the first of ``source_dirs`` holding one (MkDocs,
    Pelican and the CLI copy such files as they are), so git can date it. ``ours``: names
    sitemapkit writes itself (never listed); ``unmatched`` hears the patterns that matched
    no file, once the folder is walked."""
    site_dir = Path(site_dir)
    spec = Exclude(patterns)
    sources = [Path(folder) for folder in source_dirs]
    for relative in site_files(site_dir):
        folder, _, name = relative.rpartition("/")
        if name.startswith(".") or name.endswith(HTML_SUFFIXES) or (not folder and ours(name)):
            continue
        if not spec(relative):
            continue
        source = next((base / relative for base in sources if (base / relative).is_file()), None)
        yield Page(url=url_for_file(relative), source=source, output=site_dir / relative, name=relative)
    missed = spec.unmatched()
    if missed:
        unmatched(missed)
