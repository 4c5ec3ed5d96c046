"""Whether a Sphinx build writes a sitemap, and what it says first, decided from plain values
(``sitemapkit.compat.sphinx_checks``): the warnings at ``config-inited``, and at
``build-finished`` the settings or why none. The real ``sphinx-build`` runs that print them
are in test_messages_adapters.py and test_sphinx.py."""

from pathlib import Path

from sitemapkit.compat.sphinx_checks import build_settings, config_problems, invalid
from sitemapkit.compat.sphinx_multiversion import Multiversion
from sitemapkit.compat.sphinx_sitemap import SphinxConfig
from sitemapkit.lastmod.git import Checkout
from sitemapkit.settings import Settings, SettingsError
from sitemapkit.versions import ReadTheDocs

ROOT = "https://example.org/manual/"
V1 = Multiversion("v1.0", Checkout(Path("/tmp/copy"), Path("/r"), "refs/tags/v1.0"))


def _error(options: dict) -> SettingsError:
    try:
        Settings.from_mapping(options)
    except SettingsError as error:
        return error
    raise AssertionError(f"{options} are valid settings")


def test_a_bad_value_is_named_as_conf_py_spells_it():
    problem = invalid(_error({"gzp": True}))
    assert str(problem) == ("settings: sitemapkit_gzp: is not an option of sitemapkit (did you mean sitemapkit_gzip?); "
                            "no sitemap written [option-invalid]")
    problem = invalid(_error({"max_urls": 0}))
    assert (problem.field, problem.message) == (
        "sitemapkit_max_urls", "must be a whole number from 1 to 50000, got 0; no sitemap written")


def test_a_sphinx_sitemap_value_is_named_by_its_message():
    problem = invalid(SettingsError("sitemap_url_scheme '{lang}' must end with {link}"))
    assert (problem.field, problem.message) == (
        "conf.py", "sitemap_url_scheme '{lang}' must end with {link}; no sitemap written")


def test_config_inited_says_the_ignored_values_then_the_bad_one():
    site = SphinxConfig(html_baseurl=ROOT, extensions=["sphinx_sitemap"], sitemap_indent=2,
                        options={"max_urls": 0})
    assert [(p.rule, p.field) for p in config_problems(site)] == [
        ("plugin-conflict", "extensions"), ("option-ignored", "sitemap_indent"),
        ("option-invalid", "sitemapkit_max_urls")]


def test_a_value_the_warnings_cannot_read_is_the_one_problem():
    site = SphinxConfig(html_baseurl=ROOT, sitemap_url_scheme="{lang}", extensions=["sphinx_sitemap"])
    assert [(p.rule, p.field) for p in config_problems(site)] == [("option-invalid", "conf.py")]


def test_a_clean_config_says_nothing():
    assert config_problems(SphinxConfig(html_baseurl=ROOT)) == []


def test_the_build_writes_with_the_settings_of_its_pages():
    chosen, problems = build_settings(SphinxConfig(html_baseurl="https://example.org/manual"))
    assert chosen is not None and chosen.base_url == ROOT and problems == []


def test_no_absolute_url_is_no_sitemap_and_says_how_to_set_one():
    for given in ("", "/manual/"):
        chosen, problems = build_settings(SphinxConfig(html_baseurl=given))
        assert chosen is None and [p.rule for p in problems] == ["base-url-missing"]
    assert problems[0].message == (
        "no sitemap written: html_baseurl '/manual/' is not an absolute URL, and a sitemap lists absolute URLs; "
        "set html_baseurl (or sitemapkit_base_url) in conf.py to the site's absolute URL, such as "
        "'https://example.org/docs/'")
    assert build_settings(SphinxConfig())[1][0].message.startswith("no sitemap written: html_baseurl is not set,")


def test_a_bad_value_was_said_at_config_inited_and_is_not_said_again():
    assert build_settings(SphinxConfig(html_baseurl=ROOT, options={"max_urls": 0})) == (None, [])


def test_canonical_links_elsewhere_are_no_sitemap():
    site = SphinxConfig(html_baseurl=ROOT, sitemapkit_base_url="https://example.org/", sitemap_url_scheme="{link}")
    chosen, problems = build_settings(site)
    assert chosen is None and problems == [site.canonical_clash()]


def test_an_unversioned_canonical_link_is_said_and_the_sitemap_written():
    chosen, problems = build_settings(SphinxConfig(html_baseurl="https://example.org/proj/", multiversion=V1))
    assert chosen is not None and chosen.base_url == "https://example.org/proj/v1.0/"
    assert [p.rule for p in problems] == ["canonical-unversioned"]


def test_read_the_docs_leaves_robots_txt_alone_and_says_so_once_at_config_inited():
    site = SphinxConfig(html_baseurl=ROOT + "en/latest/", read_the_docs=ReadTheDocs(ROOT + "en/latest/", "latest"))
    assert [(p.rule, p.severity) for p in config_problems(site)] == [("robots-version-off", "info")]
    chosen, problems = build_settings(site)
    assert chosen is not None and chosen.base_url == ROOT + "en/latest/" and chosen.robots_txt is False
    assert problems == []
