"""``validate --site-dir``: the sitemap against the built site it describes.

A listed URL maps to the built file ``pages.serving_file`` finds (``DIR/path``, ``DIR/path.html``
for an extension-less URL, ``DIR/path/index.html`` for a folder), the inverse of the mapping
``build`` lists files by. What is no page is what the build said: the files it left out on
purpose are in its record (``owned.chosen_out``), generated indexes and drafts among them;
redirect stubs and fragments are known by their head (``pages.not_a_page``), the root
``404.html`` by its place. A folder holding another build's record (a language built by its own
config into ``fr/``, a version folder) is that build's: its own ``404.html`` and record. Only a
folder without a record (another tool's output) has the rest guessed, as ``sitemapkit build``
guesses on it (``pages.guess_not_a_page``). The site root URL is found from the first listed
URL, as the shortest path prefix whose remainder is a built file. Pages are read with the same
HTML reader the build uses (``extract.read_page_file``), so "noindex" and "canonical" mean here
what they mean there.
"""

from __future__ import annotations

import contextlib
import posixpath
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

from sitemapkit.site.extract import read_page_file
from sitemapkit.site.owned import chosen_out, served_elsewhere, url_key
from sitemapkit.site.pages import (
    HTML_SUFFIXES,
    error_page,
    file_exists,
    files_for_url,
    guess_not_a_page,
    not_a_page,
    robots_rules,
    serving_file,
    url_for_file,
)
from sitemapkit.site.scan import html_by_folder
from sitemapkit.urls import URLError, encode_url
from sitemapkit.versions import mike_folders

Complain = Callable[[str, str], None]
"""``complain(rule, message)``: a rule of ``protocol.RULES`` a listed URL breaks, and why."""


