"""Pelican writes its pages without handing their HTML to plugins; the adapter keeps one
``HeadKeeper`` per Jinja2 environment, and each keeper holds only what its own environment
rendered: two environments in one process (two generators, two builds) never see each
other's pages, and nothing is kept in a module."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import jinja2


def _heads_module():
    """``sitemapkit_pelican/heads.py`` loaded from its file, not through its package: the
    package imports Pelican, and importing Pelican sets the logger class of the whole process
    (``pelican.log``), whose filter drops repeated messages: the Sphinx and MkDocs warnings of
    later tests in the same worker would go missing."""
    package = importlib.util.find_spec("sitemapkit_pelican")  # found, not imported
    path = Path(package.submodule_search_locations[0]) / "heads.py"
    spec = importlib.util.spec_from_file_location("sitemapkit_pelican_heads", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


HeadKeeper = _heads_module().HeadKeeper

PAGE = "<html><head><title>{{ title }}</title></head><body>{{ body }}</body></html>"


def environment() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.DictLoader({"page.html": PAGE}))


def test_the_head_of_the_page_rendered_in_a_context_is_given_once():
    env = environment()
    keeper = HeadKeeper(env)
    context = {"title": "A", "body": "text"}
    env.get_template("page.html").render(context)
    assert keeper.take({"title": "A", "body": "text"}) is None  # an equal context is not the same one
    head = keeper.take(context)
    assert head is not None and "<title>A</title>" in head and "text" not in head
    assert keeper.take(context) is None  # forgotten once given


def test_two_environments_keep_their_own_heads():
    first, second = environment(), environment()
    one, two = HeadKeeper(first), HeadKeeper(second)
    a, b = {"title": "A"}, {"title": "B"}
    first.get_template("page.html").render(a)
    second.get_template("page.html").render(b)
    assert one.take(b) is None and two.take(a) is None
    assert "<title>A</title>" in one.take(a) and "<title>B</title>" in two.take(b)


def test_a_theme_s_own_template_class_still_renders():
    class Themed(jinja2.Template):
        def render(self, *args, **kwargs):
            return super().render(*args, **kwargs).replace("<body>", "<body class=themed>")

    env = environment()
    env.template_class = Themed
    keeper = HeadKeeper(env)
    context = {"title": "T", "body": ""}
    assert "<body class=themed>" in env.get_template("page.html").render(context)
    assert "<title>T</title>" in keeper.take(context)
