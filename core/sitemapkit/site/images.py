"""Which images are a page's own: the one filter every image passes, whatever its origin (the
page's HTML, a generator's document tree, the ``sitemap_images`` key).

Not a page's own, and never listed:

- status badges and counters (by host, such as img.shields.io, or by a path naming a badge);
- emoji (Twemoji, EmojiOne, GitHub's gemoji, as pymdownx.emoji and Material render them);
- tracking pixels and icons: an image declared at most 48 pixels wide or high (a pixel, a
  32-pixel sponsor avatar, an inline icon), one hidden by its style, one from a known
  analytics endpoint, or one in a ``<noscript>`` without alt text (the pixel of an analytics
  snippet; a lazy-loading theme's fallback image, which has its alt text, stays);
- badges from a badge service: a host named after badges (``coverage-badge.….workers.dev``);
- the site's chrome: its logo (an ``<img>`` whose class or id says ``logo``, or an image in
  a link to the host's home page, where themes put the logo of every page) and, as the HTML
  reader finds them, the images in the theme's navigation, sidebar, header and footer. A
  content image that happens to be called ``logo.png`` stays;
- authors' avatars beside a byline (an ``<img>`` whose class or id says ``avatar``, as
  Docusaurus' blog, Minimal Mistakes and many Hugo themes write them): the same picture on
  every page its author wrote.
"""

import re
from collections.abc import Mapping
from functools import cache
from typing import NamedTuple

ICON_PIXELS = 48
"""An image declared this wide or high, or less, is a pixel, an icon or an avatar: no content."""


class _Patterns(NamedTuple):
    badge_hosts: re.Pattern[str]
    badge_path: re.Pattern[str]
    tracker_path: re.Pattern[str]
    emoji: re.Pattern[str]
    logo: re.Pattern[str]
    avatar: re.Pattern[str]
    host: re.Pattern[str]
    size: re.Pattern[str]
    hidden: re.Pattern[str]


@cache
def _patterns() -> _Patterns:
    """The filter's patterns, compiled when a build first meets an image: a build with none
    (an incremental one that reads one page) does not compile them (measured: a fifth of the
    bytecodes of importing sitemapkit)."""
    return _Patterns(
        re.compile(
            r"(?:[\w.-]+\.)?(?:shields\.io|badge\.fury\.io|badgen\.net|forthebadge\.com|badges\.gitter\.im"
            r"|travis-ci\.(?:org|com)|circleci\.com|codecov\.io|coveralls\.io|app\.codacy\.com|ci\.appveyor\.com"
            r"|api\.netlify\.com|snyk\.io|deepsource\.io|bestpractices\.coreinfrastructure\.org|pepy\.tech"
            r"|img\.badgesize\.io|results\.pre-commit\.ci"
            # visit counters
            r"|hits\.seeyoufarm\.com|visitor-badge\.laobi\.icu|komarev\.com|hitwebcounter\.com|count\.getloli\.com"
            r"|c\.statcounter\.com"
            # analytics and advertising pixels
            r"|google-analytics\.com|googletagmanager\.com|doubleclick\.net|px\.ads\.linkedin\.com|bat\.bing\.com"
            r"|sb\.scorecardresearch\.com|pixel\.wp\.com|stats\.wp\.com|pixel\.quantserve\.com"
            r"|(?:queue\.)?simpleanalyticscdn\.com|plausible\.io|stats\.g\.doubleclick\.net|counter\.goatcounter\.com"
            r"|(?:[\w-]+-)?badges?(?:-[\w-]+)?\.[\w.-]+)"
        ),
        re.compile(r"(?:^|/)(?:badges?(?:/|\.svg|\.png|$)|[^/]*[-_.]badge\.(?:svg|png))", re.IGNORECASE),
        re.compile(r"(?:^|/)(?:matomo|piwik)\.php$|^(?:https?:)?//(?:www\.)?facebook\.com/tr/?$", re.IGNORECASE),
        re.compile(r"(?:^|[\s/_-])(?:twemoji|emojione|joypixels|gemoji|emoji)(?:$|[\s/@._-])", re.IGNORECASE),
        re.compile(r"(?:^|[^a-z])logo(?:$|[^a-z])", re.IGNORECASE),
        re.compile(r"(?:^|[^a-z])avatar(?:$|[^a-z])", re.IGNORECASE),
        re.compile(r"^(?:https?:)?//([^/:?#]+)", re.IGNORECASE),
        re.compile(r"\s*(\d+)(?:\.\d*)?\s*(?:px)?\s*$", re.IGNORECASE),
        re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE),
    )


_NO_ATTRIBUTES: Mapping[str, str] = {}


def decorative(src: str, attrs: Mapping[str, str] = _NO_ATTRIBUTES, *, chrome: bool = False,
               noscript: bool = False) -> bool:
    """Whether the image ``src`` (as written, or absolute) is not the page's own. ``attrs``:
    the ``<img>`` tag's attributes where there is one; ``chrome``: the HTML reader found it
    in the theme's parts or in a link to the home page; ``noscript``: inside a ``<noscript>``."""
    if chrome or (noscript and not attrs.get("alt", "").strip()):
        return True
    patterns = _patterns()
    classes, ident = attrs.get("class", ""), attrs.get("id", "")
    if (classes or ident) and (patterns.emoji.search(classes) or any(  # (most images have neither)
            word.search(classes) or word.search(ident) for word in (patterns.logo, patterns.avatar))):
        return True
    address = src.split("#", 1)[0]
    path = address.split("?", 1)[0]
    if patterns.emoji.search(address):
        return True
    host = patterns.host.match(address)
    if host and patterns.badge_hosts.fullmatch(host.group(1).lower()):
        return True
    if patterns.badge_path.search(path) or patterns.tracker_path.search(path):
        return True
    return _pixel(attrs, patterns)


def _pixel(attrs: Mapping[str, str], patterns: _Patterns) -> bool:
    """An image no reader sees, or sees as an icon: at most ``ICON_PIXELS`` wide or high, or
    hidden by its style."""
    for key in ("width", "height"):
        size = patterns.size.match(attrs[key]) if key in attrs else None
        if size is not None and int(size.group(1)) <= ICON_PIXELS:
            return True
    return "style" in attrs and patterns.hidden.search(attrs["style"]) is not None
