"""The Pelican adapter on a project made by pelican-quickstart itself, built with the commands
its users type from the project folder (``pelican content``, ``-s publishconf.py``)."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from git_helpers import commit, init
from quickstarts import pelican_answers
from tool_venvs import UV, sitemapkit_wheel, tool_venv

from sitemap_checks import assert_valid_tree, usp_urls

pytestmark = pytest.mark.slow  # real generator runs (make test-fast leaves them out)

BIN = Path(sys.executable).parent
BASE = "https://blog.example.com/"
EPOCH = "1800000000"  # 2027-01-15: a build time no page date is near
POSTS = {
    "hello.md": "Title: Hello\nDate: 2025-03-01 10:00\nCategory: News\nTags: intro, pelican\n\nHi.",
    "later.md": "Title: Later\nDate: 2025-06-10 09:00\nModified: 2025-07-01 12:00\nCategory: News\n"
    "Tags: pelican\n\nMore.",
    "draft.md": "Title: Draft\nDate: 2025-08-01\nStatus: draft\n\nNot yet.",
    "pages/about.md": "Title: About\n\nAbout us.",
    "pages/thanks.md": "Title: Thanks\nStatus: hidden\n\nThanks.",
}
PUBLIC = {"", "hello.html", "later.html", "pages/about.html", "archives.html", "tags.html",
          "categories.html", "authors.html", "category/news.html", "tag/intro.html",
          "tag/pelican.html", "author/ann.html"}


def quickstart(root: Path, enable: str = 'PLUGINS = ["sitemapkit_pelican"]\n', bin_dir: Path = BIN,
               files: dict[str, str] = POSTS) -> Path:
    """pelican-quickstart's project (its answers typed in), with ``enable`` added to pelicanconf.py,
    committed to git on 2025-05-05 as a blog's sources are."""
    project = root / "blog"
    subprocess.run([bin_dir / "pelican-quickstart", "-p", str(project)], input=pelican_answers(BASE), text=True,
                   check=True, capture_output=True, timeout=60)
    with open(project / "pelicanconf.py", "a", encoding="utf-8") as conf:
        conf.write(enable)
    commit(init(project), "2025-05-05T12:00:00", {f"content/{name}": text for name, text in files.items()})
    return project


def pelican(project: Path, *args: str, bin_dir: Path = BIN) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SOURCE_DATE_EPOCH": EPOCH, "COLUMNS": "1000"}  # log lines unwrapped
    return subprocess.run([bin_dir / "pelican", "content", *args], cwd=project, env=env,
                          capture_output=True, text=True, timeout=180)


def assert_stock_sitemap(out: Path, project: Path, expected: set[str] = PUBLIC) -> None:
    assert_valid_tree(out, BASE)
    urls = usp_urls(out, BASE)
    assert set(urls) == {BASE + url for url in expected}  # the pages' own URLs, no folder path
    for url in urls:  # every listed URL is a file Pelican wrote
        path = out / url[len(BASE):]
        assert path.is_file() or (path / "index.html").is_file(), url
    xml = (out / "sitemap.xml").read_text(encoding="utf-8")
    assert "<lastmod>2027" not in xml  # no build-time lastmod
    assert "<lastmod>2025-07-01T" in xml and "<lastmod>2025-03-01T" in xml
    assert "<lastmod>2025-05-05T" in xml  # the page without a date: its last commit
    done = subprocess.run([BIN / "sitemapkit", "validate", "--site-dir", "output", "--strict",
                           str(out / "sitemap.xml")], cwd=project, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_quickstart_publish_build_lists_every_page_at_its_own_url(tmp_path):
    project = quickstart(tmp_path)
    done = pelican(project, "-s", "publishconf.py")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "WARNING" not in done.stdout + done.stderr
    assert_stock_sitemap(project / "output", project)


def test_quickstart_dev_build_warns_once_why_there_is_no_sitemap(tmp_path):
    # pelicanconf.py as `make devserver` users have it: SITEURL = "", RELATIVE_URLS uncommented.
    project = quickstart(tmp_path, 'PLUGINS = ["sitemapkit_pelican"]\nRELATIVE_URLS = True\n')
    done = pelican(project)
    logs = done.stdout + done.stderr
    assert done.returncode == 0, logs
    assert "Traceback" not in logs and (project / "output/hello.html").is_file()
    assert not (project / "output/sitemap.xml").exists()
    assert logs.count("sitemapkit:") == 1 and "publishconf.py" in logs and "SITEURL" in logs
    fatal = pelican(project, "--fatal", "warnings")
    assert fatal.returncode != 0 and "publishconf.py" in fatal.stdout + fatal.stderr


def test_output_path_absolute_by_o_or_a_pathlib_path_in_the_settings(tmp_path):
    project = quickstart(tmp_path, 'PLUGINS = ["sitemapkit_pelican"]\nfrom pathlib import Path\n'
                                   'PATH = Path("content")\nOUTPUT_PATH = Path("public")\n')
    done = pelican(project, "-s", "publishconf.py")
    assert done.returncode == 0, done.stdout + done.stderr
    assert set(usp_urls(project / "public", BASE)) == {BASE + url for url in PUBLIC}
    elsewhere = tmp_path / "site"
    done = pelican(project, "-s", "publishconf.py", "-o", str(elsewhere))
    assert done.returncode == 0, done.stdout + done.stderr
    assert set(usp_urls(elsewhere, BASE)) == {BASE + url for url in PUBLIC}


def test_a_save_as_without_its_url_lists_the_written_file_and_warns(tmp_path):
    project = quickstart(tmp_path, 'PLUGINS = ["sitemapkit_pelican"]\nTAGS_SAVE_AS = "tag/index.html"\n')
    done = pelican(project, "-s", "publishconf.py")
    assert done.returncode == 0, done.stdout + done.stderr
    urls = set(usp_urls(project / "output", BASE))
    assert BASE + "tag/" in urls and BASE + "tags.html" not in urls
    logs = done.stdout
    assert "tag/: loc: Pelican links this page as 'tags.html'" in logs and "[page-missing]" in logs


def test_file_system_dates_are_not_metadata(tmp_path):
    files = {**POSTS, "undated.md": "Title: Undated\nCategory: Misc\n\nNo date."}
    project = quickstart(tmp_path, 'PLUGINS = ["sitemapkit_pelican"]\nDEFAULT_DATE = "fs"\n', files=files)
    undated = project / "content/undated.md"
    os.utime(undated, (978_350_400, 978_350_400))  # 2001-01-01: a checkout time, not a date
    done = pelican(project, "-s", "publishconf.py")
    assert done.returncode == 0, done.stdout + done.stderr
    xml = (project / "output/sitemap.xml").read_text(encoding="utf-8")
    assert "<loc>https://blog.example.com/undated.html</loc><lastmod>2025-05-05T12:00:00Z" in xml  # git's
    assert "2001-01-01" not in xml and "<lastmod>2027" not in xml
    assert "<lastmod>2025-07-01T" in xml  # the articles' own dates still count


@pytest.fixture(scope="module")
def wheel_venv(tmp_path_factory) -> Path:
    """A venv holding Pelican and sitemapkit installed from its wheel, as users install them
    (an editable install cannot place files inside Pelican's ``pelican.plugins`` package)."""
    root = tmp_path_factory.mktemp("wheel")
    wheel = sitemapkit_wheel(root / "dist")
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True, timeout=120)
    site = Path(subprocess.check_output(
        [venv / "bin/python", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], text=True
    ).strip())
    import pelican as installed

    version = installed.__version__ if hasattr(installed, "__version__") else ""
    install = [*UV, "pip", "install", "--python", str(venv / "bin/python"), "--no-deps", "--compile-bytecode"]
    subprocess.run([*install, f"pelican=={version}" if version else "pelican", "pelican-i18n-subsites", wheel],
                   check=True, capture_output=True, timeout=300)
    # Pelican's and sitemapkit's dependencies (jinja2, lxml, ...) from the test environment,
    # without its Pelican, sitemapkit and Pelican plugins (Pelican would find those too).
    deps = root / "deps"
    deps.mkdir()
    for entry in Path(sysconfig.get_paths()["purelib"]).iterdir():
        if not entry.name.startswith(("pelican", "sitemapkit", "_editable_impl_sitemapkit")):
            (deps / entry.name).symlink_to(entry)
    (site / "test-env.pth").write_text(f"{deps}\n", encoding="utf-8")
    return venv / "bin"


