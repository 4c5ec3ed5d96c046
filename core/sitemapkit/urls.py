"""URLs as the Sitemaps protocol wants them: absolute, percent-encoded, inside scope."""

from __future__ import annotations

import re
from urllib.parse import quote, urljoin, urlsplit, urlunsplit

from sitemapkit.patterns import lazy_pattern
from sitemapkit.protocol import MAX_LOC_LENGTH
from sitemapkit.site.pages import fold_index

news_language_pattern = lazy_pattern(r"zh-cn|zh-tw|[a-z]{2,3}")


indexnow_key_pattern = lazy_pattern(r"[A-Za-z0-9-]{8,128}")


_DEFAULT_PORTS = {"http": 80, "https": 443}
# A link a page for people may carry (sitemap.html, the validator's HTML report): an absolute
# http(s) URL with a host, or a path written "./..." below the page's own folder. No space or
# control character anywhere: a browser drops tabs and newlines inside a URL and trims the rest
# at its ends, so "java\tscript:" would run as "javascript:".
_safe_href = lazy_pattern(r"(?:(?i:https?)://[^/?#\\\x00-\x20\x7f]+|\./)[^\x00-\x20\x7f]*")
# RFC 3986 reserved and unreserved characters stay as they are; "%" stays when it already
# starts an escape (handled in _quote); everything else is UTF-8 percent-encoded.
_SAFE_PATH = "/:@!$&'()*+,;=-._~"
_SAFE_QUERY = _SAFE_PATH + "?"


_lone_percent = lazy_pattern(r"%(?![0-9A-Fa-f]{2})")


# A path segment that is "." or "..", percent-encoded or not (RFC 3986, 6.2.2.2 and 5.2.4).
_dot_segment = lazy_pattern(r"(?:\.|%2[eE])((?:\.|%2[eE]))?")

_DOTS = re.compile(r"/(?:\.|%2[eE])(?:\.|%2[eE])?(?:[/?#]|$)")


def _has_dots(url: str) -> bool:
    """Whether ``url`` holds a ``.`` or ``..`` segment (``_DOTS``). Performance: asked of a URL
    with ``/.`` or ``/%2`` in it only, two plain finds most URLs pass (1.1 k instructions less)."""
    return ("/." in url or "/%2" in url) and _DOTS.search(url) is not None


# A URL already in the form encode_url gives: most URLs a site has. Checked in one match,
# it skips the parsing and quoting that would give it back unchanged. Performance: runs of
# plain characters taken whole and possessively (no group per character, no backtracking:
# each part's characters cannot start the next), 1.2 µs a URL instead of 2.6 µs, twice a
# page (its loc, its canonical link).
_ENCODED = re.compile(
    r"https?://[a-z0-9.-]++(?::[0-9]++)?/(?:[A-Za-z0-9/:@!$&'()*+,;=._~-]++|%[0-9A-Fa-f]{2})*+"
    r"(?:\?(?:[A-Za-z0-9/:@!$&'()*+,;=._~?-]++|%[0-9A-Fa-f]{2})*+)?"
)


class URLError(ValueError):
    """A URL the protocol does not allow; the message says which rule it breaks. ``reason``:
    ``"length"`` (too long), ``"scope"`` (outside the sitemap's folder) or ``"invalid"``."""

    def __init__(self, message: str, reason: str = "invalid") -> None:
        super().__init__(message)
        self.reason = reason


def shown(url: str, room: int = 80) -> str:
    """``url`` for a message: a hostile 20 MB value must not become a 20 MB message, nor a
    control character a terminal escape (each is written escaped, ``\\x1b``)."""
    if len(url) <= room:
        return escaped(url)
    return f"{escaped(url[:room])}... ({len(url):,} characters)"


def escaped(text: str) -> str:
    """``text`` with each control (non-printable) character written as Python escapes it."""
    return text if text.isprintable() else "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def link_href(url: str) -> str | None:
    """``url`` if a page for people may make it a link, else None: only an absolute http(s)
    URL or a ``./``-relative path; any other scheme (``javascript:``, ``vbscript:``, ``data:``)
    or anything a browser would rewrite into one is shown as text, never linked."""
    return url if _safe_href().fullmatch(url) else None


def too_long(url: str) -> URLError:
    return URLError(f"URL is {len(url):,} characters long; a URL must be under {MAX_LOC_LENGTH} "
                    f"(sitemaps.org): {shown(url)}", "length")


def _quote(part: str, safe: str) -> str:
    return quote(_lone_percent().sub("%25", part), safe=safe + "%")


def _host(netloc: str) -> str:
    userinfo, _, hostport = netloc.rpartition("@")
    host, colon, port = hostport.partition(":")
    if hostport.startswith("["):  # IPv6 literal
        return netloc.lower()
    try:
        host = host.encode("idna").decode("ascii") if not host.isascii() else host
    except UnicodeError:
        raise URLError(f"host '{host}' is not a valid domain name") from None
    return (userinfo + "@" if userinfo else "") + host.lower() + colon + port


