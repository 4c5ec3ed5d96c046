"""Hugo's whole configuration, as Hugo merges it: the root file (``hugo.toml``, ``.yaml``,
``.json``) over ``config/_default/``, where a file named after a key holds that key's value
(``permalinks.toml``) and ``hugo.*`` a whole configuration. The ``[permalinks]`` of
tests/generator_output/hugo-permalinks (Hugo's own output), written each of these ways,
move the same pages, which are then dated by their own sources."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from git_helpers import commit, init
from project_checks import lastmods, validate_strict

from sitemapkit.cli import main

pytestmark = pytest.mark.slow  # real git histories

FIXTURE = Path(__file__).parent / "generator_output" / "hugo-permalinks"
BASE = "https://hugo-permalinks.example/"
FIRST = "2023-05-05T12:00:00Z"
SITE = {"baseURL": BASE, "title": "A Hugo site with permalinks"}
PERMALINKS = {"posts": "/:year/:month/:title/", "docs": "/manual/:slug/"}

LAYOUTS = {
    "root yaml, permalinks.toml in config/_default": {
        "hugo.yaml": f"baseURL: {BASE}\ntitle: {SITE['title']}\n",
        "config/_default/permalinks.toml": "".join(f"{k} = '{v}'\n" for k, v in PERMALINKS.items()),
    },
    "config/_default only, hugo.toml and permalinks.yaml": {
        "config/_default/hugo.toml": f"baseURL = '{BASE}'\ntitle = 'x'\n",
        "config/_default/permalinks.yaml": "".join(f"{k}: '{v}'\n" for k, v in PERMALINKS.items()),
    },
    "root json over config/_default": {
        "hugo.json": json.dumps({**SITE, "permalinks": {"page": PERMALINKS}}),
        "config/_default/permalinks.json": json.dumps({"posts": "/wrong/:title/"}),  # the root file wins
    },
}


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_permalinks_are_read_wherever_hugo_reads_them(tmp_path, monkeypatch, layout):
    root = init(tmp_path / "site")
    sources = {str(path.relative_to(FIXTURE)): path.read_text(encoding="utf-8")
               for path in sorted(FIXTURE.rglob("*"))
               if path.is_file() and path.relative_to(FIXTURE).parts[0] in ("content", "layouts")}
    commit(root, FIRST, {**sources, **LAYOUTS[layout], ".gitignore": "public/\n.cache/\n"})
    shutil.copytree(FIXTURE / "public", root / "public")
    (root / "public" / "sitemap.xml").unlink()  # the documented recipe: Hugo's own sitemap off
    monkeypatch.chdir(root)
    assert main(["build", "public", "--base-url", BASE, "--source-dir", ".", "-q"]) == 0
    found = lastmods(root / "public", BASE)
    assert {url: found[url] for url in found if "/20" in url or "/manual/" in url} == {
        f"{BASE}2024/01/hello-world/": "2024-01-15",
        f"{BASE}2024/02/a-bundle/": "2024-03-03",
        f"{BASE}manual/install/": FIRST,
        f"{BASE}manual/using-it/": FIRST,
    }
    assert validate_strict(root / "public") == 0
