import pytest

from sitemapkit import OPTION_NAMES, Settings, SettingsError
from sitemapkit.settings import NewsSettings, Rule


def test_defaults_follow_the_contract():
    settings = Settings()
    assert settings.filename == "sitemap.xml"
    assert settings.lastmod == ("meta", "git", "fingerprint")
    assert settings.max_urls == 50_000 and settings.max_bytes == 52_428_800
    assert settings.images and settings.videos and settings.alternates and settings.robots_txt
    assert not settings.gzip and not settings.txt and not settings.strict


def test_settings_print_the_options_set():
    assert repr(Settings()) == "Settings()"
    settings = Settings(base_url="https://example.org/docs", gzip=True, exclude=["drafts/"])
    assert repr(settings) == "Settings(base_url='https://example.org/docs/', exclude=('drafts/',), gzip=True)"


def test_every_contract_key_is_an_option():
    contract = {
        "base_url", "filename", "exclude", "include_noindex", "changefreq", "priority", "rules",
        "lastmod", "state_file", "images", "videos", "news", "alternates", "x_default", "gzip",
        "txt", "robots_txt", "max_urls", "max_bytes", "stylesheet", "indexnow", "changes_feed",
        "strict", "include", "html_sitemap",  # issue 16
        "static_html",  # issue 25: HTML the generator copies as it is, listed or omitted
        "extra_sitemaps", "extra_urls", "sections", "transform",  # issue 29
        "exclude_versions",  # issue 33: versions the root index leaves out
        "llms_txt",  # issue 38
    }
    assert set(OPTION_NAMES) == contract and len(OPTION_NAMES) == len(contract)


def test_unknown_key_names_the_key_and_suggests():
    with pytest.raises(SettingsError, match=r"unknown option 'max_url'.*'max_urls'"):
        Settings.from_mapping({"max_url": 10})


@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        ("max_urls", "ten", "whole number"),
        ("max_urls", 60_000, "whole number from 1 to 50000"),
        ("priority", 1.5, "0.0 to 1.0"),
        ("changefreq", "sometimes", "one of always"),
        ("gzip", "yes", "true or false"),
        ("base_url", "example.com", "absolute http"),
        ("lastmod", ["meta", "svn"], "meta, git, fingerprint"),
        ("exclude", 5, "glob"),
        ("news", {"publication": "X", "language": "en-US"}, "ISO 639"),
        ("indexnow", {"key": "short"}, "8 to 128"),
        ("rules", [{"match": "a/*", "colour": "red"}], "unknown key 'colour'"),
    ],
)
def test_wrong_types_name_the_key_and_what_it_accepts(key, value, expected):
    with pytest.raises(SettingsError, match=rf"'{key}'.*{expected}"):
        Settings.from_mapping({key: value})


def test_values_are_normalised():
    settings = Settings.from_mapping(
        {
            "rules": [{"match": "blog/*", "changefreq": "Daily", "priority": "0.8"}],
            "news": {"publication": "The Daily", "language": "EN"},
            "lastmod": False,
            "exclude": "404.html",
        }
    )
    assert settings.rules == (Rule("blog/*", "daily", 0.8),)
    assert settings.news == NewsSettings("The Daily", "en", "*", 48)
    assert settings.lastmod == ()
    assert settings.exclude == ("404.html",)


def test_none_takes_the_default_so_adapters_can_pass_unset_values():
    assert Settings.from_mapping({"filename": None}).filename == "sitemap.xml"


def test_base_url_is_normalised_once_when_the_settings_are_made_and_the_steps_use_it_as_is(tmp_path):
    """The writer and the listing no longer normalise ``base_url`` again: ``Settings`` (which
    every front end makes) does, when made and when replaced."""
    from sitemapkit import Page, build_entries, write_sitemaps

    settings = Settings(base_url="HTTPS://Example.COM:443/docs", max_urls=1, lastmod=False)
    assert settings.base_url == "https://example.com/docs/"
    assert settings.replace(base_url="http://B.example:80").base_url == "http://b.example/"
    entries = list(build_entries([Page("a/"), Page("b/")], settings))
    assert [entry.loc for entry in entries] == ["https://example.com/docs/a/", "https://example.com/docs/b/"]
    write_sitemaps(iter(entries), tmp_path, settings)
    index = (tmp_path / "sitemap.xml").read_text(encoding="utf-8")
    assert index.count("<loc>https://example.com/docs/sitemap-") == 2


def test_settings_are_made_by_keyword_checked_and_frozen_as_a_dataclass():
    """``Settings`` is made by ``_Checked.__init__`` (no generated one compiled at import):
    by keyword, each value checked, an unknown keyword refused by name, frozen, and the
    dataclass functions still work on it."""
    import dataclasses

    with pytest.raises(TypeError):
        Settings("https://example.com/")
    with pytest.raises(TypeError, match="'gzpi'"):
        Settings(gzip=True, gzpi=True)
    with pytest.raises(SettingsError, match="'max_urls'"):
        Settings(max_urls=0)
    settings = Settings(base_url="https://example.com/docs", gzip=True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.gzip = False
    again = dataclasses.replace(settings, txt=True)
    assert (again.base_url, again.gzip, again.txt) == ("https://example.com/docs/", True, True)
    assert dataclasses.asdict(again) == {**dataclasses.asdict(settings), "txt": True}
    with pytest.raises(SettingsError, match="'priority'"):
        settings.replace(priority=2)
