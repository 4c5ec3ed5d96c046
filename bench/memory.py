"""Peak memory (VmHWM) of a build with the manifest on, by the number of URLs.

Two paths, each build in its own process, which reads its own VmHWM from /proc/self/status:

- ``generate()``: N pages made in the child (a URL and a few words of content, so each
  page has a fingerprint), ``lastmod: [fingerprint]`` and a change feed of 20: the manifest
  is read, looked up for every page and rewritten.
- ``sitemapkit build``: a generated folder of N small HTML files, ``--lastmod fingerprint
  --changes-feed 20``.

Each is built twice into the same folder and the second build is measured: it reads the
manifest the first one left (its largest case). ``--core DIR`` measures another checkout's
core (``git archive <commit> core | tar -x -C DIR``) for a before/after figure.

    .venv/bin/python bench/memory.py [--core DIR] [--urls 100000,1000000] [--files 100000]

This is where "memory stays flat as the URL count grows, manifest on" is shown (no test asserts it).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from robustness_memory import make_large  # N small HTML files in folders of 1,000

HWM = """
status = open('/proc/self/status').read().split('\\n')
print(next(line for line in status if line.startswith('VmHWM')), file=sys.stderr)
"""

GENERATE = """
import sys
from pathlib import Path
from sitemapkit import Page, Settings, generate
count, work = int(sys.argv[1]), Path(sys.argv[2])
settings = Settings(base_url="https://example.com/", lastmod=("fingerprint",), changes_feed=20)
pages = (Page(url=f"s{i // 1000}/p{i}.html", content=f"page {i} text", title=f"P{i}")
         for i in range(count))
report = generate(pages, work / "site", settings, project_dir=work)
assert report.urls == count, report.summary()
""" + HWM

CLI = """
import sys
from sitemapkit.cli import main
code = main(sys.argv[1:])
""" + HWM + """
sys.exit(code)
"""


def run(command: list[str], core: Path | None, cwd: Path) -> tuple[str, float, int]:
    env = {**os.environ, "PYTHONPATH": str(core)} if core is not None else None
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=cwd)
    wall = time.perf_counter() - started
    found = [line for line in done.stderr.splitlines() if line.startswith("VmHWM")]
    hwm = found[0].split(":")[1].strip() if found else f"(no figure: exit {done.returncode})"
    if done.returncode:
        print(done.stderr[-2000:], file=sys.stderr)
    return hwm, wall, done.returncode


def twice(command: list[str], core: Path | None, cwd: Path) -> tuple[str, float, int]:
    run(command, core, cwd)  # the first build starts the manifest
    return run(command, core, cwd)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--core", type=Path, help="a core/ folder to measure instead of the installed one")
    parser.add_argument("--urls", default="100000,1000000", help="comma-separated page counts for generate()")
    parser.add_argument("--files", type=int, default=100_000, help="HTML files for the CLI build (0: none)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        for count in (int(n) for n in args.urls.split(",") if n):
            project = work / f"generate-{count}"
            project.mkdir()
            hwm, wall, code = twice([sys.executable, "-c", GENERATE, str(count), str(project)], args.core, project)
            print(f"generate() {count:>9,} URLs: peak RSS {hwm}, {wall:.1f} s, exit {code}", flush=True)
        if args.files:
            site = make_large(work, args.files)
            command = [sys.executable, "-c", CLI, "build", str(site), "--base-url", "https://example.com/",
                       "--lastmod", "fingerprint", "--changes-feed", "20", "-q"]
            hwm, wall, code = twice(command, args.core, work)
            print(f"sitemapkit build {args.files:>9,} files: peak RSS {hwm}, {wall:.1f} s, exit {code}")


if __name__ == "__main__":
    main()
