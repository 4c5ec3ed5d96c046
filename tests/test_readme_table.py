"""The README's "Enable it" table, row by row, as typed: each row's install line in a fresh venv
of its own, the project its quickstart makes, the line it adds, a commit, its build command
from the project folder, then the README's `validate` line on the folder the row names. The
commands are read from the README, so a row that stops working as written fails here."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
import tomllib
from git_helpers import commit, init
from project_checks import lastmods
from quickstarts import pelican_answers
from tool_venvs import packages, tool_venv

from sitemap_checks import REPO

pytestmark = pytest.mark.slow  # fresh venvs and real generator runs (make test-fast leaves them out)

README = (REPO / "README.md").read_text(encoding="utf-8")
BASE = "https://docs.example.org/"
FAR_AWAY = "4102444800"  # 2100-01-01: a build-time lastmod would show it
CODE = re.compile(r"`([^`]+)`")
HAND_WRITTEN = {  # "your build" of the command-line row: a folder of HTML
    "public/index.html": "<!doctype html><html><head><title>Home</title></head>"
                         "<body><a href='about/'>About</a></body></html>",
    "public/about/index.html": "<!doctype html><html><head><title>About</title></head><body>About</body></html>",
}


@dataclass(frozen=True, slots=True)
class Row:
    """One way through a row of the table (the Sphinx row has two: with and without --sep)."""

    generator: str
    install: str
    quickstart: str  # empty for the command-line row
    line: str | None  # the line added, None when the row adds none
    config: str | None  # the file it goes in
    build: str
    lands: str


def table_rows(readme: str) -> list[Row]:
    lines = readme[readme.index("| generator |"):].splitlines()
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    assert header == ["generator", "install", "project made by", "the line added", "build", "sitemap lands in"]
    rows: list[Row] = []
    for line in lines[2:]:
        if not line.startswith("|"):
            break
        cells = dict(zip(header, (cell.strip() for cell in line.strip().strip("|").split("|")), strict=True))
        (install,) = CODE.findall(cells["install"])
        made_by = CODE.findall(cells["project made by"])
        added = CODE.findall(cells["the line added"])
        builds = [code for code in CODE.findall(cells["build"]) if not code.startswith("-")]
        lands = CODE.findall(cells["sitemap lands in"])
        quickstarts = made_by[:1] or [""]
        if "(or without)" in cells["project made by"]:  # the same quickstart without its flag
            quickstarts.append(quickstarts[0].split(" -")[0])
        assert len(quickstarts) == len(builds) == len(lands), line
        for quickstart, build, folder in zip(quickstarts, builds, lands, strict=True):
            rows.append(Row(cells["generator"], install, quickstart, added[0] if added else None,
                            added[1] if added else None, build, folder.rstrip("/")))
    return rows


def validate_line(readme: str, folder: str) -> list[str]:
    """The README's "before deploying" command, for the output folder ``folder``."""
    (command,) = (code for line in readme.splitlines() for code in CODE.findall(line)
                  if code.startswith("sitemapkit validate "))
    return [folder if word == "site" else word for word in shlex.split(command)]


ROWS = table_rows(README)


def test_the_table_has_every_generator():
    assert [row.generator for row in ROWS] == ["MkDocs 1.x", "ProperDocs", "Zensical", "Pelican", "Sphinx",
                                               "Sphinx", "any folder of HTML"]
    assert packages('pip install "sitemapkit[sphinx]"') == ["sphinx>=7.0"]
    assert validate_line(README, "build/html") == ["sitemapkit", "validate", "build/html", "--site-dir", "build/html",
                                                   "--strict"]


def make_project(row: Row, root: Path, env: dict[str, str]) -> str:
    """The project the row's quickstart makes, in ``root``, its site URL set as the row says;
    returns that URL."""
    def run(command: list[str], answers: str | None = None) -> None:
        done = subprocess.run(command, cwd=root, env=env, input=answers, capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr

    command = shlex.split(row.quickstart)
    tool = command[0] if command else ""
    if tool in ("mkdocs", "properdocs"):  # "`site_url:` set"
        run(command)
        with open(root / row.config, "a", encoding="utf-8") as config:
            config.write(f"site_url: {BASE}\n")
    elif tool == "zensical":
        run(command)
        config = tomllib.loads((root / "zensical.toml").read_text(encoding="utf-8"))
        return config["project"]["site_url"]
    elif tool == "pelican-quickstart":  # "URL prefix given", and a post to list
        run(command, pelican_answers(BASE))
        (root / "content" / "hello.md").write_text("Title: Hello\nDate: 2025-03-01 10:00\n\nHi.\n",
                                                   encoding="utf-8")
    elif tool == "sphinx-quickstart":  # its questions answered on the command line; "`html_baseurl` set"
        run([*command, "-q", "-p", "Proj", "-a", "Ann", "."])
        conf = next(path for path in (root / "source" / "conf.py", root / "conf.py") if path.is_file())
        with open(conf, "a", encoding="utf-8") as config:
            config.write(f'html_baseurl = "{BASE}"\n')
    else:
        assert row.quickstart == "", row
        for name, text in HAND_WRITTEN.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text, encoding="utf-8")
        return re.search(r"--base-url (\S+)", row.build).group(1)
    return BASE


def add_line(row: Row, root: Path) -> None:
    if row.line is None:
        return
    config = next(path for path in (root / row.config, root / "source" / row.config) if path.is_file())
    with open(config, "a", encoding="utf-8") as file:
        file.write(f"\n{row.line}\n")


@pytest.mark.parametrize("row", ROWS, ids=[f"{row.generator} {row.quickstart}".strip() for row in ROWS])
def test_readme_row_as_typed_in_a_fresh_venv(request, tmp_path, row):
    bin_dir = tool_venv(request.config, packages(row.install), sitemapkit=True)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "SOURCE_DATE_EPOCH": FAR_AWAY,
           "VIRTUAL_ENV": str(bin_dir.parent)}
    root = init(tmp_path / "project")
    base = make_project(row, root, env)
    add_line(row, root)
    commit(root, "2024-03-04T05:06:07Z")

    done = subprocess.run(row.build, shell=True, cwd=root, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    dates = lastmods(root / row.lands, base)  # one valid urlset, every URL a written page
    assert dates
    assert not [url for url, date in dates.items() if date and date.startswith("2100")], dates  # no build time
    checked = subprocess.run(validate_line(README, row.lands), cwd=root, env=env, capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "0 errors, 0 warnings" in checked.stdout
