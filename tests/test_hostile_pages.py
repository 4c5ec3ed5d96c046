"""Pages read in bounded memory, whatever their size (issue #34, 3): a page larger than
``PAGE_READ_BYTES`` is read from its start only (head, images, videos), its fingerprint taken
over the whole file in blocks, and a ``page-too-large`` warning names it; ``build`` and
``validate --site-dir`` stay under a memory ceiling (VmHWM of the child process) for a page
six times that size. Today's main read it whole, several times over (a 1 GiB page: a
MemoryError traceback at 3.1 GB)."""

from __future__ import annotations

from pathlib import Path

import pytest
from peak_memory import measured

from sitemapkit.protocol import PAGE_READ_BYTES

pytestmark = pytest.mark.slow  # child processes reading a page of 48 MiB made here

BASE = "https://example.com/"
CEILING_KB = 128 * 1024
UNIT = b'<p>lorem ipsum dolor sit amet <img src="/a.png" alt="a"> <a href="/b/">b</a></p>\n'


def big_page(path: Path, size: int, *, head: bool = True) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as out:
        out.write(b"<!doctype html><html><head><title>Big</title></head><body><main>" if head else b"<p>")
        block = UNIT * 1024
        for _ in range(size // len(block)):
            out.write(block)
        out.write(b'<img src="/past-the-start.png" alt="late"></main></body></html>')


def test_build_reads_a_huge_page_in_bounded_memory(tmp_path):
    site = tmp_path / "site"
    big_page(site / "index.html", 6 * PAGE_READ_BYTES)
    code, said, peak = measured("build", str(site), "--base-url", BASE)
    assert code == 0, said
    assert "[page-too-large]" in said and f"first {PAGE_READ_BYTES >> 20} MiB" in said
    text = (site / "sitemap.xml").read_text()
    assert BASE + "a.png" in text and "past-the-start" not in text
    assert peak < CEILING_KB, peak


def test_a_huge_page_without_a_head_is_read_in_bounded_memory_too(tmp_path):
    site = tmp_path / "site"
    big_page(site / "index.html", 6 * PAGE_READ_BYTES, head=False)
    code, said, peak = measured("build", str(site), "--base-url", BASE)
    assert code == 0, said
    assert peak < CEILING_KB, peak


def test_validate_site_dir_reads_it_in_bounded_memory(tmp_path):
    site = tmp_path / "site"
    big_page(site / "index.html", 6 * PAGE_READ_BYTES)
    (site / "sitemap.xml").write_text(f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns='
                                      f'"http://www.sitemaps.org/schemas/sitemap/0.9">\n<url><loc>{BASE}</loc>'
                                      "</url>\n</urlset>\n")
    code, said, peak = measured("validate", str(site / "sitemap.xml"), "--site-dir", str(site))
    assert code == 0, said
    assert peak < CEILING_KB, peak


def test_the_fingerprint_covers_the_whole_page(tmp_path):
    from sitemapkit.site.extract import read_page_file

    page = tmp_path / "index.html"
    big_page(page, 2 * PAGE_READ_BYTES)
    before = read_page_file(page, BASE)
    with page.open("r+b") as handle:  # one byte changed past what is read for images
        handle.seek(-30, 2)
        handle.write(b"X")
    after = read_page_file(page, BASE)
    assert before.cut and before.digest != after.digest
