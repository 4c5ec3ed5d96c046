"""The own-files record's name held by something that is not a regular file (a device, a
named pipe, a link, a folder): the build stops in one line and leaves it as it was, never
renaming a fresh record over it."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from sitemapkit.cli import main

RECORD = ".sitemapkit-files.json"


def make(path: Path, kind: str, elsewhere: Path) -> None:
    if kind == "device":
        os.mknod(path, 0o644 | stat.S_IFCHR, os.makedev(1, 3))  # what /dev/null is
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "link":
        elsewhere.write_text("kept\n")
        path.symlink_to(elsewhere)
    else:
        path.mkdir()


@pytest.mark.parametrize("kind", ["device", "fifo", "link", "folder"])
def test_a_record_name_that_is_not_a_file_is_never_replaced(tmp_path, capsys, kind):
    if kind == "device" and os.geteuid() != 0:
        pytest.xfail("making a device node needs root")  # CI and these machines run as root
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<html><head><title>A</title></head><body><main>A</main></body></html>")
    record = site / RECORD
    make(record, kind, tmp_path / "elsewhere.txt")
    before = os.lstat(record)

    code = main(["build", str(site), "--base-url", "https://example.com/"])

    assert code == 2
    err = capsys.readouterr().err
    assert f"{record} is " in err and "not the record sitemapkit keeps" in err
    after = os.lstat(record)
    assert (after.st_mode, after.st_ino, after.st_rdev) == (before.st_mode, before.st_ino, before.st_rdev)
    assert not (site / "sitemap.xml").exists()
    if kind == "link":
        assert (tmp_path / "elsewhere.txt").read_text() == "kept\n"
