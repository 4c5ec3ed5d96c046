"""What sitemapkit adds to `sphinx-build -j 2` (issue 6).

A generated project (nested folders, a figure per document, section toctrees, alabaster)
is built in turn with no sitemap extension, with sphinx-sitemap and with sitemapkit_sphinx
(defaults: images, noindex, canonical, lastmod [meta, git, fingerprint]; the project is
not in git). Every build is a full one, into fresh output and doctree folders, in its own
process; the variants alternate, each run starting with the next one, so a machine's slow
minute hurts each alike. Figures: median wall time, median CPU time (user + sys of the build
process and its children, from RUSAGE_CHILDREN deltas), the main process's peak RSS (VmHWM
read inside it), the median time of the extension's own work in the main process (importing
it and its build-finished step), ratios to none. Single builds of the same project swing by
10% and more on a shared machine, so the whole-build ratios need many runs to settle a 2%
question; the extension's own time is the steady figure.

A last probe builds once with sitemapkit and times the core on the same pages with and
without reading each page's HTML (``output=None``: no noindex/canonical/img/fingerprint).

    .venv/bin/python bench/overhead_sphinx.py --docs 2000 --runs 5   (--runs 0: the probe only)
        [--small] [--heavy]

``--heavy``: ``--docs`` documents, each with a figure, a code block and a list, 200 to a
section. ``--small``: 1,000 documents of a few short paragraphs, 40 to a section (a short
sidebar), where a per-page cost shows. Neither flag: both.

``--profile`` instead builds once with no extension and once with sitemapkit, each ``-j 1`` in
its own process under cProfile, and prints the build CPU time, the size of the pickled
environment, the time spent in sitemapkit's code (every sitemapkit function called from outside
sitemapkit: hooks, domain methods, imports) and its heaviest functions. A single build's total
swings by several percent on a shared machine; the time inside sitemapkit does not.

    .venv/bin/python bench/overhead_sphinx.py --docs 2000 --profile
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

from _measure import build_env, run_build

BASE = "https://bench.example.org/docs/"
VARIANTS = {"none": "", "sphinx-sitemap": "sphinx_sitemap", "sitemapkit": "sitemapkit_sphinx"}
HANDLERS = {"sphinx_sitemap": "create_sitemap", "sitemapkit_sphinx": "write_sitemap"}


def child_build(extension: str, src: str, out: str, jobs: str) -> None:
    """Run in the build process: build, then print the sitemap step's time and peak RSS."""
    import importlib

    from sphinx.cmd.build import build_main

    step: list[float] = []
    imported = 0.0
    if extension:
        started = time.perf_counter()
        module = importlib.import_module(extension)
        imported = time.perf_counter() - started
        handler = getattr(module, HANDLERS[extension])

        def timed(app, exception):  # connected by setup() under the module's name
            start = time.perf_counter()
            handler(app, exception)
            step.append(time.perf_counter() - start)

        setattr(module, HANDLERS[extension], timed)
    chosen = ["-D", f"extensions={extension}"] if extension else []
    status = build_main(["-b", "html", "-j", jobs, "-q", *chosen, "-d", f"{out}/.doctrees", src, out])
    if status:
        raise SystemExit(status)
    print("STEP", step[0] if step else 0.0)
    print("IMPORT", imported)
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            print("VmHWM", int(line.split()[1]))


