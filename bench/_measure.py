"""Running one measured build in its own process: what the overhead benches share."""

from __future__ import annotations

import os
import resource
import subprocess
import time
from pathlib import Path
from typing import NamedTuple


class Build(NamedTuple):
    wall: float
    cpu: float
    """User + sys of the build process and every process it waited for."""
    stdout: str
    stderr: str
    returncode: int


def build_env(work: Path) -> dict[str, str]:
    """The environment a measured build runs in: this one, with Python's bytecode cache on.

    An installed package comes with its bytecode compiled (pip does it), so a user's build
    never compiles sitemapkit, pelican-sitemap or the generator. Here sitemapkit is an
    editable install, and a shell with PYTHONDONTWRITEBYTECODE set would have every build
    compile it from source: about 25 ms a build charged to sitemapkit alone. The cache goes
    under ``work`` (filled by each bench's warm-up build) so the checkout stays clean.
    """
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(work / "pycache")
    return env


def run_build(command: list[str], cwd: Path, env: dict[str, str]) -> Build:
    """Run ``command`` and time it: wall time, and CPU time from this process's children."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Build(wall, cpu, done.stdout, done.stderr, done.returncode)


class Watched(NamedTuple):
    wall: float
    peak_kib: int
    """The child's own peak memory (VmHWM), as it ran and as it ended."""
    code: int | str
    """Its exit status, or ``"killed"`` past the cap."""


def _peak(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    except (OSError, StopIteration):
        return 0


def watch(child: subprocess.Popen, cap: float) -> Watched:
    """Wait for ``child``, reading its peak memory as it runs; kill it past ``cap`` seconds."""
    began = time.perf_counter()
    peak, killed = 0, False
    while child.poll() is None:
        peak = max(peak, _peak(child.pid))
        if time.perf_counter() - began > cap:
            child.kill()
            killed = True
            break
        time.sleep(0.05)
    _, status, usage = os.wait4(child.pid, 0) if child.returncode is None else (0, 0, None)
    wall = time.perf_counter() - began
    if usage is not None:
        peak = max(peak, usage.ru_maxrss)
    code = "killed" if killed else (os.waitstatus_to_exitcode(status) if usage is not None else child.returncode)
    return Watched(wall, peak, code)
