"""The project stands alone and says what it is: its XSDs, its version, its machine-readable
and dry-run builds, its wheel, its documentation site (built and checked by itself)."""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import yaml
from lxml import etree
from manifest_paths import manifest_of
from tool_venvs import sitemapkit_wheel

import sitemapkit
from sitemap_checks import REPO, XSD, assert_valid_tree
from sitemapkit.report import Report

pytestmark = pytest.mark.slow  # real generator runs (make test-fast leaves them out)

BIN = Path(sys.executable).parent
STATIC = REPO / "sample_sites" / "static"
BASE = "https://lighthouse.example/"


def sitemapkit_cli(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The command as users type it; "now" pinned, so two runs date first-seen pages alike."""
    env = {**os.environ, "SOURCE_DATE_EPOCH": "1768435200"}  # 2026-01-15T00:00:00Z
    return subprocess.run([str(BIN / "sitemapkit"), *map(str, args)], cwd=cwd, env=env,
                          capture_output=True, text=True, check=False)


def static_project(root: Path) -> Path:
    """The static sample as a user has it: the built HTML in public/, sitemapkit.toml beside."""
    project = root / "static"
    shutil.copytree(STATIC, project, ignore=shutil.ignore_patterns("_site", ".cache"))
    return project


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file and folder under ``folder``: its bytes (folders: empty) and its mode."""
    return {
        str(path.relative_to(folder)): (path.read_bytes() if path.is_file() else b"", path.stat().st_mode)
        for path in sorted(folder.rglob("*"))
    }


# --------------------------------------------------------------- standing alone


def test_xsds_are_the_published_bytes_listed_in_sources():
    table = (XSD / "SOURCES.md").read_text(encoding="utf-8")
    listed = dict(re.findall(r"^\| `([^`]+)` .*\| ([0-9a-f]{64}) \|", table, re.M))
    on_disk = {str(p.relative_to(XSD)) for p in XSD.rglob("*.xsd")}
    assert set(listed) == on_disk - {"sitemap-all.xsd"}, "every published XSD has a row"
    for name, digest in listed.items():
        assert hashlib.sha256((XSD / name).read_bytes()).hexdigest() == digest, name
    assert XSD.is_relative_to(REPO)


def test_nothing_in_the_repository_reads_outside_it():
    tracked = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True,
                             check=True).stdout.split()
    outside = re.compile(r"""\.\./shared|/\s*["']shared["']|parents?\b.*["']shared["']""")
    offenders = [
        name for name in tracked
        if name.endswith((".py", ".toml", ".yml", ".yaml", ".cfg", ".ini", "Makefile", "run"))
        and outside.search((REPO / name).read_text(encoding="utf-8", errors="replace"))
        and name != "tests/test_package_and_docs.py"
    ]
    assert offenders == []


# --------------------------------------------------------------------- version


def test_version_comes_from_the_package_metadata(tmp_path):
    installed = importlib.metadata.version("sitemapkit")
    assert sitemapkit.__version__ == installed
    done = sitemapkit_cli("--version")
    assert (done.returncode, done.stdout.strip()) == (0, f"sitemapkit {installed}")

    from sphinx.application import Sphinx
    from sphinx.util.docutils import docutils_namespace, patch_docutils

    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text('extensions = ["sitemapkit_sphinx"]\nhtml_baseurl = "https://d.example/"\n')
    (src / "index.rst").write_text("Home\n====\n")
    with patch_docutils(src), docutils_namespace():  # as sphinx-build does: nothing left registered
        app = Sphinx(src, src, tmp_path / "out", tmp_path / "doctrees", "html", status=None, warning=None)
    assert app.extensions["sitemapkit_sphinx"].version == installed


def test_flags_are_never_abbreviated(tmp_path):
    project = static_project(tmp_path)
    done = sitemapkit_cli("build", project / "public", "--config", project / "sitemapkit.toml", "--max-url", "5")
    assert done.returncode == 2
    assert "unrecognized arguments: --max-url 5" in done.stderr
    assert not (project / "public" / "sitemap.xml").exists()


# ------------------------------------------------------------------ messages


def test_summary_counts_in_words():
    one = Report(files=[Path("sitemap.xml")], urls=1, images=1, videos=2, news=1)
    assert one.summary() == "1 URL, 1 image, 2 videos, 1 news article in sitemap.xml; 0 warnings"
    empty = Report(left_out={"noindex": 2})
    empty.warn("site", "pages", "no-pages", "nothing to list")
    assert empty.summary() == "0 URLs; no file written; left out: 2 noindex; 1 warning"


def test_settings_errors_are_not_prefixed_twice(tmp_path):
    project = static_project(tmp_path)
    done = sitemapkit_cli("build", project / "public", "--config", project / "sitemapkit.toml", "--priority", "2")
    assert done.returncode == 2
    assert done.stderr.startswith("sitemapkit: option 'priority' must be")
    assert done.stderr.count("sitemapkit") == 1


