"""What sitemapkit takes from sphinx-multiversion's metadata (``smv_metadata``, a JSON file
in a temporary folder): the version's folder below the output root and the ref whose history
dates the pages; an entry that does not hold together gives nothing, never a path outside."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sitemapkit.compat.sphinx_multiversion import sphinx_multiversion
from sitemapkit.compat.sphinx_sitemap import SphinxConfig
from sitemapkit.lastmod.git import Checkout


def entry(name: str, source: str = "tags", **changes: str) -> dict[str, str]:
    base = {"name": name, "source": source, "basedir": "/tmp/smv/0123abcd", "confdir": "/tmp/smv/0123abcd/docs",
            "outputdir": f"/work/out/{name}"}
    return {**base, **changes}


METADATA = {"v1.0": entry("v1.0"), "main": entry("main", "heads")}


def test_the_ref_being_built():
    found = sphinx_multiversion("v1.0", METADATA, "/home/me/repo/docs")
    assert found is not None and found.folder == "v1.0"
    assert found.checkout == Checkout(Path("/tmp/smv/0123abcd"), Path("/home/me/repo"), "refs/tags/v1.0")
    assert sphinx_multiversion("main", METADATA, "/home/me/repo/docs").checkout.revision == "refs/heads/main"


def test_one_ref_alone_is_in_a_folder_named_after_it():
    found = sphinx_multiversion("release/2", {"release/2": entry("release/2", "heads")}, "/r/docs")
    assert found is not None and found.folder == "release/2"


@pytest.mark.parametrize("bad", [
    entry("v1.0", "notes"),  # no such ref kind
    entry("--upload-pack=x"),  # read by git as an option
    {**entry("v1.0"), "name": "v1.0 x"},
    {**entry("v1.0"), "name": "../v1.0"},
    entry("v1.0", confdir="/elsewhere/docs"),  # conf folder outside the copy
    entry("v1.0", outputdir="/work/out"),  # no folder of its own below the root
    entry("v1.0", outputdir="/work/other/.."),
    {"name": "v1.0"},
    "v1.0",
])
def test_an_entry_that_does_not_hold_together_gives_nothing(bad):
    assert sphinx_multiversion("v1.0", {"v1.0": bad, "main": entry("main", "heads")}, "/home/me/repo/docs") is None


def test_not_under_sphinx_multiversion():
    assert sphinx_multiversion("", {}, "/r/docs") is None
    assert sphinx_multiversion(None, None, "/r/docs") is None
    assert sphinx_multiversion("v9", METADATA, "/r/docs") is None


def test_the_conf_folder_must_match_the_copys():
    assert sphinx_multiversion("v1.0", METADATA, "/home/me/repo/doc") is None


def test_urls_under_the_versions_folder_whatever_html_baseurl_says():
    found = sphinx_multiversion("v1.0", METADATA, "/home/me/repo/docs")
    shared = SphinxConfig(html_baseurl="https://example.org/proj/", multiversion=found)
    assert shared.settings().base_url == "https://example.org/proj/v1.0/"
    assert shared.canonical_clash() is None and shared.unversioned_canonical().rule == "canonical-unversioned"
    own = SphinxConfig(html_baseurl="https://example.org/proj/v1.0/", multiversion=found)  # -D per ref
    assert own.settings().base_url == "https://example.org/proj/v1.0/"
    assert own.deployment().root == "https://example.org/proj/" and own.unversioned_canonical() is None
    assert shared.settings().robots_txt is False


@given(name=st.text(max_size=40), source=st.text(max_size=20), out=st.text(max_size=40))
def test_whatever_the_metadata_says_the_ref_and_folder_stay_plain(name, source, out):
    found = sphinx_multiversion(name, {name: entry(name, source, outputdir=f"/work/out/{out}"),
                                       "main": entry("main", "heads")}, "/home/me/repo/docs")
    if found is not None:
        assert found.checkout.revision.startswith("refs/") and ".." not in found.checkout.revision
        assert not any(ch.isspace() for ch in found.checkout.revision)
        assert all(part not in ("", ".", "..") for part in found.folder.split("/"))
        assert not Path(found.folder).is_absolute()
