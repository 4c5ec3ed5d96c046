"""Property tests: arbitrary Unicode in every text field and in URL paths gives files that
the official XSDs accept (lxml) and that ultimate-sitemap-parser reads back to the same URLs.

Text fields stay within the XSD lengths (title <= 100, description <= 2,048): trimming is
build_entries' job, before the writer.
"""

from __future__ import annotations

import gzip
import tempfile
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitemap_checks import as_usp_reads, assert_valid_tree, read_bytes, usp_urls
from sitemapkit.model import Alternate, Entry, Image, NewsArticle, Video
from sitemapkit.output.write import write_sitemaps
from sitemapkit.settings import Settings
from sitemapkit.urls import encode_url

pytestmark = pytest.mark.slow  # many hypothesis examples through whole builds (make test-fast leaves them out)

BASE = "https://example.com/"

# Any character at all, plus the ones XML forbids or must escape, which plain text()
# draws rarely (surrogates never).
awkward = st.sampled_from("\x00\x01\x08\x0b\x0c\x1f\ud800\udfff\ufffe\uffff&<>'\"\r\n\t]]>")
any_text = st.text(st.one_of(st.characters(), awkward))
moments = st.one_of(
    st.dates(min_value=date(1990, 1, 1), max_value=date(2100, 1, 1)),
    st.datetimes(
        min_value=datetime(1990, 1, 1), max_value=datetime(2100, 1, 1),
        timezones=st.sampled_from([timezone.utc, timezone(timedelta(hours=-5, minutes=-30))]),
    ),
)
hreflangs = st.lists(st.sampled_from(["en", "de-CH", "zh-Hant", "x-default"]), max_size=2, unique=True)


def text(max_size: int) -> st.SearchStrategy[str]:
    return st.text(st.one_of(st.characters(), awkward), max_size=max_size)


@st.composite
def urls(draw) -> str:
    return encode_url(BASE + draw(st.text(max_size=60)))


@st.composite
def videos(draw) -> Video:
    return Video(
        thumbnail_loc=draw(urls()),
        title=draw(text(100)),
        description=draw(text(2048)),
        content_loc=draw(urls()),
        player_loc=draw(st.none() | urls()),
        tags=tuple(draw(st.lists(text(40), max_size=32))),
        uploader=draw(st.none() | text(255)),
        uploader_info=draw(st.none() | urls()),
        publication_date=draw(st.none() | moments),
        rating=draw(st.none() | st.floats(0, 5)),
        family_friendly=draw(st.none() | st.booleans()),
    )


@st.composite
def sites(draw) -> list[Entry]:
    locs = draw(st.lists(urls(), min_size=1, max_size=8, unique=True))
    entries = []
    for loc in locs:
        news = draw(
            st.none()
            | st.builds(
                NewsArticle,
                publication_name=any_text,
                language=st.sampled_from(["en", "de", "zh-cn", "fil"]),
                publication_date=moments,
                title=any_text,
            )
        )
        entries.append(
            Entry(
                loc,
                lastmod=draw(st.none() | moments),
                images=tuple(Image(u) for u in draw(st.lists(urls(), max_size=3))),
                videos=tuple(draw(st.lists(videos(), max_size=2))),
                news=news,
                alternates=tuple(Alternate(code, loc) for code in draw(hreflangs)),
            )
        )
    return entries


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(entries=sites(), max_urls=st.integers(1, 10), gzip_twins=st.booleans())
def test_any_text_gives_valid_files_that_read_back(entries, max_urls, gzip_twins):
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        options = Settings(base_url=BASE, max_urls=max_urls, gzip=gzip_twins, txt=True)
        write_sitemaps(iter(entries), out, options)
        assert_valid_tree(out, BASE)  # siteindex.xsd for an index, sitemap-all.xsd for the rest
        assert usp_urls(out, BASE) == [as_usp_reads(e.loc) for e in entries]
        lines = b"".join(read_bytes(p) for p in sorted(out.glob("sitemap*.txt")))
        assert sorted(lines.decode().splitlines()) == sorted(e.loc for e in entries)
        if gzip_twins:
            for twin in out.glob("*.gz"):
                assert gzip.decompress(twin.read_bytes()) == (out / twin.stem).read_bytes()
