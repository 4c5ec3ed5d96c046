"""Hypothesis strategies for pages of arbitrary Unicode, shared by the property tests of the
core and of the validator."""

from datetime import datetime, timedelta, timezone

from hypothesis import strategies as st

from sitemapkit import Page

BASE = "https://ex.com/site/"
text = st.text(min_size=0, max_size=120)
segment = st.text(min_size=1, max_size=30).filter(lambda s: s not in (".", "..") and "/" not in s)


@st.composite
def pages(draw):
    path = "/".join(draw(st.lists(segment, min_size=1, max_size=3)))
    video = {
        "thumbnail_loc": draw(segment), "title": draw(text), "description": draw(text),
        "content_loc": draw(segment) + ".mp4", "tags": draw(st.lists(text, max_size=3)),
        "uploader": draw(text),
    }
    news = {"title": draw(text), "publication": draw(text)}
    return Page(
        url=path,
        title=draw(text),
        lang="en",
        translations={"fr": "fr/" + path},
        meta={"sitemap_video": video, "sitemap_news": news, "sitemap_images": [draw(segment)]},
        published=datetime.now(timezone.utc) - timedelta(hours=1),
    )
