"""The files a Markdown page pulls in through pymdownx.snippets (``--8<-- "file.md"``), so
that a page is dated by the snippets it includes as well as by its own source.

What counts follows the extension's documented syntax: a ``--8<-- "path"`` (or ``'path'``)
line, a block of paths between two bare ``--8<--`` lines, and nested snippets inside the
files found. The ``auto_append`` files every page gets are not the page's: a link definition
added there changes no page anyone reads (the last *significant* change dates a page), so
they date only the pages that name them themselves. Lines escaped with ``;`` and URLs are
not files. A path may end in a line range (``:3:9``) or a section name (``:intro``). Paths
are looked for in each ``base_path`` in turn; with ``restrict_base_path`` (the default) a
path that leads outside its base is not followed, as the extension refuses it too.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, NamedTuple

# A marker line: dashes, "8<", dashes; either alone (a block starts or ends) or followed by
# one quoted path. Leading ";" escapes it (the line stays text).
_MARKER = re.compile(r"""^[ \t]*(;*)-+8<-+(?:[ \t]+("[^"\r\n]+"|'[^'\r\n]+'))?\r?$""")
# What may follow a path: line ranges (":3", ":3:9", ":1:2,5:6") or a section (":name").
_SELECTION = re.compile(r"(?i)(?::-?\d*){1,2}(?:,-?\d*(?::-?\d*)?)*$|:[a-z][-_0-9a-z]*$")
_NESTING = 32
"""How deep snippets inside snippets are followed (the extension stops near Python's
recursion limit; real sites nest two or three levels)."""


class Snippets(NamedTuple):
    """pymdownx.snippets as a site configures it: where paths are looked for, and the files
    appended to every page."""

    bases: tuple[Path, ...]
    auto_append: tuple[str, ...] = ()
    restrict: bool = True

    @classmethod
    def from_options(cls, options: Mapping[str, Any] | None, folder: Path | str) -> Snippets:
        """The extension's options as written in ``markdown_extensions``; relative base
        paths are taken from ``folder`` (where the generator runs)."""
        options = options or {}
        bases = options.get("base_path", ["."])
        bases = [bases] if isinstance(bases, str | os.PathLike) else list(bases or ())
        appended = options.get("auto_append") or ()
        return cls(
            bases=tuple(Path(folder, base).resolve() for base in bases),
            auto_append=tuple(str(name) for name in ([appended] if isinstance(appended, str) else appended)),
            restrict=options.get("restrict_base_path", True) is not False,
        )

    def files(self, markdown: str) -> tuple[str, ...]:
        """Every local file ``markdown`` names, nested ones too, sorted; absolute paths. The
        site-wide ``auto_append`` files are left out unless the page names them itself."""
        found: set[str] = set()
        self._follow(_named(markdown.splitlines()), found, 0)
        return tuple(sorted(found))

    def _follow(self, names: Iterable[str], found: set[str], depth: int) -> None:
        for name in names:
            path = self._path(name)
            if path is None or path in found:
                continue
            found.add(path)
            if depth < _NESTING:
                try:
                    with open(path, encoding="utf-8", errors="replace") as handle:
                        nested = list(_named(handle.read().splitlines()))
                except OSError:
                    continue
                self._follow(nested, found, depth + 1)

    def _path(self, name: str) -> str | None:
        """The file ``name`` (with or without a line range or section) names, or None."""
        name = name.strip()
        if not name or name.lower().startswith(("http://", "https://")):
            return None
        plain = _SELECTION.sub("", name)
        for candidate in (name, plain) if plain and plain != name else (name,):
            for base in self.bases:
                path = self._in_base(base, candidate)
                if path is not None:
                    return path
        return None

    def _in_base(self, base: Path, name: str) -> str | None:
        if base.is_file():  # a base that is one file allows that file alone
            path = os.path.join(base.parent, name)
            return str(base) if os.path.isfile(path) and os.path.samefile(path, base) else None
        path = os.path.abspath(os.path.join(base, name))
        if self.restrict and not path.startswith(os.path.join(base, "")):
            return None
        return path if os.path.isfile(path) else None


def _named(lines: Iterable[str]) -> Iterable[str]:
    """The paths the marker lines of a text name, in order."""
    in_block = False
    for line in lines:
        marker = _MARKER.match(line) if "8<" in line else None
        if marker is not None and not marker.group(1):
            quoted = marker.group(2)
            if quoted is not None:
                yield quoted[1:-1]
            else:
                in_block = not in_block
        elif in_block and not line.strip().startswith(";"):
            yield line
