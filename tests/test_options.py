"""Each option is declared once (``sitemapkit.options.OPTIONS``): Settings, the MkDocs config
class, the Sphinx config values, the CLI flags and the docs table all list exactly those."""

import re
import sys
from dataclasses import fields
from pathlib import Path

import pytest

from sitemapkit import OPTION_NAMES, Settings
from sitemapkit.cli import main
from sitemapkit.cli.arguments import parser
from sitemapkit.cli.build import flags
from sitemapkit.options import OPTIONS

REPO = Path(__file__).resolve().parents[1]
DECLARED = [option.name for option in OPTIONS]


def test_settings_fields_and_defaults_are_the_declared_ones():
    assert [f.name for f in fields(Settings)] == DECLARED == list(OPTION_NAMES)
    defaults = Settings()
    for option in OPTIONS:
        assert getattr(defaults, option.name) == option.default, option.name
        assert option.check(option.default) == option.default, option.name  # a default passes its own check


def test_mkdocs_schema_lists_exactly_the_declared_options_with_their_types():
    from mkdocs.config import config_options as c

    from sitemapkit_mkdocs.options import SitemapkitConfig

    schema = dict(SitemapkitConfig._schema)
    assert list(schema) == DECLARED
    assert isinstance(schema["changefreq"].option, c.Choice)  # MkDocs names the choices itself
    assert isinstance(schema["exclude"].option, c.ListOfItems)
    config = SitemapkitConfig()
    config.load_dict({"max_urls": "ten"})
    failed, _ = config.validate()
    assert [key for key, _ in failed] == ["max_urls"] and "Expected type" in str(failed[0][1])


def test_sphinx_registers_exactly_the_declared_config_values_with_types(tmp_path):
    from sphinx.application import Sphinx
    from sphinx.util.docutils import docutils_namespace, patch_docutils

    (tmp_path / "conf.py").write_text('extensions = ["sitemapkit_sphinx"]\nhtml_baseurl = "https://d.example/"\n')
    (tmp_path / "index.rst").write_text("Home\n====\n")
    with patch_docutils(tmp_path), docutils_namespace():  # as sphinx-build does: nothing left registered
        app = Sphinx(tmp_path, tmp_path, tmp_path / "out", tmp_path / "doctrees", "html", status=None, warning=None)
    ours = {name: app.config.values[name] for name in app.config.values if name.startswith("sitemapkit_")}
    assert list(ours) == [f"sitemapkit_{name}" for name in DECLARED]
    for option in OPTIONS:
        assert set(ours[f"sitemapkit_{option.name}"].valid_types) == {*option.kind.types, type(None)}


def test_cli_has_exactly_one_flag_per_declared_option(capsys):
    with pytest.raises(SystemExit):
        main(["build", "--help"])
    shown = capsys.readouterr().out.split("options (the configuration keys")[1]
    flags = re.findall(r"^  (--[a-z-]+)", shown, re.M)  # each flag's first spelling
    assert flags == [option.cli_flag for option in OPTIONS]
    switches = [option.cli_flag for option in OPTIONS if option.kind.metavar is None]
    assert re.findall(r"^  --[a-z-]+, (--no-[a-z-]+)", shown, re.M) == ["--no-" + flag[2:] for flag in switches]


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["--max-urls", "10", "--no-gzip"], {"max_urls": 10, "gzip": False}),
        (["--exclude", "a/*", "--exclude", "b.html"], {"exclude": ["a/*", "b.html"]}),
        (["--rule", "blog/*:changefreq=weekly,priority=0.7"],
         {"rules": [{"match": "blog/*", "changefreq": "weekly", "priority": 0.7}]}),
        (["--lastmod", "meta, git"], {"lastmod": ["meta", "git"]}),
        (["--lastmod", "false"], {"lastmod": False}),
        (["--news", "publication=P,language=en,window_hours=24"],
         {"news": {"publication": "P", "language": "en", "window_hours": 24}}),
        (["--priority", "0.5", "--strict"], {"priority": 0.5, "strict": True}),
    ],
)
def test_cli_flags_read_into_the_configuration_vocabulary(argv, expected):
    args = parser().parse_args(["build", "site", *argv])
    assert flags(args) == expected
    Settings.from_mapping(flags(args))  # and Settings takes them


def test_cli_text_a_flag_cannot_read_is_a_usage_error_naming_the_flag(capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["build", "site", "--base-url", "https://d.example/", "--news", "publication"])
    assert stopped.value.code == 2
    assert "--news: takes KEY=VALUE pairs separated by commas, got 'publication'" in capsys.readouterr().err


def test_docs_options_table_is_written_from_the_declarations():
    sys.path.insert(0, str(REPO / "docs"))
    try:
        from hooks import on_page_markdown, options_table
    finally:
        sys.path.remove(str(REPO / "docs"))
    table = options_table()
    assert re.findall(r"^\| `([a-z_]+)` \|", table, re.M) == DECLARED
    assert "| `max_urls` | `50000` |" in table and "`weekly`" in table  # default and allowed values
    page = on_page_markdown((REPO / "docs" / "options.md").read_text(encoding="utf-8"))
    assert table in page
