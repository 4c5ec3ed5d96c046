"""MkDocs hooks of the documentation site: tables that the code holds are written from the
code, so the manual cannot drift from it. A page asks for one with a marker line."""

from __future__ import annotations

from typing import Any

from sitemapkit.options import OPTIONS
from sitemapkit.protocol import RULES

MARKERS = {
    "<!-- rules-table -->": lambda: rules_table(),
    "<!-- options-table -->": lambda: options_table(),
}


def options_table() -> str:
    rows = ["| key | default | meaning |", "|---|---|---|"]
    for option in OPTIONS:
        choices = option.kind.choices
        meaning = option.help + (f" (values: {' '.join(f'`{value}`' for value in choices)})" if choices else "")
        rows.append(f"| `{option.name}` | {_default(option.default)} | {_cell(meaning, markdown=True)} |")
    return "\n".join(rows)


def _default(value: Any) -> str:
    if value is None:
        return "unset"
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, tuple):
        return f"`[{', '.join(value)}]`"
    return f"`{value}`"


def rules_table() -> str:
    rows = ["| rule | severity | what | from |", "|---|---|---|---|"]
    for rule, entry in RULES.items():
        rows.append(f"| `{rule}` | {entry.severity} | {_cell(entry.summary)} | {entry.source} |")
    return "\n".join(rows)


def _cell(text: str, markdown: bool = False) -> str:
    """Text for a table cell. ``markdown``: the text is Markdown already, its ``<`` inside
    backquotes (an option's help)."""
    text = text.replace("|", "\\|")
    return text if markdown else text.replace("<", "&lt;")


def on_page_markdown(markdown: str, **_: object) -> str:
    for marker, table in MARKERS.items():
        if marker in markdown:
            markdown = markdown.replace(marker, table())
    return markdown
