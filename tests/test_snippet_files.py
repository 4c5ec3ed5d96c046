"""Which files a Markdown page pulls in through pymdownx.snippets, as the extension reads
its ``--8<--`` lines: what the MkDocs adapter dates a page by besides its own source."""

from __future__ import annotations

from pathlib import Path

from sitemapkit.sources.snippets import Snippets


def tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_base_paths_in_order_and_selections_and_auto_append_only_when_named(tmp_path):
    root = tree(tmp_path, {"inc/a.md": "A", "b.md": "B", "inc/b.md": "B2", "foot.md": "F", "c.md": "C"})
    snippets = Snippets.from_options({"base_path": ["inc", "."], "auto_append": ["foot.md"]}, root)
    found = snippets.files('--8<-- "a.md"\n  --8<-- \'b.md:2:5\'\n--8<-- "c.md:intro"\n--8<-- "https://x.org/r.md"\n')
    # foot.md reaches every page by auto_append: the site's, not this page's
    assert found == tuple(sorted(str(root / n) for n in ("inc/a.md", "inc/b.md", "c.md")))
    # a page that names it itself is made from it
    assert snippets.files('--8<-- "foot.md"\n') == (str(root / "foot.md"),)


def test_a_path_leading_out_of_its_base_is_not_followed_unless_allowed(tmp_path):
    root = tree(tmp_path, {"docs/x.md": "X", "secret.md": "S"})
    text = '--8<-- "../secret.md"\n--8<-- "x.md"\n'
    assert Snippets.from_options({"base_path": "docs"}, root).files(text) == (str(root / "docs/x.md"),)
    loose = Snippets.from_options({"base_path": "docs", "restrict_base_path": False}, root)
    assert loose.files(text) == (str(root / "docs/x.md"), str(root / "secret.md"))


def test_blocks_nesting_cycles_and_escapes(tmp_path):
    root = tree(tmp_path, {
        "one.md": '--8<-- "two.md"\n', "two.md": '--8<-- "one.md"\n',  # a cycle ends
        "three.md": "3", "four.md": "4", "esc.md": "E", "missing-ok.md": "",
    })
    text = "--8<--\nthree.md\n;four.md\n--8<--\n--8<-- \"one.md\"\n;--8<-- \"esc.md\"\n--8<-- \"none.md\"\n"
    expected = tuple(str(root / name) for name in ("one.md", "three.md", "two.md"))
    assert Snippets.from_options(None, root).files(text) == expected
