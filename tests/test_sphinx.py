"""The Sphinx adapter, through real ``sphinx-build`` runs on projects made in tmp_path."""

from __future__ import annotations

import re
import shutil
import struct
import zlib
from pathlib import Path

import pytest
from lxml import etree
from manifest_paths import manifests_in
from sphinx.cmd.build import build_main

from sitemap_checks import assert_valid, assert_valid_tree, locs, robots_sitemaps, usp_urls

pytestmark = pytest.mark.slow  # real generator runs (make test-fast leaves them out)

BASE = "https://docs.example.org/manual/"
NS = {
    "s": "http://www.sitemaps.org/schemas/sitemap/0.9",
    "image": "http://www.google.com/schemas/sitemap-image/1.1",
    "video": "http://www.google.com/schemas/sitemap-video/1.1",
    "news": "http://www.google.com/schemas/sitemap-news/0.9",
    "xhtml": "http://www.w3.org/1999/xhtml",
}
SAMPLE = Path(__file__).resolve().parents[1] / "sample_sites" / "sphinx"

CONF = f"""
project = "Tiny"
extensions = ["sitemapkit_sphinx"]
html_baseurl = "{BASE}"
html_extra_path = ["extra"]
exclude_patterns = ["extra"]
"""

DOCS = {
    "index.rst": "Home\n====\n\n.. toctree::\n\n   guide/intro\n   guide/images\n   video\n   hidden\n",
    "guide/intro.rst": "Intro\n=====\n\nHello.\n",
    "guide/images.rst": (
        ":sitemap_priority: 0.7\n\nImages\n======\n\n.. image:: ../pic.png\n\n"
        ".. image:: https://cdn.example.org/remote.png\n"
    ),
    "video.rst": (
        ':sitemap_video: {"title": "Tour", "description": "A tour.", '
        '"thumbnail_loc": "https://cdn.example.org/t.jpg", '
        '"content_loc": "https://cdn.example.org/t.mp4"}\n\nVideo\n=====\n\nWatch.\n'
    ),
    "hidden.rst": ":sitemap: false\n\nHidden\n======\n\nNot listed.\n",
    "orphan.rst": ":orphan:\n\nOrphan\n======\n\nWritten, so listed.\n",
    "extra/robots.txt": "User-agent: *\nDisallow: /private/\n",
}
LISTED = ["guide/images", "guide/intro", "index", "orphan", "video"]


def png(path: Path) -> None:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    head = chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + head + chunk(b"IDAT", zlib.compress(b"\0\0\0\0")) + chunk(b"IEND", b""))


def project(root: Path, conf: str = "", docs: dict[str, str] | None = None) -> Path:
    src = root / "src"
    for name, text in (docs or DOCS).items():
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        (src / name).write_text(text, encoding="utf-8")
    (src / "conf.py").write_text(CONF + conf, encoding="utf-8")
    png(src / "pic.png")
    return src


def build(src: Path, out: Path, *args: str, builder: str = "html", jobs: int = 1) -> tuple[int, str]:
    """Run sphinx-build; return its exit status and its warnings."""
    warnings = out.parent / f"{out.name}-warnings.txt"
    out.parent.mkdir(parents=True, exist_ok=True)
    status = build_main(
        ["-b", builder, "-j", str(jobs), "-q", "-w", str(warnings), *args, str(src), str(out)]
    )
    return status, warnings.read_text(encoding="utf-8") if warnings.exists() else ""


def urls(docnames: list[str], builder: str = "html", base: str = BASE) -> list[str]:
    if builder == "html":
        return sorted(base + d + ".html" for d in docnames)
    return sorted(base + ("" if d == "index" else d + "/") for d in docnames)


@pytest.fixture(autouse=True)
def _fixed_now(pin_now):
    pin_now(1763715600)  # 2025-11-21T09:00:00Z


