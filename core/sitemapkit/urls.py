"""URLs as the Sitemaps protocol wants them: absolute, percent-encoded, inside scope."""

from __future__ import annotations

import re
from urllib.parse import quote, urljoin, urlsplit, urlunsplit

from .pages import fold_index
from .protocol import MAX_LOC_LENGTH

NEWS_LANGUAGE = re.compile(r"zh-cn|zh-tw|[a-z]{2,3}")
INDEXNOW_KEY = re.compile(r"[A-Za-z0-9-]{8,128}")
HREFLANG = re.compile(r"x-default|[A-Za-z]{2,3}(-[A-Za-z]{4})?(-([A-Za-z]{2}|[0-9]{3}))?")

_DEFAULT_PORTS = {"http": 80, "https": 443}
# RFC 3986 reserved and unreserved characters stay as they are; "%" stays when it already
# starts an escape (handled in _quote); everything else is UTF-8 percent-encoded.
_SAFE_PATH = "/:@!$&'()*+,;=-._~"
_SAFE_QUERY = _SAFE_PATH + "?"
_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")
# A URL already in the form encode_url gives: most URLs a site has. Checked in one match,
# it skips the parsing and quoting that would give it back unchanged.
_ENCODED = re.compile(
    r"https?://[a-z0-9.-]+(:[0-9]+)?(/([A-Za-z0-9/:@!$&'()*+,;=._~-]|%[0-9A-Fa-f]{2})*)"
    r"(\?([A-Za-z0-9/:@!$&'()*+,;=._~?-]|%[0-9A-Fa-f]{2})*)?"
)


class URLError(ValueError):
    """A URL the protocol does not allow; the message says which rule it breaks."""


def _quote(part: str, safe: str) -> str:
    return quote(_ESCAPE.sub("%25", part), safe=safe + "%")


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
    if _ENCODED.fullmatch(url):
        return url
    try:
        parts = urlsplit(url.strip())
    except ValueError as error:  # e.g. a malformed IPv6 literal
        raise URLError(f"'{url}' is not a URL: {error}") from None
    if parts.scheme.lower() not in _DEFAULT_PORTS:
        raise URLError(f"'{url}' is not an absolute http(s) URL")
    if not parts.netloc:
        raise URLError(f"'{url}' has no host")
    try:
        path, query = _quote(parts.path or "/", _SAFE_PATH), _quote(parts.query, _SAFE_QUERY)
    except UnicodeEncodeError:
        raise URLError(f"{url!r} holds characters that are not valid Unicode") from None
    return urlunsplit((parts.scheme.lower(), _host(parts.netloc), path, query, ""))


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
    return urljoin(page_url, reference)


def normalise_base_url(base_url: str) -> str:
    """The base URL, encoded, always ending in ``/`` (a site root is a folder)."""
    encoded = encode_url(base_url)
    return encoded if encoded.endswith("/") else encoded + "/"


def _origin(parts) -> tuple[str, str, int | None]:
    scheme = parts.scheme.lower()
    port = parts.port or _DEFAULT_PORTS.get(scheme)
    return scheme, (parts.hostname or "").lower(), port


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
    """``url`` encoded and checked as a ``<loc>`` of the sitemap at ``base_url``."""
    loc = encode_url(url)
    if len(loc) >= MAX_LOC_LENGTH:
        raise URLError(f"URL is {len(loc)} characters long; a loc must be under {MAX_LOC_LENGTH}")
    if not in_scope(loc, base_url):
        raise URLError(f"'{loc}' is outside the sitemap's scope {base_url}")
    return loc


def site_loc(base_url: str, url: str) -> str:
    """``check_loc(absolute(base_url, url), base_url)``, for a normalised ``base_url``; most
    pages' URLs are plain site paths already encoded, taken in one check."""
    if "://" not in url[:12] and not url.startswith((".", "//")):
        loc = base_url + url.lstrip("/")
        if len(loc) < MAX_LOC_LENGTH and _ENCODED.fullmatch(loc):
            return loc
    return check_loc(absolute(base_url, url), base_url)


# Moved to pages.py; kept under this name for the Pelican adapter, which folds URLs it has.
path_for_file = fold_index
