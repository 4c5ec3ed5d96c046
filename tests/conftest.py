"""Fixtures shared across the suite. Helpers that are plain functions live in modules beside
the tests (``sitemap_checks``, ``project_checks``, ``validator_inputs``, ...)."""

from __future__ import annotations

import compileall
import os
import sys
from collections.abc import Callable, Generator
from datetime import datetime

import pytest


def pytest_configure(config: pytest.Config) -> None:
    """Generators run by the tests print plain text, as they do into a log file: Sphinx and
    Pelican colour their output when ``FORCE_COLOR`` is set, as some CI services do."""
    os.environ.pop("FORCE_COLOR", None)
    os.environ["NO_COLOR"] = "1"


@pytest.hookimpl(wrapper=True)
def pytest_collection(session: pytest.Session) -> Generator[None, object, object]:
    """sitemapkit's own modules and the test modules keep their compiled code (``__pycache__``),
    as an install and pytest keep it by default. Under ``PYTHONDONTWRITEBYTECODE`` (CI's
    machines set it) each test worker rewrote and compiled every test module again, and every
    generator run the tests start compiled sitemapkit again. Only collection writes: what the
    tests themselves import (a project's ``pelicanconf.py``) stays uncompiled."""
    kept = sys.dont_write_bytecode
    sys.dont_write_bytecode = False
    try:
        for source in ("core", "plugins"):
            compileall.compile_dir(session.config.rootpath / source, quiet=1)
        return (yield)
    finally:
        sys.dont_write_bytecode = kept


@pytest.fixture
def pin_now(monkeypatch: pytest.MonkeyPatch) -> Callable[[datetime | int], None]:
    """Sets the build's "now" (``SOURCE_DATE_EPOCH``, as reproducible builds do) for one test."""

    def pin(moment: datetime | int) -> None:
        seconds = int(moment.timestamp()) if isinstance(moment, datetime) else moment
        monkeypatch.setenv("SOURCE_DATE_EPOCH", str(seconds))

    return pin


@pytest.fixture(autouse=True)
def _own_current_folder(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts in an empty folder of its own. A build given no project folder keeps
    its state (manifest, page facts, record key) in the current folder's ``.cache/``: run from
    the checkout, every test's builds wrote there, and a build another test or an earlier run
    had made looked like this test's second build (a lastmod by fingerprint where a first
    build has none)."""
    monkeypatch.chdir(tmp_path_factory.mktemp("cwd"))
