"""Which source builds which page, by layout: a README builds its folder's page only for
MkDocs and only where no index.md is; language suffixes as the project spells them."""

from __future__ import annotations

from pathlib import Path

from sitemapkit.model import Page
from sitemapkit.sources.generator import detect
from sitemapkit.sources.matching import Sources


def tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def sources_of(sources: Sources, *urls: str) -> list[str | None]:
    pages = sources.attach(Page(url=url) for url in urls)
    return [page.name for page in pages]


def test_mkdocs_readme_builds_its_folder_page_only_without_an_index(tmp_path):
    docs = tree(tmp_path / "docs", {"README.md": "# r", "guide/README.md": "# g", "guide/index.md": "# i"})
    assert sources_of(Sources(docs), "", "guide/") == ["README.md", "guide/index.md"]


def test_a_readme_never_builds_a_generators_home_page(tmp_path):
    root = tree(tmp_path / "blog", {"_config.yml": "title: t\n", "README.md": "# how to build\n"})
    assert sources_of(Sources(root, found=detect(root)), "", "README.html") == [None, "README.md"]


def test_language_suffixes_as_the_project_spells_them(tmp_path):
    docs = tree(tmp_path / "docs", {"a.md": "# a", "a.pt-BR.md": "# a"})
    assert sources_of(Sources(docs, ("en", "pt-BR")), "a/", "pt-BR/a/") == ["a.md", "a.pt-BR.md"]
