"""A project as `mkdocs new` makes it, with `site_url` and `- sitemapkit` in its plugins,
built and served with the commands users type, from the project folder."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from git_helpers import commit, init
from project_checks import SITE_URL, committed, lastmods, quickstart, validate_strict

pytestmark = pytest.mark.slow  # real generator runs (make test-fast leaves them out)

FAR_AWAY = "4102444800"  # 2100-01-01: a build-time lastmod would show it
BIN = Path(sys.executable).parent


def test_mkdocs_new_project_built_from_its_folder(tmp_path):
    root = quickstart(tmp_path / "project")
    (root / "docs" / "about.md").write_text("# About\n", encoding="utf-8")
    init(root)
    (root / ".gitignore").write_text("site/\n", encoding="utf-8")
    commit(root, "2024-03-04T05:06:07Z")
    env = {**os.environ, "SOURCE_DATE_EPOCH": FAR_AWAY}
    subprocess.run([str(BIN / "mkdocs"), "build"], cwd=root, env=env, check=True, capture_output=True)
    site = root / "site"
    dates = lastmods(site, SITE_URL)
    assert list(dates) == [SITE_URL, SITE_URL + "about/"]
    assert dates == {SITE_URL: committed(root, "docs/index.md"), SITE_URL + "about/": committed(root, "docs/about.md")}
    assert validate_strict(site) == 0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_mkdocs_serve_leaves_nothing_behind(tmp_path, stop):
    root = quickstart(tmp_path / "project")
    before = sorted(p.relative_to(root) for p in root.rglob("*"))
    temp = tmp_path / "tmp"
    temp.mkdir()
    port = _free_port()
    env = {**os.environ, "TMPDIR": str(temp)}
    server = subprocess.Popen(
        [str(BIN / "mkdocs"), "serve", "--no-livereload", "-a", f"127.0.0.1:{port}"],
        cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        preexec_fn=_as_from_a_terminal,
    )
    try:
        served = _get(f"http://127.0.0.1:{port}/sitemap.xml", server)
        assert b"<urlset" in served and f"127.0.0.1:{port}".encode() in served
        assert any(temp.iterdir())  # the served site lives there while it runs
        server.send_signal(stop)
        server.wait(timeout=30)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    assert list(temp.iterdir()) == []
    assert sorted(p.relative_to(root) for p in root.rglob("*")) == before


def _as_from_a_terminal() -> None:
    """Ctrl-C's default meaning in the server, as in a shell: a test worker may run with
    SIGINT ignored, which a child would inherit (and then never stop on SIGINT)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _get(url: str, server: subprocess.Popen) -> bytes:
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return response.read()
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"mkdocs serve did not answer: {server.stderr.read()}") from None
            time.sleep(0.2)
