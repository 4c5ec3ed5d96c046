"""sitemapkit validate against lxml's XSD validation of the same 50,000-URL sitemap.

Writes a sitemap of 50,000 URLs, each with a lastmod, changefreq, priority, three images and
three hreflang alternates (about 40 MB), then runs, alternately, in fresh child processes:

- ``sitemapkit``: ``validate(file)``, every rule (the XSD's and those no XSD can check:
  scope, duplicates, hreflang return links, limits, dates);
- ``lxml-xsd``: ``etree.parse`` + ``XMLSchema(sitemap-all.xsd).validate``.

Each child times its own work (after its imports: sitemapkit's package import, about 0.1 s,
is printed apart; the XSD compile counts as lxml's work) and reads its peak RSS (VmHWM) from
/proc/self/status.
Prints the medians, the ratio, and the peaks. Targets: ratio <= 1.5, sitemapkit peak < 100 MB.

    .venv/bin/python bench/validate_speed.py [--rounds 5] [--urls 50000]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
WORK = HERE / ".work"
XSD = HERE.parent / "tests" / "xsd" / "sitemap-all.xsd"
LANGS = ("en", "de", "fr")

CHILD = r"""
import json, sys, time
which, path, xsd = sys.argv[1:4]
began = time.perf_counter()
if which == "sitemapkit":
    from sitemapkit.validate import validate
else:
    from lxml import etree
imported = time.perf_counter() - began
start, cpu = time.perf_counter(), time.process_time()
if which == "sitemapkit":
    problems = validate(path)
    ok = not problems
else:
    schema = etree.XMLSchema(etree.parse(xsd))
    ok = schema.validate(etree.parse(path))
elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
peak = 0
with open("/proc/self/status") as status:
    for line in status:
        if line.startswith("VmHWM:"):
            peak = int(line.split()[1]) * 1024
print(json.dumps({"ok": bool(ok), "seconds": elapsed, "cpu": cpu, "peak": peak,
                  "import": imported}))
"""


def write_sitemap(path: Path, urls: int) -> None:
    with open(path, "w", encoding="utf-8") as out:
        out.write(
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
            'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" '
            'xmlns:xhtml="http://www.w3.org/1999/xhtml">\n'
        )
        for n in range(urls):
            page, lang = n // len(LANGS), LANGS[n % len(LANGS)]
            tail = f"section-{page % 97}/article-{page}/"
            out.write(
                f"  <url>\n    <loc>https://www.example.com/{lang}/{tail}</loc>\n"
                f"    <lastmod>2024-05-{1 + n % 28:02d}T10:{n % 60:02d}:00+00:00</lastmod>\n"
                f"    <changefreq>weekly</changefreq>\n    <priority>0.{n % 10}</priority>\n"
            )
            for k in range(3):
                out.write(
                    "    <image:image>\n      <image:loc>https://cdn.example.com/images/"
                    f"{page}/photo-{k}.jpg</image:loc>\n    </image:image>\n"
                )
            for other in LANGS:
                out.write(
                    f'    <xhtml:link rel="alternate" hreflang="{other}" '
                    f'href="https://www.example.com/{other}/{tail}"/>\n'
                )
            out.write("  </url>\n")
        out.write("</urlset>\n")


def run_child(which: str, path: Path) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, which, str(path), str(XSD)],
        capture_output=True, text=True, check=True, timeout=600,
    )
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--urls", type=int, default=50_000)
    args = parser.parse_args()

    WORK.mkdir(exist_ok=True)
    path = WORK / f"validate-{args.urls}.xml"
    if not path.exists():
        write_sitemap(path, args.urls)
    size = path.stat().st_size
    results: dict[str, list[dict]] = {"sitemapkit": [], "lxml-xsd": []}
    for _ in range(args.rounds):
        for which in results:
            results[which].append(run_child(which, path))

    print(f"file: {args.urls:,} URLs, 3 images + 3 alternates each, {size / 1e6:.1f} MB; "
          f"{args.rounds} alternated rounds, {os.cpu_count()} CPUs (shared), "
          f"load {os.getloadavg()[0]:.1f}")
    medians, cpus = {}, {}
    for which, runs in results.items():
        medians[which] = statistics.median(r["seconds"] for r in runs)
        cpus[which] = statistics.median(r["cpu"] for r in runs)
        peak = max(r["peak"] for r in runs)
        valid = all(r["ok"] for r in runs)
        each = ", ".join(f"{r['seconds']:.2f}" for r in runs)
        imports = statistics.median(r["import"] for r in runs)
        print(f"{which:>10}: median {medians[which]:.2f} s wall (runs {each}), "
              f"{cpus[which]:.2f} s CPU, peak RSS {peak / 2**20:.0f} MiB, file valid: {valid}; "
              f"import {imports:.2f} s")
    print(f"ratio sitemapkit / lxml-xsd: {medians['sitemapkit'] / medians['lxml-xsd']:.2f} wall, "
          f"{cpus['sitemapkit'] / cpus['lxml-xsd']:.2f} CPU (target <= 1.5)")


if __name__ == "__main__":
    main()
