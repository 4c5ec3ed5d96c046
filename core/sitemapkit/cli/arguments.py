"""The words of the command line: the parser of ``build`` and ``validate`` (one flag per
declared option), the readers of its values, its usage error and its exit statuses."""

from __future__ import annotations

import argparse
from typing import Any

from sitemapkit import __version__
from sitemapkit.options import OPTIONS, Option
from sitemapkit.values import OptionError

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2
EXIT_BROKEN_PIPE = 128 + 13
"""The status of a command SIGPIPE stopped, as a shell reports it (``yes | head``)."""


class UsageError(Exception):
    pass


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


def parser() -> argparse.ArgumentParser:
    """The command line's words: ``build`` and ``validate``, each run as ``args.command``
    names it (``main`` holds the two commands)."""
    top = argparse.ArgumentParser(
        prog="sitemapkit",
        description="Build and check XML sitemaps for a folder of built HTML.",
        allow_abbrev=False,
    )
    top.add_argument("--version", action="version", version=f"sitemapkit {__version__}")
    commands = top.add_subparsers(title="commands", required=True)

    build = commands.add_parser(
        "build", allow_abbrev=False, help="write sitemap files for a folder of built HTML",
        description="Write sitemap.xml (and the files the options ask for) for a folder of built "
                    "HTML. Flags override the --config file.",
    )
    build.set_defaults(command="build")
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
    build.add_argument("--site-name", metavar="NAME", help="the site's name, llms.txt's heading (default: "
                       "the project's site_name, else the home page's title)")
    build.add_argument("--dry-run", action="store_true",
                       help="write and remove nothing: print the files that would be written "
                            "(URLs, bytes) and what IndexNow would be sent")
    build.add_argument("--format", choices=("text", "json"), default="text",
                       help="json: one JSON document on stdout (files, URL counts, sizes, warnings)")
    build.add_argument("-q", "--quiet", action="store_true", help="print nothing but errors")
    branch = build.add_argument_group("the root of a versioned deployment on its git branch (mike's gh-pages)")
    branch.add_argument("--branch", metavar="BRANCH",
                        help="write the root entry point of the versioned deployment on this branch of the "
                        "current folder's git repository (after mike deploy: gh-pages) with git's plumbing, "
                        "as mike does: no SITE_DIR, no worktree; a commit only when the root changed")
    branch.add_argument("--push", action="store_true",
                        help="with --branch: then push the branch to --remote (mike's own commits too), "
                        "as mike deploy --push does")
    branch.add_argument("--remote", metavar="NAME",
                        help="with --push: the remote to push to (default origin)")
    _option_flags(build)

    check = commands.add_parser(
        "validate", allow_abbrev=False,
        help="check sitemap, index, news, text and robots.txt files and feeds",
        description="Check sitemap files (and RSS 2.0 / Atom 1.0 feeds given as sitemaps) "
                    "against the protocol and Google's rules, local or fetched by URL; with "
                    "--check-pages, also every page they list, as a crawler sees it.",
    )
    check.set_defaults(command="validate")
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
    live.add_argument("--max-time", metavar="SECONDS", type=_at_least(1, float),
                      help="the longest the whole run fetches for (default half an hour); what is "
                      "left then is not fetched, and a max-time error says how much")
    live.add_argument("--allow-host", metavar="HOST", action="append", type=_host,
                      help="also request this host (HOST or HOST:PORT; repeatable): by default only "
                      "the URL targets' hosts are, never another host a fetched file or redirect names")
    return top


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
