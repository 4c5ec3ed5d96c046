"""Throughput of the streaming writer against two reference writers.

N entries (loc + lastmod) go into N/20 URLs a file, so 20 urlset files and an index, through:

- sitemapkit: ``write_sitemaps`` with every check on (exact byte counts, escaping,
  namespaces by use, newest lastmod per file, atomic renames, stale-file sweep), given
  ``Entry(loc, lastmod=date)`` objects made from each record, as a user of the API makes them;
- sitemapkit-pairs: the same, given the bulk form, the ``(loc, lastmod)`` records themselves;
- lxml: ``lxml.etree.xmlfile``, one ``<url>`` element built and written at a time;
- floor: ``str`` formatting and ``xml.sax.saxutils.escape`` into a buffered file, no checks.

The records: ``(loc, date)``, a distinct URL and a new ``date`` object each, from one
generator that every writer (and a baseline that only makes records) shares; each writer
makes from them what its API needs, inside the timed run.
Each run happens in its own child process, which times itself (record generation included:
the same generator feeds all three) and reads its peak RSS from VmHWM in /proc/self/status.
Runs alternate between the writers. Prints wall-clock and CPU medians (on a shared machine
the CPU figures are the steadier ones), the two ratios, and peak RSS at 100,000 and at N
entries.

    .venv/bin/python bench/core_throughput.py                      # 1,000,000 entries, 3 repeats
    .venv/bin/python bench/core_throughput.py --entries 100000 --repeat 1
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
FILES = 20
BASE = "https://example.com/"
NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
WRITERS = ("sitemapkit", "sitemapkit-pairs", "lxml", "floor")
BASELINE = "records"
"""Not a writer: only makes the records, so each writer's own share can be read off."""


def make_records(n: int) -> Iterator[tuple[str, date]]:
    first = date(2020, 1, 1).toordinal()
    for i in range(n):
        yield f"{BASE}docs/section-{i % 97}/page-{i}.html", date.fromordinal(first + i % 1500)


