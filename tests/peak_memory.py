"""A sitemapkit command run in a child process, with its peak resident size (VmHWM, read by
the child from /proc/self/status as it ends): for the tests that bound memory. A 2 GiB
address-space limit keeps a regression from taking the machine."""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

WRAPPED = """
import sys
from sitemapkit.cli import main
code = main(sys.argv[1:])
peak = next(line.split()[1] for line in open("/proc/self/status") if line.startswith("VmHWM:"))
print(f"VmHWM {peak}", file=sys.stderr)
sys.exit(code)
"""


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def measured(*args: str, cwd: Path | None = None, timeout: float = 300) -> tuple[int, str, int]:
    """``sitemapkit ARGS``: its exit status, what it printed to stderr (the VmHWM line taken
    off) and its peak resident size in KiB; no traceback, whatever happens."""
    done = subprocess.run([sys.executable, "-c", WRAPPED, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, preexec_fn=_limited)
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    said, _, peak = done.stderr.rstrip("\n").rpartition("\n")
    if not peak.startswith("VmHWM "):
        return done.returncode, done.stderr, 0
    return done.returncode, said, int(peak.split()[1])
