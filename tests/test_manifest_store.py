"""The manifest keeps a small site's records in memory and a big site's in SQLite: both give
the same lastmods, the same changes and the same manifest file, also when a build outgrows
memory halfway (while reading the last manifest, or while noting its own pages)."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

import pytest
from manifest_paths import manifest_of

from sitemapkit import Page, Report, Settings
from sitemapkit.lastmod import manifest
from sitemapkit.lastmod.sources import LastmodResolver

BASE = "https://example.com/"
START = datetime(2024, 1, 1, tzinfo=timezone.utc)


def builds(project, seed: int) -> list:
    """Eight builds of a site whose pages come, go, change, lose their content or their
    title, and are sometimes handed over twice; what each build said and wrote."""
    rng = random.Random(seed)
    seen = []
    for number in range(8):
        resolver = LastmodResolver(Settings(base_url=BASE, lastmod=("fingerprint",), changes_feed=5),
                                   project, Report(), START + timedelta(days=number))
        urls = rng.sample(range(40), rng.randint(0, 30))
        urls += rng.sample(urls, min(len(urls), rng.randint(0, 3)))  # noted twice
        lastmods = []
        for url in urls:
            digest = rng.choice([None, "a", "b", f"d{url}"])
            title = rng.choice([None, "", f"Page {url}", "Other"])
            page = Page(url=f"p{url}.html", modified=rng.choice([None, START]))
            lastmods.append(resolver.lastmod(page, f"{BASE}p{url}.html", digest, title))
        resolver.finish()
        changes = resolver.manifest.finish()
        resolver.manifest.close()
        state = manifest_of(project, BASE)
        seen.append((lastmods, changes.added, changes.changed, changes.removed, changes.first_build,
                     state.read_bytes()))
    return seen


@pytest.mark.parametrize("seed", range(6))
def test_in_memory_and_sqlite_manifests_agree(tmp_path, monkeypatch, seed):
    results = []
    for limit in (0, 7, 25, 100_000):  # all SQLite, spilled at 7 or 25 records, all in memory
        monkeypatch.setattr(manifest, "_IN_MEMORY", limit)
        project = tmp_path / str(limit)
        project.mkdir()
        results.append(builds(project, seed))
    assert results[0] == results[1] == results[2] == results[3]
    assert any(added or changed or removed for _, added, changed, removed, _, _ in results[0])
