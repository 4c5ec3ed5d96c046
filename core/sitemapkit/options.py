"""Every option, declared once: ``OPTIONS`` at the bottom of this file.

An option is a name, a ``Kind`` (what values it takes), a default and one line of help.
``Settings`` (its fields, defaults and checks), the MkDocs plugin's config class, the Sphinx
``sitemapkit_*`` config values, the CLI's flags and the documentation's options table are all
made from ``OPTIONS``: a new option is one more line there.
"""

from collections.abc import Callable
from typing import Any, NamedTuple

from sitemapkit import values
from sitemapkit.protocol import MAX_BYTES, MAX_URLS, NEWS_WINDOW_HOURS
from sitemapkit.values import (
    CHANGEFREQS,
    LASTMOD_SOURCES,
    STATIC_HTML,
    ExtraUrl,
    IndexNowSettings,
    LlmsTxt,
    NewsSettings,
    OptionError,
    Rule,
)


class Kind(NamedTuple):
    """What an option takes, and how each front end spells it."""

    check: Callable[[Any], Any]
    """value -> the value ``Settings`` keeps; raises ``OptionError`` saying what it must be."""
    types: tuple[type, ...]
    """What a generator's configuration may hold here (MkDocs and Sphinx check these types)."""
    annotation: Any
    """The type of the value ``Settings`` keeps."""
    metavar: str | None = None
    """The command line's placeholder; None makes a ``--name/--no-name`` switch."""
    read: Callable[[str], Any] = str
    """Command-line text -> a configuration value."""
    item: type | None = None
    """A list's item type: MkDocs checks each item, the command line takes one per flag."""
    choices: tuple[str, ...] = ()
    """The allowed values, where they are a short list (shown in the help)."""


class Option(NamedTuple):
    name: str
    kind: Kind
    default: Any
    help: str
    """One line, Markdown (backquotes) allowed: the CLI shows it plain, the docs as Markdown."""
    flag: str | None = None
    """The command-line flag, when not ``--name-with-dashes``."""
    cli_help: str | None = None
    """The command line's help, where its spelling differs from a configuration file's (plain
    text, an example of the flag as typed)."""

    @property
    def cli_flag(self) -> str:
        return self.flag or "--" + self.name.replace("_", "-")

    @property
    def annotation(self) -> Any:
        return self.kind.annotation | None if self.default is None else self.kind.annotation

    def check(self, value: Any) -> Any:
        """The value ``Settings`` keeps; None stays None for an option that is unset by default."""
        return None if value is None and self.default is None else self.kind.check(value)


# ------------------------------------------------------------- command-line text


def key_values(text: str) -> dict[str, Any]:
    """``publication=Daily,language=en`` -> a dict; numbers stay numbers."""
    found: dict[str, Any] = {}
    for part in text.split(","):
        key, sep, value = part.partition("=")
        if not sep:
            raise OptionError(f"takes KEY=VALUE pairs separated by commas, got '{part}'")
        value = value.strip()
        try:
            found[key.strip()] = float(value) if "." in value else int(value)
        except ValueError:
            found[key.strip()] = value
    return found


def rule_text(text: str) -> dict[str, Any]:
    """``blog/*:changefreq=weekly,priority=0.7`` -> one rule."""
    match, sep, rest = text.partition(":")
    if not sep:
        raise OptionError(f"takes GLOB:changefreq=...,priority=..., got '{text}'")
    return {"match": match, **key_values(rest)}


def lastmod_text(text: str) -> list[str] | bool:
    """``meta,git`` -> a list; ``false`` (or ``none``, or nothing) -> False."""
    if text.strip().lower() in ("false", "none", ""):
        return False
    return [source.strip() for source in text.split(",")]


def extra_url_text(text: str) -> str | dict[str, str]:
    """``/shop/`` or ``/shop/ 2026-05-01`` (a URL holds no space) -> one ``extra_urls`` item."""
    loc, _, lastmod = text.strip().partition(" ")
    return {"loc": loc, "lastmod": lastmod.strip()} if lastmod.strip() else loc


# ------------------------------------------------------------------------ kinds
# Kind(check, types in a config file, type Settings keeps, CLI placeholder, ...)

FLAG = Kind(values.boolean, (bool,), bool)
SITE_URL = Kind(values.base_url, (str,), str, "URL")
FILE_NAME = Kind(values.filename, (str,), str, "NAME")
PATH = Kind(values.text, (str,), str, "PATH")
GLOBS = Kind(values.exclude_patterns, (list, tuple, str), tuple[str, ...], "GLOB", item=str)
CHANGEFREQ = Kind(values.changefreq, (str,), str, "FREQ", choices=CHANGEFREQS)
PRIORITY = Kind(values.priority, (int, float), float, "P", read=float)
PATH_RULES = Kind(values.rules, (list, tuple), tuple[Rule, ...], "GLOB:KEY=VALUE,...", read=rule_text, item=dict)
LASTMOD = Kind(values.lastmod, (list, tuple, bool, str), tuple[str, ...], "SOURCES", read=lastmod_text,
               choices=LASTMOD_SOURCES)
