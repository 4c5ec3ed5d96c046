"""Generator configurations read within bounds (issue #34, 3), for ``sitemapkit build
--source-dir``: a YAML alias bomb, a named pipe, a file larger than any configuration, nesting
100,000 deep, each refused in one line without a traceback, in bounded memory (the peak
resident size of the child process, VmHWM); a ``docusaurus.config.js`` scan that stays linear;
Hugo's ``contentDir`` kept inside the project as the other configured folders are.

Each runs ``sitemapkit build`` in a child process (``peak_memory``); the inputs are made
here, as small as still proves the bound."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from peak_memory import measured

from sitemapkit.sources.bounded import CONFIG_BYTES

pytestmark = pytest.mark.slow  # child processes, and inputs of a megabyte

BASE = "https://example.com/"
PAGE = "<html><head><title>{0}</title></head><body>{0}</body></html>"
CEILING_KB = 200 * 1024
"""The peak resident size a build of two pages stays under, whatever its configuration says."""
BOMB = """\
a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]
a1: &a1 [*a0, *a0, *a0, *a0, *a0, *a0, *a0, *a0, *a0]
a2: &a2 [*a1, *a1, *a1, *a1, *a1, *a1, *a1, *a1, *a1]
a3: &a3 [*a2, *a2, *a2, *a2, *a2, *a2, *a2, *a2, *a2]
a4: &a4 [*a3, *a3, *a3, *a3, *a3, *a3, *a3, *a3, *a3]
a5: &a5 [*a4, *a4, *a4, *a4, *a4, *a4, *a4, *a4, *a4]
a6: &a6 [*a5, *a5, *a5, *a5, *a5, *a5, *a5, *a5, *a5]
a7: &a7 [*a6, *a6, *a6, *a6, *a6, *a6, *a6, *a6, *a6]
a8: &a8 [*a7, *a7, *a7, *a7, *a7, *a7, *a7, *a7, *a7]
{key}: *a8
"""


def project(root: Path, config: str, text: str | None = None) -> Path:
    """A generator's project: ``config`` (holding ``text``, when given) beside its built
    ``public/`` folder of two pages."""
    root.mkdir(parents=True, exist_ok=True)
    if text is not None:
        (root / config).write_text(text, encoding="utf-8")
    (root / "public" / "a").mkdir(parents=True)
    (root / "public" / "index.html").write_text(PAGE.format("Home"))
    (root / "public" / "a" / "index.html").write_text(PAGE.format("A"))
    return root


def build(root: Path, timeout: float = 120) -> tuple[int, str, int]:
    """``sitemapkit build public --source-dir .`` in ``root``: exit status, stderr, peak KiB."""
    return measured("build", "public", "--base-url", BASE, "--source-dir", ".", cwd=root, timeout=timeout)


def one_line(said: str) -> str:
    lines = said.strip().splitlines()
    assert len(lines) == 1, said
    return lines[0]


@pytest.mark.parametrize("config, key", [("_config.yml", "permalink"), ("_config.yml", "collections_dir"),
                                         ("hugo.yaml", "contentDir")])
def test_a_yaml_alias_bomb_is_refused_in_one_line(tmp_path, config, key):
    code, said, peak = build(project(tmp_path, config, BOMB.format(key=key)))
    assert code == 2
    line = one_line(said)
    assert config in line and "YAML alias" in line
    assert peak < CEILING_KB


@pytest.mark.parametrize("config", ["_config.yml", "hugo.toml"])
def test_a_named_pipe_is_refused_not_waited_for(tmp_path, config):
    root = project(tmp_path, config)
    os.mkfifo(root / config)
    code, said, _ = build(root, timeout=60)  # a hang guard: today's main waits forever
    assert code == 2
    assert "named pipe" in one_line(said)


@pytest.mark.parametrize("config, filler", [("_config.yml", "# {0}\n"), ("hugo.toml", "# {0}\n")])
def test_a_config_larger_than_any_is_refused(tmp_path, config, filler):
    line = filler.format("x" * 1000)
    text = 'title = "t"\n' if config.endswith(".toml") else "title: t\n"
    text += line * (CONFIG_BYTES // len(line) + 1)
    code, said, peak = build(project(tmp_path, config, text))
    assert code == 2
    assert f"larger than {CONFIG_BYTES >> 10} KiB" in one_line(said)
    assert peak < CEILING_KB


@pytest.mark.parametrize("config, text", [
    ("_config.yml", "permalink: " + "[" * 100_000 + "]" * 100_000 + "\n"),
    ("hugo.toml", "contentDir = " + "[" * 100_000 + "]" * 100_000 + "\n"),
    ("hugo.json", '{"contentDir": ' + "[" * 100_000 + "]" * 100_000 + "}\n"),
])
def test_nesting_100000_deep_is_refused_in_one_line(tmp_path, config, text):
    code, said, peak = build(project(tmp_path, config, text))
    assert code == 2
    assert "nests" in one_line(said)
    assert peak < CEILING_KB


def test_a_docusaurus_config_scan_stays_linear(tmp_path):
    root = project(tmp_path, "docusaurus.config.js", "module.exports = {" + "docs:{" * 30_000)
    (root / "docs").mkdir()
    code, said, peak = build(root, timeout=300)  # a hang guard: today's main never finishes
    assert code == 0, said
    assert peak < CEILING_KB


@pytest.mark.parametrize("content_dir", ["../elsewhere", "ABSOLUTE"])
def test_hugo_content_dir_outside_the_project_is_not_read(tmp_path, content_dir):
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "a").mkdir(parents=True)
    (elsewhere / "a.md").write_text("---\ntitle: A\nlastmod: 2001-02-03\n---\nbody\n")
    given = str(elsewhere) if content_dir == "ABSOLUTE" else content_dir
    root = project(tmp_path / "site", "hugo.toml", f'baseURL = "{BASE}"\ncontentDir = "{given}"\n')
    code, said, _ = build(root)
    assert code == 0, said
    assert "2001-02-03" not in (root / "public" / "sitemap.xml").read_text()


def test_a_front_matter_alias_bomb_or_pipe_is_one_warning(tmp_path):
    root = project(tmp_path, "unused.txt")
    (root / "a.md").write_text("---\n" + BOMB.format(key="title") + "---\nbody\n")
    os.mkfifo(root / "index.md")
    code, said, peak = build(root, timeout=60)  # a hang guard: today's main waits on the pipe
    assert code == 0, said
    assert "a.md: front matter: ignored: uses a YAML alias" in said
    assert peak < CEILING_KB
