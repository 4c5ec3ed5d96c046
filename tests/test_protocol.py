"""The rule registry in ``protocol`` is complete and has no dead entries. An id not in it
fails where it is raised (``report.Problem`` looks each id up: see
``test_rule_ids_at_the_call.py``); here, every id in it is still used by some code."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitemapkit.protocol import RULES, rule_entry

ROOT = Path(__file__).resolve().parent.parent
SOURCE = "\n".join(path.read_text(encoding="utf-8")
                   for path in sorted([*ROOT.glob("core/sitemapkit/**/*.py"), *ROOT.glob("plugins/*/*.py")])
                   if path.name != "protocol.py")


@pytest.mark.parametrize("rule", sorted(RULES))
def test_every_registry_rule_is_used_somewhere(rule):
    # A family (``indexnow-<status>``) by the literal start of the f-string that makes it.
    written = (f'"{rule.split("<")[0]}',) if "<" in rule else (f'"{rule}"', f"'{rule}'")
    assert any(text in SOURCE for text in written), f"protocol.RULES has {rule}, which no code uses"


def test_each_entry_has_a_severity_a_summary_and_a_source():
    for rule, (severity, summary, source) in RULES.items():
        assert severity in ("error", "warning", "info"), rule
        assert summary and source, rule
    assert rule_entry("indexnow-403") is RULES["indexnow-<status>"]
    with pytest.raises(KeyError):
        rule_entry("loc-too-long")  # the build's old name: one name per rule now


def test_the_build_and_the_validator_give_one_problem_one_id(tmp_path):
    # The same broken video, at build time and at validate time, under the same rule id.
    from sitemapkit.listing.videos import video_from_fields
    from sitemapkit.report import Report
    from sitemapkit.validate import validate

    fields = {"thumbnail_loc": "/t.jpg", "title": "T", "description": "D",
              "content_loc": "/v.mp4", "tags": [f"t{n}" for n in range(33)]}
    _, dropped = video_from_fields(fields, "https://example.com/a/")
    report = Report()
    for field, rule, message in dropped:
        report.warn("a.md", field, rule, message)
    tags = "".join(f"<video:tag>t{n}</video:tag>" for n in range(33))
    sitemap = tmp_path / "sitemap.xml"
    sitemap.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
        'xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">'
        "<url><loc>https://example.com/a/</loc><video:video>"
        "<video:thumbnail_loc>https://example.com/t.jpg</video:thumbnail_loc>"
        "<video:title>T</video:title><video:description>D</video:description>"
        f"<video:content_loc>https://example.com/v.mp4</video:content_loc>{tags}"
        "</video:video></url></urlset>\n", encoding="utf-8")
    at_validate = [p.rule for p in validate(sitemap)]
    assert [p.rule for p in report.warnings] == at_validate == ["video-tag-count"]


def test_every_check_in_the_dispatch_table_is_for_a_child_some_content_model_allows():
    # A misspelt method in validate.xml_checks.CHECKS fails at import; a misspelt tag would only
    # never match, so it is caught here.
    from sitemapkit.validate import models
    from sitemapkit.validate.xml_checks import CHECKS

    allowed = set()
    for model in (models.URL_MODEL, models.SITEMAP_MODEL, models.IMAGE_MODEL, models.VIDEO_MODEL,
                  models.TVSHOW_MODEL, models.NEWS_MODEL, models.PUBLICATION_MODEL):
        allowed |= {item.tag for item in model.items} | set(model.extensions)
    assert set(CHECKS) <= allowed, set(CHECKS) - allowed
    assert callable(CHECKS[models.S_LOC]) and CHECKS[models.S_LOC].__name__ == "check_loc"
