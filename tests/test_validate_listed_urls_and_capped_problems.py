"""The validator's run is made of parts given what they need when they are made: ``Findings``
(the problems by file), ``ListedUrls`` (duplicates, return links, and the checks each listed
URL goes to, given at construction) and ``Session``, a frozen record of what every file's
checker is given; nothing is attached afterwards."""

from __future__ import annotations

import dataclasses

import pytest

from sitemapkit.validate.findings import Findings
from sitemapkit.validate.listed_urls import ListedUrls
from sitemapkit.validate.session import Session


class _Site:
    def __init__(self) -> None:
        self.seen: list[str] = []

    def check_listed(self, loc, complain) -> None:
        self.seen.append(loc)
        if loc.endswith("/gone/"):
            complain("page-missing", f"{loc} has no page")


def test_listed_urls_hand_each_url_to_the_checks_they_were_made_with():
    findings = Findings()
    collected: list[tuple[int, int, str]] = []
    site = _Site()
    urls = ListedUrls(findings, site, lambda *item: collected.append(item))
    first, second = findings.file_number("a.xml"), findings.file_number("b.xml")
    urls.listed(first, 3, "https://example.com/")
    urls.listed(first, 4, "https://example.com/gone/")
    urls.listed(second, 7, "https://example.com/")  # a duplicate: reported, not collected again
    urls.listed(second, 8, "https://example.com/news/", "news")
    assert collected == [(0, 3, "https://example.com/"), (0, 4, "https://example.com/gone/"),
                         (1, 8, "https://example.com/news/")]
    assert site.seen == ["https://example.com/", "https://example.com/gone/", "https://example.com/",
                         "https://example.com/news/"]
    assert [(p.where, p.line, p.rule) for p in findings.in_file_order()] == [
        ("a.xml", 4, "page-missing"), ("b.xml", 7, "duplicate-url")]
    assert "first at a.xml:3" in findings.problems[-1].message


def test_a_session_is_made_whole_and_not_changed_after():
    findings = Findings()
    session = Session(findings, ListedUrls(findings))
    with pytest.raises(dataclasses.FrozenInstanceError):
        session.table = object()  # type: ignore[misc]
    assert session.urls.findings is session.findings


def test_problems_past_the_cap_close_in_one_line_of_their_severity():
    findings = Findings()
    findings.file_number("a.xml")
    for line in range(150):
        findings.add("a.xml", line + 1, "loc-length", "too long", "warning")
    findings.close_file("a.xml")
    assert len(findings.problems) == 101
    assert findings.problems[-1].message == "50 more warnings of this rule in this file not shown"
    assert findings.counts == {"warning": 150}
    assert findings.problems[-1].severity == "warning"
