"""``sitemapkit build`` and ``sitemapkit validate``: ``main`` runs the command the arguments
name (``arguments`` declares them; ``build`` and ``validate`` run them)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from sitemapkit.cli.arguments import EXIT_BROKEN_PIPE, EXIT_USAGE, UsageError, parser
from sitemapkit.cli.build import run_build


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    command = run_build if args.command == "build" else run_validate
    try:
        status = command(args)
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


def run_validate(args: argparse.Namespace) -> int:
    """``sitemapkit validate``: the exit status."""
    from sitemapkit.cli import validate  # lxml: loaded only to validate

    live = None
    if args.sample is not None and not args.check_pages:
        raise UsageError("--sample N needs --check-pages")
    if args.check_pages or any("://" in target for target in args.targets):
        from sitemapkit.validate.crawl import Live  # urllib3 and protego

        live = Live(args.check_pages, args.sample, args.concurrency, args.timeout,
                    allow_hosts=tuple(args.allow_host or ()))
        if args.max_time is not None:
            live.max_time = args.max_time
    return validate.run_validate(args.targets, args.site_dir, args.format, args.strict,
                        progress=sys.stderr.isatty() and not args.quiet, live=live, quiet=args.quiet)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
