"""A build asks the built site about each same-site image file once, however many pages show
it, and whether a page lies in the site once a folder (issue 36: the second ``sitemapkit
build`` of 10,000 unchanged pages spent half its time asking both again for every page). A
page file that is a link is still asked on its own. The calls are counted as Python runs
them (``sys.setprofile``), nothing replaced."""

import json
import os
import sys
from pathlib import Path

from sitemapkit.cli import main
from sitemapkit.site import files, pages

BASE = "https://site.example/"


def page(path: Path, name: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"<!doctype html><html lang='en'><head><title>{name}</title></head><body><main>"
                    f"<h1>{name}</h1><img src='/img/logo.png' alt='logo of the site, shown large'>"
                    "<img src='/img/gone.png' alt='a figure whose file is missing'></main></body></html>")


def asked(argv: list[str]) -> tuple[list[str], list[str]]:
    """The arguments ``file_exists`` and ``inside`` were called with, in order, in a build."""
    images: list[str] = []
    folders: list[str] = []

    def profile(frame, event, arg):
        if event == "call" and frame.f_code is pages.file_exists.__code__:
            images.append(frame.f_locals["url"])
        elif event == "call" and frame.f_code is files.inside.__code__:
            folders.append(os.fspath(frame.f_locals["path"]))

    sys.setprofile(profile)
    try:
        code = main(argv)
    finally:
        sys.setprofile(None)
    assert code == 0
    return images, folders


def test_each_image_file_and_each_folder_asked_once(tmp_path, capsys):
    site = tmp_path / "site"
    for folder in ("a", "b", "c"):
        for i in range(40):
            page(site / folder / f"p{i:02d}.html", f"{folder}{i}")
    (site / "img").mkdir()
    (site / "img" / "logo.png").write_bytes(b"\x89PNG")
    outside = tmp_path / "elsewhere" / "linked.html"
    page(outside, "linked")
    (site / "b" / "p20-link.html").symlink_to(outside)  # between b/p19 and b/p20 in the walk

    images, folders = asked(["build", str(site), "--base-url", BASE, "--format", "json",
                                "--state-file", str(tmp_path / "state.json")])
    report = json.loads(capsys.readouterr().out)

    assert sorted(images) == ["img/gone.png", "img/logo.png"]  # not 2 x 121
    assert sorted(folders) == sorted([*(str(site / f) for f in "abc"), str(site / "b" / "p20-link.html")])
    missing = [w["page"] for w in report["warnings"] if w["rule"] == "image-missing"]
    assert len(missing) == 120 and "b/p20-link.html" not in missing  # its file is not the site's
    sitemap = (site / "sitemap.xml").read_text()
    assert sitemap.count(f"<image:loc>{BASE}img/logo.png</image:loc>") == 121
    # the linked page's folder answer is its own: the pages after it in b/ are still checked
    assert "b/p21.html" in missing and "b/p39.html" in missing
    assert sitemap.count(f"<image:loc>{BASE}img/gone.png</image:loc>") == 1


def test_a_run_with_a_linked_page_is_not_replayed_together(tmp_path, capsys):
    """A rebuild replays a folder's pages together only when none is a link (``Manifest.folder``
    checks each file as it is, not its target), so a replayed page's own folder answers for it:
    the warnings, and the linked page's image, are the first build's."""
    site = tmp_path / "site"
    for folder in ("a", "b"):
        for i in range(5):
            page(site / folder / f"p{i}.html", f"{folder}{i}")
    outside = tmp_path / "elsewhere" / "linked.html"
    page(outside, "linked")
    (site / "b" / "p2-link.html").symlink_to(outside)
    argv = ["build", str(site), "--base-url", BASE, "--format", "json", "--state-file", str(tmp_path / "state.json")]

    def built() -> tuple[dict, list[str], str]:
        assert main(argv) == 0
        report = json.loads(capsys.readouterr().out)
        return report, sorted(w["page"] for w in report["warnings"] if w["rule"] == "image-missing"), \
            (site / "sitemap.xml").read_text()

    _, first, _ = built()
    built()  # (the files of the first were in doubt: written within a second of it; now dated)
    os.utime(outside, (0, 0))
    for path in site.rglob("*.html"):
        os.utime(path, (0, 0), follow_symlinks=False)
    _, _, sitemap = built()
    report, again, same = built()
    assert report["page_facts"]["folders"] == 1  # a/ together; b/ page by page
    assert again == first and "b/p2-link.html" not in first and len(first) == 20
    assert same == sitemap
