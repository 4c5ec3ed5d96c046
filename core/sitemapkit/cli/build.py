"""``sitemapkit build``: the pages of a folder of built HTML (dated by a project's sources
when there is one) through ``generate``, or the root index of a versioned deployment; what
was written printed as text or one JSON document."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import tomllib

from sitemapkit.cli.arguments import EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, UsageError
from sitemapkit.cli.others import look_for_others
from sitemapkit.cli.progress import ProgressLine
from sitemapkit.cli.state_place import project_folder, state_out_of_site
from sitemapkit.compat.material import reads_urlset
from sitemapkit.generate import generate
from sitemapkit.lastmod.listings import listings_dated
from sitemapkit.model import Outline
from sitemapkit.options import OPTIONS
from sitemapkit.report import Problem, Report, SitemapError, plural
from sitemapkit.settings import OPTION_NAMES, Settings, SettingsError
from sitemapkit.site.files import OutputError, Sink, fault
from sitemapkit.site.lock import folder_locked
from sitemapkit.site.owned import record_key
from sitemapkit.site.pages import clean_url
from sitemapkit.site.scan import html_files, pages_in
from sitemapkit.sources.bounded import ConfigError
from sitemapkit.sources.generator import detect
from sitemapkit.sources.layouts import FILES
from sitemapkit.sources.matching import Sources
from sitemapkit.sources.project import CONFIG_FILES, Project, ProjectError, file_urls, find_project, translated
from sitemapkit.version_index import ROOT_OPTIONS, Versions, find_versions, write_version_index

OPTIONS_BY_NAME = {option.name: option for option in OPTIONS}
PROGRESS_FROM = 200
"""Pages from which a terminal gets a progress bar."""


def run_build(args: argparse.Namespace) -> int:
    """``sitemapkit build``: the sitemaps of a folder of built HTML (or of a project's site);
    the exit status."""
    project = _project(args.project)
    if args.branch is None and (args.push or args.remote):
        raise UsageError(f"{'--push' if args.push else '--remote'} needs --branch")
    if args.branch is not None:  # the root of a versioned deployment on its git branch
        if args.site_dir or args.out or args.source_dir:
            raise UsageError("--branch reads the deployment from the branch itself: give no SITE_DIR, "
                             "--out or --source-dir (run it in the repository)")
        values = _values(args, project)
        _root_options(values)
        given, _ = _with_project_options(values, project, root=True)
        return _build_branch(args, _settings(given))
    site_dir = Path(args.site_dir) if args.site_dir else project.site_dir if project else None
    if site_dir is None:
        raise UsageError("SITE_DIR is needed outside a zensical.toml, properdocs.yml or mkdocs.yml project")
    if not site_dir.is_dir():
        raise UsageError(f"{site_dir} is not a folder of built HTML")
    values = _values(args, project)
    given, notes = _with_project_options(values, project)
    settings = _settings(given)

    root = settings
    if project is not None and project.sitemapkit:  # the root step takes only its own options
        root_given, _ = _with_project_options(values, project, root=True)
        root = _settings(root_given)
    versions = (find_versions(site_dir, root.filename, root.base_url, root.exclude_versions)
                if not args.out else None)
    if versions is not None:  # the root of a versioned deployment: its entry point only
        settings = root
        _root_options(values)
        if args.source_dir:
            raise UsageError(f"{site_dir} is the root of a versioned deployment ({versions.source}): "
                             "--source-dir belongs to each version's build")
        return _build_root(site_dir, versions, settings, args)

    out_dir = Path(args.out) if args.out else site_dir
    if out_dir.exists() and not out_dir.is_dir():
        raise UsageError(f"--out {out_dir} is a file, not a folder")
    json_out = args.format == "json"
    quiet = args.quiet or json_out
    told, problems = _told(args)
    show = _progress_bar(site_dir, quiet=quiet)
    pages = pages_in(site_dir, project.generator if project is not None else None)
    if project is not None and not project.use_directory_urls:
        pages = file_urls(pages)
    if project is not None and project.languages:  # mkdocs-static-i18n: each page's language and translations
        pages = translated(pages, site_dir, project.languages, alternates=settings.alternates)
    source_dir = args.source_dir or (project.docs_dir if project else None)
    if settings.static_html != "list":  # the folder's files are pages all alike
        raise UsageError("option 'static_html' applies to the adapters, whose generator says which HTML files it "
                         "copied as they are; sitemapkit build lists every HTML file of the folder: use --exclude")
    if source_dir is not None:  # pages dated by their sources' front matter and git
        if args.source_dir:  # Hugo, Jekyll, Docusaurus, Eleventy: the layout its marker files name
            try:
                found = detect(Path(args.source_dir).absolute(), project.languages if project else ())
            except ConfigError as error:  # a configuration past a bound: one line
                raise UsageError(str(error)) from None
            sources = Sources(args.source_dir, snippets=project.snippets if project else None, found=found)
            if found.clean_urls:  # VitePress' cleanUrls: a/b.html is served, and linked, as a/b
                pages = (replace(page, url=clean_url(page.url)) for page in pages)
        else:
            sources = Sources(source_dir, project.languages, project.snippets, documented=project.documented)
        pages = sources.attach(pages)
        if sources.layout is not FILES and "meta" in settings.lastmod:  # a generator's listing pages
            pages = listings_dated(pages, settings, Path(source_dir).absolute())
    # With --format json, stdout holds the one document: IndexNow's dry-run lines go to stderr.
    printed = contextlib.redirect_stdout(sys.stderr) if json_out else contextlib.nullcontext()
    project_dir = project.root if project else project_folder(site_dir, args.config, settings.base_url)
    left, state_from = (None, None) if project else state_out_of_site(site_dir, settings, project_dir,
                                                                      dry_run=args.dry_run)
    try:
        with printed:
            report = generate(
                pages,
                out_dir,
                settings,
                project_dir=project_dir,
                state_from=state_from,
                problems=notes if left is None else [*notes, left],
                source_dirs=[Path(source_dir).absolute()] if source_dir is not None else (),
                on_warning=told,
                progress=show,
                dry_run=args.dry_run,
                other_sitemaps=partial(look_for_others, generator=project.generator)
                if project is not None and site_dir.resolve() == project.site_dir.resolve() else look_for_others,
                keep_urlset=reads_urlset(project.theme) if project else False,
                by_folder=True,
                outline=(Outline(project.nav, args.site_name or project.site_name) if project else
                         Outline((), args.site_name) if args.site_name else None),
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
        print(json.dumps(build_json(report, problems, dry_run=args.dry_run), indent=2, ensure_ascii=False))
    elif not args.quiet:
        if args.dry_run:
            _would_write(report)
        print(report.summary())
    return EXIT_OK


def _would_write(report: Report) -> None:
    """A dry run's lines: each file it would write (the manifest too), with its URLs and bytes."""
    for path in dict.fromkeys([*report.files, *report.sizes]):
        urls = report.url_counts.get(path)
        count = f"{plural(urls, 'URL')}, " if urls is not None else ""
        print(f"would write {path} ({count}{plural(report.sizes.get(path, 0), 'byte')})")


def _build_root(site_dir: Path, versions: Versions, settings: Settings, args: argparse.Namespace) -> int:
    """``build`` on the root of a versioned deployment: the index of the versions' sitemaps."""
    told, problems = _told(args)
    report = Report(on_warning=told)
    sink = Sink(dry_run=args.dry_run)  # a dry run writes nothing, and counts what it would write
    try:
        with folder_locked(site_dir, shared=args.dry_run):
            state = project_folder(site_dir, args.config, settings.base_url) / settings.state_file
            key = record_key(state, create=not args.dry_run)
            write_version_index(site_dir, versions, settings, report, key, sink)
    except (SitemapError, OSError) as error:
        if isinstance(error, OSError) and not isinstance(error, OutputError):
            error = fault(getattr(error, "filename", None) or site_dir, error, "use")
        print(f"sitemapkit: {error}", file=sys.stderr)
        return EXIT_USAGE if isinstance(error, OSError) else EXIT_PROBLEMS
    report.sizes = dict(sink.sizes) if args.dry_run else {path: path.stat().st_size for path in report.files}
    if args.format == "json":
        print(json.dumps(build_json(report, problems, dry_run=args.dry_run), indent=2, ensure_ascii=False))
    elif not args.quiet:
        if args.dry_run:
            _would_write(report)
        listed = ", ".join(versions.listed) or "none"
        where = f" in {', '.join(p.name for p in report.files)}" if report.files else "; no file written"
        print(f"versioned deployment ({versions.source}): {plural(len(versions.listed), 'version')} ({listed})"
              f"{where}; {plural(len(versions.left), 'folder')} left out; {plural(report.warning_count, 'warning')}")
    if settings.strict and report.warning_count:
        return EXIT_PROBLEMS
    return EXIT_OK


def _values(args: argparse.Namespace, project: Project | None) -> dict[str, Any]:
    """The options given: the --config file's, then the flags; the project's site URL."""
    values = _config_file(args.config) if args.config else {}
    values.update(flags(args))
    if project is not None and project.site_url:
        values.setdefault("base_url", project.site_url)
    if project is not None and project.state_file is not None:
        values.setdefault("state_file", project.state_file)
    if not values.get("base_url"):
        raise UsageError("the site's absolute URL is needed: pass --base-url https://example.com/ "
                         "(or set base_url in the --config file, or site_url in the project's config)")
    return values


def _settings(values: dict[str, Any]) -> Settings:
    try:
        return Settings.from_mapping(values)
    except SettingsError as error:
        raise UsageError(str(error)) from None


def _with_project_options(values: dict[str, Any], project: Project | None, *,
                          root: bool = False) -> tuple[dict[str, Any], list[Problem]]:
    """``values`` over the options the project's configuration gives sitemapkit's plugin, so
    that a build by the command line writes what the plugin writes (``root``: the root step of
    a versioned deployment, which takes only its own, ``ROOT_OPTIONS``: ``filename``, ``gzip``,
    ``extra_urls`` ...; the others are each version's build's); with a warning for the one
    only a plugin can follow (``static_html``: its generator says which files it copied)."""
    if project is None:
        return values, []
    given = {name: value for name, value in project.sitemapkit.items() if not root or name in ROOT_OPTIONS}
    notes = []
    if given.get("static_html") not in (None, "list") and "static_html" not in values:
        notes.append(Problem(str(project.config_file), "option-ignored",
                             f"{given['static_html']} ignored: sitemapkit build lists every HTML "
                             f"file of the folder, as it cannot tell the ones {project.generator} copied; "
                             "leave them out with --exclude (--static-html list says to list them)",
                             field="static_html"))
    given.pop("static_html", None)
    try:  # each value checked as the plugin checks it, so that an error names where it is
        Settings.from_mapping(given)
    except SettingsError as error:
        raise UsageError(f"{project.config_file.name}: the sitemapkit plugin's options: {error}") from None
    return {**given, **values}, notes


def _root_options(values: dict[str, Any]) -> None:
    """Refuse, in one line, the options given to the root step that only a version's build reads."""
    given = [OPTIONS_BY_NAME[name] for name in values if name not in ROOT_OPTIONS and name in OPTIONS_BY_NAME]
    if given:
        named = ", ".join(option.cli_flag for option in given)
        raise UsageError(f"{named} {'does' if len(given) == 1 else 'do'} not apply to the root of a versioned "
                         "deployment, which lists the versions' own sitemaps: give "
                         f"{'it' if len(given) == 1 else 'them'} to each version's build")


def _build_branch(args: argparse.Namespace, settings: Settings) -> int:
    """``build --branch``: the root entry point committed on the branch, then pushed."""
    # git's plumbing and the branch step: loaded by the builds that ask for them
    from sitemapkit.branch import BranchError, open_branch, push
    from sitemapkit.version_branch import root_on_branch

    told, problems = _told(args)
    report = Report(on_warning=told)
    try:
        branch = open_branch(Path.cwd(), args.branch)
        made = root_on_branch(branch, settings, report, dry_run=args.dry_run)
        if args.push and not args.dry_run:
            push(branch, args.remote or "origin")
    except (BranchError, SitemapError, OSError) as error:
        print(f"sitemapkit: {error}", file=sys.stderr)
        return EXIT_PROBLEMS if isinstance(error, SitemapError) else EXIT_USAGE
    if args.format == "json":
        print(json.dumps({**build_json(report, problems, dry_run=args.dry_run), "branch": branch.name,
                          "commit": made.commit, "changed": list(made.changed)}, indent=2, ensure_ascii=False))
    elif not args.quiet:
        versions = made.versions
        done = ("would commit" if args.dry_run else "committed") + f" {', '.join(made.changed)}"
        print(f"versioned deployment on branch {branch.name} ({versions.source}): "
              f"{plural(len(versions.listed), 'version')} ({', '.join(versions.listed) or 'none'}); "
              f"{plural(len(versions.left), 'folder')} left out; "
              f"{done if made.commit else 'root unchanged, nothing committed'}"
              f"{'; pushed to ' + (args.remote or 'origin') if args.push and not args.dry_run else ''}; "
              f"{plural(report.warning_count, 'warning')}")
    if settings.strict and report.warning_count:
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


def _told(args: argparse.Namespace) -> tuple[Callable[[Problem], None] | None, list[Problem]]:
    """How a build tells its problems as they come (``Report.on_warning``): printed; with
    ``--format json``, kept, every one, for the one document (a report keeps only the first
    few); nowhere with ``--quiet``. With the list the JSON document takes them from."""
    problems: list[Problem] = []
    if args.format == "json":
        return problems.append, problems
    if args.quiet:
        return None, problems
    # (one write a problem: a build that warns of every page prints 2.6 k instructions less a page than by print)
    return lambda problem: sys.stderr.write(f"{problem.severity}: {problem}\n"), problems


def build_json(report: Report, problems: list[Problem], *, dry_run: bool) -> dict[str, Any]:
    """``build --format json``: one document for scripts and CI; ``problems``: every problem
    the build told (``_told``)."""
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
        "warnings": [p.as_dict() for p in problems if p.severity != "info"],
        "notes": [p.as_dict() for p in problems if p.severity == "info"],
    }
    if report.lastmod_sources:
        document["lastmod_sources"] = dict(report.lastmod_sources)
    if report.pages_kept or report.pages_read:
        document["page_facts"] = {"kept": report.pages_kept, "read": report.pages_read}
        if report.folders_kept:
            document["page_facts"]["folders"] = report.folders_kept
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


def flags(args: argparse.Namespace) -> dict[str, Any]:
    """The options given on the command line, in the configuration vocabulary."""
    return {name: getattr(args, name) for name in OPTION_NAMES if getattr(args, name, None) is not None}
