"""``build`` and ``validate`` agree on hreflang return links: a one-way alternate (the page it
names does not name the first one back) is left out by the build with the validator's rule,
``hreflang-no-return``, so ``validate --strict`` passes on what the build wrote. Real
``sitemapkit build`` and ``mkdocs build`` runs (mkdocs-static-i18n), and a property test of
the one check both use over arbitrary clusters and orders."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitemap_checks import assert_valid
from sitemapkit import Alternate, Entry, Report, Settings, validate, write_sitemaps
from sitemapkit.return_links import without_one_way

pytestmark = pytest.mark.slow  # real sitemapkit and mkdocs runs (make test-fast leaves them out)

BIN = Path(sys.executable).parent
BASE = "https://example.com/"
NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}


def alternates_by_loc(sitemap: Path) -> dict[str, set[tuple[str, str]]]:
    root = assert_valid(sitemap)
    return {url.findtext("s:loc", namespaces=NS): {(link.get("hreflang"), link.get("href"))
                                                   for link in url.iterfind("x:link", NS)}
            for url in root.iterfind("s:url", NS)}


def cli(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BIN / "sitemapkit"), *map(str, args)], capture_output=True, text=True,
                          env={**os.environ, "SOURCE_DATE_EPOCH": "1768435200"})


def page(lang: str, links: dict[str, str], text: str) -> str:
    heads = "".join(f'<link rel="alternate" hreflang="{code}" href="{BASE}{href}">' for code, href in links.items())
    return (f'<!doctype html><html lang="{lang}"><head><title>{text}</title>{heads}</head>'
            f"<body><main><p>{text}</p></main></body></html>")


def test_cli_build_leaves_a_one_way_alternate_out_and_validate_agrees(tmp_path):
    """``en/c`` names ``fr/c``, which names only ``de/c``: left out. The healthy clusters
    (``b`` in three languages, ``de/c`` with ``fr/c``) are kept whole, and so is ``a``: ``fr/a``
    is a copy that still says ``lang="en"``, but its own hreflang links (what search engines
    read) name it the French page and ``en/a`` back, and ``<html lang>`` adds no entry."""
    site = tmp_path / "site"
    three = {"en": "en/b.html", "fr": "fr/b.html", "de": "de/b.html"}
    files = {
        "en/a.html": page("en", {"en": "en/a.html", "fr": "fr/a.html"}, "A"),
        "fr/a.html": page("en", {"en": "en/a.html", "fr": "fr/a.html"}, "A, copied"),
        **{three[lang]: page(lang, three, f"B {lang}") for lang in three},
        "en/c.html": page("en", {"en": "en/c.html", "fr": "fr/c.html"}, "C"),
        "fr/c.html": page("fr", {"fr": "fr/c.html", "de": "de/c.html"}, "C fr"),
        "de/c.html": page("de", {"de": "de/c.html", "fr": "fr/c.html"}, "C de"),
    }
    for name, html in files.items():
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(html, encoding="utf-8")

    done = cli("build", site, "--base-url", BASE, "--format", "json")
    assert done.returncode == 0, done.stderr
    warnings = json.loads(done.stdout)["warnings"]
    one_way = sorted((w["page"], w["message"].split(" ")[2]) for w in warnings if w["rule"] == "hreflang-no-return")
    assert one_way == [(BASE + "en/c.html", BASE + "fr/c.html")]
    assert all(w["field"] == "hreflang" and "left out" in w["message"] for w in warnings)
    listed = alternates_by_loc(site / "sitemap.xml")
    assert listed[BASE + "en/a.html"] == listed[BASE + "fr/a.html"] == {
        ("en", BASE + "en/a.html"), ("fr", BASE + "fr/a.html")}
    assert listed[BASE + "en/c.html"] == set()
    cluster = {(code, BASE + href) for code, href in three.items()}
    assert all(listed[BASE + href] == cluster for href in three.values())
    assert listed[BASE + "de/c.html"] == listed[BASE + "fr/c.html"] == {
        ("de", BASE + "de/c.html"), ("fr", BASE + "fr/c.html")}

    checked = cli("validate", site / "sitemap.xml", "--site-dir", site, "--strict")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    # --strict: a warning is a failed build, which names the page and the rule.
    strict = cli("build", site, "--base-url", BASE, "--strict")
    assert strict.returncode == 1 and "hreflang-no-return" in strict.stderr and "en/c.html" in strict.stderr


def test_mkdocs_i18n_untranslated_page_points_at_the_other_home_and_is_left_out(tmp_path):
    """mkdocs-static-i18n without fallback: the untranslated ``a/`` names the French home page
    as its French version, and the French home page names ``/`` back, not ``a/``. The build
    warns with the validator's rule and leaves that alternate out; the translated pages keep
    their clusters; ``validate --strict`` passes on the output."""
    docs = tmp_path / "docs"
    docs.mkdir()
    for name, text in {"index.md": "# Home\n\nHello.\n", "index.fr.md": "# Accueil\n\nBonjour.\n",
                       "a.md": "# A\n\nOnly in English.\n", "b.md": "# B\n\nB.\n", "b.fr.md": "# B\n\nB fr.\n"}.items():
        (docs / name).write_text(text, encoding="utf-8")
    config = {"site_name": "T", "site_url": BASE, "theme": {"name": "material"}, "plugins": [
        {"i18n": {"docs_structure": "suffix", "fallback_to_default": False, "languages": [
            {"locale": "en", "default": True, "name": "English"}, {"locale": "fr", "name": "Français"}]}},
        "sitemapkit"]}
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    done = subprocess.run([str(BIN / "mkdocs"), "build"], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert f'{BASE}a/: hreflang: alternate hreflang="fr" {BASE}fr/ left out' in done.stderr
    assert "[hreflang-no-return]" in done.stderr and "1 warning" in done.stderr
    listed = alternates_by_loc(tmp_path / "site" / "sitemap.xml")
    assert listed[BASE + "a/"] == set()
    assert listed[BASE + "b/"] == listed[BASE + "fr/b/"] == {("en", BASE + "b/"), ("fr", BASE + "fr/b/")}
    assert listed[BASE] == listed[BASE + "fr/"] == {("en", BASE), ("fr", BASE + "fr/")}
    site = tmp_path / "site"
    checked = cli("validate", site / "sitemap.xml", "--site-dir", site, "--strict")
    assert checked.returncode == 0, checked.stdout + checked.stderr


# ------------------------------------------------------------------- the one check


URLS = [f"{BASE}{lang}/p{n}" for n in range(3) for lang in ("en", "fr", "de")]
CODES = {url: url.split("/")[3] for url in URLS}
URL = re.compile(r"https://[^\s,]+")


@st.composite
def sites(draw):
    """Entries in any order, each naming any of the URLs (itself included, or not)."""
    order = draw(st.permutations(URLS))
    listed = order[: draw(st.integers(1, len(URLS)))]
    entries = []
    for loc in listed:
        named = draw(st.lists(st.sampled_from(URLS), unique=True, max_size=4))
        if named:
            named = sorted({loc, *named})
        entries.append(Entry(loc, alternates=tuple(Alternate(CODES[url], url) for url in named)))
    return entries


def _named(message: str) -> str:
    """The alternate's URL a one-way message names first."""
    return URL.search(message).group()


