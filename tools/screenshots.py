"""`make screenshots`: the pictures of docs/views.md, taken from real builds.

Builds copies of the sample sites (in a temporary folder: nothing in the repository is
touched but docs/images/) with `html_sitemap` on, in three themes: MkDocs' own, Material
(Sphinx's Alabaster when Material is not installed) and Sphinx's Read the Docs theme (Furo
when that is what is installed, else Alabaster). Then `sitemapkit validate --format html` of
the MkDocs build, and a headless Chromium screenshot of each page, at a desktop and (for the
report) at a phone's width.

    .venv/bin/python tools/screenshots.py [--chromium PATH] [--out docs/images]

The script only builds and shoots: what the pages look like is the templates' business.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
SAMPLES = ROOT / "sample_sites"
NOW = "1795284000"  # 2026-11-21T18:00:00Z, the sample sites' own "now" (see sample_sites/demo.py)
DESKTOP = (1200, 820)
PHONE = (390, 900)
SIZE_LIMIT = 200 * 1024
"""Bytes a picture may take in the repository; past it the script says so and fails."""


def run(*command: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    print("$", " ".join(str(part) for part in command), flush=True)
    env = {**os.environ, "SOURCE_DATE_EPOCH": NOW, "NO_MKDOCS_2_WARNING": "1", "NO_COLOR": "1"}
    env.pop("FORCE_COLOR", None)
    return subprocess.run([str(part) for part in command], cwd=cwd, env=env, check=True,
                          capture_output=True, text=True)


def installed(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def mkdocs_site(work: Path, theme: str) -> Path:
    """The MkDocs sample, built with ``theme`` (``mkdocs`` or ``material``) and html_sitemap."""
    project = work / f"mkdocs-{theme}"
    shutil.copytree(SAMPLES / "mkdocs", project, ignore=shutil.ignore_patterns("site", ".cache"))
    config = yaml.safe_load((project / "mkdocs.yml").read_text(encoding="utf-8"))
    config["theme"] = {"name": theme, **({"custom_dir": "overrides"} if theme == "material" else {}),
                       **({"features": ["navigation.sections"]} if theme == "material" else {})}
    for plugin in config["plugins"]:
        if isinstance(plugin, dict) and "sitemapkit" in plugin:
            plugin["sitemapkit"]["html_sitemap"] = True
    (project / "mkdocs.yml").write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    run(BIN / "mkdocs", "build", "-q", "-f", project / "mkdocs.yml", "-d", project / "site")
    return project / "site"


def sphinx_site(work: Path, theme: str) -> Path:
    """The Sphinx sample, built with ``theme`` and html_sitemap."""
    project = work / f"sphinx-{theme}"
    shutil.copytree(SAMPLES / "sphinx", project, ignore=shutil.ignore_patterns("_build"))
    with (project / "conf.py").open("a", encoding="utf-8") as conf:
        conf.write(f"\nhtml_theme = {theme!r}\nsitemapkit_html_sitemap = True\n")
    run(BIN / "sphinx-build", "-b", "html", "-q", project, project / "_build" / "html")
    return project / "_build" / "html"


def shoot(chromium: str, page: Path, out: Path, size: tuple[int, int]) -> None:
    """A PNG of ``page`` at ``size`` (width, height) pixels, by headless Chromium."""
    with tempfile.TemporaryDirectory(prefix="sitemapkit-chromium-") as profile:
        run(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
            "--no-first-run", "--disable-extensions", f"--user-data-dir={profile}",
            f"--window-size={size[0]},{size[1]}", f"--screenshot={out}", page.as_uri())
    size_taken = out.stat().st_size
    print(f"  {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}: {size_taken:,} bytes")
    if size_taken > SIZE_LIMIT:
        raise SystemExit(f"{out} is {size_taken:,} bytes, over {SIZE_LIMIT:,}: use a smaller window")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser")
                        or "/usr/bin/chromium")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    second = "material" if installed("material") else "alabaster"
    third = next((name for name in ("sphinx_rtd_theme", "furo") if installed(name)), "alabaster")
    with tempfile.TemporaryDirectory(prefix="sitemapkit-screenshots-") as temporary:
        work = Path(temporary)
        built = {"mkdocs": mkdocs_site(work, "mkdocs")}
        built[second] = mkdocs_site(work, "material") if second == "material" else sphinx_site(work, second)
        built[third] = sphinx_site(work, third)
        for theme, site in built.items():
            name = theme.replace("_", "-")
            shoot(args.chromium, site / "sitemap.html", args.out / f"sitemap-{name}.png", DESKTOP)
        if (second, third) != ("material", "sphinx_rtd_theme"):
            print(f"note: {second} and {third} were shot; docs/views.md shows material and "
                  "sphinx-rtd-theme (make screenshots installs them)")

        site = built["mkdocs"].relative_to(work)  # the report names files as given: short
        report = work / "report.html"
        done = subprocess.run([str(BIN / "sitemapkit"), "validate", str(site / "sitemap.xml"),
                               "--site-dir", str(site), "--format", "html"], cwd=work,
                              env={**os.environ, "SOURCE_DATE_EPOCH": NOW}, capture_output=True, text=True,
                              check=False)
        if done.returncode == 2:
            raise SystemExit(f"sitemapkit validate failed: {done.stderr}")
        report.write_text(done.stdout, encoding="utf-8")
        shoot(args.chromium, report, args.out / "report.png", DESKTOP)
        shoot(args.chromium, report, args.out / "report-phone.png", PHONE)
    return 0


if __name__ == "__main__":
    sys.exit(main())