def child_profile(extension: str, src: str, out: str) -> None:
    """Run in the build process: one ``-j 1`` build under cProfile; print its figures."""
    import cProfile
    import pstats

    from sphinx.cmd.build import build_main

    chosen = ["-D", f"extensions={extension}"] if extension else []
    args = ["-b", "html", "-j", "1", "-q", *chosen, "-d", f"{out}/.doctrees", src, out]
    before = resource.getrusage(resource.RUSAGE_SELF)
    profile = cProfile.Profile()
    status = profile.runcall(build_main, args)
    after = resource.getrusage(resource.RUSAGE_SELF)
    if status:
        raise SystemExit(status)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    pickled = Path(out, ".doctrees", "environment.pickle").stat().st_size
    print(f"  {extension or 'none':<18} build cpu {cpu:6.2f} s (under cProfile)   "
          f"environment.pickle {pickled:,} bytes")
    if not extension:
        return

    def ours(key: tuple, package: str = "sitemapkit") -> bool:
        return f"/{package}/" in key[0] or f"/{package}_sphinx/" in key[0]

    def adapter(key: tuple) -> bool:
        return ours(key, "sitemapkit_sphinx")

    def name(key: tuple) -> str:
        return f"{key[0].rsplit('/', 2)[-2]}/{key[0].rsplit('/', 1)[-1]}:{key[1]} {key[2]}"

    # Sphinx reaches sitemapkit only through the adapter: its import, setup, hooks, Domain.
    stats = pstats.Stats(profile).stats
    module = sys.modules[extension].__file__
    entries = {
        k: v for k, v in stats.items()
        if adapter(k) and v[4] and not any(ours(c) or (c[0] == "~" and k[:3:2] != (module, "<module>")) for c in v[4])
    }
    own = sum(v[3] for v in entries.values())
    print(f"    time in sitemapkit's code {own:5.2f} s = {own / cpu:6.2%} of the build, entered at:")
    for key, value in sorted(entries.items(), key=lambda item: -item[1][3]):
        print(f"      {value[3]:7.3f} s {value[1]:6d} calls  {name(key)}")
    print("    heaviest sitemapkit functions (cumulative):")
    heavy = sorted(((v[3], v[1], k) for k, v in stats.items() if ours(k)), reverse=True)
    for cumulative, calls, key in heavy[:12]:
        print(f"      {cumulative:7.3f} s {calls:6d} calls  {name(key)}")


def profile(src: Path, work: Path) -> None:
    for extension in (VARIANTS["none"], VARIANTS["sitemapkit"]):
        out = Path(tempfile.mkdtemp(prefix="prof-", dir=work))
        done = subprocess.run(
            [sys.executable, __file__, "--child-profile", extension, str(src), str(out)],
            cwd=src, env=build_env(work), capture_output=True, text=True,
        )
        if done.returncode != 0:
            raise SystemExit(f"profiled build with {extension or 'nothing'} failed:\n{done.stderr[-3000:]}")
        print(done.stdout, end="", flush=True)
        shutil.rmtree(out)