@pytest.mark.parametrize("builder", ["html", "dirhtml"])
def test_full_build_lists_every_written_document(tmp_path, builder):
    src = project(tmp_path)
    out = tmp_path / "out"
    status, warnings = build(src, out, builder=builder)
    assert status == 0, warnings

    assert_valid_tree(out, BASE)
    assert sorted(usp_urls(out, BASE)) == urls(LISTED, builder)
    assert not any("search" in u or "genindex" in u for u in locs(out / "sitemap.xml"))
    robots = (out / "robots.txt").read_text(encoding="utf-8")
    assert robots.startswith("User-agent: *\nDisallow: /private/\n")
    assert robots_sitemaps(out / "robots.txt") == [BASE + "sitemap.xml"]

    root = etree.parse(str(out / "sitemap.xml"))
    page = urls(["guide/images"], builder)[0]
    images = root.xpath(f"//s:url[s:loc='{page}']/image:image/image:loc/text()", namespaces=NS)
    assert BASE + "_images/pic.png" in images
    assert "https://cdn.example.org/remote.png" in images
    assert root.xpath(f"//s:url[s:loc='{page}']/s:priority/text()", namespaces=NS) == ["0.7"]
    video = urls(["video"], builder)[0]
    assert root.xpath(f"//s:url[s:loc='{video}']/video:video/video:title/text()", namespaces=NS) == [
        "Tour"
    ]


def test_documents_the_builder_did_not_write_are_left_out_without_a_word(tmp_path):
    """``sphinx-build SRC OUT FILE`` into a fresh folder writes the named document (and the one
    whose toctree holds it): the others are read, have no file, and are not listed; no page is
    warned of as unreadable."""
    src = project(tmp_path)
    out = tmp_path / "out"
    warnings = tmp_path / "warnings.txt"
    status = build_main(["-b", "html", "-q", "-w", str(warnings), str(src), str(out), str(src / "guide" / "intro.rst")])
    told = warnings.read_text(encoding="utf-8") if warnings.exists() else ""
    assert status == 0, told
    assert not (out / "orphan.html").exists()
    assert sorted(locs(out / "sitemap.xml")) == urls(["guide/intro", "index"])
    assert "sitemapkit" not in told


