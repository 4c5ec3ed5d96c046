import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sitemapkit.urls import (
    URLError,
    absolute,
    check_loc,
    encode_url,
    in_scope,
    normalise_base_url,
    path_for_file,
    site_loc,
    site_loc_path,
    site_path,
)


def test_iri_is_percent_encoded_as_utf8_like_the_sitemaps_org_example():
    assert encode_url("http://www.example.com/ümlat.php&q=name") == (
        "http://www.example.com/%C3%BCmlat.php&q=name"
    )


def test_existing_escapes_stay_and_a_lone_percent_is_escaped():
    assert encode_url("https://ex.com/a%20b/100%") == "https://ex.com/a%20b/100%25"


def test_spaces_and_query_are_encoded_and_fragment_dropped():
    assert encode_url("https://ex.com/a b/?q=é x#top") == "https://ex.com/a%20b/?q=%C3%A9%20x"


def test_unicode_host_becomes_punycode():
    assert encode_url("https://bücher.example/") == "https://xn--bcher-kva.example/"


@pytest.mark.parametrize("url", ["ftp://ex.com/a", "/relative/path", "mailto:a@b.c", "https://"])
def test_only_absolute_http_urls(url):
    with pytest.raises(URLError):
        encode_url(url)


def test_absolute_joins_site_paths_to_the_base():
    assert absolute("https://ex.com/docs/", "guide/") == "https://ex.com/docs/guide/"
    assert absolute("https://ex.com/docs/", "/guide/") == "https://ex.com/docs/guide/"
    assert absolute("https://ex.com/docs/", "") == "https://ex.com/docs/"
    assert absolute("https://ex.com/docs/", "https://cdn.net/x.png") == "https://cdn.net/x.png"


def test_base_url_always_ends_in_a_slash():
    assert normalise_base_url("https://Ex.com/docs") == "https://ex.com/docs/"


def test_scope_is_scheme_host_port_and_folder():
    base = "https://ex.com/docs/"
    assert in_scope("https://ex.com/docs/a/", base)
    assert in_scope("https://ex.com:443/docs/a/", base)
    assert not in_scope("http://ex.com/docs/a/", base)
    assert not in_scope("https://www.ex.com/docs/a/", base)
    assert not in_scope("https://ex.com:8443/docs/a/", base)
    assert not in_scope("https://ex.com/images/a.png", base)


def test_a_loc_must_be_under_2048_characters():
    base = "https://ex.com/"
    fits = base + "a" * (2047 - len(base))
    assert check_loc(fits, base) == fits
    with pytest.raises(URLError, match="2048"):
        check_loc(fits + "a", base)


def test_out_of_scope_loc_is_refused():
    with pytest.raises(URLError, match="scope"):
        check_loc("https://other.com/a", "https://ex.com/")


def test_site_path_and_file_paths():
    assert site_path("https://ex.com/docs/blog/a.html", "https://ex.com/docs/") == "blog/a.html"
    assert path_for_file("index.html") == ""
    assert path_for_file("a/index.html") == "a/"
    assert path_for_file("a/b.html") == "a/b.html"


@pytest.mark.parametrize("url", [
    "a/b.html", "/a/", "", "ümlaut/page.html", "a b.html", "a%zz.html", "../up.html", "./here.html",
    "https://ex.com/docs/abs.html", "https://other.com/x", "//ex.com/docs/x", "a" * 2100,
    "docs/" + "b" * (2047 - len("https://ex.com/docs/docs/")), "q.html?x=1&y=2",
])
def test_site_loc_is_check_loc_of_the_absolute_url(url):
    """The quick path for plain site paths gives what the full check gives, errors included."""
    base = "https://ex.com/docs/"
    try:
        expected = check_loc(absolute(base, url), base)
    except URLError as error:
        with pytest.raises(URLError, match=re.escape(str(error))):
            site_loc(base, url)
    else:
        assert site_loc(base, url) == expected
        assert site_loc_path(base, url) == (expected, site_path(expected, base))


@given(url=st.text(alphabet="/.?#%ab2eé&=", max_size=20))
def test_the_quick_path_gives_the_loc_and_path_the_full_check_gives(url):
    base = "https://ex.com/docs/"
    try:
        expected = check_loc(absolute(base, url), base)
    except URLError:
        with pytest.raises(URLError):
            site_loc_path(base, url)
    else:
        assert site_loc_path(base, url) == (expected, site_path(expected, base))


@given(reference=st.text(alphabet="/.?#;%abé \t\\:@-_~2e", max_size=24).map(lambda text: "/" + text),
       page=st.sampled_from(["https://ex.com/a/b.html", "https://ex.com", "http://u:p@ex.com:8080/x/?q=1#f",
                             "https://[::1]:8000/a/", "https://ex.com/docs/", "https://ex.com?x/y",
                             "https://ex.com/a;p?q#f"]))
def test_a_path_from_the_root_resolves_as_urljoin_resolves_it(reference, page):
    """``resolve`` joins most site-rooted paths itself, faster than ``urljoin``: to the same URL."""
    from urllib.parse import urljoin

    from sitemapkit.urls import resolve

    assert resolve(page, reference) == urljoin(page, reference.strip())
