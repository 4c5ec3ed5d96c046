"""`make demo`: build each sample site with sitemapkit, then validate what it wrote.

Each step runs the tools a user would run, from the repository root, with this .venv.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
SITES = ROOT / "sample_sites"
# The static sample's news article is dated 2026-01-14; its build pins "now" to the next day
# the way reproducible builds do, so the news sitemap is never empty whatever today is.
STATIC_NOW = "1768435200"  # 2026-01-15T00:00:00Z


def run(*command: str | Path, env: dict[str, str] | None = None) -> None:
    shown = " ".join(str(c).replace(str(ROOT) + "/", "") for c in command)
    print(f"$ {shown}", flush=True)
    subprocess.run([str(c) for c in command], cwd=ROOT, check=True, env={**os.environ, **(env or {})})


def static() -> tuple[Path, dict[str, str]]:
    site = SITES / "static" / "_site"
    env = {"SOURCE_DATE_EPOCH": STATIC_NOW}
    shutil.rmtree(site, ignore_errors=True)
    shutil.copytree(SITES / "static" / "public", site)
    run(BIN / "sitemapkit", "build", site, "--config", SITES / "static" / "sitemapkit.toml", env=env)
    return site, env


STEPS = {"static": static}


def show(site: Path) -> None:
    print(f"\nwritten in {site.relative_to(ROOT)}:")
    for path in [*sorted(site.glob("sitemap*")), site / "robots.txt"]:
        if path.exists():
            print(f"  {path.name:28} {path.stat().st_size:>8} bytes")
    print()


def main(names: list[str]) -> int:
    failed = []
    for name in names or list(STEPS):
        print(f"\n=== {name} ===", flush=True)
        site, env = STEPS[name]()
        show(site)
        result = subprocess.run(
            [str(BIN / "sitemapkit"), "validate", str(site / "sitemap.xml"), str(site / "robots.txt"),
             "--site-dir", str(site)],
            cwd=ROOT, env={**os.environ, **env},
        )
        print(f"validate: {'clean' if result.returncode == 0 else 'PROBLEMS'}")
        if result.returncode != 0:
            failed.append(name)
    print(f"\n{len(names or STEPS) - len(failed)} of {len(names or STEPS)} sample sites built and valid")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
