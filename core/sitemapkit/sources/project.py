"""A generator's project as ``sitemapkit build`` finds it: the configuration of a Zensical,
ProperDocs or MkDocs project (site URL, folders, languages, nav). Each built page's source is
matched in ``matching``.
"""

import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from sitemapkit.model import NavItem, Page
from sitemapkit.site.pages import serving_file
from sitemapkit.sources import MKDOCSTRINGS, SNIPPETS
from sitemapkit.sources.mkdocstrings import Documented
from sitemapkit.sources.nav import nav_items
from sitemapkit.sources.snippets import Snippets

CONFIG_FILES = ("zensical.toml", "properdocs.yml", "properdocs.yaml", "mkdocs.yml", "mkdocs.yaml")
"""In the order the generators themselves prefer them."""


class ProjectError(Exception):
    """A configuration file that cannot be read; the message names the file."""


ZENSICAL_STATE = ".sitemapkit/state.json"


@dataclass(frozen=True, slots=True)
class Project:
    config_file: Path
    site_url: str | None
    docs_dir: Path
    site_dir: Path
    use_directory_urls: bool = True
    languages: tuple[str, ...] = ()
    """mkdocs-static-i18n locales, the default first (``page.fr.md`` builds ``fr/page/``)."""
    snippets: Snippets | None = None
    """pymdownx.snippets, when ``markdown_extensions`` enables it: the files pages include."""
    documented: Documented | None = None
    """mkdocstrings, when ``plugins`` enables it: the modules API pages document."""
    theme: str | None = None
    """The theme's name (``material``); ``zensical`` for a Zensical project, whose own theme it is."""
    site_name: str | None = None
    nav: tuple[NavItem, ...] = ()
    """The ``nav`` setting, each Markdown file at the URL its page is built at (``sitemap.html``
    follows it)."""
    sitemapkit: Mapping[str, Any] = field(default_factory=dict)
    """The options of sitemapkit's own entry in ``plugins`` (``- sitemapkit: {gzip: true}``),
    as written: the root step of a versioned deployment takes its own from there."""

    @property
    def root(self) -> Path:
        return self.config_file.parent

    @property
    def state_file(self) -> str | None:
        """Where this project keeps sitemapkit's manifest (and the record's key beside it) when
        the option does not say: ``zensical build --clean`` empties ``.cache/``, the default's
        folder, so a Zensical project's is kept in ``.sitemapkit/``; None: the default."""
        return ZENSICAL_STATE if self.generator == "Zensical" else None

    @property
    def generator(self) -> str:
        """The generator the configuration is for, by its file: ``Zensical``, ``ProperDocs``, ``MkDocs``."""
        name = self.config_file.name
        if name.startswith("zensical"):
            return "Zensical"
        return "ProperDocs" if name.startswith("properdocs") else "MkDocs"


def find_project(path: Path | str) -> Project | None:
    """The project whose configuration is ``path`` or lies in the folder ``path``; None
    when the folder holds none of ``CONFIG_FILES``."""
    path = Path(path)
    if path.is_file():
        return read_project(path)
    for name in CONFIG_FILES:
        if (path / name).is_file():
            return read_project(path / name)
    return None


def read_project(config_file: Path) -> Project:
    config_file = config_file.resolve()
    try:
        if config_file.suffix == ".toml":
            with open(config_file, "rb") as handle:
                import tomllib  # heavy: see read_front_matter

                data = tomllib.load(handle)
            data = data.get("project", data)
        else:
            data = _yaml_config(config_file)
    except (OSError, ValueError) as error:
        raise ProjectError(f"cannot read {config_file}: {error}") from None
    if not isinstance(data, Mapping):
        raise ProjectError(f"{config_file} holds no settings")
    root = config_file.parent
    return Project(
        config_file=config_file,
        site_url=data.get("site_url") or None,
        docs_dir=root / str(data.get("docs_dir") or "docs"),
        site_dir=root / str(data.get("site_dir") or "site"),
        use_directory_urls=data.get("use_directory_urls", True) is not False,
        languages=_i18n_locales(data.get("plugins")),
        snippets=_snippets(data.get("markdown_extensions"), root),
        documented=next((Documented.from_options(options, root) for name, options in _named(data.get("plugins"))
                         if name == MKDOCSTRINGS), None),
        theme="zensical" if config_file.name == "zensical.toml" else _theme_name(data.get("theme")),
        site_name=data.get("site_name") if isinstance(data.get("site_name"), str) else None,
        nav=nav_items(data.get("nav"), data.get("use_directory_urls", True) is not False),
        sitemapkit=next((options for name, options in _named(data.get("plugins"))
                         if name == "sitemapkit" and isinstance(options, Mapping)), {}),
    )


