"""The listing's duplicate check keeps URL hashes in one open-addressing table: it answers as a
set of the URLs would, through every growth of the table."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sitemapkit.listing.url_hashes import UrlHashes


@given(st.lists(st.text(max_size=12), max_size=5000))
def test_it_answers_as_a_set_would(urls):
    hashes, seen = UrlHashes(), set()
    for url in urls:
        assert hashes.add(url) == (url not in seen)
        seen.add(url)
        assert hashes.holds(hash(url))


def test_ten_thousand_urls_grow_the_table_and_stay_found():
    hashes = UrlHashes()
    urls = [f"https://example.org/{n}/" for n in range(10_000)]
    assert all(hashes.add(url) for url in urls)
    assert not any(hashes.add(url) for url in urls)
    assert all(hashes.holds(hash(url)) for url in urls)
    assert not hashes.holds(hash("https://example.org/other/"))
