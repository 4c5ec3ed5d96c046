"""The docs site's pages fit their columns: the stylesheet mkdocs.yml adds keeps a table's
first column (option keys, page keys, rule ids) from breaking mid-word, and wraps long lines
in code blocks instead of scrolling them sideways. (Checked by eye in headless Chromium at
1280 px and 390 px; here: the rules are there and the site loads them.)"""

from __future__ import annotations

import re

import yaml

from sitemap_checks import REPO

RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")


def declarations(css: str) -> dict[str, str]:
    """selector -> its declarations, whitespace squeezed, comments dropped."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    return {" ".join(selector.split()): " ".join(body.split()) for selector, body in RULE.findall(css)}


def site_css() -> dict[str, str]:
    config = yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))
    sheets = config.get("extra_css", [])
    assert sheets, "mkdocs.yml adds the site's stylesheet"
    found: dict[str, str] = {}
    for sheet in sheets:
        found |= declarations((REPO / config["docs_dir"] / sheet).read_text(encoding="utf-8"))
    return found


def test_key_names_in_a_tables_first_column_never_break():
    css = site_css()
    assert "white-space: nowrap;" in css[".md-typeset table:not([class]) td:first-child code"]


def test_code_blocks_wrap_instead_of_scrolling_sideways():
    css = site_css()
    assert "white-space: pre-wrap;" in css[".md-typeset pre > code"]


def test_install_lines_fit_a_column_of_70_characters():
    """The install commands shown first (README and the docs' home page) are short enough to be
    read whole at 1280 px without wrapping."""
    for page in (REPO / "README.md", REPO / "docs" / "index.md"):
        text = page.read_text(encoding="utf-8")
        block = text[text.index("```sh\npip install"):]
        lines = block[len("```sh\n"):block.index("\n```")].splitlines()
        assert lines and all(len(line) <= 70 for line in lines), (page.name, lines)
