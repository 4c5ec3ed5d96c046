"""A rule id that is not in ``protocol.RULES`` fails at the call that raises it, in the build
(``Report.warn``/``info``) and in the validator (``Findings.add``), whatever the severity:
no problem with an unregistered id ever reaches a user."""

from __future__ import annotations

import pytest

from sitemapkit.protocol import RULES
from sitemapkit.report import Problem, Report
from sitemapkit.validate.findings import PER_RULE_CAP, Findings


def test_the_build_report_refuses_an_unknown_rule_id():
    report = Report()
    with pytest.raises(KeyError, match="no-such-rule"):
        report.warn("a.md", "sitemap_priority", "no-such-rule", "dropped")
    with pytest.raises(KeyError, match="no-such-rule"):
        report.info("a.md", "lastmod", "no-such-rule", "fell back")
    assert not report.warnings and not report.notes
    report.warn("a.md", "sitemap_priority", "priority-range", "dropped")  # a registered one
    report.warn("settings", "indexnow", "indexnow-403", "refused")  # a family's member
    assert [w.rule for w in report.warnings] == ["priority-range", "indexnow-403"]


def test_the_validator_refuses_an_unknown_rule_id_even_past_the_cap_or_with_a_severity():
    findings = Findings()
    findings.file_number("sitemap.xml")
    with pytest.raises(KeyError, match="loc-too-long"):
        findings.add("sitemap.xml", 3, "loc-too-long", "too long")
    with pytest.raises(KeyError, match="loc-too-long"):
        findings.add("sitemap.xml", 3, "loc-too-long", "too long", "warning")
    for line in range(PER_RULE_CAP):
        findings.add("sitemap.xml", line + 1, "loc-length", "too long", "warning")
    with pytest.raises(KeyError):  # past the cap only counted: still checked
        findings.add("sitemap.xml", 999, "loc-lenght", "too long", "warning")
    assert {p.rule for p in findings.problems} == {"loc-length"}


def test_a_problem_cannot_be_made_with_an_unknown_rule_id():
    with pytest.raises(KeyError):
        Problem("settings", "base-url-mising", "no base URL")
    assert Problem("settings", "base-url-missing", "no base URL").rule in RULES


def test_a_problem_is_a_named_tuple_whose_changed_copies_are_checked_too():
    problem = Problem("settings", "base-url-missing", "no base URL")
    assert problem == ("settings", "base-url-missing", "no base URL", "warning", None, None)
    moved = problem._replace(where="v2:settings")
    assert type(moved) is Problem and moved.where == "v2:settings" and str(moved).startswith("v2:settings:")
    with pytest.raises(KeyError):
        problem._replace(rule="base-url-mising")
    with pytest.raises(KeyError):
        Problem._make(("settings", "no-such-rule", "m"))
