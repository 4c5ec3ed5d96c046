"""The content models of the sitemap elements (sitemaps.org 0.9 and Google's image, video
and news extensions): which children each element holds, in which order and how many, and
the plan (``plan_children``) that places a sequence of child tags against its model. Pure
data and pure functions; the value checks are in ``validate.rules``, the streaming in
``validate.xml`` and the table of which check runs on which element in ``validate.xml_checks``."""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

from sitemapkit.protocol import (
    IMAGE_NS,
    NEWS_NS,
    SITEMAP_NS,
    VIDEO_MAX_TAGS,
    VIDEO_NS,
    WARNING,
    XHTML_NS,
)

PREFIXES = {SITEMAP_NS: "", IMAGE_NS: "image:", VIDEO_NS: "video:", NEWS_NS: "news:", XHTML_NS: "xhtml:"}


def qname(tag: object) -> str:
    """``{ns}name`` as a person writes it: ``image:loc``, ``loc``, ``{urn:x}foo``."""
    if not isinstance(tag, str):
        return "comment"
    if tag[:1] != "{":
        return tag
    ns, _, local = tag[1:].partition("}")
    prefix = PREFIXES.get(ns)
    return prefix + local if prefix is not None else tag


# -- content models ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Item:
    """One child in a sequence: tag, how many, and the rule ids for a missing child, one too
    many, or a child that is allowed but deprecated. Which check runs on it is in
    ``validate.xml_checks.CHECKS``, by tag."""

    tag: str
    min: int = 0
    max: int = 1
    missing: str = "required-element"
    many: str = "duplicate-element"
    deprecated: str | None = None


@dataclass(frozen=True)
class Model:
    name: str
    items: tuple[Item, ...]
    extensions: frozenset[str] = frozenset()
    """Tags from other namespaces allowed after the sequence (the XSD's ``##other``)."""
    index: dict[str, int] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        self.index.update({item.tag: n for n, item in enumerate(self.items)})


def _ns(ns: str, *names: str) -> tuple[str, ...]:
    return tuple(f"{{{ns}}}{name}" for name in names)


S_LOC, S_LASTMOD, S_CHANGEFREQ, S_PRIORITY = _ns(SITEMAP_NS, "loc", "lastmod", "changefreq", "priority")
IMAGE, VIDEO, NEWS, LINK = f"{{{IMAGE_NS}}}image", f"{{{VIDEO_NS}}}video", f"{{{NEWS_NS}}}news", f"{{{XHTML_NS}}}link"
URL_TAG, SITEMAP_TAG = _ns(SITEMAP_NS, "url", "sitemap")
URLSET, SITEMAPINDEX = _ns(SITEMAP_NS, "urlset", "sitemapindex")

URL_MODEL = Model(
    "url",
    (
        Item(S_LOC, 1, 1, missing="loc-missing"),
        Item(S_LASTMOD),
        Item(S_CHANGEFREQ),
        Item(S_PRIORITY),
    ),
    extensions=frozenset({IMAGE, VIDEO, NEWS, LINK}),
)
SITEMAP_MODEL = Model(
    "sitemap",
    (Item(S_LOC, 1, 1, missing="loc-missing"), Item(S_LASTMOD)),
)

_I = IMAGE_NS
IMAGE_MODEL = Model(
    "image:image",
    (
        Item(f"{{{_I}}}loc", 1, 1, missing="image-loc-missing"),
        Item(f"{{{_I}}}caption", deprecated="image-deprecated"),
        Item(f"{{{_I}}}geo_location", deprecated="image-deprecated"),
        Item(f"{{{_I}}}title", deprecated="image-deprecated"),
        Item(f"{{{_I}}}license", deprecated="image-deprecated"),
    ),
)

