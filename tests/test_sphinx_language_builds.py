"""Sphinx language builds with ``sitemap_url_scheme = "{lang}{link}"`` and
``sitemap_locales = ["en", "fr"]``, one real ``sphinx-build`` per language: where English
goes is decided by conf.py alone, the same in every language's build, so no build's
``hreflang`` links point at the site root by accident; when ``html_baseurl`` shows that
English is served under ``en/`` while conf.py names no language, the one warning names the fix
that works (``language = "en"`` in conf.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree
from sphinx.cmd.build import build_main

from sitemap_checks import assert_valid_tree

pytestmark = pytest.mark.slow  # real generator runs (make test-fast leaves them out)

ROOT = "https://docs.example.org/"
XHTML = "{http://www.w3.org/1999/xhtml}link"
LOC = "{http://www.sitemaps.org/schemas/sitemap/0.9}loc"
CONF = f"""
project = "Two languages"
extensions = ["sitemapkit_sphinx"]
site_url = "{ROOT}"
html_baseurl = "{ROOT}"
sitemap_url_scheme = "{{lang}}{{link}}"
sitemap_locales = ["en", "fr"]
"""


def project(root: Path, conf: str = "") -> Path:
    src = root / "src"
    src.mkdir(parents=True)
    (src / "conf.py").write_text(CONF + conf, encoding="utf-8")
    (src / "index.rst").write_text("Home\n====\n\n.. toctree::\n\n   guide\n", encoding="utf-8")
    (src / "guide.rst").write_text("Guide\n=====\n\nText.\n", encoding="utf-8")
    return src


def build(src: Path, out: Path, language: str, capsys) -> tuple[int, str, str]:
    """``sphinx-build -D language=LANG -D html_baseurl=ROOT/LANG/``: status, warnings, output."""
    warnings = out.parent / f"{out.name}-warnings.txt"
    capsys.readouterr()
    status = build_main(["-b", "html", "-w", str(warnings), "-D", f"language={language}",
                         "-D", f"html_baseurl={ROOT}{language}/", str(src), str(out)])
    said = capsys.readouterr()
    return status, warnings.read_text(encoding="utf-8"), said.out + said.err


def alternates(sitemap: Path) -> dict[str, dict[str, str]]:
    """loc -> {hreflang: href}."""
    return {url.findtext(LOC): {link.get("hreflang"): link.get("href") for link in url.iter(XHTML)}
            for url in etree.parse(str(sitemap)).getroot()}


def test_english_under_en_without_language_in_conf_py_names_the_fix_that_works(tmp_path, capsys):
    src = project(tmp_path)
    status, warnings, _ = build(src, tmp_path / "en", "en", capsys)
    assert status == 0
    assert not (tmp_path / "en" / "sitemap.xml").exists()
    assert warnings.count("WARNING") == 1, warnings
    assert 'add language = "en" to conf.py' in warnings and "[sitemapkit.canonical-clash]" in warnings
    # not the fixes that do not work here
    assert "remove sitemap_url_scheme" not in warnings and "set html_baseurl" not in warnings

    # the named fix, and both language builds agree on where English is
    with open(src / "conf.py", "a", encoding="utf-8") as conf:
        conf.write('language = "en"\n')
    for language in ("en", "fr"):
        out = tmp_path / f"fixed-{language}"
        status, warnings, _ = build(src, out, language, capsys)
        assert status == 0 and "WARNING" not in warnings, warnings
        assert_valid_tree(out, f"{ROOT}{language}/")
        found = alternates(out / "sitemap.xml")
        assert sorted(found) == [f"{ROOT}{language}/guide.html", f"{ROOT}{language}/index.html"]
        for loc, links in found.items():
            page = loc.rpartition("/")[2]
            assert links == {"en": f"{ROOT}en/{page}", "fr": f"{ROOT}fr/{page}"}


def test_french_build_says_where_its_english_links_point(tmp_path, capsys):
    # The layout the sample site uses: English (named by nothing) at the root, French in fr/.
    # The French build cannot know how the English one is run, so it says where it points.
    src = project(tmp_path)
    status, warnings, said = build(src, tmp_path / "fr", "fr", capsys)
    assert status == 0 and "WARNING" not in warnings, warnings
    assert f'hreflang="en" links point at {ROOT}: conf.py names no language' in said
    assert 'add language = "en" to conf.py if English is served under ' + ROOT + "en/" in said
    assert "[lang-unnamed]" in said
    found = alternates(tmp_path / "fr" / "sitemap.xml")
    assert found[f"{ROOT}fr/guide.html"] == {"en": f"{ROOT}guide.html", "fr": f"{ROOT}fr/guide.html"}
    assert build_main(["-b", "html", "-W", "-q", "-D", "language=fr", "-D", f"html_baseurl={ROOT}fr/",
                       str(src), str(tmp_path / "fr-strict")]) == 0  # a note, not a warning


def test_d_language_en_at_the_root_says_it_does_not_move_english(tmp_path, capsys):
    src = project(tmp_path)
    capsys.readouterr()
    status = build_main(["-b", "html", "-D", "language=en", str(src), str(tmp_path / "out")])
    said = capsys.readouterr().out
    assert status == 0
    assert "-D language=en does not put en/ into URLs" in said and "[lang-unnamed]" in said
    found = alternates(tmp_path / "out" / "sitemap.xml")
    assert found[f"{ROOT}guide.html"] == {"en": f"{ROOT}guide.html", "fr": f"{ROOT}fr/guide.html"}
