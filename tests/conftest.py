"""Fixtures shared across the suite. Helpers that are plain functions live in modules beside
the tests (``sitemap_checks``, ``project_checks``, ``validator_inputs``, ...)."""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import datetime

import pytest


def pytest_configure(config: pytest.Config) -> None:
    """Generators run by the tests print plain text, as they do into a log file: Sphinx and
    Pelican colour their output when ``FORCE_COLOR`` is set, as some CI services do."""
    os.environ.pop("FORCE_COLOR", None)
    os.environ["NO_COLOR"] = "1"


@pytest.fixture
def pin_now(monkeypatch: pytest.MonkeyPatch) -> Callable[[datetime | int], None]:
    """Sets the build's "now" (``SOURCE_DATE_EPOCH``, as reproducible builds do) for one test."""

    def pin(moment: datetime | int) -> None:
        seconds = int(moment.timestamp()) if isinstance(moment, datetime) else moment
        monkeypatch.setenv("SOURCE_DATE_EPOCH", str(seconds))

    return pin
