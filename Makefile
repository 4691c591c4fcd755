# Two commands on a fresh clone with only python3: `make demo` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

CONSTRAINTS := constraints.txt

.PHONY: demo test test-fast test-latest lint bench dist clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.installed: pyproject.toml $(CONSTRAINTS) | $(BIN)/python
	$(BIN)/pip install -q -c $(CONSTRAINTS) -e .
	touch $@

$(VENV)/.dev-installed: pyproject.toml $(CONSTRAINTS) | $(BIN)/python
	$(BIN)/pip install -q -c $(CONSTRAINTS) -e '.[dev]'
	touch $@ $(VENV)/.installed

demo: $(VENV)/.installed
	$(BIN)/python examples/demo.py
	@echo "The pbem command is $(BIN)/pbem (or: . $(BIN)/activate). To install it for daily use: pipx install ."

lint: $(VENV)/.dev-installed
	$(BIN)/ruff check pbem tests bench examples
	$(BIN)/mypy

test: $(VENV)/.dev-installed lint
	$(BIN)/python -m pytest

# The edit-test loop: everything but the long playthroughs and the wheel/sdist builds (marked
# slow); `make test` runs them all. A folder or file narrows it: make test-fast T=tests/engine
test-fast: $(VENV)/.dev-installed
	$(BIN)/python -m pytest -m "not slow" $(T)

# The suite against the newest releases of every dependency (no constraints), in a venv of its own:
# run it before widening a pinned range in pyproject.toml or refreshing constraints.txt.
test-latest:
	rm -rf .venv-latest
	$(PYTHON) -m venv .venv-latest
	.venv-latest/bin/pip install -q --upgrade pip
	.venv-latest/bin/pip install -q --upgrade -e '.[dev]'
	.venv-latest/bin/pip list --format=freeze | grep -i -E '^(rfc8785|svgwrite|jinja2|pydantic|cryptography)=='
	.venv-latest/bin/python -m pytest

# A release: the sdist, then the wheel built from that sdist (never from a stale build/).
dist: $(VENV)/.dev-installed
	rm -rf dist
	$(BIN)/python -m build --no-isolation --outdir dist .

bench: $(VENV)/.installed
	$(BIN)/python bench/run_all.py

clean:
	rm -rf $(VENV) .venv-latest build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache demo-out
