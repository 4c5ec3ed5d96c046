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


def builds(project, seed: int, days: list[int] | None = None) -> list:
    """Eight builds of a site whose pages come, go, change, lose their content or their
    title, and are sometimes handed over twice, on ``days`` (by default one a day: a clock
    set back makes records first seen after a build's now); what each build said and wrote."""
    rng = random.Random(seed)
    seen = []
    for number in range(8):
        day = number if days is None else days[number]
        resolver = LastmodResolver(Settings(base_url=BASE, lastmod=("fingerprint",), changes_feed=5),
                                   project, Report(), START + timedelta(days=day))
        urls = rng.sample(range(40), rng.randint(0, 30))
        urls += rng.sample(urls, min(len(urls), rng.randint(0, 3)))  # noted twice
        lastmods = []
        for url in urls:
            digest = rng.choice([None, "a", "b", f"d{url}"])
            title = rng.choice([None, "", f"Page {url}", "Other"])
            page = Page(url=f"p{url}.html", modified=rng.choice([None, START]))
            loc = f"{BASE}p{url}.html"
            if rng.random() < 0.5:
                lastmods.append(resolver.lastmod(page, loc, digest, title))
                continue
            # as a page replayed with its folder's: dated again by its fingerprint, noted with the
            # record that dated it (most such notes keep it as it was)
            answers, moment, old = resolver.again(page, loc, digest, "fingerprint", None)
            if answers:
                resolver.replay(page, loc, digest, "fingerprint", moment, old)
            lastmods.append(moment)
        resolver.finish()
        changes = resolver.manifest.finish()
        resolver.manifest.close()
        state = manifest_of(project, BASE)
        seen.append((lastmods, changes.added, changes.changed, changes.removed, changes.first_build,
                     state.read_bytes()))
    return seen


@pytest.mark.parametrize("days", [None, [3, 1, 4, 1, 5, 2, 6, 0]], ids=["forward", "set-back"])
@pytest.mark.parametrize("seed", range(6))
def test_in_memory_and_sqlite_manifests_agree(tmp_path, monkeypatch, seed, days):
    monkeypatch.setattr(manifest, "_SAME_AT_ONCE", 3)  # (a build's notes of records as they were: a few statements)
    results = []
    for limit in (0, 7, 25, 100_000):  # all SQLite, spilled at 7 or 25 records, all in memory
        monkeypatch.setattr(manifest, "_IN_MEMORY", limit)
        project = tmp_path / str(limit)
        project.mkdir()
        results.append(builds(project, seed, days))
    assert results[0] == results[1] == results[2] == results[3]
    assert any(added or changed or removed for _, added, changed, removed, _, _ in results[0])


@pytest.mark.parametrize("limit", [0, 100_000])  # in SQLite, in memory
def test_a_rebuild_that_changed_nothing_leaves_the_manifest_as_it_is(tmp_path, monkeypatch, limit):
    monkeypatch.setattr(manifest, "_IN_MEMORY", limit)

    def build(day: int, changed: int | None = None):
        resolver = LastmodResolver(Settings(base_url=BASE, lastmod=("fingerprint",)), tmp_path, Report(),
                                   START + timedelta(days=day))
        for url in range(50):
            digest = "new" if url == changed else f"d{url}"
            resolver.lastmod(Page(url=f"p{url}.html"), f"{BASE}p{url}.html", digest)
        resolver.finish()
        resolver.manifest.finish()
        resolver.manifest.close()
        state = manifest_of(tmp_path, BASE)
        return state.read_bytes(), state.stat()

    build(0)
    dated, before = build(1)  # (the first build dates no page: the second gives each its first date)
    same, after = build(2)
    assert same == dated and (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    changed, rewritten = build(3, changed=7)
    assert changed != dated and (rewritten.st_ino, rewritten.st_mtime_ns) != (before.st_ino, before.st_mtime_ns)


def test_rows_looked_up_in_any_order_are_the_rows_of_their_keys():
    import sqlite3

    from sitemapkit.lastmod.ordered import InOrder

    db = sqlite3.connect("")
    db.execute("CREATE TABLE t(value, key TEXT PRIMARY KEY) WITHOUT ROWID")
    kept = {f"k{n:04d}": n for n in range(0, 2000, 3)}
    db.executemany("INSERT INTO t VALUES (?, ?)", [(value, key) for key, value in kept.items()])
    rng = random.Random(5)
    asked = [f"k{n:04d}" for n in range(2000)]  # in order, with keys the table lacks,
    asked += rng.sample(asked, 300)  # then out of order,
    asked += sorted(rng.sample(asked, 300))[::-1]  # backwards,
    asked += [f"k{n:04d}" for n in range(0, 2000, 97)]  # and in long strides
    rows = InOrder(db, "value, key", "t", "key", 1)
    assert [rows.get(key) for key in asked] == [(kept[key], key) if key in kept else None for key in asked]


def test_rows_whose_key_is_not_text_are_never_a_keys_row():
    """A kept file is hostile: a row keyed by bytes or a number sorts among the text keys' in
    SQLite, and must neither be found nor stop the lookups (it raised TypeError)."""
    import sqlite3

    from sitemapkit.lastmod.ordered import InOrder

    db = sqlite3.connect("")
    db.execute("CREATE TABLE t(value, key PRIMARY KEY) WITHOUT ROWID")
    db.executemany("INSERT INTO t VALUES (?, ?)", [(1, "a"), (2, b"b"), (3, 7), (4, "c"), (5, b"z")])
    rows = InOrder(db, "value, key", "t", "key", 1)
    assert [rows.get(key) for key in ("a", "b", "c", "y", "zz", "7")] == [(1, "a"), None, (4, "c"), None, None, None]