def test_wildcard_image_is_the_builders_pick_and_data_uris_are_left_out(tmp_path):
    docs = {
        "index.rst": (
            "Home\n====\n\n.. image:: logo.*\n\n.. image:: data:image/png;base64,iVBORw0KGgo=\n\n"
            ".. image:: pic.png\n"
        ),
    }
    src = project(tmp_path, docs=docs)
    png(src / "logo.png")
    (src / "logo.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"/>', encoding="utf-8")
    out = tmp_path / "out"
    status, warnings = build(src, out)
    assert status == 0, warnings
    assert_valid_tree(out, BASE)
    root = etree.parse(str(out / "sitemap.xml"))
    images = root.xpath(f"//s:url[s:loc='{BASE}index.html']/image:image/image:loc/text()", namespaces=NS)
    assert images == [BASE + "_images/logo.svg", BASE + "_images/pic.png"]  # html prefers SVG


def test_command_line_overrides_split_and_gzip(tmp_path):
    src = project(tmp_path)
    out = tmp_path / "out"
    status, warnings = build(src, out, "-D", "sitemapkit_max_urls=2", "-D", "sitemapkit_gzip=1")
    assert status == 0, warnings
    files = assert_valid_tree(out, BASE)
    assert len(files) == 4  # an index over three files of at most two URLs
    assert sorted(usp_urls(out, BASE)) == urls(LISTED)
    assert all(path.with_name(path.name + ".gz").is_file() for path in files)


def test_parallel_build_matches_serial(tmp_path):
    src = project(tmp_path)
    serial, parallel = tmp_path / "j1", tmp_path / "j2"
    assert build(src, tmp_path / "warm-up")[0] == 0  # starts the manifest: first-seen times
    assert build(src, serial, jobs=1)[0] == 0
    assert build(src, parallel, jobs=2)[0] == 0
    for name in ("sitemap.xml", "robots.txt"):
        assert (serial / name).read_bytes() == (parallel / name).read_bytes()
    assert sorted(usp_urls(parallel, BASE)) == urls(LISTED)


@pytest.mark.parametrize("jobs", [1, 2])
def test_incremental_build_keeps_pages_not_rebuilt(tmp_path, monkeypatch, jobs):
    src = project(tmp_path, conf='sitemapkit_lastmod = ["fingerprint"]\n')
    assert build(src, tmp_path / "warm-up")[0] == 0  # starts the manifest: first-seen times
    out = tmp_path / "out"
    for _ in range(2):  # the first build starts the manifest (beside the doctrees in out)
        assert build(src, out, jobs=jobs)[0] == 0
    first = (out / "sitemap.xml").read_bytes()
    untouched = (out / "guide" / "images.html").stat().st_mtime_ns

    assert build(src, out, jobs=jobs)[0] == 0  # nothing changed
    assert (out / "sitemap.xml").read_bytes() == first

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1763802000")  # a day later
    intro = src / "guide" / "intro.rst"
    intro.write_text(intro.read_text() + "\nA new paragraph.\n", encoding="utf-8")
    assert build(src, out, jobs=jobs)[0] == 0
    assert (out / "guide" / "images.html").stat().st_mtime_ns == untouched  # not rebuilt

    second = (out / "sitemap.xml").read_bytes()
    assert_valid_tree(out, BASE)
    assert sorted(usp_urls(out, BASE)) == urls(LISTED)
    # The images of a page that was not read again are still listed.
    assert b"_images/pic.png" in second
    # Only the changed page's block differs.
    blocks = dict.fromkeys(re.findall(rb"<url>.*?</url>", first, re.S))
    changed = [b for b in re.findall(rb"<url>.*?</url>", second, re.S) if b not in blocks]
    assert len(changed) == 1 and b"guide/intro.html" in changed[0]
    assert first.replace(re.search(rb"<url><loc>[^<]*intro.html.*?</url>", first, re.S)[0], b"") == (
        second.replace(changed[0], b"")
    )


def test_translations_give_alternates_both_ways(tmp_path):
    conf = 'sitemap_locales = ["en", "fr"]\nsitemapkit_x_default = "en"\nsitemapkit_base_url = "%s"\n'
    src = project(tmp_path, conf=conf % BASE)
    en, fr = tmp_path / "site", tmp_path / "site" / "fr"
    assert build(src, en)[0] == 0
    status, warnings = build(src, fr, "-D", "language=fr", "-D", f"html_baseurl={BASE}fr/")
    assert status == 0, warnings

    assert_valid_tree(fr, BASE + "fr/")
    assert sorted(usp_urls(fr, BASE + "fr/")) == urls(LISTED, base=BASE + "fr/")
    for site, own in ((en, BASE), (fr, BASE + "fr/")):
        root = etree.parse(str(site / "sitemap.xml"))
        links = root.xpath(f"//s:url[s:loc='{own}guide/intro.html']/xhtml:link", namespaces=NS)
        assert {(a.get("hreflang"), a.get("href")) for a in links} == {
            ("en", BASE + "guide/intro.html"),
            ("fr", BASE + "fr/guide/intro.html"),
            ("x-default", BASE + "guide/intro.html"),
        }
    assert robots_sitemaps(fr / "robots.txt") == [BASE + "fr/sitemap.xml"]


@pytest.mark.parametrize(("line", "expected"), [("", {"de", "en"}), ("sitemap_locales = [None]", set())])
def test_locales_found_in_locale_dirs_unless_none(tmp_path, line, expected):
    src = project(tmp_path, conf=line + "\n")
    (src / "locales" / "de" / "LC_MESSAGES").mkdir(parents=True)
    out = tmp_path / "out"
    assert build(src, out)[0] == 0
    root = etree.parse(str(out / "sitemap.xml"))
    found = root.xpath(f"//s:url[s:loc='{BASE}index.html']/xhtml:link/@hreflang", namespaces=NS)
    assert set(found) == expected
    if expected:
        assert BASE + "de/index.html" in root.xpath("//xhtml:link/@href", namespaces=NS)


def test_sphinx_sitemap_options_keep_their_meaning(tmp_path):
    conf = (
        'html_baseurl = ""\n'  # no canonical links: they would name the root, not de/2.1/
        f'sitemapkit_base_url = "{BASE}"\n'
        'language = "de"\nversion = "2.1"\n'
        'sitemap_url_scheme = "{lang}{version}{link}"\n'  # asked for: version and language in URLs
        'sitemap_excludes = ["guide/*", "orphan.html"]\n'
        'sitemap_filename = "map.xml"\nsitemap_show_lastmod = False\n'
    )
    src = project(tmp_path, conf=conf)
    out = tmp_path / "out"
    status, warnings = build(src, out)
    assert status == 0, warnings
    base = BASE + "de/2.1/"
    assert not (out / "sitemap.xml").exists()
    assert sorted(usp_urls(out, base, "map.xml")) == [base + "index.html", base + "video.html"]
    assert b"<lastmod>" not in (out / "map.xml").read_bytes()
    assert robots_sitemaps(out / "robots.txt") == [base + "map.xml"]


def test_no_language_no_en_prefix_and_slash_kept(tmp_path):
    src = project(tmp_path)
    conf = src / "conf.py"
    conf.write_text(conf.read_text().replace(BASE, BASE.rstrip("/")), encoding="utf-8")
    out = tmp_path / "out"
    assert build(src, out)[0] == 0
    assert sorted(usp_urls(out, BASE)) == urls(LISTED)  # not .../manualindex.html, no /en/
    assert robots_sitemaps(out / "robots.txt") == [BASE + "sitemap.xml"]


def test_news_from_file_wide_metadata(tmp_path):
    docs = {
        **DOCS,
        "news.rst": ":sitemap_news: publication_date=2025-11-21T08:00:00Z\n\nBig release\n===========\n\nNews.\n",
    }
    conf = 'sitemapkit_news = {"publication": "Tiny News", "language": "en", "match": "news*"}\n'
    src = project(tmp_path, conf=conf, docs=docs)
    out = tmp_path / "out"
    status, warnings = build(src, out)
    assert status == 0, warnings
    assert_valid_tree(out, BASE)
    news = out / "sitemap-news.xml"
    assert_valid(news)
    assert robots_sitemaps(out / "robots.txt") == [BASE + "sitemap.xml", BASE + "sitemap-news.xml"]
    root = etree.parse(str(news))
    assert root.xpath("//news:title/text()", namespaces=NS) == ["Big release"]
    assert root.xpath("//s:loc/text()", namespaces=NS) == [BASE + "news.html"]


def test_without_base_url_warns_and_writes_nothing(tmp_path):
    src = project(tmp_path)
    (src / "conf.py").write_text(CONF.replace(f'html_baseurl = "{BASE}"', ""), encoding="utf-8")
    out = tmp_path / "out"
    status, warnings = build(src, out)
    assert status == 0
    assert "html_baseurl" in warnings and "sitemapkit_base_url" in warnings
    assert not (out / "sitemap.xml").exists()
    assert build(src, tmp_path / "strict", "-W", "-E")[0] != 0


def test_page_warnings_go_through_sphinx_logger(tmp_path):
    docs = {**DOCS, "guide/intro.rst": ":sitemap_priority: 1.5\n\nIntro\n=====\n\nHello.\n"}
    src = project(tmp_path, docs=docs)
    status, warnings = build(src, tmp_path / "out")
    assert status == 0
    assert "guide/intro.rst: sitemap_priority" in warnings and "priority-range" in warnings
    assert build(src, tmp_path / "strict", "-W")[0] != 0
    assert build(src, tmp_path / "own", "-D", "sitemapkit_strict=1")[0] != 0


@pytest.mark.filterwarnings("ignore:'sphinx.environment.BuildEnvironment.app' is deprecated")
def test_loaded_beside_sphinx_sitemap_it_warns(tmp_path):
    src = project(tmp_path, conf='extensions = ["sphinx_sitemap", "sitemapkit_sphinx"]\n')
    status, warnings = build(src, tmp_path / "out")
    assert status == 0
    assert "remove 'sphinx_sitemap' from extensions" in warnings


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("sitemapkit_gzip = 'yes'", "gzip"),
        ("sitemapkit_max_urls = 0", "max_urls"),
        ("sitemapkit_gzp = True", "did you mean sitemapkit_gzip?"),
        ("sitemapkit_gzp: bool = bool('x')", "did you mean sitemapkit_gzip?"),
        ("sitemap_url_scheme = '{link}{lang}'", "must end with {link}"),
    ],
)
def test_bad_configuration_is_a_warning_and_no_sitemap(tmp_path, line, words):
    src = project(tmp_path, conf=line + "\n")
    status, warnings = build(src, tmp_path / "out")
    assert status == 0
    assert words in warnings and "[sitemapkit.option-invalid]" in warnings
    assert not (tmp_path / "out" / "sitemap.xml").exists()
    assert build(src, tmp_path / "strict", "-W")[0] != 0