def per_file(n: int) -> int:
    return max(1, -(-n // FILES))


# ---------------------------------------------------------------- the three writers


def run_sitemapkit(n: int, out: Path) -> None:
    from sitemapkit.model import Entry
    from sitemapkit.output.write import write_sitemaps
    from sitemapkit.settings import Settings

    settings = Settings(base_url=BASE, max_urls=per_file(n))
    write_sitemaps((Entry(loc, lastmod=lastmod) for loc, lastmod in make_records(n)), out, settings)


def run_sitemapkit_pairs(n: int, out: Path) -> None:
    from sitemapkit.output.write import write_sitemaps
    from sitemapkit.settings import Settings

    write_sitemaps(make_records(n), out, Settings(base_url=BASE, max_urls=per_file(n)))


def run_lxml(n: int, out: Path) -> None:
    """lxml's documented incremental idiom: build one element, ``xf.write`` it, drop it.
    Children are built without a namespace and written inside a root that declares the
    sitemap namespace as the default, so they land in it without a declaration each."""
    from lxml import etree

    size = per_file(n)
    children: list[tuple[str, date]] = []
    entries = make_records(n)
    done = False
    while not done:
        name = f"sitemap-{len(children) + 1}.xml"
        latest = None
        written = 0
        with etree.xmlfile(str(out / name), encoding="UTF-8") as xf:
            xf.write_declaration()
            with xf.element("urlset", nsmap={None: NS}):
                xf.write("\n")
                for loc, lastmod in entries:
                    url = etree.Element("url")
                    etree.SubElement(url, "loc").text = loc
                    etree.SubElement(url, "lastmod").text = lastmod.isoformat()
                    url.tail = "\n"
                    xf.write(url)
                    if latest is None or lastmod > latest:
                        latest = lastmod
                    written += 1
                    if written == size:
                        break
                else:
                    done = True
        if written:
            children.append((name, latest))
        else:
            (out / name).unlink()
    with etree.xmlfile(str(out / "sitemap.xml"), encoding="UTF-8") as xf:
        xf.write_declaration()
        with xf.element("sitemapindex", nsmap={None: NS}):
            xf.write("\n")
            for name, latest in children:
                item = etree.Element("sitemap")
                etree.SubElement(item, "loc").text = BASE + name
                etree.SubElement(item, "lastmod").text = latest.isoformat()
                item.tail = "\n"
                xf.write(item)


def run_floor(n: int, out: Path) -> None:
    from xml.sax.saxutils import escape

    size = per_file(n)
    head = f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{NS}">\n'
    children: list[tuple[str, date]] = []
    file = None
    name, count, latest = "", 0, None
    for loc, lastmod in make_records(n):
        if file is None or count == size:
            if file is not None:
                file.write("</urlset>\n")
                file.close()
                children.append((name, latest))
            name = f"sitemap-{len(children) + 1}.xml"
            file = open(out / name, "w", encoding="utf-8", buffering=1 << 20)  # noqa: SIM115
            file.write(head)
            count, latest = 0, None
        file.write(f"<url><loc>{escape(loc)}</loc><lastmod>{lastmod.isoformat()}</lastmod></url>\n")
        if latest is None or lastmod > latest:
            latest = lastmod
        count += 1
    if file is not None:
        file.write("</urlset>\n")
        file.close()
        children.append((name, latest))
    with open(out / "sitemap.xml", "w", encoding="utf-8") as index:
        index.write(f'<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="{NS}">\n')
        for name, latest in children:
            index.write(
                f"<sitemap><loc>{BASE}{name}</loc><lastmod>{latest.isoformat()}</lastmod></sitemap>\n"
            )
        index.write("</sitemapindex>\n")


def run_records(n: int, out: Path) -> None:
    for _ in make_records(n):
        pass


# ---------------------------------------------------------------- child and parent


def peak_rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def child(writer: str, n: int, out: Path) -> None:
    run = {
        "sitemapkit": run_sitemapkit, "sitemapkit-pairs": run_sitemapkit_pairs, "lxml": run_lxml,
        "floor": run_floor, BASELINE: run_records,
    }[writer]
    import lxml.etree  # noqa: F401  (imports are not what is measured)


    started, cpu = time.perf_counter(), time.process_time()
    run(n, out)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    files = sorted(p.name for p in out.iterdir())
    print(json.dumps({"seconds": seconds, "cpu": cpu, "rss_mb": peak_rss_mb(), "files": files}))


def spawn(writer: str, n: int, work: Path) -> dict:
    out = Path(tempfile.mkdtemp(prefix=f"{writer}-", dir=work))
    try:
        done = subprocess.run(
            [sys.executable, __file__, "--child", writer, "--entries", str(n), "--out", str(out)],
            check=True,
            capture_output=True,
            text=True,
        )
        return json.loads(done.stdout)
    finally:
        shutil.rmtree(out, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--child", choices=(*WRITERS, BASELINE))
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.entries, args.out)
        return

    work = HERE / ".work"
    work.mkdir(exist_ok=True)
    n = args.entries
    print(
        f"core_throughput: {n:,} entries (loc + lastmod) into {FILES} files + index, "
        f"{args.repeat} alternated repeats; Python {sys.version.split()[0]}, "
        f"{os.cpu_count()} CPUs (shared), one child process per run"
    )
    clocks = ("seconds", "cpu")
    times = {c: {w: [] for w in (*WRITERS, BASELINE)} for c in clocks}
    rss: dict[str, dict[int, float]] = {w: {} for w in WRITERS}
    files: dict[str, list[str]] = {}
    for r in range(args.repeat):
        order = WRITERS[r % len(WRITERS) :] + WRITERS[: r % len(WRITERS)]
        for writer in order:
            result = spawn(writer, n, work)
            for c in clocks:
                times[c][writer].append(result[c])
            rss[writer][n] = max(rss[writer].get(n, 0.0), result["rss_mb"])
            files[writer] = result["files"]
            print(
                f"  run {r + 1} {writer:<16} {result['seconds']:7.2f} s wall {result['cpu']:7.2f} s CPU"
                f"  peak RSS {result['rss_mb']:6.1f} MB"
            )
        result = spawn(BASELINE, n, work)
        for c in clocks:
            times[c][BASELINE].append(result[c])
    small = min(100_000, n)
    if small != n:
        for writer in WRITERS:
            rss[writer][small] = spawn(writer, small, work)["rss_mb"]
    if len({tuple(f) for f in files.values()}) != 1:
        print(f"  WARNING: the writers wrote different files: {files}")

    print(f"files each: {len(files['sitemapkit'])} ({files['sitemapkit'][0]} ... {files['sitemapkit'][-1]})")
    for writer in WRITERS:
        sizes = ", ".join(f"{rss[writer][k]:.1f} MB at {k:,}" for k in sorted(rss[writer]))
        print(f"{writer:<16} peak RSS {sizes}")
    for clock, label in (("seconds", "wall-clock"), ("cpu", "CPU")):
        median = {w: statistics.median(s) for w, s in times[clock].items()}
        print(f"{label} medians (record generation included):")
        for writer in WRITERS:
            print(f"  {writer:<16} {median[writer]:7.2f} s  ({n / median[writer]:>9,.0f} entries/s)")
        alone = median[BASELINE]
        print(
            f"  making the records alone {alone:.2f} s; the writing itself: "
            + ", ".join(f"{w} {(median[w] - alone) / n * 1e6:.2f} us" for w in WRITERS)
            + " per entry"
        )
        for writer in ("sitemapkit", "sitemapkit-pairs"):
            print(
                f"  {writer}: lxml / it = {median['lxml'] / median[writer]:.2f}x (target >= 2)   "
                f"it / floor = {median[writer] / median['floor']:.2f}x (target <= 1.5)"
            )
        print(f"  lxml / floor = {median['lxml'] / median['floor']:.2f}x")


if __name__ == "__main__":
    main()
