"""pelican-sitemap's SITEMAP setting in sitemapkit's terms, decided by the core from Pelican's
settings as plain values (tests/test_pelican.py builds real sites with it)."""

import pytest

from sitemapkit import SettingsError
from sitemapkit.compat.pelican_sitemap import PelicanSitemapError, read_settings

SITE = {"SITEURL": "https://example.org"}


def test_sitemap_keys_become_options_and_page_keys_per_kind():
    sitemap = {"format": "txt", "priorities": {"articles": 0.9}, "changefreqs": {"pages": "yearly"},
               "exclude": [r"^tag/"]}
    options = read_settings({**SITE, "SITEMAP": sitemap})
    assert options.settings.txt is True and options.settings.base_url == "https://example.org/"
    assert options.meta("articles", "a.html") == {"sitemap_priority": 0.9, "sitemap_changefreq": "monthly"}
    assert options.meta("pages", "p.html") == {"sitemap_priority": 0.5, "sitemap_changefreq": "yearly"}
    assert options.meta("indexes", "") == {"sitemap_priority": 0.5, "sitemap_changefreq": "daily"}
    # pelican-sitemap's own metadata keys, and a page's own key before the kind's default
    assert options.meta("pages", "p.html", {"changefreq": "never", "sitemap_priority": "0.1"}) == {
        "changefreq": "never", "sitemap_priority": "0.1", "sitemap_changefreq": "never"}


def test_what_pelican_sitemap_leaves_out_is_sitemap_false():
    options = read_settings({**SITE, "SITEMAP": {"exclude": [r"^tag/", r"fr\.html$"]}})
    assert options.meta("indexes", "tag/a.html") == {"sitemap": False}
    assert options.meta("articles", "a-fr.html") == {"sitemap": False}
    assert options.meta("articles", "a.html", {"private": "True"}) == {"sitemap": False}
    assert options.meta("articles", "a.html", {}, "draft") == {"sitemap": False}
    assert options.meta("pages", "p.html", {}, "hidden") == {"sitemap": False}
    assert options.meta("articles", "a.html") == {}


def test_sitemapkit_wins_key_by_key():
    options = read_settings({**SITE, "SITEMAP": {"format": "txt", "priorities": {"articles": 0.9},
                                                 "changefreqs": {"articles": "daily"}},
                             "SITEMAPKIT": {"txt": False, "priority": 0.4}})
    assert options.settings.txt is False
    assert options.meta("articles", "a.html") == {"sitemap_changefreq": "daily"}


def test_no_absolute_site_url_is_no_sitemap():
    assert read_settings({"SITEURL": ""}) is None
    assert read_settings({"SITEURL": "", "SITEMAPKIT": {"base_url": "https://example.org/blog/"}}) is not None


@pytest.mark.parametrize(("settings", "message"), [
    ({"SITEMAP": ["txt"]}, "SITEMAP must be a dict"),
    ({"SITEMAP": {"formats": "txt"}}, "SITEMAP: unknown key 'formats'"),
    ({"SITEMAP": {"priorities": {"posts": 0.5}}}, r"SITEMAP\['priorities'\] must be a dict with keys from"),
    ({"SITEMAP": {"changefreqs": {"pages": "sometimes"}}}, r"SITEMAP\['changefreqs'\]\['pages'\]"),
    ({"SITEMAPKIT": {"base_url": "/blog"}}, r"SITEMAPKIT: .*base_url"),
    ({"SITEURL": "https://", "SITEMAPKIT": {}}, r"SITEURL: .*base_url"),
])
def test_wrong_values_name_the_setting(settings, message):
    with pytest.raises(SettingsError, match=message):
        read_settings({**SITE, **settings})


def test_a_bad_base_url_is_blamed_on_the_setting_that_gave_it():
    with pytest.raises(PelicanSitemapError, match=r"^SITEURL: option 'base_url'"):
        read_settings({"SITEURL": "ftp://example.org"})
    with pytest.raises(PelicanSitemapError, match=r"^SITEMAPKIT: option 'base_url'"):
        read_settings({"SITEURL": "https://example.org", "SITEMAPKIT": {"base_url": "ftp://example.org"}})
    with pytest.raises(PelicanSitemapError, match=r"^SITEMAPKIT: option 'gzip'"):
        read_settings({"SITEURL": "https://example.org", "SITEMAPKIT": {"gzip": "yes"}})
