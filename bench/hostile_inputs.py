"""Hostile inputs to ``sitemapkit build``: wall time and peak memory (VmHWM) of each.

Cases (each in a fresh child process, its inputs made under bench/.work/hostile_inputs/):

- ``page-1g``: a built site whose one page is 1 GiB of paragraphs with images
  (``sitemapkit build SITE``);
- ``config-yml-50m``: a Jekyll project whose ``_config.yml`` is 50 MB of keys
  (``sitemapkit build public --source-dir .``);
- ``hugo-toml-50m``: the same with a 50 MB ``hugo.toml``;
- ``alias-bomb``: a Jekyll ``_config.yml`` of nine alias levels (``permalink: *a8``, 9^9
  strings once expanded), under 1 KB.

``--python`` names the interpreter whose sitemapkit is measured (another checkout's
``.venv/bin/python``, for a before and after); a child is killed after ``--cap`` seconds
(default 300) and run under a 4 GiB address-space limit, so a run that would take the
machine ends in a MemoryError instead. The peak is the largest VmHWM seen in
/proc/PID/status while it runs, and its ru_maxrss when it ends.

    .venv/bin/python bench/hostile_inputs.py [--python PATH] [--cap 300] [--case NAME]
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
from pathlib import Path

from _measure import watch

WORK = Path(__file__).resolve().parent / ".work" / "hostile_inputs"
BASE = "https://example.com/"
PAGE = "<!doctype html><html><head><title>{0}</title></head><body><main>{0}</main></body></html>"
UNIT = b'<p>lorem ipsum dolor sit amet <img src="/a.png" alt="a"> <a href="/b/">b</a></p>\n'
BOMB = "".join(f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9) if i else ', '.join(['lol'] * 9)}]\n"
               for i in range(9)) + "permalink: *a8\n"


def _built(root: Path) -> Path:
    (root / "public" / "a").mkdir(parents=True, exist_ok=True)
    (root / "public" / "index.html").write_text(PAGE.format("Home"))
    (root / "public" / "a" / "index.html").write_text(PAGE.format("A"))
    return root


def _sized(path: Path, size: int, write) -> None:
    if path.is_file() and size <= path.stat().st_size < size + (1 << 20):
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as out:
        write(out)


def page_1g() -> tuple[list[str], Path]:
    site = WORK / "page-1g" / "site"

    def write(out) -> None:
        out.write(b"<!doctype html><html><head><title>Big</title></head><body><main>")
        block = UNIT * 4096
        for _ in range((1 << 30) // len(block) + 1):
            out.write(block)
        out.write(b"</main></body></html>")

    _sized(site / "index.html", 1 << 30, write)
    return ["build", str(site), "--base-url", BASE], site


def _config(case: str, name: str, line: str) -> tuple[list[str], Path]:
    root = _built(WORK / case)

    def write(out) -> None:
        size, i = out.write(b'title = "t"\n' if name.endswith(".toml") else b"title: t\n"), 0
        while size < 50_000_000:
            size, i = size + out.write(line.format(i).encode()), i + 1

    _sized(root / name, 50_000_000, write)
    return ["build", "public", "--base-url", BASE, "--source-dir", "."], root


def alias_bomb() -> tuple[list[str], Path]:
    root = _built(WORK / "alias-bomb")
    (root / "_config.yml").write_text(BOMB)
    return ["build", "public", "--base-url", BASE, "--source-dir", "."], root


CASES = {
    "page-1g": page_1g,
    "config-yml-50m": lambda: _config("config-yml-50m", "_config.yml", "key_{0}: a value of a few words {0}\n"),
    "hugo-toml-50m": lambda: _config("hugo-toml-50m", "hugo.toml", 'key_{0} = "a value of a few words {0}"\n'),
    "alias-bomb": alias_bomb,
}


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))


def run(case: str, python: str, cap: float) -> str:
    args, cwd = CASES[case]()
    for stale in ("sitemap.xml", "robots.txt", ".sitemapkit-files.json"):
        for folder in (cwd, cwd / "public"):
            (folder / stale).unlink(missing_ok=True)
    child = subprocess.Popen([python, "-m", "sitemapkit", *args], cwd=cwd, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, preexec_fn=_limited)
    wall, peak, code = watch(child, cap)
    said = child.stderr.read().decode("utf-8", "replace").strip().splitlines()
    child.stderr.close()
    killed = code == "killed"
    last = said[-1][:110] if said else ""
    return f"{case:15} wall {wall:7.2f} s{' (cap)' if killed else ''}  peak {peak / 1024:7.1f} MiB  exit {code}  {last}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--cap", type=float, default=300.0)
    parser.add_argument("--case", choices=tuple(CASES), action="append")
    args = parser.parse_args()
    for case in args.case or tuple(CASES):
        print(run(case, args.python, args.cap), flush=True)


if __name__ == "__main__":
    main()
