"""What sitemapkit adds to `mkdocs build` (issues 4, 7 and 17).

Two generated sites, default `mkdocs` theme, no search plugin: ``--heavy``, ``--pages``
pages in nested folders, each with an image and front-matter dates, every page in the nav
(so each page carries the whole navigation); ``--small``, 1,000 pages of a few paragraphs
with a short nav (about 1.5 ms each to build, where a per-page cost shows). Neither flag:
both. Each site is built in turn with MkDocs' built-in sitemap alone and with
`plugins: [sitemapkit]` (defaults: images, noindex, canonical, lastmod [meta, git,
fingerprint]). Each build is its own process; builds of the variants alternate, so a
machine's slow minute hurts both. Figures: median wall time, median CPU time (user + sys of
the build process and its children, from RUSAGE_CHILDREN deltas), the build's peak RSS
(VmHWM read inside it), the ratio to the built-in sitemap, and for sitemapkit the CPU time
spent importing it and inside its hooks, git included (its direct cost, read in the build
process: far steadier than the difference of two whole builds on a shared machine), net of
the timer's own cost per hook call, and that time by part: the import, ``on_post_page``,
``on_post_build``, the other hooks.

The git variant (issue 7) puts the site in a git repository with generated, dated commits
(packed, as a clone is) and compares no sitemapkit, sitemapkit with `lastmod: [git]`, and, when installed,
mkdocs-git-revision-date-localized-plugin.

The llms variant (issue 38) compares sitemapkit with and without ``llms_txt`` (llms.txt and
a Markdown mirror of each page); with ``--callgrind`` each of its two builds also runs once
under ``valgrind --tool=callgrind`` and the instructions of the whole build are printed (the
steadiest figure on a shared machine; minutes a build).

    .venv/bin/python bench/overhead_mkdocs.py --pages 2000 --runs 5 [--small] [--heavy]
        [--variant both|plain|git|llms] [--callgrind]   (the git variant runs on the heavy site)
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import struct
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

import yaml
from _measure import build_env, run_build


def cpu_seconds() -> float:
    """User + sys of this process and its waited children (git), microsecond-precise."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def child_build(config_file: str, site_dir: str) -> None:
    """Run in the build process: build, then print this process's peak RSS and the CPU time
    spent inside sitemapkit's hooks (its direct cost, free of the run-to-run noise of a whole
    build on a shared machine)."""
    import functools
    import logging

    import mkdocs.config.defaults  # noqa: F401  load_config imports it (babel too) before any plugin
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    spent = {"import": 0.0, "on_post_page": 0.0, "on_post_build": 0.0, "other hooks": 0.0, "timer": 0.0}
    calls = dict.fromkeys(spent, 0)

    def timed(hook, part=None):
        part = part or (hook.__name__ if hook.__name__ in spent else "other hooks")

        @functools.wraps(hook)
        def wrapper(*args, **kwargs):
            start = cpu_seconds()
            try:
                return hook(*args, **kwargs)
            finally:
                spent[part] += cpu_seconds() - start
                calls[part] += 1
        return wrapper

    plugins = yaml.safe_load(Path(config_file).read_text())["plugins"]
    if any(p == "sitemapkit" or (isinstance(p, dict) and "sitemapkit" in p) for p in plugins):
        # Imported only here: a baseline build must not pay for importing sitemapkit. MkDocs'
        # own modules are imported above, as a build has them before it loads plugins.
        start = cpu_seconds()
        from sitemapkit_mkdocs.plugin import SitemapkitPlugin

        spent["import"] += cpu_seconds() - start

        for name in ("on_startup", "on_config", "on_files", "on_nav", "on_env", "on_pre_build", "on_post_page",
                     "on_post_build"):
            setattr(SitemapkitPlugin, name, timed(getattr(SitemapkitPlugin, name)))
    logging.getLogger("mkdocs").setLevel(logging.ERROR)
    build(load_config(config_file, site_dir=site_dir))
    # The timer's own cost inside each measured call (two getrusage pairs, the wrapper: about
    # 1.5 us, as much as a cheap hook), taken from a timed call that does nothing.
    nothing = timed(lambda: None, "timer")
    for _ in range(20000):
        nothing()
    bias = spent.pop("timer") / calls.pop("timer")
    for part in spent:
        if part != "import":
            spent[part] = max(0.0, spent[part] - bias * calls[part])
    print("HOOKS", sum(spent.values()))
    for part, seconds in spent.items():
        print("PART", seconds, part)
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            print("VmHWM", int(line.split()[1]))


