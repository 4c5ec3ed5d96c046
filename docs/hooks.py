"""MkDocs hooks of the documentation site: tables that the code holds are written from the
code, so the manual cannot drift from it. A page asks for one with a marker line."""

from __future__ import annotations

from sitemapkit.protocol import RULES

MARKERS = {
    "<!-- rules-table -->": lambda: rules_table(),
}


def rules_table() -> str:
    rows = ["| rule | severity | what | from |", "|---|---|---|---|"]
    for rule, entry in RULES.items():
        rows.append(f"| `{rule}` | {entry.severity} | {_cell(entry.summary)} | {entry.source} |")
    return "\n".join(rows)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("<", "&lt;")


def on_page_markdown(markdown: str, **_: object) -> str:
    for marker, table in MARKERS.items():
        if marker in markdown:
            markdown = markdown.replace(marker, table())
    return markdown
