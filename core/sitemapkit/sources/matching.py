"""Each built page's source, so that front matter and git date the pages as the MkDocs
plugin does.

Sources are matched to built pages by name (``guide/setup.md`` -> ``guide/setup/`` or
``guide/setup.html``), following the layout of the generator that built them (Hugo's
language suffixes, Jekyll's posts, Docusaurus' docs and blog: the table in ``layouts``) for
``--source-dir``.
"""

import os
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from sitemapkit.dates import front_matter_dates
from sitemapkit.model import Page
from sitemapkit.protocol import PAGE_READ_BYTES
from sitemapkit.report import Problem
from sitemapkit.site.files import read_regular
from sitemapkit.sources import rst
from sitemapkit.sources.front_matter import front_matter_day, read_front_matter
from sitemapkit.sources.jekyll import default_permalink, documents, excluded, output_extension
from sitemapkit.sources.layouts import (
    DATED,
    FILES,
    NUMBER_PREFIX,
    SKIPPED,
    Found,
    categories_of,
    collection_url,
    dated_url,
    hugo_url,
    page_url,
)
from sitemapkit.sources.mkdocstrings import Documented
from sitemapkit.sources.snippets import Snippets

_TEMPLATED = re.compile(r"[:{]")
"""A permalink with placeholders (``/:year/``, ``{{ page.fileSlug }}``): not followed."""



