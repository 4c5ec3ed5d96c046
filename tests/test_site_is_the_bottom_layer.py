"""``sitemapkit.site`` (a built site on disk, read by build and validate alike) is the bottom
layer: its modules import nothing of sitemapkit above them (no ``output``, no ``settings``, no
``listing``, ``cli`` or ``validate``), so what only one user needs lives with that user
(``cli.others``, the Pelican adapter's ``heads``). Read from the modules' source with ``ast``,
every import counted: at the top, inside a function, under ``TYPE_CHECKING``."""

from __future__ import annotations

import ast
from pathlib import Path

import sitemapkit.site

SITE = Path(sitemapkit.site.__file__).parent
BELOW = ("sitemapkit.site", "sitemapkit.protocol", "sitemapkit.urls", "sitemapkit.report", "sitemapkit.model",
         "sitemapkit.dates", "sitemapkit.extensions", "sitemapkit.patterns")
"""What ``site/`` may import of sitemapkit: itself, and the plain modules beneath every layer
(the protocol's constants, URLs, problems, the page model, dates and lazy patterns)."""


def reached(source: str, module: str) -> set[str]:
    """The sitemapkit modules ``source`` (the module ``module``) imports, relative imports resolved."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = module.split(".")[: -node.level] if node.level else []
            name = ".".join([*base, node.module] if node.module else base)
            found.add(name)
            # ``from sitemapkit import output``: the names may be modules themselves
            found.update(f"{name}.{alias.name}" for alias in node.names if name in ("sitemapkit", "sitemapkit.site"))
    return {name for name in found if name == "sitemapkit" or name.startswith("sitemapkit.")}


def upward(name: str) -> bool:
    return not any(name == below or name.startswith(below + ".") for below in BELOW)


def test_no_module_of_site_imports_a_layer_above_it():
    modules = sorted(SITE.glob("*.py"))
    assert len(modules) > 10  # the folder was found
    reaching = {f"{path.name}: {name}" for path in modules
                for name in reached(path.read_text(encoding="utf-8"), f"sitemapkit.site.{path.stem}")
                if upward(name)}
    assert not reaching, "site/ is the bottom layer; these imports reach above it:\n" + "\n".join(sorted(reaching))


def test_the_reading_sees_every_way_of_importing():
    source = """
from typing import TYPE_CHECKING
from sitemapkit.protocol import MAX_URLS
from . import files
if TYPE_CHECKING:
    from sitemapkit.output.names import own_names
def later():
    import sitemapkit.settings
    from ..listing import images
    from sitemapkit import generate
"""
    found = reached(source, "sitemapkit.site.example")
    assert {name for name in found if upward(name)} == {
        "sitemapkit.output.names", "sitemapkit.settings", "sitemapkit.listing", "sitemapkit",
        "sitemapkit.generate"}
    assert "sitemapkit.site.files" not in {name for name in found if upward(name)}
