"""``sitemapkit build`` and ``sitemapkit validate``."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import tomllib

from sitemapkit import __version__
from sitemapkit.cli.progress import ProgressLine
from sitemapkit.compat.material import reads_urlset
from sitemapkit.generate import generate
from sitemapkit.lastmod.listings import listings_dated
from sitemapkit.model import Outline
from sitemapkit.options import OPTIONS, Option
from sitemapkit.report import Report, SitemapError, plural
from sitemapkit.settings import OPTION_NAMES, Settings, SettingsError
from sitemapkit.site.files import OutputError, fault
from sitemapkit.site.lock import folder_locked
from sitemapkit.site.scan import html_files, pages_in
from sitemapkit.sources.generator import detect
from sitemapkit.sources.layouts import FILES
from sitemapkit.sources.matching import Sources
from sitemapkit.sources.project import CONFIG_FILES, Project, ProjectError, file_urls, find_project
from sitemapkit.values import OptionError
from sitemapkit.versions import Versions, find_versions, write_version_index

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2
EXIT_BROKEN_PIPE = 128 + 13
"""The status of a command SIGPIPE stopped, as a shell reports it (``yes | head``)."""
GENERATOR_CONFIGS = ("mkdocs.yml", "mkdocs.yaml", "properdocs.yml", "zensical.toml", "pelicanconf.py", "conf.py",
                     "sitemapkit.toml")
"""Files that mark a project folder: the default manifest lives there."""
PROGRESS_FROM = 200
"""Pages from which a terminal gets a progress bar."""


class UsageError(Exception):
    pass


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        status = args.command(args)
        sys.stdout.flush()  # here, where a closed pipe is caught, not at the interpreter's exit
        return status
    except UsageError as error:
        print(f"sitemapkit: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly, as a command killed by SIGPIPE does.
        # stdout is pointed at devnull so that the interpreter's last flush finds no pipe.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE


# ---------------------------------------------------------------------- build


def _build(args: argparse.Namespace) -> int:
    project = _project(args.project)
    site_dir = Path(args.site_dir) if args.site_dir else project.site_dir if project else None
    if site_dir is None:
        raise UsageError("SITE_DIR is needed outside a zensical.toml, properdocs.yml or mkdocs.yml project")
    if not site_dir.is_dir():
        raise UsageError(f"{site_dir} is not a folder of built HTML")
    values = _config_file(args.config) if args.config else {}
    values.update(_flags(args))
    if project is not None and project.site_url:
        values.setdefault("base_url", project.site_url)
    if not values.get("base_url"):
        raise UsageError("the site's absolute URL is needed: pass --base-url https://example.com/ "
                         "(or set base_url in the --config file, or site_url in the project's config)")
    try:
        settings = Settings.from_mapping(values)
    except SettingsError as error:
        raise UsageError(str(error)) from None

    versions = find_versions(site_dir, settings.filename, settings.base_url) if not args.out else None
    if versions is not None:  # the root of a versioned deployment: its entry point only
        return _build_root(site_dir, versions, settings, args)

    out_dir = Path(args.out) if args.out else site_dir
    if out_dir.exists() and not out_dir.is_dir():
        raise UsageError(f"--out {out_dir} is a file, not a folder")
    json_out = args.format == "json"
    quiet = args.quiet or json_out
    show = _progress_bar(site_dir, quiet=quiet)
    pages = pages_in(site_dir)
    if project is not None and not project.use_directory_urls:
        pages = file_urls(pages)
    source_dir = args.source_dir or (project.docs_dir if project else None)
    if source_dir is not None:  # pages dated by their sources' front matter and git
        if args.source_dir:  # Hugo, Jekyll, Docusaurus, Eleventy: the layout its marker files name
            found = detect(Path(args.source_dir).absolute(), project.languages if project else ())
            sources = Sources(args.source_dir, snippets=project.snippets if project else None, found=found)
        else:
            sources = Sources(source_dir, project.languages, project.snippets)
        pages = sources.attach(pages, lambda name, message: None if quiet else print(
            f"warning: {name}: {message}", file=sys.stderr))
        if sources.layout is not FILES and "meta" in settings.lastmod:  # a generator's listing pages
            pages = listings_dated(pages, settings, Path(source_dir).absolute())
    # With --format json, stdout holds the one document: IndexNow's dry-run lines go to stderr.
    printed = contextlib.redirect_stdout(sys.stderr) if json_out else contextlib.nullcontext()
    try:
        with printed:
            report = generate(
                pages,
                out_dir,
                settings,
                project_dir=project.root if project else project_folder(site_dir, args.config),
                source_dirs=[Path(source_dir).absolute()] if source_dir is not None else (),
                on_warning=None if quiet else lambda p: print(f"{p.severity}: {p}", file=sys.stderr),
                progress=show,
                dry_run=args.dry_run,
                other_sitemaps=True,
                keep_urlset=reads_urlset(project.theme) if project else False,
                outline=Outline(project.nav, project.site_name) if project else None,
            )
    except (SitemapError, OSError) as error:
        # A file fault (disk full, a read-only folder, a file sitemapkit did not write under
        # an output name) is an input error, 2; warnings under --strict are problems, 1.
        if show is not None:
            print(file=sys.stderr)
        if isinstance(error, OSError) and not isinstance(error, OutputError):
            error = fault(getattr(error, "filename", None) or out_dir, error, "use")
        print(f"sitemapkit: {error}", file=sys.stderr)
        return EXIT_USAGE if isinstance(error, OSError) else EXIT_PROBLEMS
    if show is not None:
        print(file=sys.stderr)
    if json_out:
        print(json.dumps(build_json(report, dry_run=args.dry_run), indent=2, ensure_ascii=False))
    elif not args.quiet:
        if args.dry_run:
            for path in dict.fromkeys([*report.files, *report.sizes]):  # the manifest too
                urls = report.url_counts.get(path)
                count = f"{plural(urls, 'URL')}, " if urls is not None else ""
                print(f"would write {path} ({count}{plural(report.sizes.get(path, 0), 'byte')})")
        print(report.summary())
    return EXIT_OK


def _build_root(site_dir: Path, versions: Versions, settings: Settings, args: argparse.Namespace) -> int:
    """``build`` on the root of a versioned deployment: the index of the versions' sitemaps."""
    quiet = args.quiet or args.format == "json"
    if args.dry_run:  # nothing is written: what would be
        if not quiet:
            print(f"would write {site_dir / settings.filename} (an index of "
                  f"{plural(len(versions.listed), 'version')}: {', '.join(versions.listed) or 'none'})")
        return EXIT_OK
    report = Report(on_warning=None if quiet else lambda p: print(f"{p.severity}: {p}", file=sys.stderr))
    try:
        with folder_locked(site_dir, shared=False):
            write_version_index(site_dir, versions, settings, report)
    except (SitemapError, OSError) as error:
        if isinstance(error, OSError) and not isinstance(error, OutputError):
            error = fault(getattr(error, "filename", None) or site_dir, error, "use")
        print(f"sitemapkit: {error}", file=sys.stderr)
        return EXIT_USAGE if isinstance(error, OSError) else EXIT_PROBLEMS
    if args.format == "json":
        print(json.dumps(build_json(report, dry_run=False), indent=2, ensure_ascii=False))
    elif not args.quiet:
        listed = ", ".join(versions.listed) or "none"
        where = f" in {', '.join(p.name for p in report.files)}" if report.files else "; no file written"
        print(f"versioned deployment ({versions.source}): {plural(len(versions.listed), 'version')} ({listed})"
              f"{where}; {plural(len(versions.left), 'folder')} left out; {plural(len(report.warnings), 'warning')}")
    if settings.strict and report.warnings:
        return EXIT_PROBLEMS
    return EXIT_OK


