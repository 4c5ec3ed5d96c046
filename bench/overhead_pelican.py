"""What sitemapkit costs a Pelican build: a generated blog built with no sitemap plugin, with
pelican-sitemap, and with sitemapkit, alternated, each build in a fresh subprocess.

    .venv/bin/python bench/overhead_pelican.py [--articles 2000] [--runs 5]

Prints, per variant, the median wall time and the median CPU time (user + sys of the build
process and its children, from wait4), the ratios to the build without a plugin, and the
median peak RSS (VmHWM, read by the build process itself at its end), and sitemapkit's own
time measured inside its builds (importing it, its per-page handler, its final generate()
call). Wall time swings on a shared machine and so, less, does CPU time between builds; the
in-build share is the steadiest figure.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

VARIANTS = {
    "none": "PLUGINS = []\n",
    "pelican-sitemap": 'PLUGINS = ["pelican.plugins.sitemap"]\n',
    "sitemapkit": 'PLUGINS = ["sitemapkit_pelican"]\n',
}
CONF = """\
SITEURL = "https://bench.example.org"
SITENAME = "Bench"
AUTHOR = "Bench"
PATH = "content"
OUTPUT_PATH = "output-{variant}"
CACHE_PATH = "cache-{variant}"
TIMEZONE = "Europe/Paris"
DEFAULT_PAGINATION = 10
LOAD_CONTENT_CACHE = False
FEED_ALL_ATOM = CATEGORY_FEED_ATOM = TRANSLATION_FEED_ATOM = None
AUTHOR_FEED_ATOM = AUTHOR_FEED_RSS = None
"""
WORDS = ["harbour", "tide", "ferry", "quay", "lighthouse", "rope", "sail", "gull", "anchor"]


def make_blog(root: Path, articles: int) -> None:
    """``articles`` Markdown posts in 20 categories with 80 tags, committed to a git repository
    of their own (sitemapkit's default lastmod sources include git); every tenth post has a
    French translation and an image."""
    content = root / "content"
    content.mkdir(parents=True)
    rng = random.Random(5)
    for n in range(articles):
        day = f"2025-{1 + n % 12:02d}-{1 + n % 28:02d} {n % 24:02d}:{n % 60:02d}"
        body = "\n\n".join(" ".join(rng.choices(WORDS, k=60)) for _ in range(4))
        head = (
            f"Title: Post {n}\nDate: {day}\nCategory: c{n % 20}x\n"
            f"Tags: t{n % 50}a, u{n % 30}b\nSlug: post-{n}\n"
        )
        extra = f"\n\n![pic](/images/p{n}.png)" if n % 10 == 0 else ""
        (content / f"post-{n}.md").write_text(head + "\n" + body + extra, encoding="utf-8")
        if n % 10 == 0:
            (content / f"post-{n}-fr.md").write_text(
                head.replace(f"Post {n}", f"Billet {n}") + "Lang: fr\n\n" + body, encoding="utf-8"
            )
    for variant, plugins in VARIANTS.items():
        (root / f"conf-{variant}.py").write_text(CONF.format(variant=variant) + plugins, encoding="utf-8")
    (root / ".gitignore").write_text("output-*/\ncache-*/\n.cache/\n", encoding="utf-8")
    env = {**os.environ, "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@example.org",
           "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@example.org"}
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "blog"]):
        subprocess.run(["git", *command], cwd=root, env=env, check=True)


def child(config: str) -> None:
    """Run one build in this process, then report this process's peak memory."""
    import logging

    from pelican import Pelican
    from pelican.settings import read_settings

    logging.disable(logging.WARNING)
    spent = _time_sitemapkit_handlers() if config.endswith("conf-sitemapkit.py") else {}
    Pelican(read_settings(config)).run()
    print("".join(f"{name}_s={seconds}\n" for name, seconds in spent.items()), end="")
    status = Path("/proc/self/status").read_text()
    peak = next(line.split()[1] for line in status.splitlines() if line.startswith("VmHWM"))
    print(f"VmHWM_kB={peak}")


def _time_sitemapkit_handlers() -> dict[str, float]:
    """Time spent in the plugin's per-page handler and in its final call into the core, and
    in importing it: sitemapkit's own share of the build, free of the noise between separate
    builds. Read with perf_counter, which costs no system call: the per-page handler runs
    thousands of times, and a CPU clock read there would be most of what it measures."""
    started = time.perf_counter()
    import sitemapkit_pelican as plugin

    spent = {"import": time.perf_counter() - started, "collect": 0.0, "write": 0.0}

    def timed(name, handler):
        def inner(*args, **kwargs):
            started = time.perf_counter()
            try:
                return handler(*args, **kwargs)
            finally:
                spent[name] += time.perf_counter() - started

        return inner

    plugin.collect, plugin.write = timed("collect", plugin.collect), timed("write", plugin.write)
    return spent


def one_build(root: Path, variant: str) -> tuple[float, int, dict[str, float]]:
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, __file__, "--child", str(root / f"conf-{variant}.py")],
        cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    out, err = process.communicate()
    wall = time.perf_counter() - started
    if process.returncode != 0:
        raise SystemExit(f"{variant} build failed:\n{out}\n{err}")
    values = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
    shares = {k.removesuffix("_s"): float(v) for k, v in values.items() if k.endswith("_s")}
    return wall, int(values["VmHWM_kB"]), shares


