"""Each page's head as Pelican's Jinja2 environments render it: Pelican writes its pages
without handing their HTML to plugins, and reading each written file back costs a file
opening and a read per page (measured: a third of the final step on 1,000 small Pelican
pages).

The adapter makes one ``HeadKeeper`` a build and has it keep each generator's environment:
their templates note in it the head of what they render and the context they render it in;
``keeper.take(context)`` gives that head when the page last rendered was rendered in
``context`` (the generator writes a page, then says so with the same context), else None:
the page is read from its file as before. One keeper for all the environments of a build:
Pelican renders and writes one page at a time, and a take asks one keeper, not one an
environment.
"""

from __future__ import annotations

from typing import Any

import jinja2

from sitemapkit.site.extract import head_of


class HeadKeeper:
    """The head of the page the environments it keeps rendered last, with its context."""

    def __init__(self) -> None:
        self.context: object = None
        self.head: str | None = None

    def keep(self, env: jinja2.Environment) -> None:
        """Have the templates of ``env`` note in this keeper what they render."""
        keeper = self

        class Keeping(env.template_class):  # a theme's or a plugin's own template class, if any
            def render(self, *args: Any, **kwargs: Any) -> str:
                output = super().render(*args, **kwargs)
                keeper.context, keeper.head = (args[0] if args else None), head_of(output)
                return output

        env.template_class = Keeping

    def take(self, context: object) -> str | None:
        """The head of the page rendered last, if it was rendered in ``context``; forgotten once given."""
        if self.context is not context:
            return None
        head, self.context, self.head = self.head, None, None
        return head
