"""What importing an adapter of sitemapkit costs, and on what (issue 26).

Each run is a fresh interpreter with Python's bytecode cache on (as an installed wheel has
it: see ``_measure.build_env``), the generator's own modules imported first (a build has
them before it loads a plugin). It times the import of the adapter, and within it the time
spent making dataclasses (``dataclasses.dataclass`` writes and compiles each class's
methods), making named tuples (``typing.NamedTuple`` classes: ``collections.namedtuple``
compiles each one's ``__new__``, then each annotation is checked and each attribute set)
and compiling regular expressions (``re.compile`` at module level), and counts the modules
imported. The rest is loading the modules: reading their bytecode and running their
bodies. A pass of the cycle collector counts in the part whose allocation sets it off: after
Sphinx's modules a full pass over their heap lands in the import (20-25 ms), in whichever
part makes the object that tips it. Figures: medians of ``--runs`` runs, after one run that
fills the bytecode cache.

    .venv/bin/python bench/import_cost.py [--runs 9] [--adapter mkdocs|sphinx|pelican]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from _measure import build_env

GENERATOR = {
    "mkdocs": ("mkdocs.config.defaults", "mkdocs.commands.build", "mkdocs.plugins"),
    "sphinx": ("sphinx.application", "sphinx.builders.html"),
    "pelican": ("pelican", "pelican.generators"),
}
ADAPTER = {"mkdocs": "sitemapkit_mkdocs.plugin", "sphinx": "sitemapkit_sphinx", "pelican": "sitemapkit_pelican"}

CHILD = """
import dataclasses, importlib, json, re, sys, time, typing
for name in {generator!r}:
    importlib.import_module(name)
spent = {{"dataclasses": 0.0, "named tuples": 0.0, "patterns": 0.0}}
counts = {{"dataclasses": 0, "named tuples": 0, "patterns": 0}}

def timed(function, part):
    def measured(*args, **kwargs):
        started = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            spent[part] += time.perf_counter() - started
            counts[part] += 1
    return measured

dataclasses._process_class = timed(dataclasses._process_class, "dataclasses")
typing.NamedTupleMeta.__new__ = timed(typing.NamedTupleMeta.__new__, "named tuples")
re.compile = timed(re.compile, "patterns")
before = set(sys.modules)
started = time.perf_counter()
importlib.import_module({adapter!r})
total = time.perf_counter() - started
new = set(sys.modules) - before
print(json.dumps({{"total": total, **spent, "modules": len(new),
                   "own modules": sum(name.split(".")[0].startswith("sitemapkit") for name in new), **{{
                   "count " + part: count for part, count in counts.items()}}}}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--adapter", choices=sorted(ADAPTER), default="mkdocs")
    args = parser.parse_args()
    code = CHILD.format(generator=GENERATOR[args.adapter], adapter=ADAPTER[args.adapter])
    with tempfile.TemporaryDirectory(prefix="sitemapkit-bench-") as work:
        env = build_env(Path(work))
        runs = []
        for _ in range(args.runs + 1):  # the first fills the bytecode cache
            done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
            runs.append(json.loads(done.stdout))
    runs = runs[1:]
    median = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
    rest = median["total"] - median["dataclasses"] - median["named tuples"] - median["patterns"]
    print(f"import of {ADAPTER[args.adapter]} after {args.adapter}'s own modules, bytecode cached, "
          f"median of {args.runs} fresh interpreters")
    print(f"  total                {median['total'] * 1e3:6.1f} ms   {median['modules']:.0f} modules, "
          f"{median['own modules']:.0f} of them sitemapkit's")
    print(f"  making dataclasses   {median['dataclasses'] * 1e3:6.1f} ms   {median['count dataclasses']:.0f} classes, "
          f"{median['dataclasses'] / max(median['count dataclasses'], 1) * 1e3:.2f} ms each")
    print(f"  making named tuples  {median['named tuples'] * 1e3:6.1f} ms   {median['count named tuples']:.0f} "
          f"classes, {median['named tuples'] / max(median['count named tuples'], 1) * 1e3:.2f} ms each")
    print(f"  compiling patterns   {median['patterns'] * 1e3:6.1f} ms   "
          f"{median['count patterns']:.0f} re.compile calls")
    print(f"  loading the modules  {rest * 1e3:6.1f} ms   bytecode read, module bodies run")
    print(f"  a page of 1,000      {median['total'] * 1e3:6.1f} us")


if __name__ == "__main__":
    main()