# ---------------------------------------------------------------- build json


def test_build_json_is_one_document_with_each_files_urls_and_size(tmp_path):
    project = static_project(tmp_path)
    site = project / "public"
    done = sitemapkit_cli("build", site, "--config", project / "sitemapkit.toml", "--format", "json",
                          "--exclude", "no-such-folder/")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    files = {Path(item["path"]).name: item for item in report["files"]}
    assert {"sitemap.xml", "sitemap.xml.gz", "sitemap.txt", "robots.txt"} <= set(files)
    for name, item in files.items():
        assert item["bytes"] == (site / name).stat().st_size, name
    for name, item in files.items():
        if name.endswith(".xml"):  # a <url> per URL, or a <sitemap> per sitemap of an index
            assert item["urls"] == len(etree.parse(str(site / name)).getroot()), name
    assert files["sitemap.txt"]["urls"] == report["urls"] > 0
    assert files["robots.txt"]["urls"] is None
    assert report["dry_run"] is False
    assert all(set(w) == {"page", "field", "rule", "message", "level"} for w in report["warnings"])
    assert done.stderr == ""  # warnings are in the document, not around it


# ------------------------------------------------------------------- dry run


def dry_then_real(project: Path, *flags: str) -> tuple[str, dict[str, int]]:
    """Run ``--dry-run`` (asserting the project is byte-identical after), then the same real
    build; return what the dry run printed and the sizes the real build wrote."""
    before = snapshot(project)
    args = ("build", project / "public", "--config", project / "sitemapkit.toml", *flags)
    dry = sitemapkit_cli(*args, "--dry-run", cwd=project.parent)
    assert dry.returncode == 0, dry.stderr
    assert snapshot(project) == before, "a dry run changed the project folder"
    real = sitemapkit_cli(*args, cwd=project.parent)
    assert real.returncode == 0, real.stderr
    written = {line.split(" ")[2]: line for line in dry.stdout.splitlines() if line.startswith("would write ")}
    sizes = {name: Path(name).stat().st_size for name in written}
    return dry.stdout, sizes


def test_dry_run_writes_nothing_and_predicts_the_real_build(tmp_path):
    project = static_project(tmp_path)
    site = project / "public"
    printed, sizes = dry_then_real(project, "--changes-feed", "5")
    assert str(site / "sitemap.xml") in sizes and str(site / "robots.txt") in sizes
    assert str(manifest_of(project, BASE, site)) in sizes
    for name, size in sizes.items():
        assert re.search(rf"would write {re.escape(name)} \((\d+ URLs?, )?{size} bytes\)", printed), name
    assert manifest_of(project, BASE, site).is_file()  # the real build kept one
    assert_valid_tree(site, BASE)

    # An earlier build's split files, and IndexNow with a changed page: still nothing written.
    # (from the project's parent, as the builds below: one project's key signs each record)
    assert sitemapkit_cli("build", site, "--config", project / "sitemapkit.toml", "--max-urls", "2",
                          cwd=project.parent).returncode == 0
    assert list(site.glob("sitemap-2-*.xml"))  # index children are named by their content
    page = site / "blog" / "launch" / "index.html"
    page.write_text(page.read_text(encoding="utf-8").replace("</main>", "<p>More.</p></main>"), encoding="utf-8")
    indexnow = ("--indexnow", "key=5f2b8c1d9e7a4b3c0d1e2f3a4b5c6d7e")
    as_json = sitemapkit_cli("build", site, "--config", project / "sitemapkit.toml", *indexnow,
                             "--dry-run", "--format", "json", cwd=project.parent)
    assert json.loads(as_json.stdout)["dry_run"] is True
    assert "would POST 1 URL" in as_json.stderr
    printed, _ = dry_then_real(project, *indexnow)
    assert "IndexNow (dry run): would POST 1 URL in 1 batch to" in printed
    assert f"{BASE}blog/launch/" in printed
    assert not list(site.glob("sitemap-2-*.xml"))  # the real build removed what the dry run only counted


# -------------------------------------------------------------- manifest place


def test_cli_manifest_lives_in_the_project_folder_not_the_current_one(tmp_path):
    project = tmp_path / "blog"
    shutil.copytree(STATIC / "public", project / "public")
    (project / "mkdocs.yml").write_text("site_name: Blog\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = sitemapkit_cli("build", project / "public", "--base-url", BASE, "--lastmod", "fingerprint",
                          cwd=elsewhere)
    assert done.returncode == 0, done.stderr
    assert manifest_of(project, BASE, project / "public").is_file()
    assert list(elsewhere.iterdir()) == []


# ------------------------------------------------------------------- the wheel


