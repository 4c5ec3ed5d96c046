"""sphinx-sitemap's ``sitemap_*`` values in sitemapkit's terms, and where a Sphinx build's
pages live. ``SphinxConfig`` holds plain values, as the build sees them (conf.py, then ``-D``
overrides); the Sphinx adapter fills it in, and its methods decide."""

from __future__ import annotations

import functools
from collections.abc import Collection, Mapping, Sequence
from dataclasses import KW_ONLY, dataclass, field, fields
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urljoin

from sitemapkit.lastmod.git import Checkout
from sitemapkit.options import OPTION_NAMES
from sitemapkit.report import Problem
from sitemapkit.settings import MovedTo, Settings, SettingsError, moved_to
from sitemapkit.translations import check_scheme, fill_scheme, folder_url, locale_codes

if TYPE_CHECKING:
    from sitemapkit.compat.sphinx_multiversion import Multiversion
    from sitemapkit.versions import Deployment, ReadTheDocs

_LIST = frozenset({list, tuple})
SCHEME = "{lang}{version}{link}"  # sphinx-sitemap's default

DROP_IN = {
    "sitemap_url_scheme": (None, frozenset({str, type(None)})),
    "sitemap_locales": ([], _LIST),
    "sitemap_filename": ("sitemap.xml", frozenset({str})),
    "sitemap_excludes": ([], _LIST),
    "sitemap_show_lastmod": (None, frozenset({bool, type(None)})),
    "sitemap_indent": (0, frozenset({int})),
    "site_url": (None, frozenset({str, type(None)})),
}
"""sphinx-sitemap's values: name -> (default, types). ``sitemap_url_scheme`` unset means "the
URL Sphinx gives the page" (its canonical link); ``sitemap_show_lastmod`` unset means ours;
``sitemap_indent`` is accepted and ignored (with a warning): our XML is compact."""

MOVED_TO: MovedTo = {  # sitemap_excludes adds to sitemapkit_exclude (see settings)
    "sitemap_filename": ("filename", lambda name: name),
    "sitemap_show_lastmod": ("lastmod", lambda shown: ["meta", "git"] if shown else False),
}


