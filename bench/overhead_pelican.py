"""What sitemapkit costs a Pelican build: a generated blog built with no sitemap plugin, with
pelican-sitemap, and with sitemapkit, alternated, each build in a fresh subprocess.

    .venv/bin/python bench/overhead_pelican.py [--articles 2000] [--runs 5] [--control]
        [--small] [--heavy]

``--heavy``: ``--articles`` posts of four long paragraphs in 20 categories with 80 tags, every
tenth translated and with an image. ``--small``: 1,000 posts of a few short paragraphs in 4
categories with 6 tags (a short menu), where a per-page cost shows. Neither flag: both.

Prints, per variant, the median wall time and the median CPU time (user + sys of the build
process and its children), the ratios to the build without a plugin (of the medians, and
the median of each run's own ratio), the median peak RSS
(VmHWM, read by the build process itself at its end), and each plugin's own time measured
inside its builds (importing it, its per-page handler, its final step). Builds run with
Python's bytecode cache on, as an installed plugin's is (see _measure.build_env). Wall time
swings on a shared machine and so, less, does CPU time between builds; the in-build share is
the steadiest figure.
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

from _measure import build_env, run_build
from overhead_sphinx import png

VARIANTS = {
    "none": "PLUGINS = []\n",
    "pelican-sitemap": 'PLUGINS = ["pelican.plugins.sitemap"]\n',
    "sitemapkit": 'PLUGINS = ["sitemapkit_pelican"]\n',
}
# --control: a second build without a plugin, measured like the others. Its ratio to "none"
# is what the machine's noise alone makes of identical builds.
CONTROL = {"none-again": "PLUGINS = []\n"}
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


def make_blog(root: Path, articles: int, small: bool = False) -> None:
    """``articles`` Markdown posts in 20 categories with 80 tags, committed to a git repository
    of their own (sitemapkit's default lastmod sources include git); every tenth post has a
    French translation and an image (a PNG in ``content/images/``, which Pelican copies).
    ``small``: short posts in 4 categories with 6 tags, no translations, no images."""
    content = root / "content"
    content.mkdir(parents=True)
    rng = random.Random(5)
    for n in range(articles):
        day = f"2025-{1 + n % 12:02d}-{1 + n % 28:02d} {n % 24:02d}:{n % 60:02d}"
        if small:
            body = "\n\n".join(" ".join(rng.choices(WORDS, k=20)) for _ in range(3))
            head = f"Title: Post {n}\nDate: {day}\nCategory: c{n % 4}x\nTags: t{n % 6}a\nSlug: post-{n}\n"
        else:
            body = "\n\n".join(" ".join(rng.choices(WORDS, k=60)) for _ in range(4))
            head = (
                f"Title: Post {n}\nDate: {day}\nCategory: c{n % 20}x\n"
                f"Tags: t{n % 50}a, u{n % 30}b\nSlug: post-{n}\n"
            )
        extra = f"\n\n![pic](/images/p{n}.png)" if n % 10 == 0 and not small else ""
        if extra:  # the picture is there: Pelican copies content/images/ (a missing one is warned of)
            (content / "images").mkdir(exist_ok=True)
            (content / "images" / f"p{n}.png").write_bytes(png(n))
        (content / f"post-{n}.md").write_text(head + "\n" + body + extra, encoding="utf-8")
        if n % 10 == 0 and not small:
            (content / f"post-{n}-fr.md").write_text(
                head.replace(f"Post {n}", f"Billet {n}") + "Lang: fr\n\n" + body, encoding="utf-8"
            )
    for variant, plugins in {**VARIANTS, **CONTROL}.items():
        (root / f"conf-{variant}.py").write_text(CONF.format(variant=variant) + plugins, encoding="utf-8")
    (root / ".gitignore").write_text("output-*/\ncache-*/\n.cache/\npycache/\n", encoding="utf-8")
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
    variant = Path(config).stem.removeprefix("conf-")
    spent = _time_handlers(variant) if variant in OWN_TIME else {}
    Pelican(read_settings(config)).run()
    print("".join(f"{name}_s={seconds}\n" for name, seconds in spent.items()), end="")
    status = Path("/proc/self/status").read_text()
    peak = next(line.split()[1] for line in status.splitlines() if line.startswith("VmHWM"))
    print(f"VmHWM_kB={peak}")


# The plugin's module, the object holding its handlers, its per-page and its final handler.
OWN_TIME = {
    "sitemapkit": ("sitemapkit_pelican", None, "collect", "write"),
    "pelican-sitemap": ("pelican.plugins.sitemap.sitemap", "generator", "queue_page", "finalize"),
}
PARTS = ("import", "per_page", "final")


def _time_handlers(variant: str) -> dict[str, float]:
    """Time spent importing the plugin, in its per-page handler and in its final step: its
    own share of the build, free of the noise between separate builds. Read with
    perf_counter, which costs no system call: the per-page handler runs thousands of times,
    and a CPU clock read there would be most of what it measures. The wrappers are put in
    place before Pelican calls the plugin's ``register()``, which connects them."""
    import importlib

    module_name, holder_name, per_page, final = OWN_TIME[variant]
    started = time.perf_counter()
    module = importlib.import_module(module_name)
    spent = dict.fromkeys(PARTS, 0.0)
    spent["import"] = time.perf_counter() - started
    holder = getattr(module, holder_name) if holder_name else module

    def timed(part, handler):
        def inner(*args, **kwargs):
            started = time.perf_counter()
            try:
                return handler(*args, **kwargs)
            finally:
                spent[part] += time.perf_counter() - started

        return inner

    setattr(holder, per_page, timed("per_page", getattr(holder, per_page)))
    setattr(holder, final, timed("final", getattr(holder, final)))
    return spent


def measure(root: Path, variant: str) -> tuple[float, float, int, dict[str, float]]:
    """(wall s, CPU s, peak RSS KiB, the plugin's own seconds by part) of one build."""
    build = run_build([sys.executable, __file__, "--child", str(root / f"conf-{variant}.py")],
                      root, build_env(root))
    if build.returncode != 0:
        raise SystemExit(f"{variant} build failed:\n{build.stdout}\n{build.stderr}")
    values = dict(line.split("=", 1) for line in build.stdout.splitlines() if "=" in line)
    shares = {k.removesuffix("_s"): float(v) for k, v in values.items() if k.endswith("_s")}
    return build.wall, build.cpu, int(values["VmHWM_kB"]), shares


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--articles", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--control", action="store_true", help="also time a second no-plugin build")
    parser.add_argument("--small", action="store_true", help="1,000 short posts, a short menu")
    parser.add_argument("--heavy", action="store_true", help="--articles long posts, translations")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return

    for size in [size for size in ("small", "heavy") if getattr(args, size)] or ["small", "heavy"]:
        work = Path(tempfile.mkdtemp(prefix="sitemapkit-pelican-bench-"))
        try:
            print(f"\n{size} site:")
            run_all(work, 1000 if size == "small" else args.articles, args.runs, args.control,
                    small=size == "small")
        finally:
            shutil.rmtree(work, ignore_errors=True)