def png(width: int, height: int, seed: int) -> bytes:
    raw = b"".join(b"\x00" + bytes((seed % 256, (seed * 7) % 256, 90)) * width for _ in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    head = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", head) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


def page_paths(pages: int) -> list[str]:
    """section-NN/topic-NN/page-NNNN.md: 20 pages a folder, 10 folders a section."""
    return [f"section-{i // 200:02d}/topic-{i // 20 % 10:02d}/page-{i:04d}.md" for i in range(pages)]


def make_site(root: Path, pages: int) -> list[str]:
    docs = root / "docs"
    paths = page_paths(pages)
    (docs / "img").mkdir(parents=True)
    (docs / "index.md").write_text("# Benchmark site\n\nMany pages.\n")
    for i, rel in enumerate(paths):
        path = docs / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        (docs / "img" / f"figure-{i:04d}.png").write_bytes(png(8, 8, i))
        depth = "../" * rel.count("/")
        path.write_text(
            f"---\ndate: 2025-{1 + i % 12:02d}-{1 + i % 28:02d}\n"
            f"updated: 2026-{1 + i % 10:02d}-{1 + i % 27:02d}\n---\n\n"
            f"# Page {i}\n\nSome text about topic {i}, with a figure.\n\n"
            f"![Figure {i}]({depth}img/figure-{i:04d}.png)\n\n"
            + "A paragraph of body text that is long enough to look like documentation. " * 6
            + "\n\n## Details\n\n- one\n- two\n- three\n"
        )
    return paths


def make_small_site(root: Path, pages: int = 1000) -> list[str]:
    """``pages`` short pages (a title and three paragraphs) in one folder; the nav lists the
    home page and five of them."""
    docs = root / "docs"
    paths = [f"notes/note-{i:04d}.md" for i in range(pages)]
    (docs / "notes").mkdir(parents=True)
    (docs / "index.md").write_text("# Small pages\n\nA site of short notes.\n")
    for i, rel in enumerate(paths):
        (docs / rel).write_text(
            f"# Note {i}\n\n"
            + "\n\n".join(f"Paragraph {k} of note {i}: a few plain sentences on one topic, "
                          "short enough that the page builds fast." for k in range(3))
            + "\n"
        )
    return paths


def write_config(root: Path, name: str, plugins: list, nav: list[str] | None = None) -> Path:
    config = {
        "site_name": "Bench",
        "site_url": "https://bench.example.org/",
        "theme": {"name": "mkdocs"},
        "plugins": plugins,
    }
    if nav is not None:
        config["nav"] = nav
    path = root / f"{name}.yml"
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    return path


def git_history(root: Path, paths: list[str], commits: int) -> None:
    """``commits`` commits, each touching a slice of the pages, on set dates."""
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@example.org",
        "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@example.org",
    }

    def git(*args: str, **extra: str) -> None:
        subprocess.run(["git", *args], cwd=root, env={**env, **extra}, check=True, capture_output=True)

    git("init", "-q")
    git("add", "-A")
    git("commit", "-q", "-m", "initial", GIT_AUTHOR_DATE="2025-01-01T12:00:00Z",
        GIT_COMMITTER_DATE="2025-01-01T12:00:00Z")
    for n in range(1, commits):
        for rel in paths[n::commits]:
            with (root / "docs" / rel).open("a") as f:
                f.write(f"\nEdited in commit {n}.\n")
        when = f"2025-{1 + n % 12:02d}-{1 + n % 28:02d}T12:00:00Z"
        git("commit", "-q", "-a", "-m", f"edit {n}", GIT_AUTHOR_DATE=when, GIT_COMMITTER_DATE=when)
    # Packed, as a clone (CI's checkout) is: reading thousands of loose objects would make
    # every git reader several times slower than in real use.
    git("repack", "-a", "-d", "-q")


def one_build(config: Path, site_dir: Path) -> tuple[float, float, int, float, dict[str, float]]:
    """(wall seconds, CPU seconds of the build and its children, peak RSS in KiB, CPU
    seconds importing sitemapkit and inside its hooks, those seconds by part)."""
    done = run_build([sys.executable, __file__, "--child", str(config), str(site_dir)],
                     config.parent, build_env(config.parent))
    if done.returncode != 0:
        raise SystemExit(f"build of {config.name} failed:\n{done.stderr[-3000:]}")
    lines = done.stdout.splitlines()
    rss = int(next(line for line in lines if line.startswith("VmHWM")).split()[1])
    hooks = float(next(line for line in lines if line.startswith("HOOKS")).split()[1])
    parts = {line.split(maxsplit=2)[2]: float(line.split()[1]) for line in lines if line.startswith("PART")}
    return done.wall, done.cpu, rss, hooks, parts


def instructions(config: Path, site_dir: Path) -> int:
    """The instructions of one whole build under ``valgrind --tool=callgrind``."""
    out = config.parent / f"{config.stem}.callgrind"
    done = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, __file__,
                           "--child", str(config), str(site_dir)], cwd=config.parent, env=build_env(config.parent),
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"callgrind build of {config.name} failed:\n{done.stderr[-3000:]}")
    return next(int(line.split()[1]) for line in out.read_text().splitlines() if line.startswith("summary:"))


