"""A page that leaves out ``</head>`` and ``<body>``, as HTML lets it (CodeMirror's demo
pages, which web-map-doc copies from ``static/``; html-minifier's ``removeOptionalTags``), is a
page: its head ends at the first tag no head holds, so its robots meta and canonical link are
read, and ``build`` and ``validate --site-dir`` agree on it. A fragment (a theme partial that
starts with ``<div>``) stays no page."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from sitemap_checks import locs
from sitemapkit.cli import main
from sitemapkit.site.extract import read_page_html

BASE = "https://x.org/"
CODEMIRROR_LIKE = """<!doctype html>

<title>CodeMirror: Active Line Demo</title>
<meta charset="utf-8"/>
<link rel=stylesheet href="../doc/docs.css">
<script>var template = "<div class='x'>";</script>
{head}
<div id=nav><a href="https://codemirror.net">home</a></div>
<article><h2>Active Line Demo</h2><form><textarea id="code"></textarea></form></article>
"""


def site(tmp_path: Path) -> Path:
    root = tmp_path / "site"
    files = {
        "index.html": CODEMIRROR_LIKE.format(head=""),
        "noindex.html": CODEMIRROR_LIKE.format(head='<meta name="robots" content="noindex">'),
        "moved.html": CODEMIRROR_LIKE.format(head=f'<link rel="canonical" href="{BASE}elsewhere.html">'),
        "elsewhere.html": CODEMIRROR_LIKE.format(head=""),
        "partial.html": '<div class="card"><h2>A theme partial</h2></div>\n',
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_pages_without_head_and_body_tags_are_pages(tmp_path, capsys):
    root = site(tmp_path)
    assert main(["build", str(root), "--base-url", BASE]) == 0
    assert sorted(locs(root / "sitemap.xml")) == [BASE, f"{BASE}elsewhere.html"]
    out = capsys.readouterr().out
    assert "left out: 1 canonical elsewhere, 1 fragment, 1 noindex" in out
    assert main(["validate", str(root / "sitemap.xml"), "--site-dir", str(root), "--strict"]) == 0


_HEAD_TAGS = st.lists(st.sampled_from([
    "<title>T</title>", '<meta charset="utf-8">', '<link rel="stylesheet" href="s.css">',
    "<script>var s = '<p>';</script>", "<style>p{}</style>", "<!-- <div> -->", "<base href=/>",
]), max_size=5)


@given(before=_HEAD_TAGS, after=_HEAD_TAGS, noindex=st.booleans(), canonical=st.sampled_from(["", "a/", "b.html"]),
       first=st.sampled_from(["<h1>H</h1>", "<p>text", "<div>d</div>", "<main>m</main>", "<img src=i.png>"]))
def test_the_head_says_the_same_with_its_optional_tags_left_out(before, after, noindex, canonical, first):
    robots = '<meta name="robots" content="noindex">' if noindex else ""
    link = f'<link rel="canonical" href="{BASE}{canonical}">' if canonical else ""
    head = "".join(before) + robots + link + "".join(after)
    full = read_page_html(f"<!DOCTYPE html><html><head>{head}</head><body>{first}</body></html>", BASE)
    bare = read_page_html(f"<!DOCTYPE html>{head}{first}", BASE)
    expected = (noindex, BASE + canonical if canonical else None)
    assert (bare.noindex, bare.canonical) == (full.noindex, full.canonical) == expected
