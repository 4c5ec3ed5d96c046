"""Patterns compiled when first run, not at import: most builds never run most of them
(issue 36: an import that loads what the build uses)."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import AnyStr


def lazy_pattern(text: AnyStr, flags: int = 0) -> Callable[[], re.Pattern[AnyStr]]:
    """``text`` as a function that compiles it at its first call and gives that pattern at every call."""
    return functools.cache(lambda: re.compile(text, flags))
