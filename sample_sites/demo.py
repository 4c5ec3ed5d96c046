"""`make demo`: build each sample site with sitemapkit, then validate what it wrote.

Each step runs the tools a user would run, with this .venv: the generators from the repository
root, ``sitemapkit build`` from the static site's own folder (run from the repository root, it
would read the repository's own mkdocs.yml as the project).
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
MKDOCS_NOW = "1795284000"  # 2026-11-21T18:00:00Z
SPHINX_NOW = "1795262400"  # 2026-11-21T12:00:00Z


def run(*command: str | Path, env: dict[str, str] | None = None, cwd: Path = ROOT) -> None:
    shown = " ".join(str(c).replace(str(ROOT) + "/", "") for c in command)
    print(f"$ {'cd ' + str(cwd.relative_to(ROOT)) + ' && ' if cwd != ROOT else ''}{shown}", flush=True)
    subprocess.run([str(c) for c in command], cwd=cwd, check=True, env={**os.environ, **(env or {})})


Built = tuple[list[Path], dict[str, str]]
"""The folders a step built, and the environment it built them in (validate uses it too)."""


def static() -> Built:
    site = SITES / "static" / "_site"
    env = {"SOURCE_DATE_EPOCH": STATIC_NOW}
    shutil.rmtree(site, ignore_errors=True)
    shutil.copytree(SITES / "static" / "public", site)
    run(BIN / "sitemapkit", "build", site.name, "--config", "sitemapkit.toml", "--site-name", "Lighthouse Notes",
        env=env, cwd=site.parent)
    return [site], env


def mkdocs() -> Built:
    # The sample's blog post is dated 2026-11-21; "now" is pinned to that evening, so the
    # news sitemap is always there and the output is the same on every build.
    env = {"SOURCE_DATE_EPOCH": MKDOCS_NOW, "NO_MKDOCS_2_WARNING": "1"}
    site = SITES / "mkdocs" / "site"
    shutil.rmtree(site, ignore_errors=True)
    run(BIN / "mkdocs", "build", "--strict", "-q", "-f", SITES / "mkdocs" / "mkdocs.yml", env=env)
    return [site], env


def pelican() -> Built:
    # The sample's news posts are dated a few hours before the build by its own small plugin
    # (sample_sites/pelican/plugins/fresh_news.py), so the news sitemap is never empty.
    output = SITES / "pelican" / "output"
    shutil.rmtree(output, ignore_errors=True)
    run(BIN / "pelican", SITES / "pelican" / "content", "-s", SITES / "pelican" / "pelicanconf.py")
    return [output], {}


def sphinx() -> Built:
    # The manual's news page is dated 2026-11-21T09:00Z; "now" is pinned just after it.
    env = {"SOURCE_DATE_EPOCH": SPHINX_NOW}
    source, build = SITES / "sphinx", SITES / "sphinx" / "_build"
    shutil.rmtree(build, ignore_errors=True)
    run(BIN / "sphinx-build", "-b", "html", "-j", "2", "-q", source, build / "html", env=env)
    run(BIN / "sphinx-build", "-b", "html", "-j", "2", "-q", "-D", "language=fr",
        "-D", "html_baseurl=https://example.org/manual/fr/", source, build / "fr", env=env)
    return [build / "html", build / "fr"], env


STEPS = {"static": static, "mkdocs": mkdocs, "pelican": pelican, "sphinx": sphinx}


def show(site: Path) -> None:
    print(f"\nwritten in {site.relative_to(ROOT)}:")
    for path in [*sorted(site.glob("sitemap*")), site / "robots.txt", *sorted(site.glob("llms*.txt"))]:
        if path.exists():
            print(f"  {path.name:28} {path.stat().st_size:>8} bytes")
    print()


def validate(site: Path, env: dict[str, str]) -> bool:
    command = [BIN / "sitemapkit", "validate", site / "sitemap.xml", site / "robots.txt", "--site-dir", site,
               "--strict"]
    print("$ " + " ".join(str(c).replace(str(ROOT) + "/", "") for c in command), flush=True)
    result = subprocess.run([str(c) for c in command], cwd=ROOT, env={**os.environ, **env})
    return result.returncode == 0


def main(names: list[str]) -> int:
    names = names or list(STEPS)
    failed = []
    for name in names:
        print(f"\n=== {name} ===", flush=True)
        sites, env = STEPS[name]()
        for site in sites:
            show(site)
            if not validate(site, env):
                failed.append(str(site.relative_to(ROOT)))
    print(f"{len(names)} sample sites built; " + (f"sitemap problems in {', '.join(failed)}" if failed
          else "every sitemap validates"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
