"""Shared by the tests of the options around the built pages (issue 29): a small built site
and a transform module written where the build's project folder is."""

from __future__ import annotations

import sys
import textwrap
import uuid
from pathlib import Path

import pytest

BASE = "https://example.org/"
PAGE = "<!doctype html><html lang='en'><head><title>{title}</title></head><body><main>{title}</main></body></html>"


def built_site(root: Path, paths: tuple[str, ...] = ("index.html", "blog/a/index.html", "blog/b/index.html",
                                                    "docs/c/index.html", "about/index.html")) -> Path:
    site = root / "site"
    for path in paths:
        file = site / path
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(PAGE.format(title=path), encoding="utf-8")
    return site


def pages_of(site: Path) -> list:
    from sitemapkit import Page

    found = []
    for file in sorted(site.rglob("index.html")):
        folder = file.parent.relative_to(site).as_posix()
        found.append(Page(url="" if folder == "." else folder + "/", output=str(file)))
    return found


def transform_module(folder: Path, body: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """A module in ``folder`` holding ``body`` (which defines ``change``), named uniquely so
    that no test imports another's; returns its ``module:function``. sys.path is restored
    after the test."""
    monkeypatch.setattr(sys, "path", list(sys.path))
    name = f"around_{uuid.uuid4().hex[:12]}"
    (folder / f"{name}.py").write_text("import dataclasses\n" + textwrap.dedent(body), encoding="utf-8")
    return f"{name}:change"


def transformed(root: Path, spec: str, **options):
    """A built site in ``root`` listed with ``transform=spec`` (and ``options``): the site,
    the report and the warnings."""
    from sitemapkit import Settings
    from sitemapkit.generate import generate

    site = built_site(root)
    warnings: list = []
    settings = Settings(base_url=BASE, transform=spec, lastmod=["meta"], **options)
    report = generate(pages_of(site), site, settings, project_dir=root, on_warning=warnings.append)
    return site, report, warnings
