"""sitemapkit's final step alone (issue 17): ``generate()`` on the 1,000 small pages of
``overhead_mkdocs.py --small``, exactly as the MkDocs adapter hands them over (each page's
head and rendered content, in memory).

One real ``mkdocs build`` with ``plugins: [sitemapkit]`` makes the site and the manifest;
the pages the plugin passed to ``generate()`` are kept, and ``generate()`` then runs again
on them ``--runs`` times, as a rebuild would (the manifest there, the sitemaps replaced).
Prints the median and the best CPU time a page; ``--profile`` adds a cProfile of five runs
(the ``--top`` functions by own time, then by cumulative time).

    .venv/bin/python bench/generate_small.py [--runs 15] [--profile] [--top 12]
"""

from __future__ import annotations

import argparse
import cProfile
import logging
import os
import pstats
import statistics
import tempfile
import time
from pathlib import Path

from overhead_mkdocs import make_small_site, write_config


def captured_pages(root: Path) -> tuple[list, Path, object, dict]:
    """Build the small site once; what the MkDocs plugin gave ``generate()``."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    import sitemapkit_mkdocs.plugin as plugin

    caught: dict = {}
    real = plugin.generate

    def keep(pages, site_dir, settings, **options):
        caught.update(pages=list(pages), site_dir=Path(site_dir), settings=settings, options=options)
        return real(caught["pages"], site_dir, settings, **options)

    paths = make_small_site(root)
    config = write_config(root, "sitemapkit", ["sitemapkit"], ["index.md", *paths[:5]])
    logging.getLogger("mkdocs").setLevel(logging.ERROR)
    plugin.generate = keep
    try:
        build(load_config(str(config), site_dir=str(root / "site")))
    finally:
        plugin.generate = real
    options = {k: v for k, v in caught["options"].items() if k not in ("on_warning", "render_html")}
    return caught["pages"], caught["site_dir"], caught["settings"], options


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--top", type=int, default=12)
    args = parser.parse_args()
    from sitemapkit import generate

    with tempfile.TemporaryDirectory(prefix="sitemapkit-bench-") as tmp:
        root = Path(tmp)
        pages, site, settings, options = captured_pages(root)
        os.chdir(root)

        def one() -> None:
            for name in os.listdir(site):  # MkDocs empties the site folder before each build
                if name.startswith(("sitemap", "robots.txt", ".sitemapkit")):
                    (site / name).unlink()
            generate(pages, site, settings, **options)

        times = []
        for _ in range(args.runs):
            started = time.process_time()
            one()
            times.append(time.process_time() - started)
        print(f"generate() on {len(pages)} small MkDocs pages (manifest from the last build): "
              f"median {statistics.median(times) / len(pages) * 1e6:.1f} us a page, "
              f"best {min(times) / len(pages) * 1e6:.1f} us ({args.runs} runs, CPU time)")
        if args.profile:
            profile = cProfile.Profile()
            profile.enable()
            for _ in range(5):
                one()
            profile.disable()
            stats = pstats.Stats(profile)
            stats.sort_stats("tottime").print_stats(args.top)
            stats.sort_stats("cumulative").print_stats(args.top)


if __name__ == "__main__":
    main()
