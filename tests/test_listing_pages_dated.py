"""Listing pages are dated by the newest page they list, whether or not they have a source
file of their own (Jekyll's ``all-posts.html``, a loop over ``site.posts``; Hugo's tag pages,
built from no source), and a link to another listing page that is not one of its sections
(a tag cloud, the tags printed under each listed post) is not "listed". On a Jekyll blog's
and a Hugo site's output laid out by hand as each lays it out (neither is installed here),
with their sources in a real git history."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from git_helpers import commit, init
from project_checks import lastmods, validate_strict

from sitemapkit.cli import main

pytestmark = pytest.mark.slow  # real git histories

JEKYLL = Path(__file__).parent / "generator_output" / "jekyll-blog"
OLD = "2023-11-11T10:00:00Z"


def test_a_jekyll_archive_committed_long_ago_takes_the_date_of_the_newest_post_it_lists(tmp_path, monkeypatch):
    root = init(tmp_path / "blog")
    sources = {str(path.relative_to(JEKYLL)): path.read_text(encoding="utf-8")
               for path in sorted(JEKYLL.rglob("*"))
               if path.is_file() and path.relative_to(JEKYLL).parts[0] not in ("_site", "GENERATED_BY")}
    sources[".gitignore"] = "_site/\n.cache/\n"
    sources["all-posts.html"] = ("---\nlayout: default\ntitle: All posts\n---\n"
                               "<ul>{% for post in site.posts %}<li><a href=\"{{ post.url }}\">{{ post.title }}"
                               "</a></li>{% endfor %}</ul>\n")
    commit(root, OLD, sources)
    shutil.copytree(JEKYLL / "_site", root / "_site")
    for name in ("sitemap.xml", "robots.txt"):  # the documented recipe: no jekyll-sitemap
        (root / "_site" / name).unlink()
    home = (root / "_site" / "index.html").read_text(encoding="utf-8")
    (root / "_site" / "all-posts.html").write_text(  # as Jekyll renders it with the default layout
        home.replace("<title>Home</title>", "<title>All posts</title>")
        .replace('href="https://jekyll.example/"', 'href="https://jekyll.example/all-posts.html"'), encoding="utf-8")
    monkeypatch.chdir(root)
    assert main(["build", "_site", "--base-url", "https://jekyll.example/", "--source-dir", ".", "-q"]) == 0
    found = lastmods(root / "_site", "https://jekyll.example/")
    assert found["https://jekyll.example/all-posts.html"] == "2024-04-04"  # its newest post, not its 2023 commit
    assert found["https://jekyll.example/archive/"] == OLD  # archive/index.md lists nothing
    assert validate_strict(root / "_site") == 0


HUGO_PAGE = """<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>{title}</title><meta name="generator" content="Hugo 0.111.3">
<link rel="canonical" href="https://hugo.example/{url}">
</head>
<body><header><a href="/">A Hugo blog</a> <nav><a href="/tags/">Tags</a> <a href="/posts/">Posts</a></nav></header>
<main><h1>{title}</h1>{body}</main></body>
</html>
"""
POSTS = {  # name: (date, tag)
    "early": ("2015-02-20", "zeta"),
    "late": ("2017-03-20", "alpha"),
}


def _summary(name: str) -> str:
    """A post in a list, with its tag under it, as Hugo themes print it."""
    tag = POSTS[name][1]
    return f'<article><a href="/posts/{name}/">{name}</a> <a href="/tags/{tag}/">#{tag}</a></article>'


def hugo_site(root: Path) -> Path:
    commit(root, OLD, {
        ".gitignore": "public/\n.cache/\n",
        "hugo.toml": "baseURL = 'https://hugo.example/'\ntitle = 'A Hugo blog'\n",
        **{f"content/posts/{name}.md": f"---\ntitle: {name}\ndate: {day}\ntags: [{tag}]\n---\nText.\n"
           for name, (day, tag) in POSTS.items()},
    })
    public = root / "public"
    pages = {
        "": ("A Hugo blog", "".join(_summary(name) for name in POSTS)),
        "posts/": ("Posts", "".join(_summary(name) for name in POSTS)),
        "tags/": ("Tags", '<a href="/tags/alpha/">alpha</a> <a href="/tags/zeta/">zeta</a>'),
        # zeta lists the early post; the late post's tag appears in its tag cloud only
        "tags/zeta/": ("zeta", _summary("early") + '<p>Tags: <a href="/tags/alpha/">alpha</a></p>'),
        "tags/alpha/": ("alpha", _summary("late")),
        **{f"posts/{name}/": (name, f'<p>Text.</p><a href="/tags/{tag}/">#{tag}</a>')
           for name, (_, tag) in POSTS.items()},
    }
    for url, (title, body) in pages.items():
        path = public / url / "index.html"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(HUGO_PAGE.format(title=title, url=url, body=body), encoding="utf-8")
    return public


def test_hugo_tag_pages_take_the_posts_they_list_not_the_tags_they_link_to(tmp_path, monkeypatch):
    root = init(tmp_path / "hugo")
    public = hugo_site(root)
    monkeypatch.chdir(root)
    assert main(["build", "public", "--base-url", "https://hugo.example/", "--source-dir", ".", "-q"]) == 0
    base = "https://hugo.example/"
    assert lastmods(public, base) == {
        base: "2017-03-20",
        f"{base}posts/": "2017-03-20",
        f"{base}posts/early/": "2015-02-20",
        f"{base}posts/late/": "2017-03-20",
        f"{base}tags/": "2017-03-20",  # its own sections: each tag's page
        f"{base}tags/zeta/": "2015-02-20",  # not alpha's 2017 from the link under its post
        f"{base}tags/alpha/": "2017-03-20",
    }
    assert validate_strict(public) == 0