def encode_url(url: str) -> str:
    """Percent-encode an IRI as UTF-8, punycode its host, drop its fragment.

    ``http://www.example.com/ümlat.php&q=name`` becomes
    ``http://www.example.com/%C3%BCmlat.php&q=name`` (XML escaping is the writer's job).
    """
    if len(url) < MAX_LOC_LENGTH and _ENCODED.fullmatch(url) and not _has_dots(url):
        return url
    url = url.strip().partition("#")[0]
    if len(url) >= MAX_LOC_LENGTH:  # checked before quoting, which would only lengthen it
        raise too_long(url)
    try:
        parts = urlsplit(url)
    except ValueError as error:  # e.g. a malformed IPv6 literal
        raise URLError(f"'{shown(url)}' is not a URL: {error}") from None
    if parts.scheme.lower() not in _DEFAULT_PORTS:
        raise URLError(f"'{shown(url)}' is not an absolute http(s) URL")
    if not parts.netloc:
        raise URLError(f"'{shown(url)}' has no host")
    try:
        path = _quote(remove_dot_segments(parts.path or "/"), _SAFE_PATH)
        query = _quote(parts.query, _SAFE_QUERY)
    except UnicodeEncodeError:
        raise URLError(f"{shown(url)!r} holds characters that are not valid Unicode") from None
    encoded = urlunsplit((parts.scheme.lower(), _host(parts.netloc), path, query, ""))
    if len(encoded) >= MAX_LOC_LENGTH:
        raise too_long(encoded)
    return encoded


def remove_dot_segments(path: str) -> str:
    """``path`` with ``.`` and ``..`` segments resolved as RFC 3986 (5.2.4) says, their
    percent-encoded spellings (``%2e%2e``) included: ``/docs/%2e%2e/etc`` is ``/etc``."""
    if not _has_dots(path):
        return path
    out: list[str] = []
    segments = path.split("/")
    for number, segment in enumerate(segments):
        last = number == len(segments) - 1
        dots = _dot_segment().fullmatch(segment)
        if dots is None:
            out.append(segment)
        elif dots.group(1):  # ".."
            if len(out) > 1:
                out.pop()
            if last:
                out.append("")
        elif last:  # "." at the end: the folder itself
            out.append("")
    joined = "/".join(out)
    return joined if joined.startswith("/") else "/" + joined


def absolute(base_url: str, path: str) -> str:
    """The absolute URL of a site-relative ``path`` (or of an absolute URL, unchanged)."""
    if "://" in path[:12]:
        return path
    if path.startswith("//"):
        return urlsplit(base_url).scheme + ":" + path
    return base_url.rstrip("/") + "/" + path.lstrip("/")


def resolve(page_url: str, reference: str) -> str:
    """A link found on (or given for) a page, made absolute as a browser would."""
    reference = reference.strip()
    if reference.startswith(("https://", "http://")):
        return reference
    # Performance: a path from the site's root with no dot segment, parameters, query, fragment
    # nor anything urljoin drops (most images' and links': ``/images/a.png``) follows the page's
    # scheme and host as it is (measured: 7 k instructions, 50 k for urljoin). ``"/."`` covers
    # ``/./`` and ``/../``.
    if (reference[:1] == "/" and reference[1:2] != "/" and "/." not in reference and ";" not in reference
            and "?" not in reference and "#" not in reference and reference.isprintable()):
        start = page_url.find("://") + 3
        end = page_url.find("/", start)  # where the page's host ends, unless a query or fragment comes first
        if start > 2 and end >= 0 and page_url.find("?", start, end) < 0 and page_url.find("#", start, end) < 0:
            return page_url[:end] + reference
    return urljoin(page_url, reference)


def normalise_base_url(base_url: str) -> str:
    """The base URL, encoded, always ending in ``/`` (a site root is a folder). Raises
    ``URLError`` naming the problem when it cannot be the root of a sitemap's URLs."""
    problem = base_url_problem(base_url)
    if problem:
        raise URLError(f"'{shown(masked(base_url))}' {problem}")
    parts = urlsplit(base_url.strip())
    port = parts.port
    bracketed = parts.netloc.startswith("[")  # an IPv6 literal
    host = f"[{parts.hostname}]" if bracketed else _host(parts.hostname or "")
    if port is not None and port != _DEFAULT_PORTS[parts.scheme.lower()]:
        host += f":{port}"
    encoded = encode_url(urlunsplit((parts.scheme.lower(), host, parts.path or "/", "", "")))
    return encoded if encoded.endswith("/") else encoded + "/"


_host_name = lazy_pattern(r"(?!-)[a-z0-9-]{1,63}(?<!-)(?:\.(?!-)[a-z0-9-]{1,63}(?<!-))*\.?")


