"""What an MkDocs build's configuration means for its sitemap, decided from plain values
(``sitemapkit.compat.mkdocs_build``): the settings of one build (site_url, mike, Read the
Docs, ``mkdocs serve``, ``strict``), mkdocs-static-i18n among the plugins, the files MkDocs
copies or renders from no Markdown. The real ``mkdocs build`` runs are in
test_mkdocs.py, test_versions_mike.py and test_versions_read_the_docs.py."""

from pathlib import Path

from sitemapkit.compat.mkdocs_build import (
    build_settings,
    copied_pages,
    static_i18n,
    theme_pages,
)
from sitemapkit.options import OPTION_NAMES
from sitemapkit.site.files import inside

SITE = "https://example.org/project/"
NOT_SET = dict.fromkeys(OPTION_NAMES)  # the plugin's options as MkDocs gives them: every key, None unset


def _build(options=None, site_url=SITE, environ=None, *, mike=False, serving=False, site_dir="site", theme="mkdocs",
           features=None, extra=None):
    return build_settings({**NOT_SET, **(options or {})}, site_url, environ or {}, mike=mike, serving=serving,
                          site_dir=site_dir, theme=theme, features=features, extra=extra or {})


def test_the_sites_url_is_the_base_url_unless_the_option_says_otherwise():
    found = _build()
    assert found.settings.base_url == SITE and found.deployment is None and found.notes == () and found.error is None
    assert _build({"base_url": "https://example.com/"}).settings.base_url == "https://example.com/"


def test_no_url_is_a_warning_and_no_sitemap():
    found = _build(site_url=None)
    assert found.settings is None and found.error is None
    assert [str(note) for note in found.notes] == [
        "settings: site_url: no sitemap written: site_url is not set, and a sitemap lists absolute URLs; "
        "set 'site_url' in the config file, or 'base_url' under 'plugins: - sitemapkit:' [base-url-missing]"]


def test_no_url_with_strict_fails_the_build_with_the_same_words():
    found = _build({"strict": True}, site_url="")
    assert found.settings is None and found.notes == ()
    assert found.error == str(_build(site_url="").notes[0])


def test_a_value_settings_refuse_fails_the_build_after_the_notes():
    found = _build({"max_urls": 100, "max_bytes": 10}, environ={"READTHEDOCS": "True"})
    assert found.settings is None and [note.rule for note in found.notes] == ["robots-version-off"]
    assert found.error is not None and "max_bytes" in found.error


def test_mike_deploys_the_version_in_its_folder_and_leaves_robots_txt_alone():
    found = _build(site_url="https://example.org/project/latest", environ={"MIKE_DOCS_VERSION": "1.0"}, mike=True)
    assert found.settings.base_url == SITE + "1.0/" and found.deployment.root == SITE
    assert found.settings.robots_txt is False and [note.rule for note in found.notes] == ["robots-version-off"]
    assert _build(environ={"MIKE_DOCS_VERSION": "1.0"}).deployment is None  # mike's plugin not enabled


def test_read_the_docs_serves_the_version_at_its_canonical_url():
    environ = {"READTHEDOCS": "True", "READTHEDOCS_VERSION": "latest",
               "READTHEDOCS_CANONICAL_URL": "https://docs.example.org/en/latest/"}
    found = _build(site_url=None, environ=environ)
    assert found.settings.base_url == "https://docs.example.org/en/latest/" and found.settings.robots_txt is False
    kept = _build({"robots_txt": True}, site_url=None, environ=environ)
    assert kept.settings.robots_txt is True and kept.notes == ()
    # a site_url outside every version Read the Docs serves: one canonical-clash, no sitemap
    clash = _build(site_url=SITE, environ=environ)
    assert clash.settings is None and [note.rule for note in clash.notes] == ["robots-version-off", "canonical-clash"]
    assert "no sitemap written: site_url" in _build({"strict": True}, site_url=SITE, environ=environ).error
    other = _build(site_url="https://docs.example.org/en/stable/", environ=environ)  # another version: its pages
    assert other.settings is not None and other.settings.base_url == "https://docs.example.org/en/latest/"


def test_serve_keeps_its_manifest_in_the_temporary_site_and_sends_nothing(tmp_path):
    options = {"indexnow": {"key": "0123456789abcdef", "endpoint": "https://api.indexnow.org/indexnow"}}
    built, served = _build(options).settings, _build(options, serving=True, site_dir=str(tmp_path)).settings
    assert built.indexnow is not None and Path(built.state_file) != tmp_path / ".sitemapkit-serve.json"
    assert served.indexnow is None and served.state_file == str((tmp_path / ".sitemapkit-serve.json").resolve())


def test_material_with_another_filename_names_what_it_loses():
    found = _build({"filename": "map.xml"}, theme="material", features=["navigation.instant"])
    assert found.settings.filename == "map.xml" and [note.rule for note in found.notes] == ["theme-sitemap-name"]
    assert _build({"filename": "map.xml"}, features=["navigation.instant"]).notes == ()


def test_static_i18n_is_found_by_what_it_holds():
    class I18n:
        i18n_files_per_language: dict = {}  # noqa: RUF012
        building = False

    plugin = I18n()
    assert static_i18n([object(), plugin]) is plugin
    assert static_i18n([object()]) is None


def test_html_files_of_docs_dir_are_copied_pages(tmp_path):
    docs, theme = tmp_path / "docs", tmp_path / "theme"
    for path in (docs / "demo.html", docs / "a.css", theme / "extra.html"):
        path.parent.mkdir(exist_ok=True)
        path.write_text("x", encoding="utf-8")
    files = [("demo.html", str(docs / "demo.html"), "site/demo.html", "demo.html"),
             ("a.css", str(docs / "a.css"), "site/a.css", "a.css"),
             ("extra.html", str(theme / "extra.html"), "site/extra.html", "extra.html"),
             ("gen.html", None, "site/gen.html", "gen.html")]
    pages = copied_pages(files, str(docs))
    assert [(p.url, p.source, p.output, p.name, p.copied) for p in pages] == [
        ("demo.html", str(docs / "demo.html"), "site/demo.html", "demo.html", True)]
    assert inside(str(docs / "demo.html"), str(docs)) and not inside(str(theme / "extra.html"), str(docs))
    assert not inside(None, str(docs))


def test_the_themes_own_pages_are_no_pages(tmp_path):
    for name in ("404.html", "offline.html"):
        (tmp_path / name).write_text("<html></html>", encoding="utf-8")
    pages = list(theme_pages({"sitemap.xml", "offline.html", "404.html", "missing.html"}, str(tmp_path)))
    assert [(p.url, p.name, p.not_page) for p in pages] == [
        ("404.html", "404.html", "error page"), ("offline.html", "offline.html", "theme template")]
