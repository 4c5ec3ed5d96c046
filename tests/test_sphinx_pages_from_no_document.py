"""What a Sphinx HTML build wrote beside its documents, decided from plain values
(``sitemapkit.compat.sphinx_pages``): which generated files are no pages, which are, which
were copied; and which of a doctree's images are listed, at what URL. The real
``sphinx-build`` runs that hand these over are in test_sphinx.py."""

from pathlib import Path

from sitemapkit.compat.sphinx_pages import GENERATED_INDEX, doctree_image, generated_pages, image_urls

BASE = "https://example.org/docs/"


def _files(root: Path, *names: str) -> None:
    for name in names:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("<html><head></head><body></body></html>", encoding="utf-8")


def _html(outdir: Path):
    return lambda name: str(outdir / f"{name}.html")


def _dirhtml(outdir: Path):
    return lambda name: str(outdir / name / "index.html")


def _pages(outdir: Path, written=None, **given):
    options = {"domain_indices": (), "search": False, "genindex": False, "split_index": False, "viewcode": False,
               "additional": (), "documents": (), "extra_paths": (), **given}
    return list(generated_pages(outdir, written or _html(outdir), **options))


def test_indexes_the_builder_generates_are_no_pages_in_builder_order(tmp_path):
    _files(tmp_path, "py-modindex.html", "search.html", "genindex.html", "genindex-A.html", "genindex-all.html")
    pages = _pages(tmp_path, domain_indices=["py-modindex"], search=True, genindex=True, split_index=True)
    assert [(page.name, page.url, page.not_page) for page in pages] == [
        ("py-modindex.html", "py-modindex.html", GENERATED_INDEX),
        ("search.html", "search.html", GENERATED_INDEX),
        ("genindex.html", "genindex.html", GENERATED_INDEX),
        ("genindex-A.html", "genindex-A.html", GENERATED_INDEX),
        ("genindex-all.html", "genindex-all.html", GENERATED_INDEX),
    ]
    assert all(page.output == tmp_path / page.name and page.source is None for page in pages)


def test_a_letter_page_counts_only_when_the_index_is_split_and_built(tmp_path):
    _files(tmp_path, "genindex.html", "genindex-A.html")
    assert [page.name for page in _pages(tmp_path, genindex=True)] == ["genindex.html"]
    assert _pages(tmp_path, split_index=True) == []


def test_dirhtml_names_each_index_by_its_folder(tmp_path):
    _files(tmp_path, "genindex/index.html", "genindex-B/index.html", "search/index.html")
    pages = _pages(tmp_path, _dirhtml(tmp_path), search=True, genindex=True, split_index=True)
    assert [(page.name, page.url) for page in pages] == [
        ("search/index.html", "search/"), ("genindex/index.html", "genindex/"),
        ("genindex-B/index.html", "genindex-B/"),
    ]


def test_viewcode_sources_are_indexes_only_with_the_extension(tmp_path):
    _files(tmp_path, "_modules/index.html", "_modules/pkg/mod.html", "_modules/notes.txt")
    assert [(page.name, page.not_page) for page in _pages(tmp_path, viewcode=True)] == [
        ("_modules/index.html", GENERATED_INDEX), ("_modules/pkg/mod.html", GENERATED_INDEX),
    ]
    assert _pages(tmp_path) == []


def test_additional_pages_are_pages_unless_a_document_has_the_name(tmp_path):
    _files(tmp_path, "landing.html", "about.html")
    pages = _pages(tmp_path, additional=["landing", "about", "missing"], documents={"about"})
    assert [(page.name, page.not_page, page.copied) for page in pages] == [("landing.html", None, False)]


def test_files_not_written_are_left_out(tmp_path):
    assert _pages(tmp_path, domain_indices=["py-modindex"], search=True, genindex=True, additional=["a"]) == []


def test_extra_path_html_is_copied_with_its_source(tmp_path):
    outdir, extra, single = tmp_path / "out", tmp_path / "extra", tmp_path / "google123.html"
    _files(extra, "demo/page.html", "demo/style.css", "unbuilt.html")
    _files(tmp_path, "google123.html")
    _files(outdir, "demo/page.html", "demo/style.css", "google123.html")
    pages = _pages(outdir, extra_paths=[extra, single])
    assert [(page.name, page.source, page.output, page.copied) for page in pages] == [
        ("demo/page.html", extra / "demo/page.html", outdir / "demo/page.html", True),
        ("google123.html", single, outdir / "google123.html", True),
    ]


def test_a_doctree_image_is_a_remote_url_a_local_path_or_the_choices():
    assert doctree_image({"?": "https://cdn.example.org/a.png"}) == "https://cdn.example.org/a.png"
    assert doctree_image({"?": "data:image/png;base64,AAAA"}) is None
    assert doctree_image({"*": "img/a.png"}) == "img/a.png"
    assert doctree_image({"image/svg+xml": "img/a.svg", "image/png": "img/a.png"}) == (
        ("image/svg+xml", "img/a.svg"), ("image/png", "img/a.png"))
    assert doctree_image({}) is None


def test_image_urls_are_where_the_builder_copied_them():
    copied = {"img/a b.png": ({"index"}, "a b.png"), "img/a.png": ({"x"}, "a1.png"), "img/a.svg": ({"x"}, "a.svg")}
    found = ["img/a b.png", "https://cdn.example.org/r.png", "img/unknown.png",
             (("image/svg+xml", "img/a.svg"), ("image/png", "img/a.png"))]
    assert list(image_urls(found, ["image/png", "image/svg+xml"], copied, "_images", BASE)) == [
        BASE + "_images/a%20b.png", "https://cdn.example.org/r.png", BASE + "_images/a1.png",
    ]
    assert list(image_urls([(("image/gif", "img/a.gif"),)], ["image/png"], copied, "_images", BASE)) == []