def test_auto_discovery_finds_sitemapkit_without_a_plugins_line(tmp_path, wheel_venv):
    project = quickstart(tmp_path, "", bin_dir=wheel_venv)
    done = pelican(project, "-s", "publishconf.py", "-D", bin_dir=wheel_venv)
    assert done.returncode == 0, done.stdout + done.stderr
    for plugin in ("pelican.plugins.sitemapkit", "pelican.plugins.i18n_subsites"):  # and the site's others
        assert f"Registering plugin `{plugin}`" in done.stdout
    assert_stock_sitemap(project / "output", project)


def test_installed_but_left_out_of_plugins_it_is_not_loaded(tmp_path, wheel_venv):
    """Pelican imports every namespace plugin in every build: one whose PLUGINS line names
    other plugins loads nothing of sitemapkit, and writes no sitemap."""
    project = quickstart(tmp_path, 'PLUGINS = ["pelican.plugins.i18n_subsites"]\n', bin_dir=wheel_venv)
    env = {**os.environ, "SOURCE_DATE_EPOCH": EPOCH, "PYTHONPROFILEIMPORTTIME": "1"}
    done = subprocess.run([wheel_venv / "python", "-m", "pelican", "content", "-D"], cwd=project, env=env,
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr
    found = done.stdout[done.stdout.index("Namespace plugins found"):]
    assert "pelican.plugins.sitemapkit" in found[: found.index("Loading plugin")]  # imported by the discovery
    imported = {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    assert "pelican.plugins.i18n_subsites.i18n_subsites" in imported  # (import_module's own imports are not timed)
    assert not {name for name in imported if name.startswith("sitemapkit")}, sorted(imported)
    assert not (project / "output/sitemap.xml").exists()


def test_enabled_both_ways_writes_once(tmp_path, wheel_venv):
    project = quickstart(tmp_path, 'PLUGINS = ["sitemapkit", "sitemapkit_pelican"]\n', bin_dir=wheel_venv)
    done = pelican(project, "-s", "publishconf.py", "-D", bin_dir=wheel_venv)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("sitemapkit: ") == 1  # one summary line: one write
    assert set(usp_urls(project / "output", BASE)) == {BASE + url for url in PUBLIC}


def test_beside_pelican_sitemap_it_warns_once_with_the_rule(tmp_path, request):
    # pelican-sitemap in a venv of its own: in the test venv Pelican would load it in every build.
    bin_dir = tool_venv(request.config, ["pelican[markdown]", "pelican-sitemap"], sitemapkit=True)
    project = quickstart(tmp_path, 'PLUGINS = ["sitemapkit_pelican", "sitemap"]\n', bin_dir=bin_dir)
    done = pelican(project, "-s", "publishconf.py", bin_dir=bin_dir)
    warned = [line for line in done.stdout.splitlines() if "[plugin-conflict]" in line]
    assert len(warned) == 1 and "pelican-sitemap is enabled too" in warned[0], done.stdout + done.stderr
    assert "remove it from PLUGINS" in warned[0]