def url_text_problem(text: str) -> str | None:
    """What no URL a user gives (``base_url``, ``extra_sitemaps``, ``extra_urls``) may hold,
    or None: a space or control character (a line break would start a line of robots.txt of
    its own) or credentials (``user:password@``, published wherever the URL is)."""
    if any(c.isspace() or ord(c) < 32 or c == "\x7f" for c in text):
        return "holds a space or control character; a site URL has none (percent-encode it as %20)"
    try:
        parts = urlsplit(text)
    except ValueError as error:
        return f"is not a URL ({error})"
    if "@" in parts.netloc:
        return "holds credentials (user:password@); they would be published wherever the URL is written"
    return None


def base_url_problem(base_url: str) -> str | None:
    """What makes ``base_url`` unusable as a site's root URL, or None: it must be an absolute
    http(s) URL with a host and nothing a ``<loc>`` must not carry (credentials, a query, a
    fragment), and a port from 1 to 65535."""
    text = base_url.strip()
    problem = url_text_problem(text)
    if problem is not None:
        return problem
    parts = urlsplit(text)
    if parts.scheme.lower() not in _DEFAULT_PORTS or not text[len(parts.scheme):].startswith("://"):
        return "must be an absolute http(s) URL such as 'https://example.com/docs/'"
    if parts.query or text.partition("#")[0].endswith("?"):
        return "holds a query ('?...'); a site's root URL has none"
    if parts.fragment or "#" in text:
        return "holds a fragment ('#...'); a site's root URL has none"
    try:
        port = parts.port
    except ValueError:
        return f"has the port '{parts.netloc.rpartition(':')[2]}'; a port is a number from 1 to 65535"
    if port == 0:
        return "has the port 0; a port is a number from 1 to 65535"
    host = parts.hostname or ""
    if not host:
        return "has no host"
    if parts.netloc.startswith("["):
        return None
    try:
        ascii_host = host.encode("idna").decode("ascii") if not host.isascii() else host.lower()
    except UnicodeError:
        return f"has the host '{host}', which is not a valid domain name"
    if not _host_name().fullmatch(ascii_host):
        return f"has the host '{host}', which is not a valid domain name"
    return None


_password = lazy_pattern(r"(//[^/@:]*:)[^/@]*@")


def masked(url: str) -> str:
    """``url`` with any password in it hidden, for messages."""
    return _password().sub(r"\1***@", url)


def _origin(parts) -> tuple[str, str, int | None]:
    scheme = parts.scheme.lower()
    port = parts.port or _DEFAULT_PORTS.get(scheme)
    return scheme, (parts.hostname or "").lower(), port


def same_origin(url: str, other: str) -> bool:
    """Whether two absolute URLs share scheme, host and port."""
    return _origin(urlsplit(url)) == _origin(urlsplit(other))


def in_scope(url: str, base_url: str) -> bool:
    """Whether ``url`` may be listed by a sitemap that sits at ``base_url``.

    Same scheme, host and port, and a path at or below the sitemap's folder (sitemaps.org,
    "Sitemap file location").
    """
    if url.startswith(base_url) and base_url.endswith("/") and base_url.count("/") >= 3:
        return True
    target, scope = urlsplit(url), urlsplit(base_url)
    if _origin(target) != _origin(scope):
        return False
    folder = scope.path if scope.path.endswith("/") else scope.path.rsplit("/", 1)[0] + "/"
    return (target.path or "/").startswith(folder)


def site_path(url: str, base_url: str) -> str:
    """The path of ``url`` below the site root, without a leading slash (for glob rules)."""
    if url.startswith(base_url) and base_url.endswith("/") and "?" not in url:
        return url[len(base_url):]
    path = urlsplit(url).path
    root = urlsplit(base_url).path
    if path.startswith(root):
        path = path[len(root):]
    return path.lstrip("/")


def check_loc(url: str, base_url: str) -> str:
    """``url`` encoded, its dot segments resolved, and checked as a ``<loc>`` of the sitemap
    at ``base_url``."""
    loc = encode_url(url)
    if not in_scope(loc, base_url):
        raise URLError(f"'{loc}' is outside the sitemap's scope {base_url}", "scope")
    return loc


def site_loc(base_url: str, url: str) -> str:
    """``check_loc(absolute(base_url, url), base_url)``, for a normalised ``base_url``."""
    return site_loc_path(base_url, url)[0]


def site_loc_path(base_url: str, url: str) -> tuple[str, str]:
    """``site_loc`` with that loc's ``site_path``. Most pages' URLs are plain site paths
    already encoded, taken in one check that gives both."""
    if "://" not in url[:12] and not url.startswith((".", "//")):
        path = url.lstrip("/")
        loc = base_url + path
        if len(loc) < MAX_LOC_LENGTH and _ENCODED.fullmatch(loc) and not _has_dots(loc):
            return loc, path if "?" not in path else site_path(loc, base_url)
    loc = check_loc(absolute(base_url, url), base_url)
    return loc, site_path(loc, base_url)


# Moved to pages.py; kept under this name for the Pelican adapter, which folds URLs it has.
path_for_file = fold_index