_V = VIDEO_NS
_UNBOUNDED = 1 << 30
VIDEO_MODEL = Model(
    "video:video",
    (
        Item(f"{{{_V}}}thumbnail_loc", 1, 1, missing="video-required"),
        Item(f"{{{_V}}}title", 1, 1, missing="video-required"),
        Item(f"{{{_V}}}description", 1, 1, missing="video-required"),
        Item(f"{{{_V}}}content_loc"),
        Item(f"{{{_V}}}player_loc"),
        Item(f"{{{_V}}}duration"),
        Item(f"{{{_V}}}expiration_date"),
        Item(f"{{{_V}}}rating"),
        Item(f"{{{_V}}}content_segment_loc", 0, _UNBOUNDED, deprecated="video-deprecated"),
        Item(f"{{{_V}}}view_count"),
        Item(f"{{{_V}}}publication_date"),
        Item(f"{{{_V}}}tag", 0, VIDEO_MAX_TAGS, many="video-tag-count"),
        Item(f"{{{_V}}}category", deprecated="video-deprecated"),
        Item(f"{{{_V}}}family_friendly"),
        Item(f"{{{_V}}}restriction"),
        Item(f"{{{_V}}}gallery_loc", deprecated="video-deprecated"),
        Item(f"{{{_V}}}price", 0, _UNBOUNDED, deprecated="video-deprecated"),
        Item(f"{{{_V}}}requires_subscription"),
        Item(f"{{{_V}}}uploader"),
        Item(f"{{{_V}}}tvshow", deprecated="video-deprecated"),
        Item(f"{{{_V}}}platform"),
        Item(f"{{{_V}}}live"),
        Item(f"{{{_V}}}id", 0, _UNBOUNDED, deprecated="video-deprecated"),
    ),
)
TVSHOW_MODEL = Model(
    "video:tvshow",
    (
        Item(f"{{{_V}}}show_title", 1, 1),
        Item(f"{{{_V}}}video_type", 1, 1),
        Item(f"{{{_V}}}episode_title"),
        Item(f"{{{_V}}}season_number"),
        Item(f"{{{_V}}}episode_number"),
        Item(f"{{{_V}}}premier_date"),
    ),
)

_N = NEWS_NS
NEWS_MODEL = Model(
    "news:news",
    (
        Item(f"{{{_N}}}publication", 1, 1, missing="news-required"),
        Item(f"{{{_N}}}access", deprecated="news-deprecated"),
        Item(f"{{{_N}}}genres", deprecated="news-deprecated"),
        Item(f"{{{_N}}}publication_date", 1, 1, missing="news-required"),
        Item(f"{{{_N}}}title", 1, 1, missing="news-required"),
        Item(f"{{{_N}}}keywords", deprecated="news-deprecated"),
        Item(f"{{{_N}}}stock_tickers", deprecated="news-deprecated"),
    ),
)
PUBLICATION_MODEL = Model(
    "news:publication",
    (
        Item(f"{{{_N}}}name", 1, 1, missing="news-required"),
        Item(f"{{{_N}}}language", 1, 1, missing="news-required"),
    ),
)

LINK_ATTRIBUTES = frozenset({"rel", "hreflang", "href"})
# XHTML 1.0 Strict gives <link> these too; the XSD accepts them, search engines ignore them.
XHTML_LINK_EXTRAS = frozenset((
    "id", "class", "style", "title", "lang", "dir", "charset", "type", "rev", "media",
    "onclick", "ondblclick", "onmousedown", "onmouseup", "onmouseover", "onmousemove",
    "onmouseout", "onkeypress", "onkeydown", "onkeyup", "{http://www.w3.org/XML/1998/namespace}lang",
))


@dataclass
class Plan:
    """What a given sequence of child tags means for a model, computed once per distinct
    sequence: problems at child positions, and the children to check (position, tag)."""

    problems: list[tuple[int, str, str, str | None]]
    checks: list[tuple[int, str]]
    counts: dict[str, int]