NEWS = Kind(values.news, (dict,), NewsSettings, "KEY=VALUE,...", read=key_values)
LANGUAGE = Kind(values.language, (str,), str, "LANG")
STYLESHEET = Kind(values.stylesheet, (str,), str, "URL")
COPIED_HTML = Kind(values.static_html, (str,), str, "HOW", choices=STATIC_HTML)
SITEMAP_URLS = Kind(values.extra_sitemaps, (list, tuple, str), tuple[str, ...], "URL", item=str)
PAGE_URLS = Kind(values.extra_urls, (list, tuple, str), tuple[ExtraUrl, ...], "URL",
                 read=extra_url_text, item=(str, dict))  # type: ignore[arg-type]
NAME_GLOBS = Kind(values.name_globs, (list, tuple, str), tuple[str, ...], "NAME", item=str)
PREFIXES = Kind(values.sections, (list, tuple, str), tuple[str, ...], "PREFIX", item=str)
CALLABLE = Kind(values.transform, (str,), str, "MODULE:FUNCTION")
LLMS = Kind(values.llms_txt, (bool, dict), LlmsTxt | bool)  # the table form from a config file (--config)
INDEXNOW = Kind(values.indexnow, (dict,), IndexNowSettings, "KEY=VALUE,...", read=key_values)


def whole(low: int, high: int | None = None) -> Kind:
    return Kind(values.whole(low, high), (int,), int, "N", read=int)


# ---------------------------------------------------------------- the options

