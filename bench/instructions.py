"""The four figures of issue 36, in instructions under callgrind, with CPU time beside.

Each figure is a difference of two whole processes (bytecode compiled: see
``_measure.build_env``; every child process counted, git included), one with sitemapkit and
one without any sitemap, each run once under ``valgrind --tool=callgrind`` for its
instruction count (a machine's load does not move it) and once natively for its CPU time
(user + sys, noisy on a shared machine). Every measured run follows a warm-up run that fills
the bytecode cache and sitemapkit's manifest.

- ``mkdocs``: MkDocs' per-page marginal cost, small pages (``bench/overhead_mkdocs.py
  --small``): ((sitemapkit - none) at 1,000 pages - (sitemapkit - none) at 100) / 900. "none"
  is a hook that drops MkDocs' built-in sitemap.xml, as the plugin does.
- ``import``: importing the MkDocs adapter after MkDocs' own modules (the ones a build has
  loaded before it loads a plugin), against importing those modules alone; and the same for
  the Sphinx adapter after Sphinx's application and HTML builder (the Sphinx adapter's import
  is most of its fixed cost in the ``sphinx`` figure) and for the Pelican adapter after
  Pelican's modules (most of sitemapkit's fixed cost in the ``pelican`` figures).
- ``sphinx``: an incremental ``sphinx-build -j 1`` of a 1,000-document project
  (``bench/overhead_sphinx.py --small``) after one document changed: sitemapkit's increment
  over the same incremental build with no extension.
- ``cli``: a second ``sitemapkit build`` of an unchanged folder of ``--cli-pages`` small
  pages, as a share of the first (the first starts with no manifest).
- ``sphinx-full``: full builds (``-E``, ``-j 1``) of the 1,000-document project of the
  ``sphinx`` figure with no extension, with sphinx-sitemap (when installed) and with
  sitemapkit: each one's increment as a share of the build with none.
- ``pelican``: full ``pelican`` builds of ``bench/overhead_pelican.py``'s two blogs (1,000
  short articles; 500 long ones with translations and images) with no sitemap, with
  pelican-sitemap (when installed: the ``bench`` group) and with sitemapkit: each plugin's
  increment as a share of the build with none. Pelican imports every installed namespace
  plugin in every build, so pelican-sitemap's import is in all three counts (its figure
  leaves it out), and sitemapkit's is in its own only (its namespace plugin loads the adapter
  when Pelican registers it). Run with ASLR off (``setarch -R``) when it is there: object
  addresses move Pelican's own count by some ten million instructions between runs.

    .venv/bin/python bench/instructions.py [--parts mkdocs,import,sphinx,cli,sphinx-full,pelican] [--cli-pages 100000]
        [--repeat 3]
"""

from __future__ import annotations

import argparse
import glob
import importlib.util
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import overhead_mkdocs
import overhead_pelican
import overhead_sphinx
import yaml
from _measure import build_env, run_build

BIN = Path(sys.executable).parent
NO_SITEMAP_HOOK = 'def on_config(config):\n    config.theme.static_templates.discard("sitemap.xml")\n'


def counted_env(work: Path) -> dict[str, str]:
    """``build_env``, with Python's string hashing pinned (``PYTHONHASHSEED=0``): a random seed
    moves a whole Sphinx build's count by a few million instructions from run to run, more than
    some of the changes measured here."""
    return {**build_env(work), "PYTHONHASHSEED": "0"}


def measure(command: list[str], cwd: Path, env: dict[str, str], out: Path) -> tuple[int, float]:
    """(instructions of the process and its children under callgrind, CPU seconds natively)."""
    native = run_build(command, cwd, env)
    if native.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{native.stderr[-3000:]}")
    return counted(command, cwd, env, out), native.cpu


