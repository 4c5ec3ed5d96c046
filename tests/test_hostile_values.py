"""Values checked where they enter (issue #34, 4): ``extra_sitemaps`` and ``extra_urls`` refuse
what ``base_url`` refuses (control characters, credentials), with the one check they share;
what a ``transform`` returns is always checked as a new entry; a transform that raises or
exits stops the build, naming the page and the exception, with no file written."""

from __future__ import annotations

import pytest
from around_helpers import BASE, built_site, transform_module
from around_helpers import transformed as run

from sitemap_checks import locs
from sitemapkit import Settings, SettingsError, SitemapError
from sitemapkit.cli import main


@pytest.mark.parametrize("value", [
    "https://example.org/a.xml\nSitemap: https://evil.example/x.xml",
    "https://example.org/a.xml\r\nSitemap: https://evil.example/x.xml",
    "https://evil@example.org/b.xml",
])
def test_extra_sitemaps_refuse_line_breaks_and_credentials_as_base_url_does(value):
    with pytest.raises(SettingsError, match=r"option 'extra_sitemaps'.*(control character|credentials)"):
        Settings(base_url=BASE, extra_sitemaps=[value])
    with pytest.raises(SettingsError, match=r"option 'base_url'.*(control character|credentials)"):
        Settings(base_url=value)


@pytest.mark.parametrize("value", ["blog/x\nSitemap: https://evil.example/", {"loc": "/a\r\nb"},
                                   "https://user:secret@example.org/c/"])
def test_extra_urls_refuse_line_breaks_and_credentials(value):
    with pytest.raises(SettingsError, match=r"option 'extra_urls'.*(control character|credentials)"):
        Settings(base_url=BASE, extra_urls=[value])


def test_the_issue_robots_txt_gets_no_line_of_anyone_else(tmp_path, capsys):
    site = built_site(tmp_path)
    code = main(["build", str(site), "--base-url", BASE, "--extra-sitemap",
                 "https://example.org/a.xml\nSitemap: https://evil.example/x.xml"])
    assert code == 2
    assert "control character" in capsys.readouterr().err
    assert not (site / "robots.txt").exists()


def test_an_entry_changed_behind_the_frozen_dataclass_is_checked(tmp_path, monkeypatch):
    spec = transform_module(tmp_path, """
        def change(entry):
            if "/blog/a/" in entry.loc:
                object.__setattr__(entry, "loc", "https://evil.example/a/")
                object.__setattr__(entry, "priority", 7.0)
            return entry
    """, monkeypatch)
    site, _, warnings = run(tmp_path, spec)
    assert [(problem.where, problem.rule) for problem in warnings] == [(BASE + "blog/a/", "loc-scope")]
    text = (site / "sitemap.xml").read_text()
    assert "evil" not in text and "<priority>7" not in text
    assert BASE + "blog/b/" in locs(site / "sitemap.xml")


def test_an_equal_new_entry_is_checked_too(tmp_path, monkeypatch):
    spec = transform_module(tmp_path, """
        def change(entry):
            copy = dataclasses.replace(entry)
            object.__setattr__(copy, "changefreq", "sometimes")
            object.__setattr__(entry, "changefreq", "sometimes")  # so that the two compare equal
            return copy
    """, monkeypatch)
    site, _, warnings = run(tmp_path, spec)
    assert {problem.rule for problem in warnings} == {"changefreq-value"}
    assert "sometimes" not in (site / "sitemap.xml").read_text()


@pytest.mark.parametrize("body, said", [
    ("sys.exit(0)", "SystemExit: 0"),
    ("raise SystemExit('bye')", "SystemExit: bye"),
    ("raise KeyError('no such thing')", "KeyError: 'no such thing'"),
])
def test_a_transform_that_exits_or_raises_stops_the_build_naming_the_page(tmp_path, monkeypatch, body, said):
    spec = transform_module(tmp_path, f"""
        import sys
        def change(entry):
            if "/blog/b/" in entry.loc:
                {body}
            return entry
    """, monkeypatch)
    with pytest.raises(SitemapError) as raised:
        run(tmp_path, spec)
    message = str(raised.value)
    assert message.startswith(BASE + "blog/b/: transform: ") and said in message and "[transform-error]" in message
    assert not (tmp_path / "site" / "sitemap.xml").exists() and not (tmp_path / "site" / "robots.txt").exists()


def test_the_command_line_says_so_in_one_line_and_fails(tmp_path, monkeypatch, capsys):
    spec = transform_module(tmp_path, """
        import sys
        def change(entry):
            sys.exit(0)
    """, monkeypatch)
    site = built_site(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["build", str(site), "--base-url", BASE, "--transform", spec]) != 0
    err = capsys.readouterr().err
    assert "Traceback" not in err and "SystemExit" in err and BASE in err
    assert not (site / "sitemap.xml").exists()


SPHINX_CONF = f"""\
project = "Tiny"
extensions = ["sitemapkit_sphinx"]
html_baseurl = "{BASE}"
"""


def sphinx(root, extra: str, *flags: str):
    import os
    import subprocess
    import sys

    src = root / "src"
    src.mkdir(exist_ok=True)
    (src / "conf.py").write_text(SPHINX_CONF + extra, encoding="utf-8")
    (src / "index.rst").write_text("Home\n====\n\nOne.\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", *flags, "src", "out"], cwd=root,
                          env={**os.environ, "COLUMNS": "250"}, capture_output=True, text=True, timeout=300)
    shown = done.stdout + done.stderr
    assert "Traceback" not in shown and "please open an issue" not in shown, shown
    return done


@pytest.mark.slow  # a real sphinx-build
@pytest.mark.parametrize("flags", [(), ("-W",)])
def test_sphinx_an_unimportable_transform_is_a_warning_not_a_crash_report(tmp_path, flags):
    done = sphinx(tmp_path, 'sitemapkit_transform = "nomod:x"\n', *flags)
    assert done.returncode == (1 if flags else 0)
    assert done.stderr.splitlines()[0].startswith(
        "WARNING: sitemapkit: settings: sitemapkit_transform: 'nomod:x' cannot be loaded from ")
    assert "ModuleNotFoundError: No module named 'nomod'" in done.stderr
    assert not (tmp_path / "out" / "sitemap.xml").exists()


@pytest.mark.slow  # a real sphinx-build
def test_sphinx_a_transform_that_exits_is_a_warning_naming_the_page(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "exiting_hook.py").write_text("import sys\ndef change(entry):\n    sys.exit(0)\n")
    done = sphinx(tmp_path, 'sitemapkit_transform = "exiting_hook:change"\n')
    assert done.returncode == 0
    assert f"WARNING: sitemapkit: {BASE}index.html: transform: transform exiting_hook:change raised SystemExit: 0" \
        in done.stderr
    assert (tmp_path / "out" / "index.html").is_file() and not (tmp_path / "out" / "sitemap.xml").exists()
