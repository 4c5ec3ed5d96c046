"""The build summary counts what it left out in English: a kind of file takes its plural
(``2 error pages``, ``5 generated indexes``), a cause stays as it is named (``3 noindex``)."""

from __future__ import annotations

from sitemapkit.report import Report, plural


def test_kinds_of_file_are_plural_and_causes_are_not():
    report = Report(left_out={"error page": 2, "fragment": 340, "generated index": 5, "noindex": 3,
                              "redirect": 1, "sitemap: false": 2})
    assert "; left out: 2 error pages, 340 fragments, 5 generated indexes, 3 noindex, 1 redirect, " \
           "2 sitemap: false;" in report.summary()


def test_plural():
    assert [plural(n, "URL") for n in (0, 1, 2)] == ["0 URLs", "1 URL", "2 URLs"]
    assert plural(2, "news article") == "2 news articles" and plural(3, "index") == "3 indexes"