def _project(path: str | None) -> Project | None:
    """The project named by --project, or the one in the current folder, if any."""
    try:
        project = find_project(path or Path.cwd())
    except ProjectError as error:
        raise UsageError(str(error)) from None
    if path and project is None:
        raise UsageError(f"--project {path}: no {', '.join(CONFIG_FILES)} there")
    return project


def project_folder(site_dir: Path, config: str | None) -> Path:
    """Where a relative ``state_file`` is anchored: the folder of ``--config``, else the
    nearest folder above ``site_dir`` holding a generator's configuration (mkdocs.yml,
    zensical.toml, pelicanconf.py, conf.py, sitemapkit.toml), else ``site_dir``'s parent."""
    if config:
        return Path(config).resolve().parent
    parent = site_dir.resolve().parent
    for folder in (parent, *parent.parents)[:3]:
        if any((folder / name).is_file() for name in GENERATOR_CONFIGS):
            return folder
    return parent


def build_json(report: Report, *, dry_run: bool) -> dict[str, Any]:
    """``build --format json``: one document for scripts and CI."""
    document: dict[str, Any] = {
        "dry_run": dry_run,
        "files": [
            {"path": str(path), "urls": report.url_counts.get(path), "bytes": report.sizes.get(path)}
            for path in dict.fromkeys([*report.files, *report.sizes])
        ],
        "urls": report.urls,
        "images": report.images,
        "videos": report.videos,
        "news": report.news,
        "left_out": dict(sorted(report.left_out.items())),
        "not_pages": {reason: sorted(names) for reason, names in sorted(report.not_pages.items())},
        "warnings": [p.as_dict() for p in report.warnings],
        "notes": [p.as_dict() for p in report.notes],
    }
    sources = getattr(report, "lastmod_sources", None)  # counts the `dates` work adds to Report
    if sources:
        document["lastmod_sources"] = dict(sources)
    return document