def counted(command: list[str], cwd: Path, env: dict[str, str], out: Path) -> int:
    """The instructions ``command`` and its children run, under callgrind."""
    for old in glob.glob(f"{out}.*"):
        os.remove(old)
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--trace-children=yes", f"--callgrind-out-file={out}.%p", *command],
        cwd=cwd, env=env, capture_output=True, text=True,
    )
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed under callgrind:\n{done.stderr[-3000:]}")
    total = 0
    for name in glob.glob(f"{out}.*"):
        for line in Path(name).read_text(errors="replace").splitlines():
            if line.startswith(("summary:", "totals:")):
                total += int(line.split()[1])
                break
    return total


def show(label: str, instructions: int, cpu: float) -> None:
    print(f"  {label:<58} {instructions / 1e9:8.3f} G instructions   {cpu:7.3f} s CPU", flush=True)


def mkdocs_part(root: Path) -> None:
    print("MkDocs, small pages, per page (marginal, 100 -> 1,000 pages)", flush=True)
    figures = {}
    for pages in (100, 1000):
        site = root / f"mkdocs-{pages}"
        nav = ["index.md", *overhead_mkdocs.make_small_site(site, pages)[:5]]
        (site / "nosite.py").write_text(NO_SITEMAP_HOOK)
        none = overhead_mkdocs.write_config(site, "none", [], nav)
        config = yaml.safe_load(none.read_text())
        none.write_text(yaml.safe_dump({**config, "hooks": ["nosite.py"]}, sort_keys=False))
        ours = overhead_mkdocs.write_config(site, "sitemapkit", ["sitemapkit"], nav)
        env = counted_env(site)
        for name, config_file in (("none", none), ("sitemapkit", ours)):
            command = [str(BIN / "mkdocs"), "build", "-q", "-f", str(config_file), "-d", str(site / f"site-{name}")]
            run_build(command, site, env)  # warm-up
            figures[pages, name] = measure(command, site, env, root / f"cg-mkdocs-{pages}-{name}")
            show(f"{pages} pages, {name}", *figures[pages, name])
    extra = {pages: [figures[pages, "sitemapkit"][k] - figures[pages, "none"][k] for k in (0, 1)]
             for pages in (100, 1000)}
    print(f"  => sitemapkit per page, marginal: {(extra[1000][0] - extra[100][0]) / 900 / 1e6:.3f} M instructions, "
          f"{(extra[1000][1] - extra[100][1]) / 900 * 1e6:.0f} us CPU;  fixed (100 pages less 100 marginal): "
          f"{(extra[100][0] - (extra[1000][0] - extra[100][0]) / 9) / 1e9:.3f} G", flush=True)


def import_part(root: Path) -> None:
    env = counted_env(root)
    for adapter, generator in (("sitemapkit_mkdocs.plugin", "import mkdocs.config.defaults, mkdocs.commands.build, "
                                                            "mkdocs.plugins"),
                               ("sitemapkit_sphinx", "import sphinx.application, sphinx.builders.html"),
                               ("sitemapkit_pelican", "import pelican, pelican.generators")):
        print(f"Import of {adapter} after its generator's own modules", flush=True)
        results = []
        for label, code in (("the generator's modules", generator), (f"+ {adapter}", f"{generator}; import {adapter}")):
            command = [sys.executable, "-c", code]
            run_build(command, root, env)  # warm-up: the bytecode cache
            results.append(measure(command, root, env, root / f"cg-import-{adapter}-{len(results)}"))
            show(label, *results[-1])
        print(f"  => import increment: {(results[1][0] - results[0][0]) / 1e9:.3f} G instructions, "
              f"{(results[1][1] - results[0][1]) * 1e3:.0f} ms CPU", flush=True)


def sphinx_project(src: Path, extension: str) -> Path:
    """The 1,000-document project at ``src``, with ``extension`` on (none: "")."""
    overhead_sphinx.make_small_project(src)
    if extension:
        with (src / "conf.py").open("a") as conf:
            conf.write(f'extensions = ["{extension}"]\n')
    return src


