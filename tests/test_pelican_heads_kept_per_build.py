"""Pelican writes its pages without handing their HTML to plugins; the adapter keeps one
``HeadKeeper`` a build, which every generator's Jinja2 environment tells what it renders:
two builds in one process never see each other's pages, and nothing is kept in a module."""

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
    keeper = HeadKeeper()
    keeper.keep(env)
    context = {"title": "A", "body": "text"}
    env.get_template("page.html").render(context)
    assert keeper.take({"title": "A", "body": "text"}) is None  # an equal context is not the same one
    head = keeper.take(context)
    assert head is not None and "<title>A</title>" in head and "text" not in head
    assert keeper.take(context) is None  # forgotten once given


def test_one_keeper_hears_every_environment_of_its_build_and_no_other():
    first, second, other = environment(), environment(), environment()
    build, another = HeadKeeper(), HeadKeeper()
    build.keep(first)
    build.keep(second)
    another.keep(other)
    a, b, c = {"title": "A"}, {"title": "B"}, {"title": "C"}
    first.get_template("page.html").render(a)
    assert "<title>A</title>" in build.take(a)
    second.get_template("page.html").render(b)
    other.get_template("page.html").render(c)
    assert build.take(c) is None and another.take(b) is None
    assert "<title>B</title>" in build.take(b) and "<title>C</title>" in another.take(c)


def test_a_theme_s_own_template_class_still_renders():
    class Themed(jinja2.Template):
        def render(self, *args, **kwargs):
            return super().render(*args, **kwargs).replace("<body>", "<body class=themed>")

    env = environment()
    env.template_class = Themed
    keeper = HeadKeeper()
    keeper.keep(env)
    context = {"title": "T", "body": ""}
    assert "<body class=themed>" in env.get_template("page.html").render(context)
    assert "<title>T</title>" in keeper.take(context)
