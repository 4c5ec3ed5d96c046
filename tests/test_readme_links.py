"""The README is also the package index's page, where a relative link 404s: every link in it is
absolute, to the repository's files (its Source URL) or to the documentation site (its
Documentation URL), and names a file or page that exists here."""

from __future__ import annotations

import re

import tomllib

from sitemap_checks import REPO

URLS = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["urls"]
SOURCE = URLS["Source"].rstrip("/") + "/"
DOCS = URLS["Documentation"]
MARKDOWN_LINK = re.compile(r"\]\(([^)\s]+)\)")
HTML_LINK = re.compile(r"""(?:href|src)=["']([^"']+)["']""")
BARE_URL = re.compile(r"https?://[^\s)>`\"'*]+")
HEADING = re.compile(r"^#+ (.+)$", re.M)


def readme_links() -> list[str]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    return MARKDOWN_LINK.findall(text) + HTML_LINK.findall(text)


def slug(heading: str) -> str:
    """The anchor MkDocs' toc extension gives a heading (plain words, as this project writes them)."""
    return re.sub(r"[\s-]+", "-", re.sub(r"[^\w\s-]", "", heading.lower())).strip("-")


def test_every_readme_link_is_absolute():
    links = readme_links()
    assert links, "the README links to its docs"
    relative = [link for link in links if not link.startswith("https://")]
    assert not relative, f"relative links 404 on the package index: {relative}"


def test_every_readme_link_names_a_file_or_docs_page_that_exists():
    for link in readme_links() + BARE_URL.findall((REPO / "README.md").read_text(encoding="utf-8")):
        link = link.rstrip(".,;")
        if link.startswith(SOURCE):
            kind, branch, path = link[len(SOURCE):].split("/", 2)
            assert (kind, branch) in {("blob", "main"), ("tree", "main")}, link
            assert (REPO / path).is_file() if kind == "blob" else (REPO / path).is_dir(), link
        elif link.startswith(DOCS):
            page, _, anchor = link[len(DOCS):].partition("#")
            source = REPO / "docs" / (f"{page.strip('/')}.md" if page else "index.md")
            assert source.is_file(), link
            if anchor:
                assert anchor in {slug(h) for h in HEADING.findall(source.read_text(encoding="utf-8"))}, link
        else:
            assert link.startswith("https://"), link  # another site: absolute is all we can say here
