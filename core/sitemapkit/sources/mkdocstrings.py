"""The Python modules a Markdown page documents with mkdocstrings (``::: package.module``), so
that an API page is dated by the code it shows, not by its one-line stub (as Sphinx's autodoc
pages are, by the module sources Sphinx records).

An identifier is looked for in the Python handler's ``paths`` (``handlers: {python: {paths:
[src]}}``, relative to the project folder; ``.`` by default), as the handler finds it: the
longest leading part that is a module file (``pkg/mod.py``) or a package (``pkg/mod/__init__.py``),
so ``::: pkg.mod.Class`` is dated by ``pkg/mod.py``. Modules found nowhere in those folders
(an installed package) date nothing.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

_IDENTIFIER = re.compile(r"^[ \t]{0,3}:::[ \t]+([A-Za-z_][\w.]*)[ \t]*\r?$", re.MULTILINE)


class Documented(NamedTuple):
    """mkdocstrings as a site configures it: where its Python handler finds modules. Handed
    along once per build: a named tuple, not a dataclass made at import."""

    paths: tuple[Path, ...]

    @classmethod
    def from_options(cls, options: Any, folder: Path | str) -> Documented:
        """The plugin's options as written in ``plugins`` (``{handlers: {python: {paths}}}``);
        relative paths are taken from ``folder`` (the project's)."""
        handlers = options.get("handlers") if isinstance(options, Mapping) else None
        python = handlers.get("python") if isinstance(handlers, Mapping) else None
        paths = python.get("paths") if isinstance(python, Mapping) else None
        paths = [paths] if isinstance(paths, str) else [p for p in paths if isinstance(p, str)] \
            if isinstance(paths, list) else ["."]
        return cls(tuple(Path(folder, path).resolve() for path in paths))

    def files(self, markdown: str) -> tuple[str, ...]:
        """The module files the page's ``:::`` lines document, sorted; absolute paths."""
        found = {path for name in _IDENTIFIER.findall(markdown) if (path := self.module(name)) is not None}
        return tuple(sorted(found))

    def module(self, identifier: str) -> str | None:
        """The file of the module that holds ``identifier`` (``pkg.mod.Class``), or None."""
        parts = identifier.strip(".").split(".")
        for count in range(len(parts), 0, -1):
            relative = os.path.join(*parts[:count])
            for base in self.paths:
                for candidate in (f"{relative}.py", os.path.join(relative, "__init__.py")):
                    path = os.path.join(base, candidate)
                    if os.path.isfile(path):
                        return path
        return None
