"""`sitemapkit build public --source-dir content` on a Hugo site whose sections have
``[permalinks]`` (``posts = '/:year/:month/:title/'``, ``docs = '/manual/:slug/'``): each
regular page of such a section is matched through its pattern (the title made a URL, the
front-matter date, a bundle's folder, ``slug`` else the title), so it is dated by its own
source; pages of no such section keep their names.

The built folder is Hugo's own output (Hugo 0.111), made by
tests/generator_output/make_fixtures.sh, which records Hugo's version in GENERATED_BY; the
sources are committed into a real git history here."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from git_helpers import commit, init
from project_checks import lastmods, validate_strict

from sitemapkit.cli import main

pytestmark = pytest.mark.slow  # real git histories (make test-fast leaves them out)

FIXTURE = Path(__file__).parent / "generator_output" / "hugo-permalinks"
BASE = "https://hugo-permalinks.example/"
FIRST = "2023-05-05T12:00:00Z"
USAGE_EDITED = "2024-08-08T08:08:08Z"


def permalinks_site(tmp_path: Path) -> Path:
    """The sources committed at FIRST (docs/usage.md edited at USAGE_EDITED), and Hugo's built
    folder as ``public``, as the documented recipe builds it (without Hugo's sitemap.xml:
    make_fixtures.sh checks it is the only difference)."""
    assert (FIXTURE / "GENERATED_BY").read_text().startswith("hugo v0.")
    root = init(tmp_path / "site")
    (root / ".gitignore").write_text("public/\n.cache/\n", encoding="utf-8")
    sources = {
        str(path.relative_to(FIXTURE)): path.read_text(encoding="utf-8")
        for path in sorted(FIXTURE.rglob("*"))
        if path.is_file() and path.relative_to(FIXTURE).parts[0] in ("config.toml", "content", "layouts")
    }
    commit(root, FIRST, sources)
    commit(root, USAGE_EDITED, {"content/docs/usage.md": sources["content/docs/usage.md"] + "\nMore.\n"})
    shutil.copytree(FIXTURE / "public", root / "public")
    (root / "public" / "sitemap.xml").unlink()
    return root


def test_pages_moved_by_permalinks_are_dated_by_their_sources(tmp_path, monkeypatch, capsys):
    root = permalinks_site(tmp_path)
    monkeypatch.chdir(root)
    assert main(["build", "public", "--base-url", BASE, "--source-dir", "content"]) == 0
    found = lastmods(root / "public", BASE)
    assert {url: found[url] for url in found if "/20" in url or "/manual/" in url} == {
        f"{BASE}2024/01/hello-world/": "2024-01-15",  # posts/hello.md: "Hello, World!" on 2024-01-15
        f"{BASE}2024/02/a-bundle/": "2024-03-03",  # posts/bundle/index.md: its lastmod
        f"{BASE}manual/install/": FIRST,  # docs/setup.md, slug: install
        f"{BASE}manual/using-it/": USAGE_EDITED,  # docs/usage.md: no slug, its title
    }
    assert found[f"{BASE}about/"] == FIRST  # no section: its name
    assert found[f"{BASE}docs/"] == USAGE_EDITED  # the section lists what it holds: the newest
    assert found[f"{BASE}posts/"] == "2024-03-03"
    # only the empty taxonomy lists match no source (none before [permalinks] were followed: 4 more)
    assert "2 pages match no source file in content (/categories/, /tags/)" in capsys.readouterr().err
    assert validate_strict(root / "public") == 0
