"""`sitemapkit build build --source-dir .` on what a real Docusaurus leaves and `sitemapkit
build _site --source-dir .` on what a real Eleventy leaves, each page dated from its own source.

The built folders are the generators' own output, made by tests/generator_output/make_fixtures.sh
(Docusaurus' classic quickstart, `create-docusaurus`, and a small Eleventy blog with its input
folder ``src/``), which records each generator's version in GENERATED_BY; the script drops
Docusaurus' JS/CSS bundles and images, the HTML pages are as it wrote them. The sources are
committed here into a real git history."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from git_helpers import commit, init
from lxml import etree

from sitemap_checks import assert_valid_tree, local_path
from sitemapkit.cli import main

pytestmark = pytest.mark.slow  # real git histories (make test-fast leaves them out)

FIXTURES = Path(__file__).parent / "generator_output"
FIRST = "2023-05-05T12:00:00Z"
LATER = "2024-09-09T09:09:09Z"
DOCUSAURUS = "https://docusaurus.example/"
ELEVENTY = "https://eleventy.example/"
NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
IMAGE = {"image": "http://www.google.com/schemas/sitemap-image/1.1", "s": NS["s"]}


def served_file(site: Path, base_url: str, url: str) -> Path:
    """The file a static host sends for ``url``: ``a/`` and ``a`` (Docusaurus' canonical
    spelling, without the trailing slash) are both ``a/index.html``."""
    path = local_path(site, base_url, url)
    return path if path.is_file() else path / "index.html"


def listed(site: Path, base_url: str, name: str = "sitemap.xml") -> dict[str, str | None]:
    """loc -> lastmod of the urlset ``name`` in ``site``, each loc a file written there."""
    root = etree.parse(str(site / name)).getroot()
    found = {url.findtext("s:loc", namespaces=NS): url.findtext("s:lastmod", namespaces=NS)
             for url in root.iterfind("s:url", NS)}
    missing = [url for url in found if not served_file(site, base_url, url).is_file()]
    assert not missing, f"listed but not written: {missing}"
    return found


def pages_written(site: Path, base_url: str) -> set[str]:
    """Each HTML page the generator wrote (but its 404 page), as the URL of its canonical link."""
    found = set()
    for path in site.rglob("*.html"):
        if path.name == "404.html":
            continue
        head = etree.HTML(path.read_bytes())
        canonical = head.xpath("//link[@rel='canonical']/@href")
        folder = path.parent.relative_to(site).as_posix()
        found.add(canonical[0] if canonical else base_url if folder == "." else f"{base_url}{folder}/")
    return found


def strict_validate(site: Path) -> int:
    return main(["validate", str(site / "sitemap.xml"), "--site-dir", str(site), "--strict"])


def project(tmp_path: Path, fixture: str, output: str) -> Path:
    """The fixture's sources committed at FIRST, one page edited at LATER (Docusaurus' last
    doc, Eleventy's note and its README), and the generator's built folder beside them."""
    source = FIXTURES / fixture
    root = init(tmp_path / fixture)
    shutil.copytree(source, root, dirs_exist_ok=True,
                    ignore=lambda folder, names: [n for n in names if n in (output, "GENERATED_BY")])
    (root / ".gitignore").write_text(f"{output}/\nnode_modules/\n.cache/\n", encoding="utf-8")
    commit(root, FIRST)
    edited = (["docs/tutorial-basics/congratulations.mdx"] if fixture.startswith("docusaurus")
              else ["src/notes/note.md", "README.md"])
    commit(root, LATER, {name: (root / name).read_text(encoding="utf-8") + "\nEdited.\n" for name in edited})
    shutil.copytree(source / output, root / output)
    _assets_back(root / output)
    return root


_ASSET = re.compile(r"""src=["']?/((?:assets|img)/[^"' >]+)""")


def _assets_back(site: Path) -> None:
    """make_fixtures.sh leaves Docusaurus' build/assets and build/img out of the repository:
    each one a page shows is put back (empty), where Docusaurus wrote it, since a listed
    same-site image must be a file of the built site."""
    for page in site.rglob("*.html"):
        for name in _ASSET.findall(page.read_text(encoding="utf-8")):
            (site / name).parent.mkdir(parents=True, exist_ok=True)
            (site / name).touch()


def test_real_docusaurus_pages_are_its_own_sitemaps_dated_by_their_sources(tmp_path, monkeypatch, capsys):
    assert (FIXTURES / "docusaurus-classic" / "GENERATED_BY").read_text().startswith("docusaurus 3.")
    root = project(tmp_path, "docusaurus-classic", "build")
    site = root / "build"
    own = set(listed(site, DOCUSAURUS))  # Docusaurus' own sitemap, read before sitemapkit replaces it
    monkeypatch.chdir(root)
    assert main(["build", "build", "--base-url", DOCUSAURUS, "--source-dir", "."]) == 0
    assert [path.name for path in assert_valid_tree(site, DOCUSAURUS)] == ["sitemap.xml"]
    found = listed(site, DOCUSAURUS)
    # every page, in the spelling its canonical link declares (no trailing slash), as Docusaurus lists it
    assert set(found) == own == pages_written(site, DOCUSAURUS)
    assert len(found) == 27
    docs, blog = f"{DOCUSAURUS}docs/", f"{DOCUSAURUS}blog"
    assert found == {
        DOCUSAURUS: FIRST,  # src/pages/index.js
        f"{DOCUSAURUS}markdown-page": FIRST,  # src/pages/markdown-page.mdx
        f"{docs}intro": FIRST,
        f"{docs}tutorial-basics/create-a-page": "2024-06-01",  # last_update: {date: ...}
        f"{docs}tutorial-basics/congratulations": LATER,  # edited later
        **{f"{docs}tutorial-basics/{name}": FIRST
           for name in ("create-a-blog-post", "create-a-document", "deploy-your-site", "markdown-features")},
        **{f"{docs}tutorial-extras/{name}": FIRST for name in ("manage-docs-versions", "translate-your-site")},
        # the generated category pages list their docs: the newest of them (not the pages their
        # breadcrumbs and previous/next links in <main> name: extras' "previous" is congratulations)
        f"{docs}category/tutorial---basics": LATER,
        f"{docs}category/tutorial---extras": FIRST,
        # blog posts: the date in the file name (the slug in front matter names the URL)
        f"{blog}/first-blog-post": "2019-05-28",
        f"{blog}/long-blog-post": "2019-05-29",
        f"{blog}/mdx-blog-post": "2021-08-01",
        f"{blog}/welcome": "2021-08-26",  # blog/2021-08-26-welcome/index.mdx
        # blog listings (index, archive, authors, tags): the newest post they list
        blog: "2021-08-26", f"{blog}/archive": "2021-08-26", f"{blog}/tags": "2021-08-26",
        f"{blog}/authors": "2021-08-26", f"{blog}/authors/all-sebastien-lorber-articles": "2021-08-26",
        f"{blog}/authors/yangshun": "2021-08-26",
        f"{blog}/tags/docusaurus": "2021-08-26", f"{blog}/tags/facebook": "2021-08-26",
        f"{blog}/tags/hello": "2021-08-26",
        f"{blog}/tags/hola": "2019-05-28",  # its one post; not the author page its byline links to
    }
    out = capsys.readouterr().out
    assert "27 URLs" in out and "lastmod: " in out and "none" not in out.split("lastmod: ")[1].split(";")[0]
    # the pages' own images only: not the logo, not the authors' avatars beside every post's byline
    urls = etree.parse(str(site / "sitemap.xml")).getroot().iterfind("s:url", NS)
    images = {url.findtext("s:loc", namespaces=NS): url.xpath("image:image/image:loc/text()", namespaces=IMAGE)
              for url in urls}
    assert {page: found for page, found in images.items() if found} == {
        f"{blog}/welcome":
            [f"{DOCUSAURUS}assets/images/docusaurus-plushie-banner-a60f7593abca1e3eef26a9afa244e4fb.jpeg"],
        f"{docs}tutorial-extras/manage-docs-versions":
            [f"{DOCUSAURUS}assets/images/docsVersionDropdown-35e13cbe46c9923327f30a76a90bff3b.png"],
        f"{docs}tutorial-extras/translate-your-site":
            [f"{DOCUSAURUS}assets/images/localeDropdown-f0d995e751e7656a1b0dbbc1134e49c2.png"],
    }
    assert 'class="avatar__photo' in (site / "blog" / "welcome" / "index.html").read_text(encoding="utf-8")


def test_the_documented_docusaurus_recipe_validates_clean(tmp_path, monkeypatch):
    """docs/cli.md: `sitemap: false` in the classic preset (the fixture's recipe.config.js; the
    script checks that its build differs from build/ by sitemap.xml alone), then sitemapkit."""
    root = project(tmp_path, "docusaurus-classic", "build")
    (root / "build" / "sitemap.xml").unlink()
    monkeypatch.chdir(root)
    assert main(["build", "build", "--base-url", DOCUSAURUS, "--source-dir", ".", "--strict"]) == 0
    assert len(listed(root / "build", DOCUSAURUS)) == 27
    assert strict_validate(root / "build") == 0


def test_real_eleventy_input_folder_and_permalinks(tmp_path, monkeypatch, capsys):
    assert (FIXTURES / "eleventy-blog" / "GENERATED_BY").read_text().startswith("eleventy 3.")
    root = project(tmp_path, "eleventy-blog", "_site")
    site = root / "_site"
    monkeypatch.chdir(root)
    assert main(["build", "_site", "--base-url", ELEVENTY, "--source-dir", ".", "--strict"]) == 0
    found = listed(site, ELEVENTY)
    assert set(found) == pages_written(site, ELEVENTY)  # every page Eleventy wrote, none of feed.njk's
    assert found == {
        ELEVENTY: "2024-07-07",  # src/index.md lists about/ and blog/first/; never the README (LATER)
        f"{ELEVENTY}about/": "2024-07-07",  # updated
        f"{ELEVENTY}blog/first/": "2024-02-02",  # date
        f"{ELEVENTY}writing/second/": FIRST,  # permalink: /writing/second/
        f"{ELEVENTY}notes/note/": LATER,  # date: git Last Modified
    }
    assert "date-format" not in capsys.readouterr().err
    assert strict_validate(site) == 0