def measure(root: Path, variant: str) -> tuple[float, float, int, dict[str, float]]:
    # The child is reaped by communicate(): its user+sys (its own children's included) lands
    # in this process's children times, read as a difference.
    before = os.times()
    wall, peak, shares = one_build(root, variant)
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return wall, cpu, peak, shares


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--articles", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return

    work = Path(tempfile.mkdtemp(prefix="sitemapkit-pelican-bench-"))
    try:
        run_all(work, args.articles, args.runs)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run_all(work: Path, articles: int, runs: int) -> None:
    make_blog(work, articles)
    names = list(VARIANTS)
    for name in names:  # warm-up: bytecode caches, the page cache, sitemapkit's state file
        measure(work, name)
    results: dict[str, list[tuple[float, float, int, dict[str, float]]]] = {n: [] for n in names}
    for run in range(runs):
        order = names[run % 3:] + names[: run % 3]  # alternate which variant goes first
        for name in order:
            results[name].append(measure(work, name))

    for name in ("pelican-sitemap", "sitemapkit"):
        if not (work / f"output-{name}" / "sitemap.xml").exists():
            raise SystemExit(f"{name} wrote no sitemap.xml: is the plugin importable?")
    urls = sum(p.read_text().count("<url>") for p in (work / "output-sitemapkit").glob("sitemap*.xml"))
    print(
        f"Pelican build of a {articles}-article blog ({len(list((work / 'content').iterdir()))}"
        f" source files), {runs} alternated runs per variant after one warm-up each,"
        f" {os.cpu_count()} CPUs (shared); sitemapkit listed {urls} URLs"
    )
    base_wall = statistics.median(r[0] for r in results["none"])
    base_cpu = statistics.median(r[1] for r in results["none"])
    for name in names:
        wall = statistics.median(r[0] for r in results[name])
        cpu = statistics.median(r[1] for r in results[name])
        peak = statistics.median(r[2] for r in results[name]) / 1024
        print(
            f"{name:16s} wall median {wall:6.2f} s (x{wall / base_wall:.3f})   "
            f"cpu median {cpu:6.2f} s (x{cpu / base_cpu:.3f})   peak RSS median {peak:6.1f} MiB   "
            f"cpu runs {' '.join(f'{r[1]:.2f}' for r in results[name])}"
        )
    parts = ("import", "collect", "write")
    own = {part: statistics.median(r[3][part] for r in results["sitemapkit"]) for part in parts}
    wall = statistics.median(r[0] for r in results["sitemapkit"])
    print(
        f"sitemapkit's own time inside its builds (medians, quiet machine: about CPU time):"
        f" import {own['import']:.3f} s + per-page handler {own['collect']:.3f} s"
        f" + generate() {own['write']:.3f} s = {sum(own.values()):.3f} s,"
        f" {sum(own.values()) / (wall - sum(own.values())):.1%} over the rest of the build"
    )


if __name__ == "__main__":
    main()
