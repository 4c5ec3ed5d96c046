# `make demo`, `make test` and `make docs` each bootstrap .venv on a machine that has only
# Python 3. pip installs uv, and uv installs the rest: sitemapkit (editable) with every
# generator, and the development tools, a PEP 735 dependency group (`--group dev`), not a
# published extra. uv resolves and installs in parallel from its wheel cache: a few seconds
# where pip took half a minute. `--compile-bytecode` because pip compiles on install and these
# machines set PYTHONDONTWRITEBYTECODE: without it every generator run would compile its imports.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.sitemapkit-installed
INSTALL := $(BIN)/uv pip install --quiet --python $(BIN)/python --compile-bytecode
DOCS_SITE ?= site

.PHONY: demo test test-fast test-matrix lint docs bench screenshots clean

# The Pelican namespace plugin is copied into the venv (an editable install cannot link it):
# a change to it installs again.
$(STAMP): pyproject.toml plugins/pelican_namespace/sitemapkit/__init__.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet uv
	$(INSTALL) --upgrade pip
	$(INSTALL) -e '.[all]' --group dev
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/python sample_sites/demo.py

# The whole suite, on every core. `test-fast` is the unit layer: no generator runs, no venvs.
test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -n auto --dist loadscope

test-fast: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -n auto --dist loadscope -m "not slow"

# The quickstart projects of MkDocs, Pelican and Sphinx built with the lowest version each extra
# of pyproject.toml allows and with the newest, on each Python of MATRIX_PYTHONS (versions uv
# finds, or interpreters' paths; one it cannot find is skipped, and says so). `make test` runs
# the floors on the lowest Python only.
MATRIX_PYTHONS ?= 3.11 3.13
test-matrix: $(STAMP)
	SITEMAPKIT_MATRIX="$(MATRIX_PYTHONS)" $(BIN)/python -m pytest tests/test_version_matrix.py -n 2 -rP

lint: $(STAMP)
	$(BIN)/ruff check .

# The documentation site, built by MkDocs with sitemapkit's own plugin, then checked by
# sitemapkit's own validator.
docs: $(STAMP)
	$(BIN)/mkdocs build --strict --site-dir $(DOCS_SITE)
	$(BIN)/sitemapkit validate $(DOCS_SITE) --site-dir $(DOCS_SITE) --strict

$(VENV)/.sitemapkit-bench: $(STAMP)
	$(INSTALL) --group bench
	touch $@

bench: $(VENV)/.sitemapkit-bench
	for script in bench/[!_]*.py; do $(BIN)/python $$script || exit 1; done

# The pictures of docs/views.md: real builds of the sample sites in three themes and a
# validate report, shot by headless Chromium (the `chromium` on PATH) into docs/images/.
# Not part of `make test` or `make demo`; run it again when the pages' look changes.
$(VENV)/.sitemapkit-screenshots: $(STAMP)
	$(BIN)/python -m pip install --quiet --group screenshots
	touch $@

screenshots: $(VENV)/.sitemapkit-screenshots
	$(BIN)/python tools/screenshots.py

clean:
	rm -rf $(VENV) site sample_sites/*/_site sample_sites/*/site sample_sites/*/output sample_sites/*/_build