def _listed_so_far(entries):
    """``without_one_way``'s input and its record of the URLs listed so far, kept in step."""
    seen: set[int] = set()

    def feed():
        for entry in entries:
            seen.add(hash(entry.loc))
            yield entry

    return feed(), seen.__contains__


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(entries=sites(), hold=st.sampled_from([0, 1, 3, 1000]))
def test_build_leaves_out_exactly_what_validate_reports(tmp_path_factory, entries, hold):
    """Whatever the clusters and the order: the one-way links the build reports are the ones
    ``validate`` reports on the unfiltered sitemap; with room to hold entries, what the build
    writes validates clean and every alternate it keeps between listed pages is mutual; every
    entry comes out once."""
    raw, out = tmp_path_factory.mktemp("raw"), tmp_path_factory.mktemp("built")
    options = Settings(base_url=BASE, robots_txt=False)
    write_sitemaps(entries, raw, options)
    reported = Counter(_named(p.message) for p in validate([raw / "sitemap.xml"]) if p.rule == "hreflang-no-return")
    by_line = {line: entry.loc for line, entry in enumerate(entries, 3)}  # one <url> a line, after two
    report = Report()
    stream, listed = _listed_so_far(entries)
    built = list(without_one_way(stream, report, listed, hold=hold))
    assert sorted(e.loc for e in built) == sorted(e.loc for e in entries)
    assert Counter(_named(w.message) for w in report.warnings) == reported
    assert sorted((w.where, _named(w.message)) for w in report.warnings) == sorted(
        (by_line[p.line], _named(p.message)) for p in validate([raw / "sitemap.xml"]) if p.rule == "hreflang-no-return")
    assert {w.rule for w in report.warnings} <= {"hreflang-no-return"}
    if hold >= len(entries):
        write_sitemaps(built, out, options)
        assert not [p for p in validate([out / "sitemap.xml"]) if p.rule == "hreflang-no-return"]
        named = {e.loc: {a.href for a in e.alternates} for e in built}
        for entry in built:
            for alternate in entry.alternates:
                assert alternate.href == entry.loc or alternate.href not in named or entry.loc in named[alternate.href]