class SiteIndex:
    def __init__(self, site_dir: Path) -> None:
        self.dir = site_dir
        self.root: str | None = None
        self._listed: set[str] = set()
        self._facts: dict[str, tuple[bool, str | None, str | None]] = {}
        self._robots = robots_rules(site_dir)
        record = chosen_out(site_dir)
        self._chosen_out = record or set()
        """Pages the build that wrote this folder left out on purpose: by the site's own
        settings, or as no page by the generator's word."""
        self._recorded = record is not None
        self._elsewhere = served_elsewhere(site_dir)
        """URLs that build listed from ``extra_urls``: served by something else, not built."""
        self._versions = mike_folders(site_dir)
        """mike's version and alias folders, when this is the root of its deployment."""
        self._inner: dict[str, set[str] | None] = {}
        """Folder (site-relative) -> what the build of another site written into it (a
        language built by its own config into ``fr/``) left out on purpose; None: no build's."""

    def _inner_build(self, relative: str) -> str:
        """The folder (``fr/``) of the nearest build of another site written inside this one
        that holds the built file ``relative``; ``""`` for this site's own files."""
        folder = posixpath.dirname(relative)
        while folder:
            if folder not in self._inner:
                self._inner[folder] = chosen_out(self.dir / folder)
            if self._inner[folder] is not None:
                return folder + "/"
            folder = posixpath.dirname(folder)
        return ""

    def named_not_page(self, relative: str) -> str | None:
        """Why the built file ``relative`` is no page by where it sits: the root ``404.html``
        of this site, of a build of another site written inside it, and of a folder holding its
        own sitemap (each version of versioned documentation); without a build's record, what
        ``build`` guesses for a folder no adapter describes."""
        inner = self._inner_build(relative)
        if inner:
            return error_page(relative[len(inner):])
        why = error_page(relative) if self._recorded else guess_not_a_page(relative, self.dir)
        if why is None:
            folder, _, name = relative.rpartition("/")
            if folder and error_page(name) is not None and self._own_site(folder):
                why = "error page"
        return why

    def _own_site(self, folder: str) -> bool:
        """Whether ``folder`` is a site of its own (a version or a language with its own
        sitemap, or one mike's ``versions.json`` names), whose ``404.html`` is that site's error page."""
        return folder in self._versions or (self.dir / folder / "sitemap.xml").is_file()

    def chosen_out(self, relative: str, url: str) -> bool:
        """Whether the build that wrote the built file ``relative`` left ``url`` out on purpose."""
        inner = self._inner_build(relative)
        left_out = self._inner[inner[:-1]] if inner else self._chosen_out
        return left_out is not None and url_key(url) in left_out

    def blocked(self, url: str) -> bool:
        """Whether the site's own robots.txt keeps crawlers away from ``url``."""
        return self._robots is not None and not self._robots.can_fetch(url, "*")

    def root_for(self, url: str) -> str:
        """The site root URL, found from ``url`` once and kept."""
        if self.root is None:
            parts = urlsplit(url)
            origin = f"{parts.scheme}://{parts.netloc}"
            segments = parts.path.lstrip("/").split("/")
            self.root = origin + "/"
            for cut in range(len(segments)):
                if self._file("/".join(segments[cut:])) is not None:
                    prefix = "/".join(segments[:cut])
                    self.root = origin + "/" + (prefix + "/" if prefix else "")
                    break
        return self.root

    def _file(self, relative: str) -> str | None:
        """The built file a site-relative URL path is served from, as a site-relative path."""
        return serving_file(self.dir, relative)

    def relative(self, url: str) -> str | None:
        """``url``'s path below the site root, or ``None`` when it is not under it."""
        root = self.root_for(url)
        if not url.startswith(root):
            return None
        return urlsplit(url).path[len(urlsplit(root).path):]

    def check_listed(self, loc: str, complain: Complain) -> None:
        relative = self.relative(loc)
        if relative is None:
            return
        built = self._file(relative)
        if built is None and url_key(loc) in self._elsewhere:
            return
        if built is None:
            looked = " or ".join(files_for_url(relative)[:2])
            complain("page-missing", f"{loc} has no built page in {self.dir} (looked for {looked}); "
                     "it would be a 404")
            return
        if built in self._listed:
            return
        self._listed.add(built)
        if not built.endswith(HTML_SUFFIXES):
            return
        noindex, canonical, not_page = self._page(built, loc)
        if not_page is not None:
            complain("page-not-a-page", f"{loc} is listed but {built} is no page ({not_page}); "
                     "list only the pages people should land on")
            return
        if self.blocked(loc):
            complain("page-blocked", f"{loc} is listed but robots.txt disallows crawling it; "
                     "search engines will report it as blocked")
        if noindex:
            complain("page-noindex", f"{loc} is listed but {built} says noindex in its robots meta; "
                     "list only pages you want indexed")
        elif canonical is not None and canonical != loc and self._other_version(relative, canonical):
            complain("canonical-other-version", f"{loc} is listed for the version selector only: {built} names "
                     f"{canonical}, another version's URL, as its canonical URL (neither the root index nor "
                     "robots.txt should name this sitemap)")
        elif canonical is not None and canonical != loc:  # even the same file: list it as the site names it
            complain("page-canonical", f"{loc} is listed but {built} names {canonical} as its "
                     "canonical URL; list the canonical URL instead")

    def check_image(self, image: str, complain: Complain) -> None:
        """A listed image under the site root must be a file of the built site: search engines
        fetch it, and a missing one is an error in their image reports."""
        relative = self.relative(image)
        if relative is not None and not file_exists(self.dir, relative):
            complain("image-missing", f"image {image} is listed but has no file in {self.dir} "
                     f"(looked for {files_for_url(relative)[0]}); search engines would find no image")

    def _other_version(self, relative: str, canonical: str) -> bool:
        """Whether the page at ``relative``, in a version folder of mike's deployment, names a
        URL in another of its version or alias folders as canonical (``canonical_version``:
        the version's own sitemap lists it for Material's version selector only)."""
        own, _, _ = relative.partition("/")
        other = self.relative(canonical)
        return (other is not None and own in self._versions
                and other.partition("/")[0] in self._versions - {own})

    def names_file(self, url: str, built: str) -> bool:
        """Whether ``url`` is served by the built file ``built``: the same page in another
        spelling (``a`` or ``a/index.html`` for ``a/``), as ``build`` reads a canonical link."""
        relative = self.relative(url)
        return relative is not None and self._file(relative) == built

    def _page(self, relative: str, url: str) -> tuple[bool, str | None, str | None]:
        """``(noindex, canonical, why it is not a page)`` of a built file, read once."""
        facts = self._facts.get(relative)
        if facts is None:
            page = read_page_file(self.dir / relative, url)
            canonical = page.canonical
            if canonical is not None:
                with contextlib.suppress(URLError):
                    canonical = encode_url(canonical)
            read = page.head or page.digest is not None  # an empty file has nothing to judge
            not_page = self.named_not_page(relative) or (not_a_page(page.head) if read else None)
            facts = self._facts[relative] = (page.noindex, canonical, not_page)
        return facts

    def listed(self, built: str) -> bool:
        """Whether a checked sitemap listed the page of the built file ``built``."""
        return built in self._listed

    def listed_files(self) -> list[str]:
        """The built files of the pages the checked sitemaps list, sorted."""
        return sorted(self._listed)

    def unlisted(self, found: Callable[[str, str], None]) -> None:
        """``found(page file, message)`` for each indexable built page that no checked
        sitemap listed."""
        if self.root is None:
            return
        # The guess too, even beside a record: it only keeps a file from being asked for
        # (a record an older sitemapkit wrote names no generated index).
        for folder, _, html, guessed in html_by_folder(self.dir):
            for name in html:
                relative = folder + name
                if relative in self._listed or name in guessed:
                    continue
                self._unlisted_page(self.root, relative, found)

    def _unlisted_page(self, root: str, relative: str, found: Callable[[str, str], None]) -> None:
        """``unlisted`` of the built file ``relative``, which no checked sitemap lists, on the
        site whose root URL is ``root``."""
        try:
            url = encode_url(root + url_for_file(relative))
        except URLError:
            return
        if self.blocked(url) or self.chosen_out(relative, url):
            return
        noindex, canonical, not_page = self._page(relative, url)
        if noindex or not_page is not None or (canonical is not None and canonical != url
                                               and not self.names_file(canonical, relative)):
            return
        found(relative, f"{url} ({relative}) is an indexable page but no sitemap lists it")

