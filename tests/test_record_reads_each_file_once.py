"""A rebuild reads each of its own sitemap files once, to record it: the new one, for its
identity; the old one is never read whole (a sitemap is replaced whoever wrote it, which its
first kilobytes tell), however many times the writer asks about the name. The record it
leaves is the one a fresh read of every file gives."""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from pathlib import Path

import pytest

from sitemapkit import Page, Settings, generate
from sitemapkit.site import owned
from sitemapkit.site.owned import RECORD

BASE = "https://example.com/"
TEMPORARY = re.compile(r"\.(.+)\.\d+\.[0-9a-f]{8}\.tmp")
"""A file's temporary name while it is written (``files.temporary_name``)."""


def final_name(path: Path) -> str:
    temporary = TEMPORARY.fullmatch(path.name)
    return temporary.group(1) if temporary else path.name


def pages(count: int, text: str) -> list[Page]:
    return [Page(url=f"p{i}/", html=f"<html><head><title>{i}</title></head><body>{text}</body></html>")
            for i in range(count)]


@pytest.mark.parametrize("gzip", [False, True])
def test_rebuild_reads_each_sitemap_file_once_per_version(tmp_path: Path, monkeypatch, gzip: bool) -> None:
    site = tmp_path / "site"
    settings = Settings(base_url=BASE, gzip=gzip, txt=True, lastmod=False, state_file=str(tmp_path / "state.json"))
    generate(pages(30, "first"), site, settings, project_dir=tmp_path)

    reads: Counter[str] = Counter()
    real_identity = owned.identity

    def counted(path: Path):
        reads[final_name(Path(path))] += 1
        return real_identity(path)

    monkeypatch.setattr(owned, "identity", counted)
    generate(pages(31, "second"), site, settings, project_dir=tmp_path)

    names = ["sitemap.xml", "sitemap.txt"] + (["sitemap.xml.gz", "sitemap.txt.gz"] if gzip else [])
    for name in names:
        assert (site / name).is_file()
    # Each file of ours: the new one read once (the temporary file, before it is put in
    # place); never again once it is in place, nor the old one to replace it.
    assert set(reads) == set(names)
    for name, count in reads.items():
        assert count == 1, f"{name} read {count} times in one rebuild"

    # The record names every file with the identity a fresh read gives.
    record = json.loads((site / RECORD).read_text())["files"]
    for name in names:
        data = (site / name).read_bytes()
        assert record[name] == [[len(data), hashlib.sha256(data).hexdigest()]]