def _theme_name(theme: Any) -> str | None:
    """``theme: material`` or ``theme: {name: material, ...}``."""
    name = theme.get("name") if isinstance(theme, Mapping) else theme
    return name if isinstance(name, str) else None


def _yaml_config(config_file: Path) -> Any:
    """mkdocs.yml as MkDocs reads it, where it matters here: ``!ENV`` is looked up, and
    other tags (``!!python/name:...``, ``!relative``) read as their plain value."""
    import yaml  # see read_front_matter

    class Loader(yaml.SafeLoader):
        pass

    def env(loader: Any, node: Any) -> Any:
        names = loader.construct_sequence(node) if isinstance(node, yaml.SequenceNode) else [
            loader.construct_scalar(node)
        ]
        for name in names[:-1] if len(names) > 1 else names:
            if str(name) in os.environ:
                return os.environ[str(name)]
        return names[-1] if len(names) > 1 else None

    def plain(loader: Any, suffix: str, node: Any) -> Any:
        if isinstance(node, yaml.MappingNode):
            return loader.construct_mapping(node)
        if isinstance(node, yaml.SequenceNode):
            return loader.construct_sequence(node)
        return loader.construct_scalar(node)

    Loader.add_constructor("!ENV", env)
    Loader.add_multi_constructor("", plain)
    with open(config_file, encoding="utf-8") as handle:
        try:
            return yaml.load(handle, Loader=Loader)  # a SafeLoader subclass
        except yaml.YAMLError as error:
            raise ValueError(str(error)) from None


def _named(entries: Any) -> Iterator[tuple[Any, Any]]:
    """``plugins`` or ``markdown_extensions`` as ``(name, options)``: mkdocs.yml's list of
    names or ``{name: options}``, or a mapping of names to options (zensical.toml's tables)."""
    if isinstance(entries, Mapping):
        yield from entries.items()
        return
    for item in entries if isinstance(entries, list) else ():
        yield next(iter(item.items())) if isinstance(item, Mapping) and item else (item, None)


def _i18n_locales(plugins: Any) -> tuple[str, ...]:
    for name, options in _named(plugins):
        if str(name).split("/")[-1] == "i18n" and isinstance(options, Mapping):
            languages = [lang for lang in options.get("languages") or () if isinstance(lang, Mapping)]
            languages.sort(key=lambda lang: not lang.get("default"))
            return tuple(str(lang["locale"]) for lang in languages if lang.get("locale"))
    return ()


def _snippets(extensions: Any, root: Path) -> Snippets | None:
    """pymdownx.snippets as ``markdown_extensions`` configures it (a list of names or
    ``{name: options}``; in zensical.toml a table, where ``pymdownx.snippets`` is a table in
    ``pymdownx``), base paths from the project folder, where the generator runs; None when
    it is not enabled."""
    if isinstance(extensions, Mapping) and isinstance(extensions.get("pymdownx"), Mapping):
        extensions = {**extensions, **{f"pymdownx.{k}": v for k, v in extensions["pymdownx"].items()}}
    for name, options in _named(extensions):
        if name == SNIPPETS:
            return Snippets.from_options(options if isinstance(options, Mapping) else None, root)
    return None


def file_urls(pages: Iterable[Page]) -> Iterator[Page]:
    """Pages at their files' own URLs (``a/index.html``), as MkDocs links them when
    ``use_directory_urls`` is false."""
    for page in pages:
        yield replace(page, url=page.name) if page.name else page


def translated(pages: Iterable[Page], site_dir: Path, languages: tuple[str, ...], *,
               alternates: bool = True) -> Iterator[Page]:
    """The pages of a site mkdocs-static-i18n built (``languages``: its locales, the default
    first), each with its language and, with ``alternates``, its translations, as the plugin
    has them from i18n: the default language at the site root, each other in its locale's
    folder (``fr/guide/``); a page's translations are the pages at its path in the other
    languages' folders that the site holds (i18n's fallback pages among them)."""
    default, folder = languages[0], os.fspath(site_dir)
    others = {f"{code}/": code for code in languages[1:]}
    for page in pages:
        first = page.url[: page.url.find("/") + 1]
        lang = others.get(first, default)
        path = page.url[len(first):] if lang != default else page.url
        if not alternates or page.not_page:
            yield replace(page, lang=lang)
            continue
        translations = {}
        for code in languages:
            url = path if code == default else f"{code}/{path}"
            if code != lang and serving_file(folder, url) is not None:
                translations[code] = url
        yield replace(page, lang=lang, translations=translations)