def test_sample_site_builds_and_validates(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1795262400")  # 2026-11-21T12:00Z: news in window
    src = tmp_path / "sample"
    shutil.copytree(SAMPLE, src, ignore=shutil.ignore_patterns("_build", ".cache"))
    site = tmp_path / "html"
    base = "https://example.org/manual/"
    assert build(src, site, jobs=2)[0] == 0
    status, warnings = build(
        src, site / "fr", "-D", "language=fr", "-D", f"html_baseurl={base}fr/", jobs=2
    )
    assert status == 0, warnings
    for folder, url, lang in ((site, base, "en"), (site / "fr", base + "fr/", "fr")):
        assert_valid_tree(folder, url)
        assert_valid(folder / "sitemap-news.xml")
        listed = usp_urls(folder, url)
        assert url + "install.html" in listed
        assert not any("internal" in u or "license" in u for u in listed)
        news = etree.parse(str(folder / "sitemap-news.xml"))
        assert news.xpath("//news:language/text()", namespaces=NS) == [lang]
    # Each language build keeps its own manifest, so neither undoes the other's: beside
    # Sphinx's doctrees, never in the source tree.
    assert manifests_in(site / ".doctrees/sitemapkit")
    assert manifests_in(site / "fr/.doctrees/sitemapkit")
    assert not (src / ".cache").exists()
    assert (site / "sitemap.txt").exists() and (site / "sitemap.xml.gz").exists()
    assert robots_sitemaps(site / "robots.txt") == [base + "sitemap.xml", base + "sitemap-news.xml"]


def test_every_setting_is_read_after_command_line_overrides(tmp_path):
    # A French project: conf.py says so; the English translation is built with -D.
    src = project(tmp_path, conf=f'language = "fr"\nsitemap_locales = ["en", "fr"]\nsitemapkit_base_url = "{BASE}"\n')
    out = tmp_path / "en"
    status, warnings = build(
        src, out, "-D", "language=en", "-D", f"html_baseurl={BASE}en/", "-D", "sitemap_filename=map.xml",
        "-D", "sitemap_excludes=orphan.html", "-D", "sitemapkit_txt=1", "-D", "sitemap_show_lastmod=0",
    )
    assert status == 0, warnings
    own = BASE + "en/"
    assert sorted(usp_urls(out, own, "map.xml")) == urls([d for d in LISTED if d != "orphan"], base=own)
    assert (out / "map.txt").is_file() and b"<lastmod>" not in (out / "map.xml").read_bytes()
    root = etree.parse(str(out / "map.xml"))
    links = root.xpath(f"//s:url[s:loc='{own}guide/intro.html']/xhtml:link", namespaces=NS)
    assert {(a.get("hreflang"), a.get("href")) for a in links} == {
        ("en", own + "guide/intro.html"),
        ("fr", BASE + "guide/intro.html"),  # conf.py's language sits at the root
    }


def test_url_scheme_without_lang_says_why_there_are_no_alternates(tmp_path):
    src = project(tmp_path, conf='sitemap_locales = ["en", "fr"]\nsitemap_url_scheme = "{link}"\n')
    out = tmp_path / "out"
    status, warnings = build(src, out)
    assert status == 0
    assert warnings.count("sitemap_locales: ignored") == 1 and "has no {lang}" in warnings
    assert b"xhtml:link" not in (out / "sitemap.xml").read_bytes()
    assert sorted(usp_urls(out, BASE)) == urls(LISTED)


@pytest.mark.parametrize("value", ["/", "os.environ.get('READTHEDOCS_CANONICAL_URL', '/')", "'docs/'"])
def test_relative_html_baseurl_builds_with_one_warning(tmp_path, capsys, monkeypatch, value):
    monkeypatch.delenv("READTHEDOCS_CANONICAL_URL", raising=False)
    value = value if "(" in value or "'" in value else repr(value)
    src = project(tmp_path, conf=f"import os\nversion = '1.0'\nhtml_baseurl = {value}\n")
    status, warnings = build(src, tmp_path / "out")
    assert status == 0, capsys.readouterr().err
    assert warnings.count("WARNING") == 1 and "no sitemap written" in warnings
    assert "is not an absolute URL" in warnings and "set html_baseurl" in warnings
    assert "ConfigError" not in capsys.readouterr().err
    assert not (tmp_path / "out" / "sitemap.xml").exists()
    assert build(src, tmp_path / "strict", "-W")[0] == 1  # a warning turned error, the Sphinx way


def test_canonical_links_elsewhere_give_one_warning_naming_the_cause(tmp_path):
    # html_baseurl (the canonical links) at the root, the scheme asking for version/ in URLs.
    src = project(tmp_path, conf='version = "1.0"\nsitemap_url_scheme = "{lang}{version}{link}"\n')
    out = tmp_path / "out"
    status, warnings = build(src, out)
    assert status == 0
    assert warnings.count("WARNING") == 1, warnings
    assert "sitemap_url_scheme '{lang}{version}{link}'" in warnings and BASE + "1.0/" in warnings
    assert "canonical" in warnings and "[sitemapkit.canonical-clash]" in warnings
    assert not (out / "sitemap.xml").exists()


def test_warnings_are_tagged_once(tmp_path):
    docs = {**DOCS, "guide/intro.rst": ":sitemap_priority: 1.5\n\nIntro\n=====\n\nHello.\n"}
    status, warnings = build(project(tmp_path, docs=docs), tmp_path / "out")
    assert status == 0
    line = next(line for line in warnings.splitlines() if "priority" in line)
    assert line.count("priority-range") == 1 and line.endswith("[sitemapkit.priority-range]")
    assert line.count("sitemapkit:") == 1


def test_sphinx_sitemap_site_url_serves_and_indent_is_named_as_ignored(tmp_path):
    src = project(tmp_path, conf=f'html_baseurl = ""\nsite_url = "{BASE}"\nsitemap_indent = 2\n')
    out = tmp_path / "out"
    status, warnings = build(src, out)
    assert status == 0
    assert sorted(usp_urls(out, BASE)) == urls(LISTED)
    assert warnings.count("WARNING") == 1 and "sitemap_indent: ignored" in warnings
