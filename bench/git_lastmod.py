"""Git dates for a whole repository: sitemapkit's one batched pass against one
``git log -1 -- FILE`` per file (what per-file plugins such as
mkdocs-git-revision-date-localized do).

The repository (default 10,000 files over 500 commits, made with ``git fast-import``):
each commit adds 20 files and edits 30 random existing ones; every 10th commit also renames
5 files with an edit (a pure rename is where the two approaches differ by design:
sitemapkit keeps the date of the last edit, so the history here has none).

The batched side runs ``--repeat`` times, each in a child process that times itself and
reads its peak RSS from VmHWM in /proc/self/status. The per-file side times ``--sample``
random files (all files with ``--sample 0``) and extrapolates to every file; every sampled
date is checked against the batched dates.

    .venv/bin/python bench/git_lastmod.py                    # 10,000 files, 500 commits
    .venv/bin/python bench/git_lastmod.py --sample 0         # time every file (minutes)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ADDED_PER_COMMIT = 20
EDITED_PER_COMMIT = 30
EPOCH = 1_600_000_000


def _content(path: str, version: int) -> bytes:
    lines = [f"# {path}"] + [f"line {n} of {path}" for n in range(12)]
    lines += [f"edit {v}" for v in range(version)]
    return ("\n".join(lines) + "\n").encode()


def _data(blob: bytes) -> bytes:
    return b"data %d\n" % len(blob) + blob + b"\n"


def _quoted(path: str) -> str:
    return '"' + path.replace("\\", "\\\\").replace('"', '\\"') + '"'


def make_repository(root: Path, files: int, commits: int, seed: int = 1) -> list[str]:
    """A repository at ``root`` whose HEAD holds ``files`` files; returns their paths."""
    rng = random.Random(seed)
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)
    per_commit = max(1, -(-files // commits))
    alive: dict[str, int] = {}  # path -> version
    made = 0
    stream = bytearray()
    for number in range(commits):
        when = EPOCH + number * 3600
        stream += b"commit refs/heads/main\n"
        stream += b"committer Bench <bench@example.com> %d +0000\n" % when
        stream += _data(b"commit %d" % number)
        for _ in range(min(per_commit, files - made)):
            path = f"docs/section {made % 37:02d}/page-{made:05d}.md"
            made += 1
            alive[path] = 0
            stream += f"M 100644 inline {path}\n".encode() + _data(_content(path, 0))
        existing = sorted(alive)
        for path in rng.sample(existing, min(EDITED_PER_COMMIT, len(existing))):
            alive[path] += 1
            stream += f"M 100644 inline {path}\n".encode() + _data(_content(path, alive[path]))
        if number % 10 == 9:
            for path in rng.sample(sorted(alive), 5):
                target = path.replace("/page-", "/moved-", 1) if "/page-" in path else path + ".md"
                version = alive.pop(path) + 1
                alive[target] = version
                stream += f"R {_quoted(path)} {_quoted(target)}\n".encode()
                stream += f"M 100644 inline {target}\n".encode() + _data(
                    _content(path, version)
                )
        stream += b"\n"
    subprocess.run(
        ["git", "-C", str(root), "fast-import", "--quiet"], input=bytes(stream), check=True
    )
    return sorted(alive)


def peak_rss_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def child(root: str) -> None:
    """Every file's date the way a build asks for them (``GitDates.date`` per file: finding
    the repository, inspecting it, the one pass), timed inside this process; prints JSON."""
    from sitemapkit.git import GitDates

    top = Path(root)
    listing = subprocess.run(
        ["git", "-C", root, "ls-tree", "-r", "-z", "--name-only", "HEAD"],
        capture_output=True, check=True,
    ).stdout.decode()
    paths = [p for p in listing.split("\0") if p]
    start = time.perf_counter()
    git = GitDates()
    dates = {path: git.date(top / path) for path in paths}
    seconds = time.perf_counter() - start
    assert None not in dates.values(), "some files got no date"
    stamps = {path: int(moment.timestamp()) for path, moment in dates.items()}
    print(json.dumps({"seconds": seconds, "rss_kib": peak_rss_kib(), "dates": stamps}))


def batched(root: Path) -> dict:
    done = subprocess.run(
        [sys.executable, __file__, "--child", str(root)], capture_output=True, text=True,
        check=True,
    )
    return json.loads(done.stdout)


def per_file(root: Path, path: str) -> tuple[float, int]:
    start = time.perf_counter()
    out = subprocess.run(
        ["git", "-C", str(root), "log", "-1", "--format=%ct", "--", path],
        capture_output=True, text=True, check=True,
    ).stdout
    return time.perf_counter() - start, int(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--commits", type=int, default=500)
    parser.add_argument("--sample", type=int, default=500,
                        help="time the per-file approach on N random files (0: all)")
    parser.add_argument("--repeat", type=int, default=5, help="batched passes to time")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return

    with tempfile.TemporaryDirectory(prefix="sitemapkit-git-bench-") as temp:
        root = Path(temp) / "repo"
        start = time.perf_counter()
        paths = make_repository(root, args.files, args.commits)
        made = time.perf_counter() - start
        print(f"repository: {len(paths)} files at HEAD, {args.commits} commits "
              f"(fast-import {made:.1f} s); git {_git_version()}; "
              f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")

        runs = [batched(root) for _ in range(args.repeat)]
        dates = runs[0]["dates"]
        assert all(run["dates"] == dates for run in runs), "batched passes disagree"
        assert sorted(dates) == paths, "batched pass missed files"
        batch_median = statistics.median(run["seconds"] for run in runs)
        rss = max(run["rss_kib"] for run in runs)
        print(f"batched pass (sitemapkit): median {batch_median:.3f} s over {args.repeat} runs "
              f"({', '.join(format(run['seconds'], '.3f') for run in runs)}); "
              f"child peak RSS {rss / 1024:.1f} MiB")

        sample = paths if args.sample <= 0 else random.Random(2).sample(
            paths, min(args.sample, len(paths))
        )
        timings = []
        for path in sample:
            seconds, stamp = per_file(root, path)
            assert stamp == dates[path], f"{path}: per-file {stamp} != batched {dates[path]}"
            timings.append(seconds)
        total = sum(timings)
        estimate = total / len(sample) * len(paths)
        how = "measured" if len(sample) == len(paths) else (
            f"extrapolated from {len(sample)} random files ({total:.1f} s)"
        )
        print(f"one git log per file: median {statistics.median(timings) * 1000:.1f} ms a file, "
              f"{estimate:.1f} s for {len(paths)} files ({how})")
        print(f"same dates: {len(sample)} of {len(sample)} sampled files equal")
        print(f"ratio: batched pass is {estimate / batch_median:.0f}x faster (target >= 50x)")


def _git_version() -> str:
    return subprocess.run(["git", "--version"], capture_output=True, text=True).stdout.split()[-1]


if __name__ == "__main__":
    main()