def sphinx_part(root: Path) -> None:
    print("Sphinx, 1,000 documents, incremental build after 1 changed (-j 1)", flush=True)
    results = {}
    for name, extension in (("none", ""), ("sitemapkit", "sitemapkit_sphinx")):
        src = sphinx_project(root / f"sphinx-{name}", extension)
        env = counted_env(root)
        command = [str(BIN / "sphinx-build"), "-q", "-j", "1", "-b", "html", str(src), str(src / "_build" / "html")]
        run_build(command, src, env)  # the full build the incremental ones follow
        changed = src / "section-12" / "doc-0500.rst"
        for edit in ("first", "second"):
            with changed.open("a") as doc:
                doc.write(f"\nEdited ({edit}).\n")
            if edit == "first":
                run_build(command, src, env)  # warm-up of the incremental path
        with changed.open("a") as doc:
            doc.write("\nEdited (measured).\n")
        # the native run and the counted one each follow a change of their own
        native = run_build(command, src, env)
        with changed.open("a") as doc:
            doc.write("\nEdited (counted).\n")
        results[name] = (counted(command, src, env, root / f"cg-sphinx-{name}"), native.cpu)
        show(f"incremental build, {name}", *results[name])
    print(f"  => sitemapkit's increment: {(results['sitemapkit'][0] - results['none'][0]) / 1e9:.3f} G instructions, "
          f"{(results['sitemapkit'][1] - results['none'][1]) * 1e3:.0f} ms CPU "
          f"({(results['sitemapkit'][0] / results['none'][0] - 1):.1%} of the rebuild)", flush=True)


def make_folder(site: Path, pages: int) -> None:
    """``pages`` pages of about 2 KB (a theme's head, a nav, four paragraphs, a figure), 100 to
    a folder, as a static site generator writes them."""
    nav = "".join(f'<li><a href="/part-00/group-{k:02d}/page-{k * 100:06d}.html">Group {k}</a></li>' for k in range(8))
    for i in range(pages):
        folder = site / f"part-{i // 10000:02d}" / f"group-{i // 100 % 100:02d}"
        if i % 100 == 0:
            folder.mkdir(parents=True)
        url = f"https://bench.example.org/{folder.relative_to(site).as_posix()}/page-{i:06d}.html"
        (folder / f"page-{i:06d}.html").write_text(
            f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1"><title>Page {i} | Bench</title>'
            f'<meta name="description" content="What page {i} is about."><link rel="stylesheet" href="/css/site.css">'
            f'<link rel="icon" href="/favicon.png"><link rel="canonical" href="{url}">'
            f'<script defer src="/js/site.js"></script></head><body><header><nav><ul>{nav}</ul></nav></header>'
            f"<main><h1>Page {i}</h1>"
            + "".join(f"<p>Paragraph {k} of page {i}: a few plain sentences on one topic, short enough that the "
                      "page stays small, long enough to look like a page of a real site.</p>" for k in range(4))
            + f'<figure><img src="/img/figure-{i % 50}.png" alt="Figure {i}"></figure></main>'
            f"<footer><p>Bench site</p></footer></body></html>\n"
        )


def cli_part(root: Path, pages: int) -> None:
    print(f"sitemapkit build of an unchanged folder of {pages:,} pages: second build against the first", flush=True)
    site = root / "cli-site"
    make_folder(site, pages)
    env = {**counted_env(root), "SOURCE_DATE_EPOCH": "1795284000"}
    command = [str(BIN / "sitemapkit"), "build", str(site), "--base-url", "https://bench.example.org/"]
    state = root / ".cache"
    run_build(command, root, env)  # warm-up: the bytecode cache
    results = {}
    for label in ("first", "second"):
        if label == "first":
            shutil.rmtree(state, ignore_errors=True)
            native = run_build(command, root, env)
            shutil.rmtree(state, ignore_errors=True)
        else:
            native = run_build(command, root, env)
        results[label] = (counted(command, root, env, root / f"cg-cli-{label}"), native.cpu)
        show(f"{label} build", *results[label])
    print(f"  => second / first: {results['second'][0] / results['first'][0]:.1%} of the instructions, "
          f"{results['second'][1] / results['first'][1]:.1%} of the CPU time", flush=True)


