"""sphinx-sitemap's values and where a Sphinx build's pages live, decided from plain values
(the real sphinx-build runs are in test_sphinx.py)."""

from pathlib import Path

import pytest

from sitemapkit import SettingsError
from sitemapkit.compat.sphinx_sitemap import CONFIG_VALUES, SCHEME, SphinxConfig
from sitemapkit.lastmod.manifest import site_manifest
from sitemapkit.sources.pyconf import conf_py
from sitemapkit.versions import ReadTheDocs

ROOT = "https://example.org/manual/"


def test_config_values_are_the_sphinx_names_only():
    assert CONFIG_VALUES[:2] == ("html_baseurl", "language") and "sitemap_url_scheme" in CONFIG_VALUES
    assert not {"confdir", "overrides", "conf_py", "options", "cache_dir"} & set(CONFIG_VALUES)


def test_without_a_scheme_pages_are_at_html_baseurl_and_translations_beside_them():
    site = SphinxConfig(html_baseurl="https://example.org/manual", conf_py={"language": "en"})
    assert site.build_url() == ROOT
    assert site.page_url("fr", "guide/a.html") == ROOT + "fr/guide/a.html"
    assert site.page_url("en", "guide/a.html") == ROOT + "guide/a.html"


def test_a_scheme_places_each_language_and_version_under_the_root():
    site = SphinxConfig(sitemapkit_base_url=ROOT, html_baseurl=ROOT + "fr/2.1/", language="fr", version="2.1",
                        sitemap_url_scheme=SCHEME, conf_py={"language": "fr"})
    assert site.build_url() == ROOT + "fr/2.1/"
    assert site.page_url("de", "a.html") == ROOT + "de/2.1/a.html"
    assert site.canonical_clash() is None


def test_lang_is_empty_for_english_when_conf_py_names_no_language():
    site = SphinxConfig(sitemapkit_base_url=ROOT, sitemap_url_scheme="{lang}{link}")
    assert site.page_url("en", "a.html") == ROOT + "a.html"
    assert site.page_url("fr", "a.html") == ROOT + "fr/a.html"


def test_sphinx_sitemaps_own_default_scheme_counts_only_when_set():
    loaded = {"html_baseurl": ROOT, "sitemap_url_scheme": SCHEME, "extensions": ["sphinx_sitemap"],
              "language": "fr", "conf_py": {"language": "en"}}
    assert SphinxConfig(**loaded).scheme is None
    assert SphinxConfig(**loaded).build_url() == ROOT
    assert SphinxConfig(**loaded, overrides={"sitemap_url_scheme"}).build_url() == ROOT + "fr/"


def test_a_language_conf_py_computes_is_sphinxs_unless_d_replaced_it():
    computed = {"html_baseurl": ROOT, "language": "de", "conf_py": {"language": ...}}
    assert SphinxConfig(**computed).conf_language == "de"
    assert SphinxConfig(**computed, overrides={"language"}).conf_language is None
    assert SphinxConfig(html_baseurl=ROOT, conf_py={"language": None}).conf_language is None


def test_bad_values_are_settings_errors_naming_the_value():
    with pytest.raises(SettingsError, match="sitemapkit_base_url 'docs/' must be an absolute"):
        SphinxConfig(html_baseurl=ROOT, sitemapkit_base_url="docs/").build_url()
    with pytest.raises(SettingsError, match=r"sitemap_url_scheme '\{lang\}' must end with \{link\}"):
        SphinxConfig(html_baseurl=ROOT, sitemap_url_scheme="{lang}").build_url()


def test_a_scheme_away_from_the_canonical_links_is_a_clash():
    site = SphinxConfig(html_baseurl=ROOT, sitemapkit_base_url="https://example.org/", sitemap_url_scheme="{link}")
    clash = site.canonical_clash()
    assert (clash.rule, clash.field) == ("canonical-clash", "html_baseurl")
    assert clash.message == (
        f"no sitemap written: html_baseurl gives every page a canonical link under {ROOT}, but "
        "sitemap_url_scheme '{link}' puts them under https://example.org/, so every page would be left "
        "out as canonical elsewhere; remove sitemap_url_scheme (pages are then listed at their canonical "
        "URLs) or set html_baseurl to https://example.org/"
    )


def test_on_read_the_docs_a_clash_names_read_the_docs_not_options_never_set():
    served = "https://proj.readthedocs.io/en/latest/"
    site = SphinxConfig(html_baseurl="https://docs.example.com/", read_the_docs=ReadTheDocs(served, "latest"))
    clash = site.canonical_clash()
    assert clash.rule == "canonical-clash"
    assert f"but Read the Docs serves them (READTHEDOCS_CANONICAL_URL) under {served}" in clash.message
    assert 'html_baseurl = os.environ.get("READTHEDOCS_CANONICAL_URL", "")' in clash.message
    assert "sitemap_url_scheme" not in clash.message and "remove sitemapkit_base_url" not in clash.message