def run_all(work: Path, articles: int, runs: int, control: bool, small: bool = False) -> None:
    make_blog(work, articles, small)
    names = list(VARIANTS) + (list(CONTROL) if control else [])
    for name in names:  # warm-up: bytecode caches, the page cache, sitemapkit's state file
        measure(work, name)
    results: dict[str, list[tuple[float, float, int, dict[str, float]]]] = {n: [] for n in names}
    for run in range(runs):
        order = names[run % len(names):] + names[: run % len(names)]  # each goes first in turn
        for name in order:
            results[name].append(measure(work, name))

    for name in ("pelican-sitemap", "sitemapkit"):
        if not (work / f"output-{name}" / "sitemap.xml").exists():
            raise SystemExit(f"{name} wrote no sitemap.xml: is the plugin importable?")
    urls = sum(p.read_text().count("<url>") for p in (work / "output-sitemapkit").glob("sitemap*.xml"))
    print(
        f"Pelican build of a {articles}-article blog ({len(list((work / 'content').iterdir()))}"
        f" source files), {runs} alternated runs per variant after one warm-up each,"
        f" {os.cpu_count()} CPUs (shared with other work: single builds swing, the own time"
        f" is the steady figure); sitemapkit listed {urls} URLs"
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
    print("Paired: the median over runs of each run's ratio to that run's build without a plugin"
          " (builds of one run are seconds apart, so a slow minute of the machine cancels out):")
    for name in names[1:]:
        pairs = list(zip(results[name], results["none"], strict=True))
        paired = [statistics.median(r[k] / b[k] for r, b in pairs) for k in (0, 1)]
        print(f"  {name:16s} wall x{paired[0]:.3f}   cpu x{paired[1]:.3f}")
    print("Own time inside the builds (medians; on a quiet machine about CPU time):")
    for name in OWN_TIME:
        own = {part: statistics.median(r[3][part] for r in results[name]) for part in PARTS}
        rest = statistics.median(r[0] - sum(r[3].values()) for r in results[name])
        print(
            f"  {name:16s} import {own['import']:.3f} s + per-page handler {own['per_page']:.3f} s"
            f" + final step {own['final']:.3f} s = {sum(own.values()):.3f} s,"
            f" {sum(own.values()) / rest:.1%} over the rest of the build"
        )


if __name__ == "__main__":
    main()
