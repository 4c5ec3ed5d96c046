"""hreflang return links among the URLs of one sitemap: the one check that ``validate`` uses
to report a one-way alternate (``hreflang-no-return``) and ``build`` uses to leave it out.

Search engines ignore an hreflang alternate unless the page it names names the first one
back (SPEC 5, "Bidirectional"). Among the listed URLs, in the order they are listed: a link
from one URL to another that was listed earlier is decided at once (does that one name this
one?); a link to a URL not listed yet waits for it, and is decided when it comes. A link to a
URL never listed is never decided: its page may link back in its own HTML, which a sitemap
alone cannot show (``validate --site-dir`` reads the heads for that).

URLs are kept as their hashes, as the validator's duplicate check keeps them: a few ints a
URL, not its text.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import replace
from typing import Generic, TypeVar

from sitemapkit.model import Entry, PlainEntry
from sitemapkit.report import Report

T = TypeVar("T")

HOLD = 20_000
"""``build`` keeps at most this many entries waiting for the URLs their alternates name; past
it the oldest is written as it is (a link decided later can then only be reported)."""


class ReturnLinks(Generic[T]):
    """The check itself. ``listed`` says whether the URL of a hash was listed before (the
    caller's record of its listed URLs). Each URL comes with a caller's token (where it is, to
    report or to drop its links); a decision names a link by that token and its index among
    the URL's hrefs."""

    def __init__(self, listed: Callable[[int], bool]) -> None:
        self._listed = listed
        self._named: dict[int, tuple[int, ...]] = {}
        """hash(loc) -> the hashes of the URLs its alternates name."""
        self._waiting: dict[int, list[tuple[int, T, int]]] = {}
        """hash of a URL not listed yet -> (hash of the URL naming it, its token, the link's
        index) of each link to it."""

    @property
    def waiting(self) -> bool:
        """Whether a link waits for its URL to be listed (a URL without alternates must then
        be added too: it decides those links, all one-way)."""
        return bool(self._waiting)

    def add(self, loc: str, hrefs: Sequence[str], token: T) -> tuple[list[tuple[T, int, bool]], int]:
        """Record the listed URL ``loc`` naming ``hrefs`` (itself among them or not); call it
        before ``loc`` counts as listed. Returns the decisions made now, each (token, index,
        whether the link is returned): every link that waited for ``loc``, and those of
        ``loc``'s own links to URLs listed before that are one-way; and how many of ``loc``'s
        links wait for URLs not listed yet."""
        me = hash(loc)
        hashes = tuple([hash(href) for href in hrefs])
        if hashes:
            self._named[me] = hashes
        came = self._waiting.pop(me, None)
        decided = [(source_token, index, source in hashes) for source, source_token, index in came] if came else []
        named, listed, waits = self._named, self._listed, 0
        for index, target in enumerate(hashes):
            if target == me:
                continue
            if not listed(target):
                self._waiting.setdefault(target, []).append((me, token, index))
                waits += 1
            elif me not in named.get(target, ()):
                decided.append((token, index, False))
        return decided, waits


def without_one_way(entries: Iterable[Entry | PlainEntry], report: Report, listed: Callable[[int], bool],
                    hold: int = HOLD) -> Iterator[Entry | PlainEntry]:
    """``entries`` with every one-way hreflang alternate left out, each named in a
    ``hreflang-no-return`` warning. ``listed`` is the caller's record of the URLs listed so
    far (each entry's own included by the time it comes here). An entry whose alternates name
    URLs not listed yet waits for them (up to ``hold`` entries, then the oldest goes on as it
    is); entries without alternates are not held. When the entries end, those still waiting
    go on with the links nothing decided (to URLs never listed)."""
    returns: ReturnLinks[tuple[int, Entry]] = ReturnLinks(listed)
    held: dict[int, Entry] = {}  # by number, in the order they came
    open_links: dict[int, int] = {}  # number -> its links not decided yet
    dropped: dict[int, set[str]] = {}  # number -> the hrefs of its one-way alternates
    for number, entry in enumerate(entries):
        if not entry.alternates and not returns.waiting:
            yield entry
            continue
        decided, waits = returns.add(entry.loc, [alternate.href for alternate in entry.alternates], (number, entry))
        ready: set[int] = set()
        for (source, source_entry), index, returned in decided:
            alternate, waiting = source_entry.alternates[index], source == number or source in held
            if not returned:
                _warn(report, source_entry.loc, alternate.hreflang, alternate.href, kept=not waiting)
                if waiting:
                    dropped.setdefault(source, set()).add(alternate.href)
            if source in held:  # a link that waited for this entry
                open_links[source] -= 1
                if open_links[source] == 0:
                    ready.add(source)
        if waits:
            held[number], open_links[number] = entry, waits
            if len(held) - len(ready) > hold:
                ready.add(next(source for source in held if source not in ready))
        for source in sorted(ready):
            del open_links[source]
            yield _finished(held.pop(source), dropped.pop(source, ()))
        if not waits:
            yield _finished(entry, dropped.pop(number, ()))
    for source, entry in held.items():
        yield _finished(entry, dropped.get(source, ()))


def _finished(entry: Entry, dropped: Collection[str]) -> Entry:
    """``entry`` without its one-way alternates; without any when no other language is left."""
    if not dropped:
        return entry
    kept = tuple(a for a in entry.alternates if a.href not in dropped)
    if not any(a.href != entry.loc and a.hreflang != "x-default" for a in kept):
        kept = ()
    return replace(entry, alternates=kept)


def _warn(report: Report, loc: str, code: str, href: str, *, kept: bool) -> None:
    done = (f"kept: its <url> went out before that page came (more than {HOLD:,} entries waited)" if kept
            else "left out")
    report.warn(loc, "hreflang", "hreflang-no-return",
                f"alternate hreflang=\"{code}\" {href} {done}: that page's alternates do not link back "
                f"to {loc}; search engines ignore one-way hreflang")
