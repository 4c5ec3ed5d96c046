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

from collections.abc import Mapping

from sitemapkit.patterns import lazy_pattern

ICON_PIXELS = 48
"""An image declared this wide or high, or less, is a pixel, an icon or an avatar: no content."""


BADGE_HOSTS = frozenset((
    "shields.io", "badge.fury.io", "badgen.net", "forthebadge.com", "badges.gitter.im", "travis-ci.org",
    "travis-ci.com", "circleci.com", "codecov.io", "coveralls.io", "app.codacy.com", "ci.appveyor.com",
    "api.netlify.com", "snyk.io", "deepsource.io", "bestpractices.coreinfrastructure.org", "pepy.tech",
    "img.badgesize.io", "results.pre-commit.ci",
    # visit counters
    "hits.seeyoufarm.com", "visitor-badge.laobi.icu", "komarev.com", "hitwebcounter.com", "count.getloli.com",
    "c.statcounter.com",
    # analytics and advertising pixels
    "google-analytics.com", "googletagmanager.com", "doubleclick.net", "px.ads.linkedin.com", "bat.bing.com",
    "sb.scorecardresearch.com", "pixel.wp.com", "stats.wp.com", "pixel.quantserve.com", "simpleanalyticscdn.com",
    "plausible.io", "counter.goatcounter.com",
))
"""Hosts that serve badges, counters and tracking pixels: an image from one of them, or from a
subdomain of one, is none of a page's own."""


_MOST_NAMES = max(host.count(".") for host in BADGE_HOSTS) + 1
"""The most names a host of ``BADGE_HOSTS`` has: a longer host is looked up by its last ones only."""


def _badge_host(host: str) -> bool:
    """``host`` (lower case) is one of ``BADGE_HOSTS`` or below one, or a name of it before its
    last names a badge (``coverage-badge.….workers.dev``, ``badges.example.org``). Linear in
    the host's length, however many names a page's ``src`` gives it."""
    labels = host.split(".")
    if any(".".join(labels[-count:]) in BADGE_HOSTS for count in range(2, min(len(labels), _MOST_NAMES) + 1)):
        return True
    return any(word in ("badge", "badges") for label in labels[:-1] for word in label.split("-"))


# Each run over lower-cased text, compiled when first run (``patterns.lazy_pattern``): a build
# that meets no image compiles none, and one whose images carry no class, size or style only
# the first four. With ``re.IGNORECASE`` they would cost up to ten times as much to compile
# (a class such as ``[^a-z]`` is folded over all of Unicode: 3 M instructions).
_badge_path = lazy_pattern(r"(?:^|/)(?:badges?(?:/|\.svg|\.png|$)|[^/]*[-_.]badge\.(?:svg|png))")
_tracker_path = lazy_pattern(r"(?:^|/)(?:matomo|piwik)\.php$|^(?:https?:)?//(?:www\.)?facebook\.com/tr/?$")
_emoji = lazy_pattern(r"(?:^|[\s/_-])(?:twemoji|emojione|joypixels|gemoji|emoji)(?:$|[\s/@._-])")
_host = lazy_pattern(r"^(?:https?:)?//([^/:?#]+)")
_chrome_name = lazy_pattern(r"(?<![a-z])(?:logo|avatar)(?![a-z])")
_size = lazy_pattern(r"\s*(\d+)(?:\.\d*)?\s*(?:px)?\s*$")
_hidden = lazy_pattern(r"display\s*:\s*none|visibility\s*:\s*hidden")


_NO_ATTRIBUTES: Mapping[str, str] = {}


def decorative(src: str, attrs: Mapping[str, str] = _NO_ATTRIBUTES, *, chrome: bool = False,
               noscript: bool = False) -> bool:
    """Whether the image ``src`` (as written, or absolute) is not the page's own. ``attrs``:
    the ``<img>`` tag's attributes where there is one; ``chrome``: the HTML reader found it
    in the theme's parts or in a link to the home page; ``noscript``: inside a ``<noscript>``."""
    if chrome or (noscript and not attrs.get("alt", "").strip()):
        return True
    classes, ident = attrs.get("class", "").lower(), attrs.get("id", "").lower()
    if (classes or ident) and (_emoji().search(classes) or _chrome_name().search(classes)
                               or _chrome_name().search(ident)):  # (most images have neither)
        return True
    address = src.split("#", 1)[0].lower()
    path = address.split("?", 1)[0]
    if _emoji().search(address):
        return True
    host = _host().match(address)
    if host and _badge_host(host.group(1)):
        return True
    if _badge_path().search(path) or _tracker_path().search(path):
        return True
    return _pixel(attrs)


def _pixel(attrs: Mapping[str, str]) -> bool:
    """An image no reader sees, or sees as an icon: at most ``ICON_PIXELS`` wide or high, or
    hidden by its style."""
    for key in ("width", "height"):
        size = _size().match(attrs[key].lower()) if key in attrs else None
        if size is not None and int(size.group(1)) <= ICON_PIXELS:
            return True
    return "style" in attrs and _hidden().search(attrs["style"].lower()) is not None