def compare(root: Path, variants: dict[str, Path], runs: int, title: str, pages: int) -> None:
    results: dict[str, list[tuple[float, float, int, float, dict[str, float]]]] = {name: [] for name in variants}
    for name, config in variants.items():  # warm-up: caches, the sitemapkit manifest
        one_build(config, root / f"site-{name}")
    for _ in range(runs):
        for name, config in variants.items():
            results[name].append(one_build(config, root / f"site-{name}"))
    print(f"\n{title}")
    base_name = next(iter(variants))
    base_wall = statistics.median(r[0] for r in results[base_name])
    base_cpu = statistics.median(r[1] for r in results[base_name])
    for name, rows in results.items():
        wall = statistics.median(r[0] for r in rows)
        cpu = statistics.median(r[1] for r in rows)
        rss = max(r[2] for r in rows) / 1024
        hooks = statistics.median(r[3] for r in rows)
        print(
            f"  {name:<28} wall median {wall:6.2f} s ({wall / base_wall:5.3f}x)   "
            f"cpu median {cpu:6.2f} s ({cpu / base_cpu:5.3f}x)   peak RSS {rss:6.1f} MiB   "
            f"cpu runs {' '.join(f'{r[1]:.2f}' for r in rows)}"
            + (f"   importing sitemapkit and in its hooks {hooks:.3f} s cpu "
               f"({hooks / base_cpu:.1%} of the base, {hooks / pages * 1e6:.0f} us a page)"
               if hooks else "")
        )
        if hooks:
            parts = {part: statistics.median(r[4][part] for r in rows) for part in rows[0][4]}
            print("      of which, medians a page: "
                  + ", ".join(f"{part} {seconds / pages * 1e6:.0f} us" for part, seconds in parts.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--variant", choices=("both", "plain", "git", "llms"), default="both")
    parser.add_argument("--callgrind", action="store_true", help="llms variant: instructions under callgrind too")
    parser.add_argument("--small", action="store_true", help="the 1,000 small pages site")
    parser.add_argument("--heavy", action="store_true", help="the --pages heavy pages site")
    parser.add_argument("--child", nargs=2, metavar=("CONFIG", "SITE_DIR"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child_build(*args.child)
        return

    sizes = [size for size in ("small", "heavy") if getattr(args, size)] or ["small", "heavy"]
    print(
        f"mkdocs build of generated sites ({', '.join(sizes)}), default theme, no search; "
        f"{args.runs} alternated runs per variant after one warm-up; {os.cpu_count()} CPUs "
        f"(shared with other work: single builds swing, the in-build own time is the steady "
        f"figure), load average {os.getloadavg()[0]:.2f} at start"
    )
    for size in sizes:
        with tempfile.TemporaryDirectory(prefix="sitemapkit-bench-") as tmp:
            run_size(Path(tmp), size, args)
    print(f"load average {os.getloadavg()[0]:.2f} at end")


def run_size(root: Path, size: str, args: argparse.Namespace) -> None:
    if size == "small":
        paths = make_small_site(root)
        nav: list[str] | None = ["index.md", *paths[:5]]
        label = f"{len(paths)} small pages, short nav"
    else:
        paths = make_site(root, args.pages)
        nav, label = None, f"{len(paths)} heavy pages, every page in the nav"
    if args.variant in ("both", "plain"):
        compare(root, {
            "built-in sitemap": write_config(root, "builtin", [], nav),
            "sitemapkit": write_config(root, "sitemapkit", ["sitemapkit"], nav),
        }, args.runs, f"Issues 4 and 17: built-in sitemap vs sitemapkit (defaults); {label}", len(paths))
    if args.variant == "llms":
        variants = {
            "sitemapkit": write_config(root, "sitemapkit", ["sitemapkit"], nav),
            "sitemapkit llms_txt: true": write_config(root, "llms", [{"sitemapkit": {"llms_txt": True}}], nav),
        }
        compare(root, variants, args.runs, f"Issue 38: sitemapkit without and with llms_txt; {label}", len(paths))
        if args.callgrind:
            for name, config in variants.items():
                print(f"  {name:<28} {instructions(config, root / f'site-{name}'):,} instructions (callgrind, "
                      "the whole build)")
    if args.variant in ("both", "git") and size == "heavy":
        git_history(root, paths, commits=50)
        variants = {
            "no sitemapkit": write_config(root, "nothing", []),
            "sitemapkit lastmod [git]": write_config(
                root, "git", [{"sitemapkit": {"lastmod": ["git"]}}]
            ),
        }
        try:
            import mkdocs_git_revision_date_localized_plugin  # noqa: F401

            variants["git-revision-date-localized"] = write_config(
                root, "revision", ["git-revision-date-localized"]
            )
        except ImportError:
            print("(mkdocs-git-revision-date-localized-plugin not installed: not compared)")
        compare(root, variants, args.runs, "Issue 7: git lastmod, site in a git repo (50 dated commits)",
                len(paths))


if __name__ == "__main__":
    main()
