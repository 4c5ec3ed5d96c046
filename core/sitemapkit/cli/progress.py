"""A progress line on a terminal: how far, how fast, how long still; redrawn at most
``REDRAWS_PER_SECOND`` times a second however often it is told, so 20,000 pages make a few
hundred redraws, not 20,000. The command line makes one per long task and passes it where the
work happens (``validate``'s page checks, ``build``'s page reading)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TextIO

REDRAWS_PER_SECOND = 4
BAR_WIDTH = 30
CLEAR = "\r\033[K"
"""Back to the line's start, and clear it."""
RATE_AFTER = 1.0
"""Seconds of work before a rate (and so a time left) is worth showing."""


def megabytes(count: int) -> str:
    return f"{count / 1_000_000:.1f} MB"


def duration(seconds: float) -> str:
    """``42 s``, ``3 min 05 s``, ``1 h 02 min``."""
    whole = round(seconds)
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60:02d} s"
    return f"{whole // 3600} h {whole % 3600 // 60:02d} min"


def progress_text(done: int, total: int, elapsed: float, noun: str,
                  counted: Callable[[int], str] = str) -> str:
    """``[#####.........] 1200/20000 pages checked, 85/s, 3 min 18 s left``: the rate and the
    time left once ``RATE_AFTER`` seconds have passed."""
    filled = BAR_WIDTH * min(done, total) // max(total, 1)
    text = f"[{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {counted(done)}/{counted(total)} {noun}"
    if elapsed < RATE_AFTER or done <= 0:
        return text
    rate = done / elapsed
    text += f", {counted(round(rate))}/s"
    if done < total:
        text += f", {duration((total - done) / rate)} left"
    return text


@dataclass(slots=True)
class ProgressLine:
    """Call it with ``(done, total)`` as often as work is done; it redraws when a quarter of a
    second has passed since it last did, and always for the last step (``done >= total``).
    Not frozen: it keeps when it started and last drew."""

    noun: str
    """What is counted, as shown after the numbers: ``pages checked``."""
    counted: Callable[[int], str] = str
    """How a count is written (``megabytes`` for bytes)."""
    stream: TextIO = field(default_factory=lambda: sys.stderr)
    clock: Callable[[], float] = time.monotonic
    started: float | None = None
    drawn: float | None = None

    def __call__(self, done: int, total: int) -> None:
        now = self.clock()
        if self.started is None:
            self.started = now
        if self.drawn is not None and done < total and now - self.drawn < 1 / REDRAWS_PER_SECOND:
            return
        self.drawn = now
        self.stream.write(CLEAR + progress_text(done, total, now - self.started, self.noun, self.counted))
        self.stream.flush()
