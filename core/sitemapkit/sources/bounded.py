"""A generator's configuration, and a source's front matter, read within bounds
(``sitemapkit build --source-dir``): a regular file only (a named pipe would block forever),
at most ``CONFIG_BYTES`` of it, YAML without aliases (an alias bomb expands a few hundred
bytes into gigabytes), nesting at most ``MAX_DEPTH`` deep. Past a bound, ``ConfigError``
says which, in one line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sitemapkit.site.files import NotRegularFile, read_regular

CONFIG_BYTES = 1 << 20
"""The largest configuration read: generators' own are a few kilobytes."""
MAX_DEPTH = 64
"""The deepest nesting of mappings and lists read."""


class ConfigError(ValueError):
    """A configuration past a bound: the message names the file and the bound."""


def config_text(path: Path, limit: int = CONFIG_BYTES) -> str:
    """The text of the regular file at ``path``, at most ``limit`` bytes of it; raises
    ``ConfigError`` for a pipe, a device or a larger file (``FileNotFoundError`` as it is)."""
    try:
        data = read_regular(path, limit + 1)
    except NotRegularFile as error:
        raise ConfigError(f"{path} {error.strerror}; only a regular file is read as a configuration") from None
    if len(data) > limit:
        raise ConfigError(f"{path} is larger than {limit >> 10} KiB, far more than a configuration holds; not read")
    return data.decode("utf-8", "replace")


def load_config(path: Path, text: str) -> Any:
    """``text`` (the file at ``path``) as TOML by its suffix, else as YAML (JSON included)."""
    return load_toml(path, text) if path.suffix == ".toml" else load_yaml(path, text)


def load_toml(path: Path, text: str) -> Any:
    """``text`` (read from ``path``) as TOML, within ``MAX_DEPTH``: ``ConfigError`` past it,
    ``ValueError`` for text that is not TOML."""
    import tomllib  # heavy: see front_matter

    try:
        data = tomllib.loads(text)
    except RecursionError:
        raise ConfigError(f"{path} nests deeper than Python can read; not read") from None
    _check_depth(path, data)
    return data


def load_yaml(path: Path, text: str) -> Any:
    """``text`` (read from ``path``) as YAML, within ``MAX_DEPTH`` and without aliases:
    ``ConfigError`` past a bound, ``ValueError`` (one line) for text that is not YAML."""
    import yaml  # heavy: see front_matter

    try:
        return yaml.load(text, Loader=_loader(path))  # a SafeLoader subclass
    except yaml.YAMLError as error:
        raise ValueError(" ".join(line.strip() for line in str(error).splitlines())) from None


def _check_depth(path: Path, data: Any) -> None:
    level = [data]
    for _ in range(MAX_DEPTH + 1):
        level = [item for value in level if isinstance(value, dict | list)
                 for item in (value.values() if isinstance(value, dict) else value)]
        if not level:
            return
    raise ConfigError(f"{path} nests more than {MAX_DEPTH} levels deep; not read")


def _loader(path: Path) -> type:
    """A ``yaml.SafeLoader`` that refuses aliases and nesting past ``MAX_DEPTH``."""
    import yaml

    class Bounded(yaml.SafeLoader):
        depth = 0

        def compose_node(self, parent: Any, index: Any) -> Any:
            if self.check_event(yaml.AliasEvent):
                raise ConfigError(f"{path} uses a YAML alias (*name); aliases are not read in a generator's "
                                  "configuration (one can expand to gigabytes): write the value out")
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise ConfigError(f"{path} nests more than {MAX_DEPTH} levels deep; not read")
            try:
                return super().compose_node(parent, index)
            finally:
                self.depth -= 1

    return Bounded