# Performance: never compared (and unhashable: it holds dicts), printed nor changed once made,
# so no __eq__, __hash__, __repr__ nor frozen __setattr__ is generated at import (measured:
# 1.9 M and 1.2 M instructions of each Sphinx build's import for the first two, 2.6 M for frozen).
@dataclass(eq=False, repr=False)
class SphinxConfig:
    """The Sphinx config values sitemapkit reads, under Sphinx's names; then, keyword-only:
    conf.py's folder, the names ``-D`` set, conf.py's literal assignments (``pyconf``), the
    ``sitemapkit_<key>`` values by key, and the folder the manifest defaults to."""

    html_baseurl: str = ""
    language: str = "en"
    version: str = ""
    locale_dirs: Sequence[str] = ("locales",)
    extensions: Collection[str] = ()
    sitemapkit_base_url: str | None = None
    site_url: str | None = None
    sitemap_url_scheme: str | None = None
    sitemap_locales: Sequence[str | None] = ()
    sitemap_filename: str = "sitemap.xml"
    sitemap_excludes: Sequence[str] = ()
    sitemap_show_lastmod: bool | None = None
    sitemap_indent: int | None = 0
    _: KW_ONLY
    confdir: str = "."
    overrides: Collection[str] = ()
    conf_py: Mapping[str, Any] = field(default_factory=dict)
    options: Mapping[str, Any] = field(default_factory=dict)
    cache_dir: str = "."
    read_the_docs: ReadTheDocs | None = None
    """The Read the Docs build this is (from its environment), or None."""
    multiversion: Multiversion | None = None
    """The ref sphinx-multiversion is building (see ``versions.sphinx_multiversion``), or None."""

    @functools.cached_property
    def root_url(self) -> str | None:
        """The URL every language (and, with a scheme, every version) hangs under:
        ``sitemapkit_base_url``, sphinx-sitemap's ``site_url``, or ``html_baseurl``."""
        own = self.sitemapkit_base_url
        if own and folder_url(own) is None:
            raise SettingsError(f"sitemapkit_base_url '{own}' must be an absolute http(s) URL such as "
                                "'https://example.org/docs/'")
        return folder_url(own) or folder_url(self.site_url) or folder_url(self.html_baseurl)

    @functools.cached_property
    def scheme(self) -> str | None:
        """``sitemap_url_scheme`` when conf.py or ``-D`` sets it: any value but its default
        (ours is None; sphinx-sitemap, when loaded too, declares its own)."""
        scheme, name = self.sitemap_url_scheme, "sitemap_url_scheme"
        if scheme is None or (scheme == SCHEME and "sphinx_sitemap" in self.extensions and name not in self.overrides):
            return None
        return check_scheme(scheme, name)

    @functools.cached_property
    def conf_language(self) -> str | None:
        """The language conf.py names; None when it names none or says ``language = None``."""
        language = self.conf_py.get("language")
        if language is ...:  # computed in conf.py: Sphinx's value, unless -D replaced it
            return None if "language" in self.overrides else self.language
        return language or None

    def link_url(self, language: str, link: str) -> str:
        """Where ``link`` of the build in ``language`` lives, relative to the root.

        With ``sitemap_url_scheme``: the scheme filled in, ``{lang}`` empty for a language
        conf.py leaves unset, ``{version}`` as ``version/``. Without: translations in
        ``<code>/`` beside the main language (the one conf.py names, else Sphinx's ``en``) at
        the root: a build in another language (``-D language=fr``) is a translation."""
        scheme, own = self.scheme, self.conf_language
        if scheme is None:
            return link if language == (own or "en") else f"{language}/{link}"
        return self._filled(scheme, language if self.names(language) else "", link)

    def _filled(self, scheme: str, language: str, link: str) -> str:
        lang = language + "/" if language else ""
        version = self.version + "/" if self.version else ""
        return fill_scheme(scheme, "sitemap_url_scheme", lang=lang, version=version, link=link)

    def names(self, language: str) -> bool:
        """Whether ``{lang}`` is ``language/``: empty only for Sphinx's default ``en`` while
        conf.py names no language. Only conf.py decides, as it is the same in every
        language's build: ``-D language=en`` in the English build cannot move the French
        build's ``hreflang="en"`` links, so it does not move the English pages either."""
        return language != "en" or self.conf_language is not None

    def page_url(self, language: str, link: str) -> str | None:
        """The absolute URL of ``link`` in ``language``; None without a root URL."""
        root = self.root_url
        return None if root is None else root + self.link_url(language, link)

    def deployment(self) -> Deployment | None:
        """Where this version is served: under sphinx-multiversion, the root URL (a scheme
        aside) plus the version's output folder, its pages' canonical links (``html_baseurl``,
        one for every ref) naming them without it; on Read the Docs, its URL
        (``READTHEDOCS_CANONICAL_URL``) unless ``sitemapkit_base_url`` or
        ``sitemap_url_scheme`` says where the pages are."""
        root = self.root_url
        if self.multiversion is not None and self.scheme is None and root is not None:
            from sitemapkit.versions import Deployment  # loaded by the builds of one version of several

            folder = quote(self.multiversion.folder) + "/"
            if not self.sitemapkit_base_url and root.endswith("/" + folder):  # -D html_baseurl=.../${name}/
                return Deployment(root, root[: -len(folder)])
            return Deployment(root + folder, root, shared_canonical=True)
        if self.read_the_docs is None or self.sitemapkit_base_url or self.scheme is not None:
            return None
        return self.read_the_docs.deployment()

    def build_url(self) -> str | None:
        """Where this build's pages are: on Read the Docs, the version's URL; otherwise
        ``html_baseurl`` (as in each page's canonical link) unless ``sitemap_url_scheme``
        places them under the root; None without an absolute URL."""
        root = self.root_url  # checked even when html_baseurl is the answer
        if (deployment := self.deployment()) is not None:
            return deployment.url
        if self.scheme is None and folder_url(self.html_baseurl):
            return folder_url(self.html_baseurl)
        return None if root is None else root + self.link_url(self.language, "")

    def canonical_clash(self) -> Problem | None:
        """Why every page would be left out as canonical elsewhere, or None: Sphinx writes
        ``html_baseurl`` plus the page into each canonical link."""
        own = self.build_url()
        canonical = folder_url(urljoin(own, self.html_baseurl)) if own and self.html_baseurl else None
        if canonical is None or canonical == own:
            return None
        if (deployment := self.deployment()) is not None and deployment.other_version(canonical):
            return None  # another version's pages are the canonical ones: each page is left out, named
        served = self.read_the_docs is not None and not self.sitemapkit_base_url and self.scheme is None
        cause = (f"sitemap_url_scheme '{self.scheme}' puts them" if self.scheme
                 else "Read the Docs serves them (READTHEDOCS_CANONICAL_URL)" if served
                 else "sitemapkit_base_url puts them")
        root, language = self.root_url, self.language
        if (self.scheme and "{lang}" in self.scheme and not self.names(language)
                and root is not None and root + self._filled(self.scheme, language, "") == canonical):
            return _problem("language", "canonical-clash",
                f"no sitemap written: html_baseurl gives every page a canonical link under {canonical}, "
                f"but {cause} under {own}: {{lang}} is empty because conf.py names no language "
                f"(Sphinx's default '{language}' is not put into URLs unasked, and -D cannot move "
                f"it: the other languages' builds would not see it); add language = \"{language}\" "
                "to conf.py"
            )
        fix = ("set html_baseurl = os.environ.get(\"READTHEDOCS_CANONICAL_URL\", \"\") in conf.py (each "
               "version's pages are then their own canonical), or sitemapkit_base_url to " + canonical if served
               else "remove sitemap_url_scheme (pages are then listed at their canonical URLs) or set "
               f"html_baseurl to {own}" if self.scheme
               else f"remove sitemapkit_base_url (pages are then listed at their canonical URLs) or set "
               f"html_baseurl to {own}")
        return _problem("html_baseurl", "canonical-clash",
            f"no sitemap written: html_baseurl gives every page a canonical link under {canonical}, "
            f"but {cause} under {own}, so every page would be left out as canonical elsewhere; {fix}"
        )

    def unversioned_canonical(self) -> Problem | None:
        """Under sphinx-multiversion, the warning when ``html_baseurl`` (one for every ref)
        gives each page a canonical link without its version's folder, or None."""
        deployment = self.deployment()
        if deployment is None or not deployment.shared_canonical or not self.html_baseurl:
            return None
        if folder_url(urljoin(deployment.url, self.html_baseurl)) != deployment.root:
            return None
        return _problem("html_baseurl", "canonical-unversioned",
            f"every page's canonical link is under {deployment.root} (html_baseurl, the same for every ref), "
            f"where no version is built: pages listed under {deployment.url}; pass "
            f"-D 'html_baseurl={deployment.root}${{name}}/' to sphinx-multiversion so that each page names itself"
        )

    def robots_options(self) -> tuple[Mapping[str, Any], Problem | None]:
        """The ``sitemapkit_<key>`` values, with robots.txt left alone unless asked when this
        build is one version of several, and the note saying so (``versions.robots_left_alone``,
        loaded by those builds only)."""
        if self.multiversion is None and self.read_the_docs is None:
            return self.options, None
        from sitemapkit.versions import READ_THE_DOCS_ROBOTS, VERSION_FOLDER_ROBOTS, robots_left_alone

        return robots_left_alone(self.options, VERSION_FOLDER_ROBOTS if self.multiversion is not None
                                 else READ_THE_DOCS_ROBOTS)

    def checkouts(self) -> list[Checkout]:
        """The copies of a ref's files the build reads, dated from the ref's history."""
        return [self.multiversion.checkout] if self.multiversion is not None else []

    def locales(self) -> list[str]:
        """``sitemap_locales``: ``[None]`` for none; empty for the folders in ``locale_dirs``."""
        listed = list(self.sitemap_locales)
        if listed:
            return [] if listed == [None] else [str(code) for code in listed]
        return locale_codes(Path(self.confdir, folder) for folder in self.locale_dirs)

    def translations(self) -> tuple[list[str], Problem | None]:
        """The other languages this build's pages have translations in, or none and why."""
        others = [code for code in self.locales() if code != self.language]
        problem = self.locales_problem(others)
        return ([], problem) if problem is not None else (others, None)

    def locales_problem(self, others: list[str]) -> Problem | None:
        """Why ``sitemap_locales`` gives no alternates, or None when they can be written."""
        scheme = self.scheme
        if others and scheme is not None and "{lang}" not in scheme:
            return _problem("sitemap_locales", "option-ignored",
                f"ignored: sitemap_url_scheme '{scheme}' has no {{lang}}, so the "
                f"other languages' URLs are unknown; use '{{lang}}{scheme}' with the site root as "
                "sitemapkit_base_url, or remove sitemap_url_scheme (translations are then at the "
                "root plus '<code>/')"
            )
        own, root, expected = self.build_url(), self.root_url, self.page_url(self.language, "")
        if others and own != expected:
            return _problem("sitemap_locales", "option-ignored",
                f"ignored: this build's pages are at {own} (html_baseurl), but "
                f"translations of a site rooted at {root} put language '{self.language}' at "
                f"{expected}; set sitemapkit_base_url to the URL all languages hang under"
            )
        return None

    def warnings(self) -> list[Problem]:
        """sphinx-sitemap values sitemapkit takes but does not follow, and where ``{lang}``
        leaves English when nothing in conf.py names it."""
        found = self._english_at_root()
        if "sphinx_sitemap" in self.extensions:
            found.append(_problem("extensions", "plugin-conflict", "sitemapkit_sphinx replaces sphinx_sitemap: "
                                  f"remove 'sphinx_sitemap' from extensions (both write {self.sitemap_filename})"))
        if (note := self.robots_options()[1]) is not None:
            found.append(note)
        if self.sitemap_indent:  # sphinx-sitemap 2.9 and ours
            found.append(_problem("sitemap_indent", "option-ignored", "ignored: sitemapkit writes compact XML"))
        return found

    def _english_at_root(self) -> list[Problem]:
        """A note (never a failed ``-W`` build: the layout is a documented one) when English
        sits at the root only because conf.py names no language, and this build says more:
        ``-D language=en``, or another language's build listing English among its alternates."""
        scheme = self.scheme
        if scheme is None or "{lang}" not in scheme or self.names("en") or self.root_url is None:
            return []
        where, under = self.root_url + self._filled(scheme, "", ""), self.root_url + self._filled(scheme, "en", "")
        if self.language == "en" and "language" in self.overrides and self.canonical_clash() is None:
            why = (f"-D language=en does not put en/ into URLs: conf.py names no language, so every "
                   f"language's build places English at {where}")
        elif self.language != "en" and "en" in self.locales():
            why = (f'hreflang="en" links point at {where}: conf.py names no language, so every '
                   "language's build places English there")
        else:
            return []
        return [Problem("settings", "lang-unnamed", f'{why}; add language = "en" to conf.py if English is '
                        f"served under {under}", "info", field="language")]

    def settings(self) -> Settings:
        """``Settings`` from the ``sitemapkit_<key>`` values and sphinx-sitemap's. The manifest
        defaults to ``cache_dir`` (each language and version keeps its own there: its key is
        in its name, see ``build.manifest.site_manifest``)."""
        # conf.py names Sphinx does not know are not errors to Sphinx; they are to us.
        unknown = {n[11:]: v for n, v in self.conf_py.items() if n[:11] == "sitemapkit_" and n[11:] not in OPTION_NAMES}
        options, _ = self.robots_options()
        chosen = {**options, **unknown, "base_url": self.build_url()}
        chosen = moved_to(chosen, {name: getattr(self, name) for name in MOVED_TO}, MOVED_TO)
        if self.sitemap_excludes:
            own = chosen.get("exclude")
            chosen["exclude"] = [*([own] if isinstance(own, str) else own or []), *self.sitemap_excludes]
        if chosen.get("state_file") is None:
            chosen["state_file"] = str(Path(self.cache_dir, PurePosixPath(Settings().state_file).name))
        return Settings.from_mapping(chosen)


def _problem(setting: str, rule: str, message: str) -> Problem:
    return Problem("settings", rule, message, field=setting)


CONFIG_VALUES = tuple(f.name for f in fields(SphinxConfig) if not f.kw_only)
"""The names of the Sphinx config values ``SphinxConfig`` holds."""
