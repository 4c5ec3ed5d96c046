"""The blocks of `docs/` that a user would copy, read from the pages themselves.

A fenced block is named in the page source by an HTML comment on the line before its fence,
which MkDocs leaves out of the rendered page:

    <!-- block: versions-mike-recipe -->
    ```sh
    ...
    ```

A test runs it as written with `block("versions-mike-recipe")`. A block that cannot run
here (a GitHub-only action, a host we cannot reach) says why instead, and its `run:` lines
are still run by a test that reads them with `run_lines`:

    <!-- not run: uses: steps are GitHub's -->

`test_docs_blocks.py` holds every fenced block of a copyable language to one of the two, and
every name to a test that asks for it, so a page and its test cannot drift apart.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from pathlib import Path

import yaml

DOCS = Path(__file__).resolve().parents[1] / "docs"

# What a user copies into a shell, a config file or a workflow; `text` and `markdown` blocks
# show output and file contents, `jinja` and `rst` show templates a user adapts.
COPYABLE = frozenset({"sh", "bash", "yaml", "python", "toml", "json"})

# A fence at the margin, or indented under a list item (its body dedented as Markdown reads it).
_FENCE = re.compile(r"^(?P<indent> *)```(?P<lang>[\w+-]*)[^\n]*\n(?P<body>.*?)^(?P=indent)```\s*$", re.M | re.S)
_MARK = re.compile(r"<!--\s*(?P<kind>block|not run):\s*(?P<value>.*?)\s*-->\s*$")


@dataclass(frozen=True)
class Block:
    page: str  # file name below docs/
    line: int  # 1-based line of the opening fence
    lang: str
    text: str
    name: str | None  # from `<!-- block: NAME -->`
    not_run: str | None  # the reason, from `<!-- not run: REASON -->`


def blocks(page: str | None = None) -> list[Block]:
    """Every fenced block of one page (or of every page), in page order."""
    pages = [DOCS / page] if page else sorted(DOCS.glob("*.md"))
    found = []
    for path in pages:
        source = path.read_text(encoding="utf-8")
        for match in _FENCE.finditer(source):
            line = source.count("\n", 0, match.start()) + 1
            before = source[: match.start()].rstrip("\n").rsplit("\n", 1)[-1]
            mark = _MARK.search(before)
            found.append(
                Block(
                    page=path.name,
                    line=line,
                    lang=match["lang"],
                    text=textwrap.dedent(match["body"]) if match["indent"] else match["body"],
                    name=mark["value"] if mark and mark["kind"] == "block" else None,
                    not_run=mark["value"] if mark and mark["kind"] == "not run" else None,
                )
            )
    return found


def block(name: str) -> Block:
    """The one block named `name` anywhere in docs/."""
    named = [b for b in blocks() if b.name == name]
    if len(named) != 1:
        raise LookupError(f"docs/ names {len(named)} blocks {name!r}, not one")
    return named[0]


def shell_lines(text: str) -> list[str]:
    """A shell block's commands: comments and blank lines dropped, `\\` continuations joined."""
    joined = re.sub(r"\\\n\s*", " ", text)
    return [line for line in joined.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def run_lines(workflow: str) -> list[str]:
    """The `run:` scripts of a GitHub Actions workflow (or the `script:` of a GitLab job), in order."""
    data = yaml.safe_load(workflow)
    scripts: list[str] = []
    for job in (data.get("jobs") or {}).values():
        for step in job.get("steps", []):
            if "run" in step:
                scripts.append(step["run"])
    for key, job in data.items():
        if key != "jobs" and isinstance(job, dict) and "script" in job:
            scripts.append("\n".join(job["script"]))
    return scripts
