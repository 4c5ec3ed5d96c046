"""A page's main content as Markdown, for its ``llms.txt`` mirror: markdownify (a maintained
HTML-to-Markdown converter on BeautifulSoup, with Python's own ``html.parser``: no compiled
part), told what generators put in content that is no text of the page. Imported only by a
build with ``llms_txt`` on."""

from __future__ import annotations

import re

from markdownify import ATX, MarkdownConverter

_LANGUAGE = re.compile(r"(?:^|\s)(?:language|lang|highlight)-([A-Za-z0-9_+#.-]+)")
_PERMALINKS = frozenset({"headerlink", "anchorlink", "permalink", "md-clipboard", "toclink"})
_BLANK_LINES = re.compile(r"\n{3,}")


def _language(element) -> str | None:
    """The language of a code block, from its classes or its parents' (``language-python``,
    Sphinx's ``highlight-python``)."""
    for node in (element, *element.find_all("code", limit=1), *list(element.parents)[:3]):
        found = _LANGUAGE.search(" ".join(node.get("class") or ()) if hasattr(node, "get") else "")
        if found and found.group(1) not in ("default", "none", "text"):
            return found.group(1)
    return None


class _Converter(MarkdownConverter):
    """markdownify, less the marks of the theme inside content: heading permalinks (``¶``),
    copy buttons; links only where a reader can follow them."""

    def convert_a(self, el, text, parent_tags):
        if _PERMALINKS & set(el.get("class") or ()) or text.strip() in ("¶", "#", "§", "🔗"):
            return ""
        href = (el.get("href") or "").strip()
        if href.lower().startswith(("javascript:", "vbscript:", "data:")):
            return text
        return super().convert_a(el, text, parent_tags)

    def convert_button(self, el, text, parent_tags):
        return ""


_CONVERTER = _Converter(heading_style=ATX, bullets="-", code_language_callback=_language, escape_underscores=False)


def to_markdown(content: str) -> str:
    """``content`` (HTML) as Markdown, ending with one newline."""
    text = _CONVERTER.convert(content)
    return _BLANK_LINES.sub("\n\n", text).strip() + "\n"