class Sources:
    """The sources of one folder by the page key they build (see ``page_key``), matched by
    the folder's layout (``layouts.detect``): Hugo, Jekyll, Docusaurus, Eleventy, or a
    folder that mirrors the output (MkDocs' ``docs_dir``)."""

    def __init__(
        self, folder: Path | str, languages: Iterable[str] = (), snippets: Snippets | None = None,
        found: Found | None = None, documented: Documented | None = None,
    ) -> None:
        self.folder = Path(folder).absolute()
        self.snippets = snippets
        self.documented = documented
        self.found = found or Found(FILES, self.folder, ((self.folder, "", None),), tuple(languages))
        self.layout = self.found.layout
        self.languages = self.found.languages
        self.by_key: dict[str, tuple[str, dict[str, Any] | None]] = {}
        """Page key -> (source path, its front matter when it was read to place the page)."""
        layout = self.layout
        placed_by_front_matter = bool(layout.url_keys or layout.slug_keys or self.found.templates or layout.date_words)
        for base, prefix, lang in self.found.folders:
            for path in self._files(Path(base).absolute()):
                relative = os.path.relpath(path, base).replace(os.sep, "/")
                meta = self._head(path) if placed_by_front_matter else None
                key = self._key(relative, prefix, lang, meta or {})
                if key is not None:
                    self.by_key.setdefault(key, (path, meta))
        for folder, prefix in self.found.copied:
            for path in _html_files(folder):
                relative = os.path.relpath(path, folder).replace(os.sep, "/")
                self.by_key.setdefault(page_key(f"{prefix}/{relative}"), (path, {}))
        for folder, template in self.found.collections:
            for path, relative in documents(self.found.root / folder, self.found.root, self.found.excluded):
                meta = self._head(path)
                key = self._document_key(relative, Path(folder).name, template, meta)
                if key is not None:
                    self.by_key.setdefault(key, (path, meta))

    def _files(self, base: Path) -> Iterator[str]:
        """Source files under ``base`` in a stable order; a README after the other names, so
        that ``index.md`` builds its folder's page where both are."""
        layout = self.layout
        for dirpath, dirs, files in os.walk(base):
            at_root = dirpath == os.fspath(base)
            dirs[:] = sorted(
                d for d in dirs if not d.startswith(".")
                and not (layout is not FILES and at_root and d in SKIPPED)
                and not (layout.skip_underscore and d.startswith("_") and d not in dict(self.found.templates))
                and not self._excluded(os.path.join(dirpath, d))
            )
            names = [n for n in files if n.endswith(layout.suffixes) and not n.startswith(".")
                     and not (layout.skip_underscore and n.startswith("_"))
                     and not self._excluded(os.path.join(dirpath, n))]
            for name in sorted(names, key=lambda n: (n.split(".")[0].lower() == "readme", n)):
                yield os.path.join(dirpath, name)

    def _excluded(self, path: str) -> bool:
        """Whether the project's ``exclude`` (Jekyll's) names ``path``."""
        patterns = self.found.excluded
        return bool(patterns) and excluded(os.path.relpath(path, self.found.root).replace(os.sep, "/"), patterns)

    def _document_key(self, relative: str, folder: str, template: str, meta: Mapping[str, Any]) -> str | None:
        """The page key of a collection's document (``relative`` to the collection's
        ``folder``), from its front matter's ``permalink``, its ``defaults:``' or its
        collection's; None when none can be followed."""
        label = folder.removeprefix("_")
        meta = self._with_default(f"{folder}/{relative}", label, meta)
        moved = self._moved(meta)
        if moved is not None:
            return moved or None
        stem, output_ext = output_extension(relative, self.layout.suffixes)
        url = collection_url(_jekyll_template(meta) or template, stem, output_ext,
                             front_matter_day(meta.get("date")), label)
        return None if url is None else self._finish(url)

    def _with_default(self, path: str, kind: str, meta: Mapping[str, Any]) -> Mapping[str, Any]:
        """``meta`` with the ``permalink`` Jekyll's ``defaults:`` give the source at ``path``
        of ``kind`` (``posts``, ``pages``, a collection's name), when its own sets none."""
        if not self.found.defaults or "permalink" in meta:
            return meta
        permalink = default_permalink(self.found.defaults, path, kind)
        return meta if permalink is None else {**meta, "permalink": permalink}

    def _moved(self, meta: Mapping[str, Any]) -> str | None:
        """The page key a front-matter URL (``url_keys``) gives (``a/`` is ``/a/``, as Jekyll
        and Eleventy read it); ``""`` when it says the source builds no page (Eleventy's
        ``permalink: false``); None when it says nothing that can be followed."""
        for key in self.layout.url_keys:
            value = meta.get(key)
            if value is False:
                return ""
            if isinstance(value, str) and value.strip() and not _TEMPLATED.search(value):
                return self._finish(value)  # "/a/" or "a/": both from the site's root
        return None

    @staticmethod
    def _head(path: str) -> dict[str, Any]:
        try:
            return read_front_matter(path)
        except ValueError:
            return {}  # warned about when the page is dated (attach)

    def _key(self, relative: str, prefix: str, lang: str | None, meta: Mapping[str, Any]) -> str | None:
        """The page key the source at ``relative`` (in a folder served under ``prefix``,
        holding language ``lang``, or every language when None) builds; None when it
        builds no page (Eleventy's ``permalink: false``)."""
        layout, found = self.layout, self.found
        suffix = next(s for s in layout.suffixes if relative.endswith(s))
        parts = relative[: -len(suffix)].split("/")
        default = (found.languages or ("",))[0]
        base, dot, code = parts[-1].rpartition(".")
        spoken = code if code in found.languages else code.lower()  # Hugo's codes are lower case
        if lang is None and dot and spoken in found.languages:  # Hugo/mkdocs-static-i18n: a.fr.md
            parts, lang = [*parts[:-1], base], spoken
        elif lang is None and len(parts) > 1 and parts[0] in found.languages:  # fr/a.md
            parts, lang = parts[1:], parts[0]
        lang = lang or default
        if found.defaults:  # Jekyll: a post's path is taken in collections_dir, a page's in the project
            post = "_posts" in parts[:-1]
            under = f"{found.collections_dir}/" if found.collections_dir and post else ""
            meta = self._with_default(relative.removeprefix(under), "posts" if post else "pages", meta)
        moved = self._moved(meta)
        if moved is not None:
            return moved or None
        folder_page = (parts[-1] in layout.folder_pages or (
            layout.folder_named and len(parts) > 1 and parts[-1] == parts[-2])) and not (
            len(parts) == 1 and not prefix and parts[-1].lower() == "readme" and layout is not FILES)
        # the language's folder comes first: /fr/a/ (Hugo), /fr/docs/a (Docusaurus' docs in French)
        language = [lang] if lang != default or (found.default_in_subdir and lang) else []
        if found.permalinks and len(parts) > 1 and parts[-1] != "_index":
            pattern = dict(found.permalinks).get(parts[0].lower())
            if pattern is not None:  # Hugo's [permalinks]: the section's regular pages
                folders = parts[:-2] if folder_page else parts[:-1]
                url = hugo_url(pattern, parts[0], folders, parts[-2] if folder_page else parts[-1], meta,
                               front_matter_day(meta.get("date")))
                return None if url is None else self._finish("/".join([*language, url.lstrip("/")]))
        dated = self._dated(parts, prefix, meta, folder_page)
        if dated is not None:
            return self._finish("/".join([*language, dated.lstrip("/")])) if dated else None
        template = _jekyll_template(meta) if layout.name == "jekyll" else None
        if template is not None:  # a page's permalink template (its own or its defaults')
            stem, output_ext = output_extension(parts[-1] + suffix, layout.suffixes)
            url = page_url(template, "/".join(parts[:-1]), stem, output_ext)
            return None if url is None else self._finish(url)
        if layout.number_prefixes:
            parts = [NUMBER_PREFIX.sub("", part, count=1) for part in parts]
        if folder_page:
            parts = parts[:-1]
        slug = next((meta[key] for key in layout.slug_keys if isinstance(meta.get(key), str | int)), None)
        if slug is not None:
            slug = str(slug)  # "/a": from the folder's URL prefix (Docusaurus' docs root)
            parts = slug.strip("/").split("/") if slug.startswith("/") else [*parts[:-1], slug]
        return self._finish("/".join(part for part in (*language, prefix, *parts) if part))

    def _dated(self, parts: list[str], prefix: str, meta: Mapping[str, Any], folder_page: bool) -> str | None:
        """The URL of a ``YYYY-MM-DD-slug`` source (Jekyll's posts, in ``collections_dir``
        when there is one; Docusaurus' blog); ``""`` when its permalink template cannot be
        followed; None when it is no such source."""
        under = self.found.collections_dir.split("/") if self.found.collections_dir else []
        for folder, template in self.found.templates:
            if folder.startswith("_") and under:
                if parts[: len(under)] != under:
                    continue
                parts = parts[len(under):]
            inside = folder in parts[:-1] if folder.startswith("_") else prefix == folder
            name = parts[-2] if folder_page and len(parts) > 1 else parts[-1]
            match = DATED.fullmatch(name) if inside else None
            if match is None:
                continue
            year, month, day, slug = match.groups()
            if self.layout.slug_keys and isinstance(meta.get("slug"), str):
                return f"{prefix}/{meta['slug'].strip('/')}"
            title = str(meta.get("slug") or slug)
            year, month, day = front_matter_day(meta.get("date")) or (year, month, day)  # Jekyll's URL date
            categories = categories_of(meta, parts[: parts.index(folder)]) if folder in parts else []
            own = _jekyll_template(meta) if folder.startswith("_") else None  # a Jekyll post's permalink
            return dated_url(own or template, year, month, day, title, categories) or ""
        return None

    def _finish(self, path: str) -> str:
        key = page_key(path)
        return key.lower().replace(" ", "-") if self.layout.lower_case else key

    def attach(self, pages: Iterable[Page], updated: tuple[str, ...] | None = None) -> Iterator[Page]:
        """Each page with its source, front matter and dates, and the problems of those
        (``Page.problems``: told and counted by the build); pages with no source as given.
        ``updated``: the front-matter keys of a page's last change (by default the layout's)."""
        updated = updated or self.layout.updated
        for page in pages:
            found = self.by_key.get(page_key(page.url))
            if found is None:
                yield page
                continue
            source, meta = found
            name = os.path.relpath(source, self.folder).replace(os.sep, "/")
            problems = list(page.problems)
            if meta is None:
                try:
                    meta = read_front_matter(source)
                except ValueError as error:
                    why = str(error).removeprefix(f"{source} ")  # the page is named once, as the problem's place
                    problems.append(Problem(name, "front-matter", f"ignored: {why}", field="front matter"))
                    meta = {}
            meta = self._dated_meta(source, meta)
            published, modified = front_matter_dates(
                meta, lambda key, message, n=name, told=problems: told.append(Problem(n, "date-format", message,
                                                                                       field=key)),
                updated)
            yield replace(page, source=source, meta=meta, published=published, modified=modified, name=name,
                          depends_on=self._included(source), problems=tuple(problems))

    def _included(self, source: str) -> tuple[str, ...]:
        """The snippets ``source`` includes and the modules it documents (mkdocstrings), when
        the project enables them; for a reStructuredText source (Sphinx's), the files its
        include directives name, by the path they write, and the modules autodoc documents."""
        sphinx = source.endswith(".rst") or (source.endswith(".md") and self.layout is FILES)  # MyST too
        if self.snippets is None and self.documented is None and not sphinx:
            return ()
        try:  # a regular file only (a named pipe is never waited for), as much as a page's read
            text = read_regular(source, PAGE_READ_BYTES).decode("utf-8", "replace")
        except OSError:
            return ()
        named: list[str] = []
        if sphinx and ("include" in text or ".. " in text):
            modules = Documented((self.folder.parent, self.folder.parent / "src", self.folder))
            named += [path for name in rst.documented(text) if (path := modules.module(name)) is not None]
            named += rst.included(text, Path(source).parent, self.folder)
        return rst.existing([*(self.snippets.files(text) if self.snippets else ()),
                             *(self.documented.files(text) if self.documented else ()), *named])

    def _dated_meta(self, source: str, meta: dict[str, Any]) -> dict[str, Any]:
        """Front matter as the generator reads it: a dated file's name gives its ``date``
        (Jekyll, Docusaurus), and Eleventy's ``date: Last Modified`` is no date."""
        if meta.get("date") in self.layout.date_words and self.layout.date_words:
            return {key: value for key, value in meta.items() if key != "date"}
        if self.found.templates and meta.get("date") in (None, ""):
            stem = Path(source).stem if Path(source).stem not in self.layout.folder_pages else Path(source).parent.name
            match = DATED.fullmatch(stem)
            if match is not None:
                return {**meta, "date": "-".join(match.groups()[:3])}
        return meta


def _jekyll_template(meta: Mapping[str, Any]) -> str | None:
    """A Jekyll ``permalink`` with placeholders (``/news/:year/:title/``), else None."""
    permalink = meta.get("permalink")
    return permalink if isinstance(permalink, str) and ":" in permalink else None


def _html_files(folder: Path) -> Iterator[str]:
    """The HTML files under ``folder``, in a stable order."""
    for dirpath, dirs, files in os.walk(folder):
        dirs.sort()
        yield from (os.path.join(dirpath, name) for name in sorted(files) if name.endswith((".html", ".htm")))


def page_key(url: str) -> str:
    """``a/b/``, ``a/b.html``, ``a/b/index.html`` -> ``a/b``; the home page is ``""``."""
    key = "/" + unquote(url.split("?", 1)[0].split("#", 1)[0]).strip("/")
    for suffix in ("/index.html", "/index.htm", ".html", ".htm"):
        if key.endswith(suffix):
            key = key[: -len(suffix)]
            break
    return key.strip("/")