def shares(results: dict[str, tuple[int, float]]) -> str:
    """Each variant's increment over ``none``, in instructions and CPU time."""
    none = results["none"]
    return "  => " + ";  ".join(
        f"{name}: +{(figures[0] - none[0]) / 1e6:.0f} M instructions, {figures[0] / none[0] - 1:+.2%} "
        f"({figures[1] / none[1] - 1:+.1%} CPU)" for name, figures in results.items() if name != "none")


def sphinx_full_part(root: Path) -> None:
    print("Sphinx, 1,000 documents, full build (-E -j 1)", flush=True)
    results = {}
    for name, extension in overhead_sphinx.VARIANTS.items():
        if extension and importlib.util.find_spec(extension) is None:
            continue  # (sphinx-sitemap: the bench group has it)
        src = sphinx_project(root / f"sphinx-full-{name}", extension)
        env = counted_env(root)
        command = [str(BIN / "sphinx-build"), "-q", "-E", "-j", "1", "-b", "html", str(src), str(src / "_build")]
        run_build(command, src, env)  # warm-up: the bytecode cache, sitemapkit's manifest
        results[name] = measure(command, src, env, root / f"cg-sphinx-full-{name}")
        show(f"full build, {name}", *results[name])
    print(shares(results), flush=True)


def pelican_part(root: Path, repeat: int = 1) -> None:
    """Each blog built ``repeat`` times over, each time in a folder of another name: a whole
    Pelican build's count moves by some ten million instructions with the paths it works on
    (their strings' hashes set the order of its dicts and sets), as much as some changes
    measured here. The figures are the medians. Every variant writes to the same output folder
    (emptied before its builds), so that the variants of a run work on the same paths, in the
    same order: what differs between them is the plugin."""
    fixed = ["setarch", "-R"] if shutil.which("setarch") else []
    for label, articles, small in (("1,000 short articles", 1000, True), ("500 long articles", 500, False)):
        print(f"Pelican, full build of a blog of {label}", flush=True)
        results: dict[str, list[tuple[int, float]]] = {}
        for run in range(repeat):
            blog = root / f"pelican-{articles}{'-small' if small else ''}-{run}"
            overhead_pelican.make_blog(blog, articles, small)
            env = counted_env(blog)
            for name in overhead_pelican.VARIANTS:
                if name == "pelican-sitemap" and importlib.util.find_spec("pelican.plugins.sitemap") is None:
                    continue  # (not installed: the bench group has it)
                conf = blog / f"conf-{name}.py"
                conf.write_text(conf.read_text().replace(f"-{name}\"", "-x\""))
                shutil.rmtree(blog / "output-x", ignore_errors=True)
                command = [*fixed, str(BIN / "pelican"), "-q", "-s", str(conf)]
                run_build(command, blog, env)  # warm-ups: the bytecode cache, sitemapkit's manifest
                run_build(command, blog, env)
                results.setdefault(name, []).append(measure(command, blog, env, root / f"cg-pelican-{articles}-{name}"))
                show(name if repeat == 1 else f"{name}, run {run + 1}", *results[name][-1])
            if repeat > 1:
                print(shares({name: runs[-1] for name, runs in results.items()}), flush=True)
            shutil.rmtree(blog)
        if repeat > 1:
            print("  medians:", flush=True)
        print(shares({name: (statistics.median(i for i, _ in runs), statistics.median(c for _, c in runs))
                      for name, runs in results.items()}), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--parts", default="mkdocs,import,sphinx,cli")
    parser.add_argument("--cli-pages", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=1, help="pelican: build each blog this many times over")
    args = parser.parse_args()
    if not shutil.which("valgrind"):
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    with tempfile.TemporaryDirectory(prefix="sitemapkit-instructions-") as tmp:
        for part in args.parts.split(","):
            if part == "cli":
                cli_part(Path(tmp), args.cli_pages)
            elif part == "pelican":
                pelican_part(Path(tmp), args.repeat)
            else:
                {"mkdocs": mkdocs_part, "import": import_part, "sphinx": sphinx_part,
                 "sphinx-full": sphinx_full_part}[part](Path(tmp))


if __name__ == "__main__":
    main()