def test_wheel_carries_licence_types_entry_points_and_classifiers(tmp_path):
    wheel = sitemapkit_wheel(tmp_path)
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        dist = next(n.split("/")[0] for n in names if n.split("/")[0].endswith(".dist-info"))
        metadata = archive.read(f"{dist}/METADATA").decode()
        entry_points = archive.read(f"{dist}/entry_points.txt").decode()
    assert f"{dist}/licenses/LICENSE" in names
    for package in ("sitemapkit", "sitemapkit_mkdocs", "sitemapkit_pelican", "sitemapkit_sphinx"):
        assert f"{package}/py.typed" in names, package
    assert "sitemapkit = sitemapkit.cli:main" in entry_points
    assert "sitemapkit = sitemapkit_mkdocs:SitemapkitPlugin" in entry_points
    for classifier in ("Framework :: MkDocs", "Framework :: Sphinx :: Extension",
                       "Framework :: Pelican :: Plugins", "Typing :: Typed"):
        assert f"Classifier: {classifier}" in metadata
    assert "Project-URL: Documentation, " in metadata and "Keywords: " in metadata
    extras = set(re.findall(r"^Provides-Extra: (\S+)", metadata, re.M))
    assert extras == {"mkdocs", "pelican", "sphinx", "all"}, "development tools are not extras"
    assert "pytest" not in metadata


# ------------------------------------------------------------ the docs site


def test_make_docs_builds_the_site_strict_and_validates_it(tmp_path):
    site = tmp_path / "site"
    done = subprocess.run(
        ["make", "--no-print-directory", "-o", ".venv/.sitemapkit-installed", "docs",
         f"BIN={BIN}", f"DOCS_SITE={site}"],
        cwd=REPO, capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "OK: " in done.stdout and "0 errors, 0 warnings" in done.stdout
    base = yaml.safe_load((REPO / "mkdocs.yml").read_text())["site_url"]
    assert_valid_tree(site, base)
    assert f"Sitemap: {base}sitemap.xml" in (site / "robots.txt").read_text()
    for page in ("mkdocs", "sphinx", "pelican", "cli", "options", "validate", "ci", "migrating"):
        assert (site / page / "index.html").is_file(), page


def test_readme_is_short_and_points_to_the_docs():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) < 300
    site_url = yaml.safe_load((REPO / "mkdocs.yml").read_text())["site_url"]
    assert site_url in readme
    for line in ('plugins: [search, sitemapkit]', 'PLUGINS = ["sitemapkit_pelican"]',
                 'extensions = ["sitemapkit_sphinx"]', "make demo", "make test"):
        assert line in readme


@pytest.mark.parametrize(
    ("path", "checked"),
    [("public/sitemap.xml", True), ("sitemap-2.xml.gz", True), ("site/sitemap.txt", True),
     ("robots.txt", True), ("public/index.html", False), ("notsitemap.xml", False)],
)
def test_pre_commit_hook_checks_sitemap_files(path, checked):
    (hook,) = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    assert hook["id"] == "sitemapkit-validate"
    assert hook["entry"] == "sitemapkit validate"
    assert bool(re.search(hook["files"], path)) is checked


def test_sphinx_warning_carries_its_rule_once(tmp_path):
    from sphinx.cmd.build import build_main

    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text('extensions = ["sitemapkit_sphinx"]\nhtml_baseurl = "https://d.example/"\n')
    (src / "index.rst").write_text(":sitemap_priority: 1.5\n\nHome\n====\n")
    warnings = tmp_path / "warnings.txt"
    assert build_main(["-q", "-b", "html", "-w", str(warnings), str(src), str(tmp_path / "out")]) == 0
    text = warnings.read_text()
    assert "index.rst: sitemap_priority:" in text
    assert text.count("priority-range") == 1


def table_names(markdown: str) -> set[str]:
    """The backquoted names in the first cell of every table row."""
    names: set[str] = set()
    for cell in re.findall(r"^\| (`[^|]+`) \|", markdown, re.M):
        names |= set(re.findall(r"`([a-z_<>-]+)`", cell))
    return names


def test_docs_tables_list_exactly_the_options_and_rules():
    from sitemapkit import OPTION_NAMES
    from sitemapkit.protocol import RULES

    sys.path.insert(0, str(REPO / "docs"))
    try:
        from hooks import on_page_markdown
    finally:
        sys.path.remove(str(REPO / "docs"))
    options = on_page_markdown((REPO / "docs" / "options.md").read_text(encoding="utf-8"))
    assert table_names(options.split("## Page-level keys")[0]) == set(OPTION_NAMES)
    text = on_page_markdown((REPO / "docs" / "validate.md").read_text(encoding="utf-8"))
    rules = text[text.index("## Rules"):text.index("## Hostile files")]
    assert table_names(rules) == set(RULES)
