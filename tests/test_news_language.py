"""The news language is decided in the core, the same for every adapter: the setting, else
each page's own language (``Page.lang``, else its ``<html lang>``)."""

from datetime import datetime, timezone

from sitemapkit import Page, Report, Settings, build_entries

BASE = "https://ex.com/"
WHEN = datetime(2024, 5, 9, 12, tzinfo=timezone.utc)


def news_languages(pages, monkeypatch, **news):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(int(datetime(2024, 5, 10, tzinfo=timezone.utc).timestamp())))
    report = Report()
    settings = Settings(base_url=BASE, news={"publication": "Times", **news})
    entries = list(build_entries(pages, settings, report=report))
    return [e.news.language if e.news else None for e in entries], [p.rule for p in report.warnings]


def test_each_page_gives_its_language_when_the_setting_names_none(monkeypatch):
    pages = [
        Page("a/", title="A", published=WHEN, lang="fr_CA"),
        Page("b/", title="B", published=WHEN, lang="zh_TW"),
        Page("c/", title="C", published=WHEN, html=b"<html lang='de-AT'><head></head><body>x</body></html>"),
        Page("d/", title="D", published=WHEN, html=b"<html><head></head><body>x</body></html>"),
    ]
    assert news_languages(pages, monkeypatch) == (["fr", "zh-tw", "de", None], ["news-language"])


def test_the_setting_wins_over_the_page(monkeypatch):
    page = Page("a/", title="A", published=WHEN, lang="fr")
    assert news_languages([page], monkeypatch, language="en") == (["en"], [])