def plan_children(model: Model, tags: tuple[object, ...]) -> Plan:
    problems: list[tuple[int, str, str, str | None]] = []
    checks: list[tuple[int, str]] = []
    counts: dict[str, int] = {}
    misplaced = _misplaced(model, tags)
    last: dict[int, int] = {}
    for n, tag in enumerate(tags):
        if not isinstance(tag, str):  # comments and processing instructions
            continue
        counts[tag] = counts.get(tag, 0) + 1
        where = model.index.get(tag)
        if where is None:
            if tag in model.extensions:
                checks.append((n, tag))
                continue
            problems.append((n, "unknown-element", _unknown(model, tag), None))
            continue
        item = model.items[where]
        if n in misplaced:
            last[where] = last.get(where, 0) + 1
            problems.append((n, "element-order", misplaced[n], None))
            continue
        seen = last.get(where, 0) + 1
        last[where] = seen
        if seen > item.max:
            many = (
                f"more than {item.max} <{qname(tag)}> in one <{model.name}>"
                if item.max > 1
                else f"<{qname(tag)}> is given twice in one <{model.name}>; only one is allowed"
            )
            problems.append((n, item.many, many, None))
            continue
        if item.deprecated:
            problems.append(
                (n, item.deprecated, f"<{qname(tag)}> is no longer supported by Google (2022); "
                 "it has no effect and can be removed", WARNING)
            )
        checks.append((n, tag))
    for where, item in enumerate(model.items):
        if item.min and not last.get(where):
            problems.append((-1, item.missing, f"<{model.name}> has no <{qname(item.tag)}>, "
                             "which is required", None))
    return Plan(problems, checks, counts)


def _misplaced(model: Model, tags: tuple[object, ...]) -> dict[int, str]:
    """The children out of the XSD order, each with its message: the fewest that, taken out,
    leave the rest in order (a longest non-decreasing run of sequence positions), so one
    element in the wrong place is reported once, not together with every one after it.
    A sequence child after an extension element (image, video, link...) is always misplaced."""
    ranked: list[tuple[int, int]] = []  # (child number, position in the sequence)
    first_extension: int | None = None
    late: list[int] = []
    for n, tag in enumerate(tags):
        if not isinstance(tag, str):
            continue
        where = model.index.get(tag)
        if where is None:
            if tag in model.extensions and first_extension is None:
                first_extension = n
        elif first_extension is None:
            ranked.append((n, where))
        else:
            late.append(n)
    # longest non-decreasing subsequence of the positions (patience sorting)
    tails: list[int] = []
    tail_at: list[int] = []
    back: list[int] = []
    for k, (_, where) in enumerate(ranked):
        slot = bisect.bisect_right(tails, where)
        back.append(tail_at[slot - 1] if slot else -1)
        if slot == len(tails):
            tails.append(where)
            tail_at.append(k)
        else:
            tails[slot] = where
            tail_at[slot] = k
    kept: set[int] = set()
    k = tail_at[-1] if tail_at else -1
    while k >= 0:
        kept.add(k)
        k = back[k]
    order = _order(model)
    found: dict[int, str] = {}
    for k, (n, where) in enumerate(ranked):
        if k in kept:
            continue
        name = qname(model.items[where].tag)
        before = [ranked[j][1] for j in kept if j < k and ranked[j][1] > where]
        if before:
            other = f"<{qname(model.items[min(before)].tag)}>"
            found[n] = f"<{name}> must come before {other} in <{model.name}> (the XSD order is {order})"
        else:
            after = [ranked[j][1] for j in kept if j > k and ranked[j][1] < where]
            other = f"<{qname(model.items[max(after)].tag)}>" if after else "the others"
            found[n] = f"<{name}> must come after {other} in <{model.name}> (the XSD order is {order})"
    for n in late:
        name = qname(str(tags[n]))
        found[n] = (f"<{name}> must come before the extension elements in <{model.name}> "
                    f"(the XSD order is {order})")
    return found


def _order(model: Model) -> str:
    names = [qname(item.tag) for item in model.items]
    if len(names) > 6:
        names = [*names[:5], "..."]
    return ", ".join(names) + (", then extensions" if model.extensions else "")


def _unknown(model: Model, tag: str) -> str:
    name = qname(tag)
    if name.startswith("{"):
        return (f"<{name}> is not part of the sitemap protocol or Google's extensions; "
                f"search engines reject unknown namespaces in <{model.name}>")
    return f"<{name}> is not allowed in <{model.name}>"
