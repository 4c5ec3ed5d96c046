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

``--big`` measures a whole MkDocs build instead: a repository of 15,000 files and 7,000
commits (the size of mkdocs-material's) holding a 100-page ``docs`` folder, built with
``lastmod: [git]`` and with ``lastmod: [fingerprint]``, alternated. Each build runs in a child
process that reports its CPU time (its own and its git processes') and its peak RSS (VmHWM
from /proc/self/status; git runs in processes of its own, whose memory is not counted: the
pass over the docs folder's history takes about 22 MB there). ``--before DIR`` runs the same builds
with the ``core`` and ``plugins`` folders of another checkout first on the import path (for
before/after figures).

    .venv/bin/python bench/git_lastmod.py --big
    git archive main core plugins | tar -x -C /tmp/before
    .venv/bin/python bench/git_lastmod.py --big --before /tmp/before
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
    from sitemapkit.lastmod.git import GitDates

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


BIG_FILES, BIG_COMMITS, BIG_PAGES = 15_000, 7_000, 100


def make_big_repository(root: Path, seed: int = 3) -> None:
    """15,000 files over 7,000 commits: code added and edited all along, a 100-page docs
    folder edited now and then, a few renames; an ``mkdocs.yml`` at the top."""
    rng = random.Random(seed)
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)
    pages = [f"docs/section-{n % 7}/page-{n:03d}.md" for n in range(BIG_PAGES)]
    code: list[str] = []
    version: dict[str, int] = {}
    stream = bytearray()
    config = (b"site_name: Big\nsite_url: https://example.com/\n"
              b"plugins:\n  - sitemapkit:\n      lastmod: [git]\n")
    for number in range(BIG_COMMITS):
        stream += b"commit refs/heads/main\n"
        stream += b"committer Bench <bench@example.com> %d +0000\n" % (EPOCH + number * 3600)
        stream += _data(b"commit %d" % number)
        changed: list[str] = []
        if number == 0:
            stream += b"M 100644 inline mkdocs.yml\n" + _data(config)
            changed += pages[:20]
        elif number < 400 and number % 5 == 0:
            changed += pages[20 + (number // 5 - 1) % 80: 21 + (number // 5 - 1) % 80]
        while len(code) < (BIG_FILES - BIG_PAGES - 1) * (number + 1) // BIG_COMMITS:
            code.append(f"src/pkg{len(code) % 97:02d}/module_{len(code):05d}.py")
            changed.append(code[-1])
        if code:
            changed += rng.sample(code, min(3, len(code)))
        if number % 9 == 0 and number > 400:
            changed.append(rng.choice(pages))
        for path in dict.fromkeys(changed):
            version[path] = version.get(path, 0) + 1
            stream += f"M 100644 inline {path}\n".encode() + _data(_content(path, version[path]))
        if number % 500 == 499:  # a docs page moved: a pure rename
            old = rng.choice(pages)
            new = old.replace("/page-", "/moved-page-")
            pages[pages.index(old)] = new
            stream += f"R {_quoted(old)} {_quoted(new)}\n".encode()
        stream += b"\n"
    subprocess.run(["git", "-C", str(root), "fast-import", "--quiet"], input=bytes(stream), check=True)
    subprocess.run(["git", "-C", str(root), "checkout", "-q", "main"], check=True)


def big_child(project: str) -> None:
    """One ``mkdocs build`` in this process; prints CPU seconds and peak RSS as JSON."""
    import resource

    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    config = load_config(str(Path(project) / "mkdocs.yml"))
    build(config)
    own = resource.getrusage(resource.RUSAGE_SELF)
    git = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(json.dumps({
        "cpu": own.ru_utime + own.ru_stime + git.ru_utime + git.ru_stime, "rss_kib": peak_rss_kib(),
    }))


def big(before: str | None) -> None:
    with tempfile.TemporaryDirectory(prefix="sitemapkit-git-big-") as temp:
        root = Path(temp) / "repo"
        start = time.perf_counter()
        make_big_repository(root)
        files = len(subprocess.run(["git", "-C", str(root), "ls-files"], capture_output=True,
                                   text=True, check=True).stdout.splitlines())
        print(f"repository: {files} files, {BIG_COMMITS} commits, {BIG_PAGES} docs pages "
              f"(fast-import {time.perf_counter() - start:.1f} s); git {_git_version()}; "
              f"load average {os.getloadavg()[0]:.2f}")
        config = root / "mkdocs.yml"
        text = config.read_text()
        builds = {"git": text, "fingerprint": text.replace("[git]", "[fingerprint]")}
        env = dict(os.environ)
        if before:
            env["PYTHONPATH"] = os.pathsep.join([f"{before}/core", f"{before}/plugins"])
        runs: dict[str, list[dict]] = {name: [] for name in builds}
        for _ in range(4):  # the first round warms caches and is not counted
            for name, yaml in builds.items():
                config.write_text(yaml)
                done = subprocess.run([sys.executable, __file__, "--big-child", str(root)],
                                      capture_output=True, text=True, env=env, cwd=root)
                if done.returncode != 0:
                    raise SystemExit(done.stderr[-2000:])
                runs[name].append(json.loads(done.stdout.splitlines()[-1]))
        figures = {}
        for name, measured in runs.items():
            measured = measured[1:]
            cpu = statistics.median(run["cpu"] for run in measured)
            rss = statistics.median(run["rss_kib"] for run in measured) / 1024
            figures[name] = (cpu, rss)
            print(f"lastmod [{name}]: CPU {cpu:.2f} s (median of {len(measured)}: "
                  f"{', '.join(format(run['cpu'], '.2f') for run in measured)}), "
                  f"peak RSS {rss:.1f} MiB")
        (cpu_git, rss_git), (cpu_print, rss_print) = figures["git"], figures["fingerprint"]
        print(f"git dates cost: {cpu_git - cpu_print:+.2f} s CPU, {rss_git - rss_print:+.1f} MiB "
              f"(target at most +0.3 s and +20 MB){' [before]' if before else ''}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--commits", type=int, default=500)
    parser.add_argument("--sample", type=int, default=500,
                        help="time the per-file approach on N random files (0: all)")
    parser.add_argument("--repeat", type=int, default=5, help="batched passes to time")
    parser.add_argument("--big", action="store_true",
                        help="a whole MkDocs build on a 15,000-file, 7,000-commit repository")
    parser.add_argument("--before", help="with --big: a checkout whose core/ and plugins/ to use")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--big-child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return
    if args.big_child:
        big_child(args.big_child)
        return
    if args.big:
        big(args.before)
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