def _progress_bar(site_dir: Path, *, quiet: bool):
    if quiet or not sys.stderr.isatty():
        return None
    total = sum(1 for _ in html_files(site_dir))
    if total < PROGRESS_FROM:
        return None

    line = ProgressLine("pages read")
    return lambda done: line(done, total)


def _config_file(path: str) -> dict[str, Any]:
    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except OSError as error:
        raise UsageError(f"cannot read --config {path}: {error.strerror}") from None
    except tomllib.TOMLDecodeError as error:
        raise UsageError(f"--config {path} is not valid TOML: {error}") from None
    for table in (data.get("tool", {}).get("sitemapkit"), data.get("sitemapkit")):
        if isinstance(table, dict):
            return dict(table)
    return data


def _flags(args: argparse.Namespace) -> dict[str, Any]:
    """The options given on the command line, in the configuration vocabulary."""
    return {name: getattr(args, name) for name in OPTION_NAMES if getattr(args, name, None) is not None}


# ------------------------------------------------------------------- validate


def _validate(args: argparse.Namespace) -> int:
    from sitemapkit.cli.validate import run_validate  # lxml: loaded only to validate

    live = None
    if args.sample is not None and not args.check_pages:
        raise UsageError("--sample N needs --check-pages")
    if args.check_pages or any("://" in target for target in args.targets):
        from sitemapkit.validate.crawl import Live  # urllib3 and protego

        live = Live(args.check_pages, args.sample, args.concurrency, args.timeout,
                    allow_hosts=tuple(args.allow_host or ()))
    return run_validate(args.targets, args.site_dir, args.format, args.strict,
                        progress=sys.stderr.isatty() and not args.quiet, live=live, quiet=args.quiet)


def _host(text: str) -> str:
    from sitemapkit.validate.reach import parse_host

    if parse_host(text) is None:
        raise argparse.ArgumentTypeError(f"'{text}' is not a host name or address (HOST or HOST:PORT)")
    return text


def _at_least(low: float, kind: type):
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}")
        return value
    return parse