def png(seed: int) -> bytes:
    raw = b"".join(b"\x00" + bytes((seed % 256, (seed * 7) % 256, 90)) * 8 for _ in range(8))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    head = struct.pack(">IIBBBBB", 8, 8, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", head) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


def _skeleton(src: Path, docs: int, *, per_section: int, glob: str) -> None:
    """conf.py, the root toctree over section-NN/index, and each section's globbed toctree."""
    (src / "conf.py").write_text(
        f'project = "Bench"\nhtml_baseurl = "{BASE}"\nhtml_theme = "alabaster"\n'
        'exclude_patterns = ["_build"]\n'
    )
    sections = sorted({f"section-{i // per_section:02d}" for i in range(docs)})
    (src / "index.rst").write_text(
        "Benchmark\n=========\n\n.. toctree::\n   :maxdepth: 1\n\n"
        + "".join(f"   {s}/index\n" for s in sections)
    )
    for section in sections:
        (src / section).mkdir()
        (src / section / "index.rst").write_text(
            f"{section}\n{'=' * len(section)}\n\n.. toctree::\n   :glob:\n\n   {glob}\n"
        )


def make_small_project(src: Path, docs: int = 1000) -> None:
    """section-NN/doc-NNNN.rst, 40 short documents a section."""
    src.mkdir(parents=True)
    _skeleton(src, docs, per_section=40, glob="doc-*")
    for i in range(docs):
        title = f"Note {i}"
        (src / f"section-{i // 40:02d}/doc-{i:04d}.rst").write_text(
            f"{title}\n{'=' * len(title)}\n\n"
            + "\n\n".join(f"Paragraph {k} of note {i}: a few plain sentences on one topic, "
                            "short enough that the page builds fast." for k in range(3))
            + "\n"
        )


def make_project(src: Path, docs: int) -> None:
    """section-NN/topic-NN/doc-NNNN.rst, 20 documents a topic, 10 topics a section."""
    (src / "img").mkdir(parents=True)
    _skeleton(src, docs, per_section=200, glob="*/*")
    for i in range(docs):
        path = src / f"section-{i // 200:02d}/topic-{i // 20 % 10:02d}/doc-{i:04d}.rst"
        path.parent.mkdir(parents=True, exist_ok=True)
        (src / "img" / f"figure-{i:04d}.png").write_bytes(png(i))
        title = f"Document {i}"
        path.write_text(
            f"{title}\n{'=' * len(title)}\n\nSome text about topic {i}, with a figure.\n\n"
            f".. image:: /img/figure-{i:04d}.png\n   :alt: Figure {i}\n\n"
            + "A paragraph of body text that is long enough to look like documentation. " * 6
            + "\n\nDetails\n-------\n\n- one\n- two\n- three\n\n.. code-block:: python\n\n"
            f"   print({i})\n"
        )


def one_build(src: Path, work: Path, extension: str, jobs: int) -> tuple[float, float, int, float]:
    """(wall s, CPU s of the build and its children, peak RSS KiB, the extension's own s:
    importing it and its build-finished step, which is all but a few hundredths of a second
    of it; its per-document collectors run in the -j workers)."""
    out = Path(tempfile.mkdtemp(prefix="out-", dir=work))
    done = run_build([sys.executable, __file__, "--child", extension, str(src), str(out), str(jobs)],
                     src, build_env(work))
    if done.returncode != 0:
        raise SystemExit(f"build with {extension or 'nothing'} failed:\n{done.stderr[-3000:]}")
    if extension and not (out / "sitemap.xml").is_file():
        raise SystemExit(f"build with {extension} wrote no sitemap.xml:\n{done.stderr[-3000:]}")
    shutil.rmtree(out)
    fields = dict(line.split(" ", 1) for line in done.stdout.splitlines() if " " in line)
    return done.wall, done.cpu, int(fields["VmHWM"]), float(fields["STEP"]) + float(fields["IMPORT"])


def compare(src: Path, work: Path, runs: int, jobs: int) -> None:
    results: dict[str, list[tuple[float, float, int, float]]] = {name: [] for name in VARIANTS}
    one_build(src, work, VARIANTS["sitemapkit"], jobs)  # warm-up: OS caches, the manifest
    order = list(VARIANTS.items())
    for run in range(runs):
        for name, extension in order[run % 3 :] + order[: run % 3]:  # each variant goes first in turn
            row = one_build(src, work, extension, jobs)
            results[name].append(row)
            print(f"  run {run + 1} {name:<15} wall {row[0]:6.2f} s  cpu {row[1]:6.2f} s  "
                  f"own {row[3]:5.2f} s", flush=True)
    base_wall = statistics.median(r[0] for r in results["none"])
    base_cpu = statistics.median(r[1] for r in results["none"])
    for name, rows in results.items():
        wall = statistics.median(r[0] for r in rows)
        cpu = statistics.median(r[1] for r in rows)
        step = statistics.median(r[3] for r in rows)
        print(
            f"  {name:<15} wall median {wall:6.2f} s ({wall / base_wall:5.3f}x)   "
            f"cpu median {cpu:6.2f} s ({cpu / base_cpu:5.3f}x)   "
            f"own (import + sitemap step) median {step:5.2f} s = {step / base_cpu:.2%} of the base"
            f"   peak RSS {max(r[2] for r in rows) / 1024:6.1f} MiB"
            f"   cpu runs {' '.join(f'{r[1]:.1f}' for r in rows)}"
        )
    kit, other = results["sitemapkit"], results["sphinx-sitemap"]
    print(
        "  sitemapkit / sphinx-sitemap: wall "
        f"{statistics.median(r[0] for r in kit) / statistics.median(r[0] for r in other):5.3f}x, cpu "
        f"{statistics.median(r[1] for r in kit) / statistics.median(r[1] for r in other):5.3f}x"
    )


def probe_html(src: Path, work: Path, repeats: int = 3) -> None:
    """Time the core on one build's pages, reading the HTML and not reading it."""
    from dataclasses import replace

    from sphinx.application import Sphinx

    import sitemapkit_sphinx
    from sitemapkit import generate

    out = Path(tempfile.mkdtemp(prefix="probe-", dir=work))
    with open(os.devnull, "w") as quiet:
        app = Sphinx(str(src), str(src), str(out), str(out / ".doctrees"), "html",
                     confoverrides={"extensions": "sitemapkit_sphinx"}, status=quiet,
                     warning=sys.stderr, parallel=2)
        app.build()
    site = sitemapkit_sphinx.compat(app)
    defaults = site.settings()
    others, _ = site.translations()  # the other languages' builds, as the adapter asks them
    meta = defaults.replace(lastmod=("meta",))
    variants = {
        "defaults (lastmod meta, git, fingerprint; manifest)": (defaults, False),
        "lastmod [meta], with HTML": (meta, False),
        "lastmod [meta], output=None": (meta, True),
    }
    print(f"  the core alone on the {len(app.env.found_docs)} documents of one build, median of {repeats}:")
    for label, (settings, no_html) in variants.items():
        timings = []
        for _ in range(repeats):
            pages = sitemapkit_sphinx.pages(app, site, settings.base_url, others)
            if no_html:
                pages = (replace(page, output=None) for page in pages)
            start = time.perf_counter()
            generate(pages, out / "probe", settings, project_dir=out)
            timings.append(time.perf_counter() - start)
        print(f"    {label:<52} {statistics.median(timings):5.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--docs", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--profile", action="store_true", help="one cProfiled -j 1 build per variant")
    parser.add_argument("--small", action="store_true", help="1,000 short documents, a short sidebar")
    parser.add_argument("--heavy", action="store_true", help="--docs documents with figures")
    parser.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    parser.add_argument("--child-profile", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child_build(*args.child)
        return
    if args.child_profile:
        child_profile(*args.child_profile)
        return
    if args.profile:
        print(f"cProfile of one sphinx-build -b html -j 1 of a generated {args.docs}-document project "
              f"per variant; {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} at start")
        with tempfile.TemporaryDirectory(prefix="sitemapkit-bench-") as tmp:
            make_project(Path(tmp) / "src", args.docs)
            profile(Path(tmp) / "src", Path(tmp))
        return

    for size in [size for size in ("small", "heavy") if getattr(args, size)] or ["small", "heavy"]:
        docs = 1000 if size == "small" else args.docs
        print(
            f"\nsphinx-build -b html -j {args.jobs} of a generated {docs}-document project ({size}), "
            f"full builds into fresh folders; {args.runs} alternated runs per variant after one "
            f"warm-up; {os.cpu_count()} CPUs (shared with other work: single builds swing, the own "
            f"time is the steady figure), load average {os.getloadavg()[0]:.2f} at start"
        )
        with tempfile.TemporaryDirectory(prefix="sitemapkit-bench-") as tmp:
            work = Path(tmp)
            src = work / "src"
            if size == "small":
                make_small_project(src, docs)
            else:
                make_project(src, docs)
            if args.runs:
                compare(src, work, args.runs, args.jobs)
            probe_html(src, work)
    print(f"load average {os.getloadavg()[0]:.2f} at end")


if __name__ == "__main__":
    main()
