"""What the Pelican adapter's start-up decides, from plain values: a run writing inside the
main run's output is part of its build (``translations.sub_site``), pelican-sitemap loaded
beside sitemapkit is a warning, and a run without an absolute SITEURL says how to set one
(``compat.pelican_sitemap``). The real ``pelican`` runs are in test_pelican.py and
test_stock_pelican.py."""

import os

from sitemapkit.compat.pelican_sitemap import no_site_url, plugin_conflict
from sitemapkit.translations import sub_site


def test_a_folder_of_the_main_output_is_a_sub_site(tmp_path):
    output = tmp_path / "output"
    assert sub_site(str(output / "fr"), str(output))
    assert sub_site(str(output / "intl" / "de"), str(output))


def test_the_same_folder_or_one_beside_it_is_a_build_of_its_own(tmp_path):
    output = tmp_path / "output"
    assert not sub_site(str(output), str(output))
    assert not sub_site(str(tmp_path / "other"), str(output))
    assert not sub_site(str(tmp_path), str(output))


def test_relative_folders_are_taken_from_the_working_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert sub_site("output/fr", str(tmp_path / "output"))
    assert not sub_site(os.path.join("output", "..", "fr"), "output")


def test_pelican_sitemap_loaded_too_is_a_conflict_named_by_its_setting():
    assert plugin_conflict({"sitemapkit_pelican", "pelican.plugins.i18n_subsites"}) is None
    problem = plugin_conflict({"sitemapkit_pelican", "pelican.plugins.sitemap"})
    assert str(problem) == (
        "settings: PLUGINS: pelican-sitemap is enabled too and writes its own sitemap.xml: remove it from PLUGINS, "
        "or uninstall it when Pelican finds plugins by itself (sitemapkit reads its SITEMAP setting) "
        "[plugin-conflict]")


def test_no_siteurl_says_how_to_build_with_one():
    assert str(no_site_url("")) == (
        "settings: SITEURL: no sitemap written: SITEURL is not set, and a sitemap lists absolute URLs; "
        "pelican-quickstart's pelicanconf.py (development settings) leaves it empty: build with `pelican content "
        "-s publishconf.py`, which sets SITEURL = 'https://...', or set SITEMAPKIT['base_url'] [base-url-missing]")
    assert no_site_url("/blog").message.startswith("no sitemap written: SITEURL '/blog' is not an absolute URL,")