# --------------------------------------------------------------------- parser


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sitemapkit",
        description="Build and check XML sitemaps for a folder of built HTML.",
        allow_abbrev=False,
    )
    parser.add_argument("--version", action="version", version=f"sitemapkit {__version__}")
    commands = parser.add_subparsers(title="commands", required=True)

    build = commands.add_parser(
        "build", allow_abbrev=False, help="write sitemap files for a folder of built HTML",
        description="Write sitemap.xml (and the files the options ask for) for a folder of built "
                    "HTML. Flags override the --config file.",
    )
    build.set_defaults(command=_build)
    build.add_argument("site_dir", metavar="SITE_DIR", nargs="?",
                       help="the built site (default: the project's site_dir)")
    build.add_argument("--project", metavar="PATH", help="a zensical.toml, properdocs.yml or mkdocs.yml "
                       "(or its folder) to take the site URL, folders and sources from (default: the "
                       "current folder's)")
    build.add_argument("--source-dir", metavar="DIR", help="the sources the pages were built from, "
                       "matched by file name (Hugo's content/, Jekyll, Eleventy): lastmod from their "
                       "front matter and git")
    build.add_argument("--config", metavar="FILE", help="a TOML file of options (top level, or a "
                       "[sitemapkit] or [tool.sitemapkit] table)")
    build.add_argument("--out", metavar="DIR", help="write the files here instead of SITE_DIR")
    build.add_argument("--dry-run", action="store_true",
                       help="write and remove nothing: print the files that would be written "
                            "(URLs, bytes) and what IndexNow would be sent")
    build.add_argument("--format", choices=("text", "json"), default="text",
                       help="json: one JSON document on stdout (files, URL counts, sizes, warnings)")
    build.add_argument("-q", "--quiet", action="store_true", help="print nothing but errors")
    _option_flags(build)

    check = commands.add_parser(
        "validate", allow_abbrev=False,
        help="check sitemap, index, news, text and robots.txt files and feeds",
        description="Check sitemap files (and RSS 2.0 / Atom 1.0 feeds given as sitemaps) "
                    "against the protocol and Google's rules, local or fetched by URL; with "
                    "--check-pages, also every page they list, as a crawler sees it.",
    )
    check.set_defaults(command=_validate)
    check.add_argument("targets", nargs="+", metavar="TARGET",
                       help="a sitemap file (plain or .gz), robots.txt, a feed, or a folder "
                       "holding them; or an http(s) URL of one, fetched with what it names")
    check.add_argument("--site-dir", metavar="DIR",
                       help="also check the sitemap against this built site")
    check.add_argument("--format", choices=("text", "json", "jsonl", "html"), default="text",
                       help="text (default); json: one JSON document with the files checked, "
                       "the problems and the totals; jsonl: one JSON object per problem, "
                       "streamed; html: one self-contained page with every URL and the problems "
                       "by rule (redirect it to a file: > report.html)")
    check.add_argument("--strict", action="store_true", help="warnings fail too")
    check.add_argument("-q", "--quiet", action="store_true",
                       help="print the problems only: no summary line, no progress")
    live = check.add_argument_group("the live site")
    live.add_argument("--check-pages", action="store_true",
                      help="request every listed URL as a crawler would (robots.txt obeyed): "
                      "status, redirects, noindex, canonical, hreflang return links")
    live.add_argument("--sample", metavar="N", type=_at_least(1, int),
                      help="with --check-pages: N listed URLs picked at random, not all")
    live.add_argument("--concurrency", metavar="N", type=_at_least(1, int), default=4,
                      help="requests at a time, so at most N per host (default 4)")
    live.add_argument("--timeout", metavar="SECONDS", type=_at_least(0.1, float), default=10.0,
                      help="to connect, and between two reads of an answer (default 10); a whole "
                      "answer is cut at 30 times this")
    live.add_argument("--allow-host", metavar="HOST", action="append", type=_host,
                      help="also request this host (HOST or HOST:PORT; repeatable): by default only "
                      "the URL targets' hosts are, never another host a fetched file or redirect names")
    return parser


def _option_flags(parser: argparse.ArgumentParser) -> None:
    """One flag per declared option: ``--name/--no-name`` for a switch, a repeatable flag for a
    list, else ``--name VALUE``; the text is read into the configuration's value."""
    group = parser.add_argument_group("options (the configuration keys; see the documentation's Options page)")
    for option in OPTIONS:
        kind = option.kind
        shown = _shown_default(option.default)
        values = f" (values: {', '.join(kind.choices)})" if kind.choices else ""
        text = (option.cli_help or option.help).replace("`", "") + values
        text = (text + (f" (default {shown})" if shown else "")).replace("%", "%%")
        if kind.metavar is None:
            group.add_argument(option.cli_flag, dest=option.name, action=argparse.BooleanOptionalAction,
                               default=None, help=text)
        else:
            group.add_argument(option.cli_flag, dest=option.name, metavar=kind.metavar, type=_reader(option),
                               action="append" if kind.item else "store", help=text)


def _shown_default(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, tuple):
        return ",".join(value)
    return "" if value is None else str(value)


def _reader(option: Option):
    """The option's text reader, its complaint phrased for argparse."""
    def read(text: str) -> Any:
        try:
            return option.kind.read(text)
        except ValueError as error:
            why = str(error) if isinstance(error, OptionError) else f"takes {option.kind.metavar}, got {text!r}"
            raise argparse.ArgumentTypeError(why) from None

    read.__name__ = option.name
    return read


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
