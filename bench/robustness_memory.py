"""Peak memory (VmHWM) of ``sitemapkit build`` on hostile and on large sites.

Three sites: one page carrying a 20 MB attribute (an ``<img src>``) beside a plain page,
100,000 plain pages, and 100,000 pages that each warn (each shows an image the site does not
have: a report keeps only the first warnings, and counts the rest). Each build runs in its
own process, which reports its own VmHWM from /proc/self/status. ``--core DIR`` measures
another checkout's core (e.g. one made with ``git archive <commit> core | tar -x -C DIR``)
for a before/after figure; the process gets an 8 GiB address-space limit so a runaway build
fails instead of starving the machine.

    .venv/bin/python bench/robustness_memory.py [--core DIR] [--pages 100000]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHILD = """
import sys
from sitemapkit.cli import main
code = main(sys.argv[1:])
status = open('/proc/self/status').read().split('\\n')
print(next(line for line in status if line.startswith('VmHWM')), file=sys.stderr)
sys.exit(code)
"""


def make_hostile(work: Path) -> Path:
    hostile = work / "hostile"
    hostile.mkdir()
    with open(hostile / "huge.html", "w") as out:
        out.write('<html><head><title>huge</title></head><body><main><img src="/')
        for _ in range(20):
            out.write("a" * 1_000_000)
        out.write('.png"></main></body></html>')
    (hostile / "plain.html").write_text("<html><head></head><body><main>plain</main></body></html>")
    return hostile


def make_large(work: Path, pages: int, shown: str = "", name: str = "large") -> Path:
    """``pages`` small pages, 1,000 a folder; ``shown``: more of each page's content."""
    large = work / name
    large.mkdir()
    for i in range(pages):
        folder = large / f"s{i // 1000}"
        if i % 1000 == 0:
            folder.mkdir()
        (folder / f"p{i}.html").write_text(
            f"<html><head><title>P{i}</title></head><body><main><p>{i}</p>{shown}</main></body></html>"
        )
    return large


def measure(site: Path, core: Path | None) -> tuple[str, float, int]:
    command = ["prlimit", f"--as={8 << 30}", sys.executable, "-c", CHILD, "build", str(site),
               "--base-url", "https://example.com/", "-q"]
    env = None
    if core is not None:
        import os

        env = {**os.environ, "PYTHONPATH": str(core)}

    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - started
    found = [line for line in done.stderr.splitlines() if line.startswith("VmHWM")]
    hwm = found[0].split(":")[1].strip() if found else f"(no figure: exit {done.returncode})"
    return hwm, wall, done.returncode


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--core", type=Path, help="a core/ folder to measure instead of the installed one")
    parser.add_argument("--pages", type=int, default=100_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for name, make in (("one 20 MB attribute", make_hostile),
                           (f"{args.pages:,} pages", lambda work: make_large(work, args.pages)),
                           (f"{args.pages:,} warning pages", lambda work: make_large(
                               work, args.pages, '<img src="/missing.png" alt="x">', "warning"))):
            hwm, wall, code = measure(make(Path(folder)), args.core)
            print(f"{name:>22}: peak RSS {hwm}, {wall:.1f} s, exit {code}")


if __name__ == "__main__":
    main()
