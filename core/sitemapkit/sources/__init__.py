"""A generator's project as ``sitemapkit build`` finds it: its configuration, and the source
file each built page comes from (by each generator's layout), so that front matter
and git date the pages."""

SNIPPETS = "pymdownx.snippets"
"""The Markdown extension whose included files date a page (``sources.snippets``)."""

MKDOCSTRINGS = "mkdocstrings"
"""The MkDocs plugin whose documented modules date an API page (``sources.mkdocstrings``).

Both names are here, not in their modules, so that an MkDocs build asks whether either is on
without loading the module, which only a build that enables it needs."""
