"""Entries as XML text: the one escape function, the namespaces, and every element in the
order the XSDs enforce (sitemap.xsd, then Google's image, video and news schemas, then
xhtml:link). Only text comes out of here; counting, splitting and files are ``write``'s job.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from sitemapkit.dates import format_moment
from sitemapkit.model import Alternate, Entry, Image, Moment, NewsArticle, Video
from sitemapkit.patterns import lazy_pattern
from sitemapkit.protocol import IMAGE_NS, NEWS_NS, SITEMAP_NS, VIDEO_NS, XHTML_NS

# Extension namespaces as bit flags, so a file can remember cheaply which ones it used.
IMAGE, VIDEO, NEWS, XHTML = 1, 2, 4, 8
NAMESPACES = (
    (IMAGE, "image", IMAGE_NS),
    (VIDEO, "video", VIDEO_NS),
    (NEWS, "news", NEWS_NS),
    (XHTML, "xhtml", XHTML_NS),
)

DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'

# Anything that makes escape() do work: most text has none and is returned as it is. ASCII
# text is checked by the first pattern; only other text needs the second, compiled by the
# first build that escapes such text (most builds escape none: it costs 3 M instructions).
_ASCII_WORK = re.compile("[&<>\"'\r\x00-\x08\x0b\x0c\x0e-\x1f]").search
_work = lazy_pattern("[&<>\"'\r\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
# Characters XML 1.0 forbids (C0 controls but tab/LF/CR, lone surrogates, U+FFFE/U+FFFF).
_forbidden = lazy_pattern("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def strip_forbidden(text: str) -> str:
    """``text`` without the characters XML 1.0 forbids, as ``escape`` writes it: for checks
    made before writing, such as whether a required field is empty."""
    return _forbidden().sub("", text)


def escape(text: str) -> str:
    """``text`` as XML character data or attribute value: the five entities of sitemaps.org,
    CR kept as ``&#13;`` (a parser would turn a raw one into LF), forbidden characters removed."""
    if (_ASCII_WORK(text) if text.isascii() else _work().search(text)) is None:
        return text
    return (
        strip_forbidden(text)
        .replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&apos;")
        .replace("\r", "&#13;")
    )


def decimal(value: float) -> str:
    """``0.5``, ``1.0``, ``0.85``: the ``xsd:decimal`` form (no exponent) of a priority or rating."""
    text = f"{value:.6f}".rstrip("0")
    return text + "0" if text.endswith(".") else text


def yes_no(value: bool) -> str:
    return "yes" if value else "no"


# ---------------------------------------------------------------- file heads and tails


def head(root: str, namespaces: int = 0, stylesheet: str | None = None) -> str:
    """The text before the first child of ``root``, declaring only ``namespaces``."""
    declared = "".join(
        f' xmlns:{prefix}="{uri}"' for flag, prefix, uri in NAMESPACES if namespaces & flag
    )
    instruction = (
        f'<?xml-stylesheet type="text/xsl" href="{escape(stylesheet)}"?>\n' if stylesheet else ""
    )
    return f'{DECLARATION}{instruction}<{root} xmlns="{SITEMAP_NS}"{declared}>\n'


def tail(root: str) -> str:
    return f"</{root}>\n"


def index_item(loc: str, lastmod: Moment | None) -> str:
    when = f"<lastmod>{format_moment(lastmod)}</lastmod>" if lastmod is not None else ""
    return f"<sitemap><loc>{escape(loc)}</loc>{when}</sitemap>\n"


# ---------------------------------------------------------------- <url> children


def extensions(entry: Entry) -> tuple[str, int]:
    """The image, video and xhtml:link children of ``entry`` (news has its own file), and the
    namespaces they use."""
    parts: list[str] = []
    used = 0
    if entry.images:
        used |= IMAGE
        parts.append(images(entry.images))
    if entry.videos:
        used |= VIDEO
        parts.extend(video(v) for v in entry.videos)
    if entry.alternates:
        used |= XHTML
        parts.append(alternates(entry.alternates))
    return "".join(parts), used


def images(items: Iterable[Image]) -> str:
    return "".join(f"<image:image><image:loc>{escape(i.loc)}</image:loc></image:image>" for i in items)


def alternates(items: Iterable[Alternate]) -> str:
    return "".join(
        f'<xhtml:link rel="alternate" hreflang="{escape(a.hreflang)}" href="{escape(a.href)}"/>'
        for a in items
    )


def video(v: Video) -> str:
    """One ``<video:video>``, its children in the order of sitemap-video.xsd."""
    out = [
        "<video:video>",
        f"<video:thumbnail_loc>{escape(v.thumbnail_loc)}</video:thumbnail_loc>",
        f"<video:title>{escape(v.title)}</video:title>",
        f"<video:description>{escape(v.description)}</video:description>",
    ]
    if v.content_loc is not None:
        out.append(f"<video:content_loc>{escape(v.content_loc)}</video:content_loc>")
    if v.player_loc is not None:
        out.append(f"<video:player_loc>{escape(v.player_loc)}</video:player_loc>")
    if v.duration is not None:
        out.append(f"<video:duration>{v.duration:d}</video:duration>")
    if v.expiration_date is not None:
        out.append(f"<video:expiration_date>{format_moment(v.expiration_date)}</video:expiration_date>")
    if v.rating is not None:
        out.append(f"<video:rating>{decimal(v.rating)}</video:rating>")
    if v.view_count is not None:
        out.append(f"<video:view_count>{v.view_count:d}</video:view_count>")
    if v.publication_date is not None:
        out.append(
            f"<video:publication_date>{format_moment(v.publication_date)}</video:publication_date>"
        )
    out.extend(f"<video:tag>{escape(tag)}</video:tag>" for tag in v.tags)
    if v.family_friendly is not None:
        out.append(f"<video:family_friendly>{yes_no(v.family_friendly)}</video:family_friendly>")
    if v.restriction is not None:
        out.append(_listed("restriction", v.restriction))
    if v.requires_subscription is not None:
        out.append(
            f"<video:requires_subscription>{yes_no(v.requires_subscription)}"
            "</video:requires_subscription>"
        )
    if v.uploader is not None:
        info = f' info="{escape(v.uploader_info)}"' if v.uploader_info is not None else ""
        out.append(f"<video:uploader{info}>{escape(v.uploader)}</video:uploader>")
    if v.platform is not None:
        out.append(_listed("platform", v.platform))
    if v.live is not None:
        out.append(f"<video:live>{yes_no(v.live)}</video:live>")
    out.append("</video:video>")
    return "".join(out)


def _listed(tag: str, value: tuple[str, tuple[str, ...]]) -> str:
    relationship, items = value
    return (
        f'<video:{tag} relationship="{escape(relationship)}">'
        f"{escape(' '.join(items))}</video:{tag}>"
    )


def news_url(loc: str, article: NewsArticle) -> str:
    """A ``<url>`` of a news sitemap: the (escaped) loc and the article, in sitemap-news.xsd order."""
    return (
        f"<url><loc>{loc}</loc><news:news><news:publication>"
        f"<news:name>{escape(article.publication_name)}</news:name>"
        f"<news:language>{escape(article.language)}</news:language></news:publication>"
        f"<news:publication_date>{format_moment(article.publication_date)}</news:publication_date>"
        f"<news:title>{escape(article.title)}</news:title></news:news></url>\n"
    )
