"""A generator's project as ``sitemapkit build`` finds it: the configuration of a Zensical,
ProperDocs or MkDocs project (site URL, folders, languages), and each built page's Markdown
source, so that front matter and git date the pages as the MkDocs plugin does.

Sources are matched to built pages by name (``guide/setup.md`` -> ``guide/setup/`` or
``guide/setup.html``), which is also how Hugo's ``content/``, Jekyll and Eleventy lay out
their output (``--source-dir``).
"""

# Performance: no ``from __future__ import annotations`` in this module: see values.Rule.
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, NamedTuple

from .dates import front_matter_dates
from .model import Page
from .snippets import EXTENSION as SNIPPETS
from .snippets import Snippets


def _toml() -> Any:
    """The TOML reader, imported when a TOML file is read: most builds read none, and an
    adapter's import (paid by every build) should not carry it."""
    import tomllib

    return tomllib


CONFIG_FILES = ("zensical.toml", "properdocs.yml", "properdocs.yaml", "mkdocs.yml", "mkdocs.yaml")
"""In the order the generators themselves prefer them."""
SOURCE_SUFFIXES = (".md", ".markdown", ".mdown", ".mkd", ".html", ".htm", ".njk", ".liquid", ".rst")
UPDATED_KEYS = ("updated", "lastmod", "last_modified_at")
"""Front-matter keys of a page's last change: MkDocs/Material, Hugo, Jekyll's plugin."""
_FOLDER_NAMES = ("index", "_index", "README", "readme")
"""Sources that build their folder's page (MkDocs ``index.md``/``README.md``, Hugo ``_index.md``)."""


def project_dir(source: str | os.PathLike[str], output: str | os.PathLike[str]) -> str:
    """Where a relative ``state_file`` lives when a generator names no project folder: the
    folder holding both the sources and the output, unless that is the file system's root."""
    source = os.path.abspath(source)
    common = os.path.commonpath([source, os.path.abspath(output)])
    return common if os.path.dirname(common) != common else source


class ProjectError(Exception):
    """A configuration file that cannot be read; the message names the file."""


class Project(NamedTuple):  # not a dataclass, for the import's sake: see values.Rule
    config_file: Path
    site_url: str | None
    docs_dir: Path
    site_dir: Path
    use_directory_urls: bool = True
    languages: tuple[str, ...] = ()
    """mkdocs-static-i18n locales, the default first (``page.fr.md`` builds ``fr/page/``)."""
    snippets: Snippets | None = None
    """pymdownx.snippets, when ``markdown_extensions`` enables it: the files pages include."""

    @property
    def root(self) -> Path:
        return self.config_file.parent


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
                data = _toml().load(handle)
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
    )


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


def _i18n_locales(plugins: Any) -> tuple[str, ...]:
    entries = plugins.items() if isinstance(plugins, Mapping) else (
        next(iter(item.items())) if isinstance(item, Mapping) and item else (item, None)
        for item in plugins or ()
    )
    for name, options in entries:
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
    entries = extensions.items() if isinstance(extensions, Mapping) else (
        next(iter(item.items())) if isinstance(item, Mapping) and item else (item, None)
        for item in extensions or ()
    )
    for name, options in entries:
        if name == SNIPPETS:
            return Snippets.from_options(options if isinstance(options, Mapping) else None, root)
    return None


def file_urls(pages: Iterable[Page]) -> Iterator[Page]:
    """Pages at their files' own URLs (``a/index.html``), as MkDocs links them when
    ``use_directory_urls`` is false."""
    for page in pages:
        yield replace(page, url=page.name) if page.name else page


# ------------------------------------------------------------------ sources


class Sources:
    """The sources of one folder by the page key they build (see ``page_key``)."""

    def __init__(
        self, folder: Path | str, languages: Iterable[str] = (), snippets: Snippets | None = None
    ) -> None:
        self.folder = Path(folder)
        self.languages = tuple(languages)
        self.snippets = snippets
        self.by_key: dict[str, str] = {}
        for dirpath, dirs, files in os.walk(self.folder):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in sorted(files):
                if name.endswith(SOURCE_SUFFIXES):
                    path = os.path.join(dirpath, name)
                    relative = os.path.relpath(path, self.folder).replace(os.sep, "/")
                    self.by_key.setdefault(self._key(relative), path)

    def _key(self, relative: str) -> str:
        parts = relative.rsplit(".", 1)[0].split("/")
        base, dot, lang = parts[-1].rpartition(".")
        if dot and lang in self.languages:  # mkdocs-static-i18n's suffix layout: a.fr.md
            parts = [lang, *parts[:-1], base]
        if len(parts) > 1 and parts[0] == (self.languages or ("",))[0]:
            parts = parts[1:]  # the default language is built at the site's root
        if parts[-1] in _FOLDER_NAMES:
            parts = parts[:-1]
        return "/".join(parts)

    def attach(
        self, pages: Iterable[Page], warn: Callable[[str, str], None], updated: tuple[str, ...] = UPDATED_KEYS
    ) -> Iterator[Page]:
        """Each page with its source, front matter and dates; pages with no source as given.
        ``warn(page, message)`` hears of dates that cannot be read."""
        for page in pages:
            source = self.by_key.get(page_key(page.url))
            if source is None:
                yield page
                continue
            name = os.path.relpath(source, self.folder).replace(os.sep, "/")
            try:
                meta = read_front_matter(source)
            except ValueError as error:
                rule = "front-matter"  # protocol.RULES
                warn(name, f"front matter ignored: {error} [{rule}]")
                meta = {}
            published, modified = front_matter_dates(meta, lambda m, n=name: warn(n, m), updated)
            yield replace(page, source=source, meta=meta, published=published, modified=modified, name=name,
                          depends_on=self._included(source))

    def _included(self, source: str) -> tuple[str, ...]:
        """The snippets ``source`` includes, when the project enables them."""
        if self.snippets is None:
            return ()
        try:
            with open(source, encoding="utf-8", errors="replace") as handle:
                return self.snippets.files(handle.read())
        except OSError:
            return ()


def page_key(url: str) -> str:
    """``a/b/``, ``a/b.html``, ``a/b/index.html`` -> ``a/b``; the home page is ``""``."""
    key = "/" + url.split("?", 1)[0].split("#", 1)[0].strip("/")
    for suffix in ("/index.html", "/index.htm", ".html", ".htm"):
        if key.endswith(suffix):
            key = key[: -len(suffix)]
            break
    return key.strip("/")


def read_front_matter(path: str | os.PathLike[str]) -> dict[str, Any]:
    """YAML (``---``) or TOML (``+++``) front matter at the head of a source file; ``{}``
    when it has none. Only the head is read. ``ValueError`` when it does not parse."""
    lines: list[str] = []
    try:
        with open(path, encoding="utf-8-sig", errors="replace") as handle:
            fence = handle.readline().rstrip()
            if fence not in ("---", "+++"):
                return {}
            closing = ("---", "...") if fence == "---" else ("+++",)
            for line in handle:
                if line.rstrip() in closing:
                    break
                lines.append(line)
            else:
                return {}
    except OSError:
        return {}
    text = "".join(lines)
    # Performance: PyYAML is imported by the first page with front matter to read, not by
    # every adapter's import (measured: 8 ms on this machine; Pelican does not import it itself).
    import yaml

    try:
        data = _toml().loads(text) if fence == "+++" else yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise ValueError(" ".join(line.strip() for line in str(error).splitlines())) from None
    return data if isinstance(data, dict) else {}
