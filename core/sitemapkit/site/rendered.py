"""Each page's head as a Jinja2 environment renders it, for an adapter whose generator writes
its pages without handing their HTML to plugins (Pelican): reading each written file back
costs a file opening and a read per page (measured: a third of the final step on 1,000 small
Pelican pages).

``keep_heads(env)`` makes the environment's templates note the head of what they render and
the context they render it in; ``rendered_head(context)`` gives that head when the page last
rendered was rendered in ``context`` (the generator writes a page, then says so with the
same context), else None: the page is read from its file as before.
"""

from __future__ import annotations

import functools
from typing import Any

import jinja2

from sitemapkit.site.extract import head_of


class _Last:
    context: object = None
    head: str | None = None


_last = _Last()


class _HeadKeeping(jinja2.Template):
    def render(self, *args: Any, **kwargs: Any) -> str:
        output = super().render(*args, **kwargs)
        _last.context, _last.head = (args[0] if args else None), head_of(output)
        return output


@functools.cache
def _head_keeping(template_class: type[jinja2.Template]) -> type[jinja2.Template]:
    """``template_class`` (a theme's or a plugin's own, if the environment has one) keeping heads."""
    if template_class is jinja2.Template:
        return _HeadKeeping
    return type(template_class.__name__, (_HeadKeeping, template_class), {})


def keep_heads(env: jinja2.Environment) -> None:
    """Templates ``env`` loads from now on keep the head of each page they render."""
    if not issubclass(env.template_class, _HeadKeeping):
        env.template_class = _head_keeping(env.template_class)


def rendered_head(context: object) -> str | None:
    """The head of the page rendered last, if it was rendered in ``context``; forgotten once asked."""
    head = _last.head if _last.context is context else None
    _last.context = _last.head = None
    return head
