"""Options of a JavaScript configuration (``docusaurus.config.js``), read as text and never
run: the string and ``false`` values an object literal gives its own keys, for
``sitemapkit build --source-dir`` to know where a generator's folders are served."""

from __future__ import annotations

import re

_KEY = re.compile(r"""(?<![\w$.])["']?([A-Za-z_$][\w$]*)["']?\s*:\s*""")
"""An object's key and its colon: ``docs: ``, ``"docs": ``."""
_PLUGIN = re.compile(r"""\[\s*["']([^"'\\\n]{1,200})["']\s*,\s*""")
"""A plugin's name and the comma before its options: ``['@docusaurus/plugin-content-docs', ``."""
_VALUE = re.compile(r"""(?<![\w$])["']?([A-Za-z_$][\w$]*)["']?\s*:\s*(?:(["'`])([^"'`\\\n]{0,300})\2|(false)\b)""")
"""``key: 'text'`` (or ``"text"``, a template without ``${}``) and ``key: false``."""
LIMIT = 200_000
"""Characters of a configuration read; the rest is not looked at."""
MAX_OBJECTS = 16
"""Object literals read for one key or plugin: a configuration names each a few times."""
OBJECT_LIMIT = 50_000
"""Characters of one object literal read (an option object is a few hundred): with
``MAX_OBJECTS``, a scan costs at most a fixed multiple of the text's length, never its square."""


def options(text: str, key: str) -> list[dict[str, str | bool]]:
    """The values given by each object literal that ``key:`` opens in ``text`` (``docs: {path:
    'guides'}`` gives ``{"path": "guides"}``), its own keys only (not those of the objects
    inside it); ``key: false`` gives ``{"": False}``. In the order they stand."""
    return _values(text, _KEY, key)


def plugin_options(text: str, name: str) -> list[dict[str, str | bool]]:
    """The values given by the options of each ``[NAME, {...}]`` in ``text`` (a plugin and
    its options: ``['@docusaurus/plugin-content-docs', {id: 'community', path: 'community'}]``),
    as ``options`` reads them. In the order they stand."""
    return _values(text, _PLUGIN, name)


def _values(text: str, opening: re.Pattern[str], name: str) -> list[dict[str, str | bool]]:
    """What follows each match of ``opening`` whose group is ``name``, read as ``options`` says."""
    text = _blank_comments(text[:LIMIT])
    found: list[dict[str, str | bool]] = []
    for match in opening.finditer(text):
        if match.group(1) != name:
            continue
        start = match.end()
        if text.startswith("false", start) and not text[start + 5:start + 6].isalnum():
            found.append({"": False})
        elif text.startswith("{", start):
            own = _own_text(text, start)
            found.append({key: False if flag else value for key, _q, value, flag in _VALUE.findall(own)})
        if len(found) >= MAX_OBJECTS:
            break
    return found


def _blank_comments(text: str) -> str:
    """``text`` with its ``//`` and ``/* */`` comments made spaces (strings kept)."""
    out: list[str] = []
    index, quote = 0, ""
    while index < len(text):
        char = text[index]
        if quote:
            out.append(char)
            if char == "\\":
                out.append(text[index + 1: index + 2])
                index += 1
            elif char == quote:
                quote = ""
        elif char in "\"'`":
            quote = char
            out.append(char)
        elif text.startswith("//", index):
            end = text.find("\n", index)
            end = len(text) if end < 0 else end
            out.append(" " * (end - index))
            index = end - 1
        elif text.startswith("/*", index):
            end = text.find("*/", index + 2)
            end = len(text) if end < 0 else end + 2
            out.append(" " * (end - index))
            index = end - 1
        else:
            out.append(char)
        index += 1
    return "".join(out)


def _own_text(text: str, start: int) -> str:
    """The text of the object literal that opens at ``start`` in ``text``, what its inner
    objects, arrays and calls hold made spaces (so that only its own keys are seen)."""
    out: list[str] = []
    depth, quote = 0, ""
    for index in range(start, min(len(text), start + OBJECT_LIMIT)):
        char = text[index]
        if quote:
            if char == quote and text[index - 1] != "\\":
                quote = ""
            out.append(char if depth == 1 else " ")
            continue
        if char in "\"'`":
            quote = char
        elif char in "{[(":
            depth += 1
        elif char in "}])":
            depth -= 1
            if depth == 0:
                break
        out.append(char if depth == 1 or (depth == 2 and char in "{[(") else " ")
    return "".join(out)