def test_translations_are_the_other_locales_or_none_and_why(tmp_path: Path):
    (tmp_path / "locales" / "fr" / "LC_MESSAGES").mkdir(parents=True)
    (tmp_path / "locales" / "de").mkdir()
    site = SphinxConfig(html_baseurl=ROOT, confdir=str(tmp_path))
    assert site.translations() == (["de", "fr"], None)
    assert SphinxConfig(html_baseurl=ROOT, sitemap_locales=[None], confdir=str(tmp_path)).translations() == ([], None)
    no_lang = SphinxConfig(html_baseurl=ROOT, sitemap_locales=["en", "fr"], sitemap_url_scheme="{link}")
    others, why = no_lang.translations()
    assert others == [] and (why.rule, why.field) == ("option-ignored", "sitemap_locales")
    assert why.message.startswith("ignored: sitemap_url_scheme '{link}' has no {lang}")
    french = SphinxConfig(html_baseurl=ROOT + "fr/", sitemap_locales=["en", "fr"], language="fr")
    others, why = french.translations()
    assert others == [] and why.message == (
        f"ignored: this build's pages are at {ROOT}fr/ (html_baseurl), but translations "
        f"of a site rooted at {ROOT}fr/ put language 'fr' at {ROOT}fr/fr/; set sitemapkit_base_url to the "
        "URL all languages hang under")
    rooted = SphinxConfig(html_baseurl=ROOT + "fr/", sitemapkit_base_url=ROOT, sitemap_locales=["en", "fr"],
                          language="fr")
    assert rooted.translations() == (["en"], None)


def test_settings_take_sphinx_sitemaps_values_under_ours():
    site = SphinxConfig(html_baseurl=ROOT, sitemap_filename="map.xml", sitemap_show_lastmod=True,
                        sitemap_excludes=["license.html"], options={"exclude": "draft/*"}, cache_dir="/cache")
    chosen = site.settings()
    assert (chosen.base_url, chosen.filename, chosen.lastmod) == (ROOT, "map.xml", ("meta", "git"))
    assert chosen.exclude == ("draft/*", "license.html")
    assert chosen.state_file == "/cache/state.json"
    ours = SphinxConfig(html_baseurl=ROOT, sitemap_filename="map.xml", options={"filename": "ours.xml"})
    assert ours.settings().filename == "ours.xml"


def test_each_language_keeps_its_own_manifest():
    fr = SphinxConfig(html_baseurl=ROOT + "fr/", sitemapkit_base_url=ROOT, cache_dir="/cache").settings()
    en = SphinxConfig(html_baseurl=ROOT, cache_dir="/cache").settings()
    assert fr.state_file == en.state_file == "/cache/state.json"
    assert fr.base_url != en.base_url  # so each has its own manifest there (its key is in its name)
    assert site_manifest(Path(fr.state_file), fr.base_url, None, "/") != site_manifest(
        Path(en.state_file), en.base_url, None, "/")


def test_a_misspelt_option_in_conf_py_is_an_error():
    site = SphinxConfig(html_baseurl=ROOT, conf_py={"sitemapkit_chagefreq": "daily"})
    with pytest.raises(SettingsError, match="changefreq"):
        site.settings()


def test_warnings_for_values_taken_but_not_followed():
    assert SphinxConfig().warnings() == []
    assert [str(p) for p in SphinxConfig(extensions=["sphinx_sitemap"], sitemap_indent=2).warnings()] == [
        "settings: extensions: sitemapkit_sphinx replaces sphinx_sitemap: remove 'sphinx_sitemap' from extensions "
        "(both write sitemap.xml) [plugin-conflict]",
        "settings: sitemap_indent: ignored: sitemapkit writes compact XML [option-ignored]",
    ]


def test_conf_py_literals_computed_values_and_a_missing_file(tmp_path: Path):
    assert conf_py(tmp_path) == {}
    (tmp_path / "conf.py").write_text('import os\nlanguage = None\nversion: str = "2.1"\n'
                                      'html_baseurl = os.environ["BASE"]\nproject = author = "Kit"\n')
    assert conf_py(tmp_path) == {"language": None, "version": "2.1", "html_baseurl": ..., "project": "Kit",
                                 "author": "Kit"}
    (tmp_path / "conf.py").write_text('language = "fr"  # edited: read again\n')
    assert conf_py(tmp_path) == {"language": "fr"}
