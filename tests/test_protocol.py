"""The rule registry in ``protocol`` is complete and has no dead entries: every rule id any
code path of the core, the adapters or the validator can report is in it, and every id in it
is reported somewhere. The ids are read from the source (the literal given where a rule id
goes), so a new ``warn(..., "some-rule", ...)`` without a registry entry fails here."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from sitemapkit.protocol import RULES, rule_entry

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted([*ROOT.glob("core/sitemapkit/**/*.py"), *ROOT.glob("plugins/*/*.py")])
RULE_ID = re.compile(r"[a-z]+(-[a-z0-9<>]+)*")
EMITTERS = {"warn", "info", "add", "complain"}
"""``Report.warn``/``Report.info`` (build), ``Session.add``/``FileCheck.add`` (validate) and
the ``complain(rule, message)`` callback ``validate.site`` is given."""
RULE_KEYWORDS = {"rule", "missing", "many", "deprecated"}
"""Keywords that take a rule id (``validate.models.Item``'s are the last three)."""


def _literal(node: ast.AST) -> str | None:
    """A string literal, an f-string as a family (``f"indexnow-{status}"`` ->
    ``indexnow-<status>``), or ``None``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(
            part.value if isinstance(part, ast.Constant) else f"<{ast.unparse(part.value)}>"
            for part in node.values
        )
    return None


def _is_message(node: ast.AST) -> bool:
    """What follows a rule id in a finding: a sentence, or an expression that makes one."""
    if isinstance(node, ast.Constant | ast.JoinedStr):
        return " " in (_literal(node) or "")
    if isinstance(node, ast.Name):
        return node.id == "message"
    return isinstance(node, ast.Subscript | ast.Call | ast.BinOp | ast.Attribute)


def _branches(node: ast.AST) -> list[ast.AST]:
    return [*_branches(node.body), *_branches(node.orelse)] if isinstance(node, ast.IfExp) else [node]


def _rule_positions(trees: dict[Path, ast.Module]) -> dict[Path | None, dict[str, int | None]]:
    """Functions (and classes, by ``__init__`` or their fields) of the scanned sources with a parameter named
    ``rule``: name -> its position among the arguments a call passes. Per file (a name a file
    defines without such a parameter maps to None there), and under ``None`` for calls to a
    name the calling file does not define."""
    found: dict[Path | None, dict[str, int | None]] = {None: {}}
    for path, tree in trees.items():
        local = found.setdefault(path, {})
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                init = next((item for item in node.body
                             if isinstance(item, ast.FunctionDef) and item.name == "__init__"), None)
                if init is not None:
                    names = [a.arg for a in init.args.args][1:]
                else:  # a dataclass or NamedTuple: its fields, in order
                    names = [item.target.id for item in node.body
                             if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)]
                local[node.name] = names.index("rule") if "rule" in names else None
            elif isinstance(node, ast.FunctionDef):
                names = [a.arg for a in node.args.args]
                bound = 1 if names[:1] == ["self"] else 0
                local[node.name] = names.index("rule") - bound if "rule" in names else None
        found[None].update({name: at for name, at in local.items() if at is not None})
    return found


def emitted_rule_ids() -> dict[str, list[str]]:
    """Every rule id a code path can report -> where (``file:line``)."""
    trees = {path: ast.parse(path.read_text(encoding="utf-8")) for path in SOURCES}
    positions = _rule_positions(trees)
    found: dict[str, list[str]] = {}

    def take(node: ast.AST, path: Path) -> None:
        for branch in _branches(node):
            value = _literal(branch)
            if value is not None and RULE_ID.fullmatch(value):
                places = found.setdefault(value, [])
                place = f"{path.relative_to(ROOT)}:{branch.lineno}"
                if place not in places:
                    places.append(place)

    for path, tree in trees.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
                if name in EMITTERS:  # the rule id is the argument before the message
                    for arg, after in zip(node.args, node.args[1:], strict=False):
                        if _is_message(after):
                            take(arg, path)
                at = positions[path][name] if name in positions[path] else positions[None].get(name)
                if at is not None and len(node.args) > at:
                    take(node.args[at], path)
                for keyword in node.keywords:
                    if keyword.arg in RULE_KEYWORDS:
                        take(keyword.value, path)
            elif isinstance(node, ast.Assign):
                # rule = "..." (then passed on), finding = ("rule", message)
                targets = [t.id for t in node.targets if isinstance(t, ast.Name)]
                if any(t == "rule" for t in targets):
                    take(node.value, path)
            if isinstance(node, ast.Tuple):
                # a finding: ("rule", message[, severity]), or (position, "rule", message, ...)
                for n, element in enumerate(node.elts[:2]):
                    if n + 1 < len(node.elts) and _is_message(node.elts[n + 1]):
                        take(element, path)
            if (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
                    and node.target.id in RULE_KEYWORDS and node.value is not None):
                take(node.value, path)  # validate.models.Item: missing: str = "required-element"
            if isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple) and node.value.elts:
                take(node.value.elts[0], path)
    return found


EMITTED = emitted_rule_ids()


def test_the_scan_finds_the_rules_of_each_stage():
    # Without these the scan would prove nothing: build, validate, feed, site and robots rules.
    for rule, where in (("duplicate-url", "entries.py"), ("duplicate-url", "validate/session.py"),
                        ("loc-length", "entry_maker.py"), ("loc-length", "validate/rules.py"),
                        ("video-tag-count", "videos.py"), ("video-tag-count", "validate/models.py"),
                        ("feed-link", "validate/feeds.py"), ("page-missing", "validate/site.py"),
                        ("indexnow-<status>", "indexnow.py"), ("lastmod-git", "lastmod/sources.py"),
                        ("base-url-missing", "settings.py")):
        assert any(where in place for place in EMITTED.get(rule, ())), (rule, where)


@pytest.mark.parametrize("rule", sorted(EMITTED))
def test_every_rule_a_code_path_reports_is_in_the_registry(rule):
    assert rule in RULES, f"{rule} is reported at {', '.join(EMITTED[rule])} but not in protocol.RULES"


@pytest.mark.parametrize("rule", sorted(RULES))
def test_every_registry_rule_is_reported_somewhere(rule):
    assert rule in EMITTED, f"protocol.RULES has {rule}, which no code path reports"


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
