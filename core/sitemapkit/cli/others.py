"""Sitemap files another tool left in the site's folder (Hugo's per-language
``en/sitemap.xml``, a plugin's ``sitemap_index.xml``): named in a warning with the setting
that turns them off, never removed. One at sitemapkit's own output name is replaced, as a
sitemap already (see ``site.owned``), and named in a warning of its own.

``sitemapkit build`` looks for them (``look_for_others``, given to ``generate``): it takes any
folder of HTML, whatever wrote it. An adapter does not: its generator's own sitemap is
replaced at sitemapkit's name (MkDocs) or its sitemap plugin is named in a
``plugin-conflict`` warning (Sphinx, Pelican), so a build of one never reads this module."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from sitemapkit.output.names import own_names
from sitemapkit.report import Report, examples
from sitemapkit.settings import Settings
from sitemapkit.site.owned import is_sitemap, left_by_us
from sitemapkit.site.scan import site_folders
from sitemapkit.sources.layouts import LAYOUTS
from sitemapkit.urls import encode_url


def look_for_others(site_dir: Path, settings: Settings,
                    generator: str | None = None) -> Callable[[Report, Iterable[Path]], None]:
    """Before a build writes into ``site_dir``: whether the file at ``settings.filename`` is
    another tool's sitemap, which the build replaces. Returns what the build calls once it
    has written its sitemap files (``written``): it warns in ``report`` of that file, and of
    the other tools' sitemap files left beside sitemapkit's (those ``extra_sitemaps`` names
    are there on purpose). Which files are sitemapkit's own is the record's verdict
    (``owned.left_by_us``), for the file at ``filename`` as for the others.
    ``generator``: the project's (Zensical, MkDocs), which writes its own ``sitemap.xml`` on
    every build: that one is replaced with a note, as the MkDocs plugin replaces MkDocs' own."""
    ours = left_by_us(site_dir, own_names(settings))  # an option now off made them: record-option-off says so
    replaced = replaced_by_us(site_dir, settings.filename, settings.base_url, ours)

    def warn(report: Report, written: Iterable[Path]) -> None:
        told = set(settings.extra_sitemaps)
        found = other_sitemaps(site_dir, written, settings.base_url)
        warn_other_sitemaps(report, site_dir, [name for name in found if name not in ours
                                               and encode_url(settings.base_url + name) not in told])
        done = replaced is not None and any(Path(path).name == replaced for path in written)
        if done and generator is not None and replaced == GENERATOR_SITEMAP:
            whose = f"{generator}'" if generator.endswith("s") else f"{generator}'s"  # MkDocs', Zensical's
            report.info(str(site_dir / replaced), "sitemaps", "generator-sitemap",
                        f"{replaced} was {whose} own sitemap, written on every build: replaced by sitemapkit's")
        elif replaced is not None:
            warn_replaced(report, site_dir, replaced, done)

    return warn


GENERATOR_SITEMAP = "sitemap.xml"
"""Where MkDocs, ProperDocs and Zensical write their own sitemap."""


def other_sitemaps(site_dir: Path, ours: Iterable[Path], base_url: str) -> Iterator[str]:
    """Site-relative names of the XML sitemaps and indexes (plain or gzip) under
    ``site_dir`` whose name says sitemap and that are not among ``ours``. Only regular files
    are read (never through a link), and only their first kilobytes."""
    skip = {os.path.abspath(path) for path in ours}
    for folder, place, names in site_folders(site_dir):
        for name in names:
            if not name.endswith((".xml", ".xml.gz")) or "sitemap" not in name.lower():
                continue
            path = place + name
            if os.path.abspath(path) in skip or os.path.islink(path) or not os.path.isfile(path):
                continue
            if is_sitemap(Path(path), base_url):
                yield folder + name


def warn_other_sitemaps(report: Report, site_dir: Path, names: list[str]) -> None:
    """One warning naming the files and each generator's setting that stops them."""
    if not names:
        return
    names = sorted(names)
    shown = examples(names)
    settings = "; ".join(f"{layout.name.capitalize()}: {layout.sitemap_off}" for layout in LAYOUTS
                         if layout.sitemap_off)
    count = "1 sitemap file" if len(names) == 1 else f"{len(names)} sitemap files"
    report.warn(
        str(site_dir), "sitemaps", "sitemap-other",
        f"{count} another tool wrote {'is' if len(names) == 1 else 'are'} in the site ({shown}): "
        "search engines that find them read them beside sitemapkit's, and validate --site-dir "
        "counts their URLs twice; they are left as they are. Turn the generator's own sitemap "
        f"off ({settings}), or move them away",
    )


def replaced_by_us(site_dir: Path, filename: str, base_url: str, ours: set[str]) -> str | None:
    """``filename`` when the file there is a sitemap that is not one of ``ours`` (Jekyll's or
    Docusaurus' own ``sitemap.xml``): this build replaces it. ``ours``: the files the record
    in ``site_dir`` names as an earlier build left them (``left_by_us``), signed or not: the
    file is replaced as a sitemap either way, and a record whose key is gone (``.cache/``
    deleted, ``record-unsigned-moot``) still tells sitemapkit's own file from one a generator
    wrote over it since; only a warning rests on its word."""
    path = site_dir / filename
    if filename in ours or not path.is_file() or path.is_symlink() or not is_sitemap(path, base_url):
        return None
    return filename


def warn_replaced(report: Report, site_dir: Path, name: str, replaced: bool = True) -> None:
    """``name``, another tool's sitemap, was replaced by this build's (``replaced``), or left
    as it is because this build wrote no sitemap: then it is what search engines still read."""
    settings = "; ".join(f"{layout.name.capitalize()}: {layout.sitemap_off}" for layout in LAYOUTS
                         if layout.sitemap_off)
    told = "is replaced by this build's" if replaced else (
        "is left as it is: this build wrote no sitemap, so search engines still read that one")
    report.warn(
        str(site_dir / name), "sitemaps", "sitemap-other",
        f"{name} was written by another tool (the generator's own sitemap), or by a sitemapkit build "
        f"whose record of its own files is gone: no record there names it as it is; it {told}. If the "
        f"generator writes one, turn its own sitemap off ({settings}) so that the two never disagree",
    )