OPTIONS: tuple[Option, ...] = (
    Option("base_url", SITE_URL, None,
           "the site's absolute URL; unset: the generator's (`site_url`, `SITEURL`, `html_baseurl`)"),
    Option("filename", FILE_NAME, "sitemap.xml", "the entry-point file, the one robots.txt names"),
    Option("exclude", GLOBS, (), "leave out URL paths below the site root matching these globs "
           "(gitignore style): `blog/drafts/`, `tags/`, `404.html`"),
    Option("include", GLOBS, (), "also list the files that are not HTML matching these patterns (gitignore "
           "style): `*.pdf`, `papers/`; dated by git or the manifest, never the build time"),
    Option("static_html", COPIED_HTML, "list", "HTML files the generator copies as they are "
           "(Pelican's `STATIC_PATHS`, MkDocs' `.html` in docs_dir, Sphinx's `html_extra_path`): `list` them "
           "as pages, or `omit` them "
           "(recorded as left out on purpose, so `validate --site-dir` does not ask for them)"),
    Option("include_noindex", FLAG, False,
           'keep pages whose HTML says `<meta name="robots" content="noindex">`'),
    Option("changefreq", CHANGEFREQ, None, "default `<changefreq>` of every entry"),
    Option("priority", PRIORITY, None, "default `<priority>` of every entry, 0.0 to 1.0"),
    Option("rules", PATH_RULES, (), 'changefreq and priority by URL path, `[{match: "blog/*", changefreq: weekly, '
           "priority: 0.7}]`; the first rule whose glob matches a page gives its values", flag="--rule",
           cli_help="changefreq and priority for the pages whose URL path matches a glob: the glob, a "
           "colon, then key=value pairs, as in --rule 'blog/*:changefreq=weekly,priority=0.7'; "
           "repeatable, and the first rule whose glob matches a page gives its values"),
    Option("lastmod", LASTMOD, LASTMOD_SOURCES,
           "where lastmod comes from, tried in order; `false` omits lastmod"),
    Option("state_file", PATH, ".cache/sitemapkit/state.json",
           "the manifest kept between builds, relative to the project folder; each site keeps its own "
           "beside it, the site's key in its name (`state-0123456789ab.json`)"),
    Option("images", FLAG, True,
           "`<image:image>` entries from `<img>` in each page's main content and from page metadata"),
    Option("videos", FLAG, True, "`<video:video>` entries from page metadata, and from `<video>` elements "
           "that carry what Google requires"),
    Option("news", NEWS, None, "`{publication: NAME, language: CODE, match: GLOB, "
           f"window_hours: {NEWS_WINDOW_HOURS}}}`: matching pages published inside the window also go "
           "to `sitemap-news.xml`",
           cli_help="also list in sitemap-news.xml the pages whose URL path matches a glob and that "
           f"were published in the last window_hours hours (default {NEWS_WINDOW_HOURS}), under a publication's "
           "name and language, as in --news 'publication=The Daily,language=en,match=news/*'"),
    Option("alternates", FLAG, True, "hreflang alternates from the generator's translations "
           '(or the page\'s `<link rel="alternate" hreflang>`)'),
    Option("x_default", LANGUAGE, None, 'the language whose version is also given as `hreflang="x-default"`'),
    Option("gzip", FLAG, False, "also write a `.gz` twin of every file (byte-identical when decompressed)"),
    Option("txt", FLAG, False, "also write `sitemap.txt`, one URL a line"),
    Option("robots_txt", FLAG, True, "create robots.txt, or add the `Sitemap:` line to the one the site has "
           "(a version's build under mike or on Read the Docs leaves it alone unless set)"),
    Option("max_urls", whole(1, MAX_URLS), MAX_URLS, "URLs per sitemap file; past it `sitemap.xml` is an index"),
    Option("max_bytes", whole(1024, MAX_BYTES), MAX_BYTES,
           "bytes per sitemap file; past it `sitemap.xml` is an index"),
    Option("stylesheet", STYLESHEET, None,
           "URL of an XSL stylesheet, written as `<?xml-stylesheet?>` (browsers no longer apply XSLT: "
           "see `html_sitemap`)"),
    Option("html_sitemap", FLAG, False,
           "also write `sitemap.html`, a site map for people in the site's own look, listed in the sitemap"),
    Option("llms_txt", LLMS, False,
           "also write `llms.txt` (llmstxt.org) at the site root, in navigation order, linking a Markdown mirror of "
           "each page the sitemap lists (`URL.md`); `{summary: TEXT, optional: [SECTION], full: true}` sets the "
           "summary, the sections under `Optional` and `llms-full.txt`",
           cli_help="also write llms.txt at the site root, linking a Markdown mirror (URL.md) of each page the "
           "sitemap lists, in the site's navigation order (the table form, with summary, optional and full, "
           "in --config's file)"),
    Option("indexnow", INDEXNOW, None,
           "`{key: KEY, endpoint: URL}`: after a build, submit the URLs whose content changed",
           cli_help="after a build, submit the URLs whose content changed to IndexNow, with the "
           "site's key and, if not the default, the endpoint, as in --indexnow "
           "key=KEY,endpoint=https://api.indexnow.org/indexnow"),
    Option("changes_feed", whole(1), None,
           "N: also write `sitemap-changes.atom`, an Atom feed of the N most recently changed pages"),
    Option("strict", FLAG, False, "warnings (a dropped field, a bad date) fail the build"),
    Option("extra_sitemaps", SITEMAP_URLS, (), "absolute URLs of sitemaps other tools write on the same host "
           "(`https://example.com/shop/sitemap.xml`): named in robots.txt, and in the index when there is one",
           flag="--extra-sitemap", cli_help="the absolute URL of a sitemap another tool writes on the same "
           "host, named in robots.txt and in the index when there is one; repeatable"),
    Option("extra_urls", PAGE_URLS, (), "pages the generator does not build: URLs (absolute, or below the "
           "site root) or `{loc: URL, lastmod: DATE}`, checked like every page", flag="--extra-url",
           cli_help="a page the generator does not build, as an absolute URL or a path below the site "
           "root, optionally followed by a space and its lastmod, as in --extra-url '/shop/ 2026-05-01'; "
           "repeatable"),
    Option("sections", PREFIXES, None, "URL path prefixes (`[blog/, docs/]`), each listed in a sitemap of its "
           "own (`sitemap-blog.xml`, the rest in `sitemap-other.xml`) under an index", flag="--section",
           cli_help="a URL path prefix such as blog/ whose pages get a sitemap of their own "
           "(sitemap-blog.xml; the rest go to sitemap-other.xml) under an index; repeatable"),
    Option("exclude_versions", NAME_GLOBS, (), "versions the root index of a versioned deployment leaves out, "
           "by name or glob (`dev`, `0.*`); mike's hidden versions are always left out", flag="--exclude-version",
           cli_help="a version (a name, or a glob such as 0.*) the root index of a versioned deployment "
           "leaves out; repeatable (mike's hidden versions are always left out)"),
    Option("transform", CALLABLE, None, "`module:function`: a Python callable given each entry, which returns "
           "it (changed with `dataclasses.replace`, or not) or `None` to leave the page out"),
)

OPTION_NAMES: tuple[str, ...] = tuple(option.name for option in OPTIONS)
"""Every user-facing option, in the order of the contract."""
