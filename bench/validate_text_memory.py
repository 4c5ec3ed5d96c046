"""Peak memory of ``sitemapkit validate`` on a huge text sitemap.

Writes a text sitemap of N distinct URLs (1,000,000 by default, 20 times the protocol's
limit) and validates it in a fresh child process that reads its own peak RSS (VmHWM) from
/proc/self/status, after the imports and after the check. Prints both and the problems found.
Target: the check adds under 20 MB, whatever N.

    .venv/bin/python bench/validate_text_memory.py [--lines 1000000]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = """
import json, sys
from sitemapkit.validate import validate
import sitemapkit.validate.targets  # the checks load with validate(); count them as imports

def peak():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return 0

before = peak()
problems = validate(sys.argv[1])
print(json.dumps({"before": before, "after": peak(),
                  "rules": sorted({p.rule for p in problems})}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=1_000_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        path = Path(work) / "sitemap.txt"
        with open(path, "w") as out:
            for n in range(args.lines):
                out.write(f"https://example.com/section-{n % 97}/page-{n}/\n")
        done = subprocess.run([sys.executable, "-c", CHILD, str(path)], capture_output=True,
                              text=True, check=True)
    result = json.loads(done.stdout)
    mib = 2**20
    print(f"{args.lines:,} lines ({path.name}): peak RSS {result['before'] / mib:.1f} MiB after "
          f"imports, {result['after'] / mib:.1f} MiB after the check "
          f"(+{(result['after'] - result['before']) / mib:.1f} MiB); rules: {result['rules']}")


if __name__ == "__main__":
    main()
