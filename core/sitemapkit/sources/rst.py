"""What a reStructuredText (or MyST) source names as the files it is made from, by the path it
writes: ``.. include::`` and ``.. literalinclude::`` (MyST's ``{include}``), taken from the
source's own folder, or from the source folder for ``/x``; and the Python objects autodoc
documents (``.. automodule:: pkg.mod``, ``.. autoclass:: Engine`` under ``.. module:: pkg``).

The Sphinx adapter has Sphinx's own record of the files (``env.dependencies``) and uses the
includes only to tell the site-wide ones (``rst_epilog``) apart; ``sitemapkit build
--source-dir`` has only the sources, and follows both.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from sitemapkit.patterns import lazy_pattern

# An include directive and the path it names.
include_pattern = lazy_pattern(
    r"^[ \t]*(?:\.\.[ \t]+(?:include|literalinclude)::|```+[ \t]*\{(?:include|literalinclude)\})"
    r"[ \t]*(\S[^\r\n]*)", re.MULTILINE)


_autodoc = lazy_pattern(r"^[ \t]*\.\.[ \t]+(?:py:)?(auto\w+|module|currentmodule)::[ \t]*([A-Za-z_][\w.]*)[ \t]*$",
                        re.MULTILINE)


def included(text: str, folder: Path, srcdir: Path) -> set[str]:
    """The files the include directives of ``text`` (a source in ``folder``) name, normalised:
    ``/x`` is taken from ``srcdir``; ``<name>`` (docutils' own files) are none."""
    names = (name.strip() for name in include_pattern().findall(text))
    return {os.path.normpath(srcdir / name.lstrip("/") if name.startswith("/") else folder / name)
            for name in names if not name.startswith("<")}


def documented(text: str) -> Iterator[str]:
    """The dotted names autodoc documents in ``text``: an ``automodule``'s module, any other
    ``auto…`` directive's object, under the ``module``/``currentmodule`` before it."""
    current = ""
    for directive, name in _autodoc().findall(text):
        if directive in ("module", "currentmodule"):
            current = name
        elif directive == "automodule" or "." in name or not current:
            yield name
        else:
            yield f"{current}.{name}"


def existing(paths: Iterable[str]) -> tuple[str, ...]:
    """Those of ``paths`` that are files, sorted."""
    return tuple(sorted(path for path in set(paths) if os.path.isfile(path)))
