# The two commands: `make run` and `make test`. Each sets up .venv first.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp

COUCH  := build/couch
COUCH_STAMP := $(COUCH)/.installed-stamp

.PHONY: setup couch run lint test fuzz bench screenshots pwa clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11+ is needed, found " + sys.version)'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

setup: $(STAMP)

## The CouchDB-protocol server the sync tests start: pouchdb-server, pinned by tools/couch/package-lock.json,
## installed into build/couch/ once (about 2 minutes; later runs see the stamp). --ignore-scripts: the tests
## run it in memory, so the native on-disk backends (leveldown, sqlite3) need not be built. Without npm the
## sync tests skip, saying so.
$(COUCH_STAMP): tools/couch/package.json tools/couch/package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
		mkdir -p $(COUCH) && cp tools/couch/package.json tools/couch/package-lock.json $(COUCH)/ && \
		npm ci --prefix $(COUCH) --ignore-scripts --no-audit --no-fund --loglevel=error && touch $@; \
	else \
		echo "npm not found: the sync tests will skip (apt-get install nodejs npm, then make test)"; \
	fi

couch: $(COUCH_STAMP)

## Start the app in web mode and open it in the browser: on 127.0.0.1:8550, or `make run HOST=0.0.0.0 PORT=8600`
## (another address or port: every phone on the network, with the table code the console prints).
HOST ?= 127.0.0.1
PORT ?= 8550
run: setup
	$(BIN)/python -m companion --host $(HOST) --port $(PORT)

## Lint and types (pyproject.toml [tool.ruff], [tool.mypy]): clean in every commit.
lint: setup
	$(BIN)/ruff check companion tests benchmarks pwa tools main.py
	$(BIN)/mypy

## Every test: lint and types, engine, storage, view model, sync against a real server when npm is there,
## and the browser tests when Chromium is there, two files at a time (a browser test mostly waits on the page;
## a file's tests share its app server). Each run names its 15 slowest tests (the budget: docs/decisions.md).
test: lint couch
	$(BIN)/python -m pytest -m "not e2e" -n 2 --durations=15
	$(BIN)/python -m pytest -m e2e -n 2 --dist loadfile --durations=15

## The fuzz tests, long: random match files and form input, and the sync model (tests/service/test_convergence.py),
## FUZZ_EXAMPLES each (make test runs a few seconds of them).
FUZZ_EXAMPLES ?= 2000
fuzz: setup
	XERI_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(BIN)/python -m pytest -m fuzz -p no:cacheprovider tests/test_fuzz.py \
		tests/service/test_convergence.py

## Benchmarks: engine speed, storage growth, app start-up and tap latency, served and as the browser build.
bench: setup
	$(BIN)/python -m benchmarks

## The browser build: dist-pwa/, a static web app that installs and works offline (README: "On a phone
## with no laptop"). Needs only the package index: pip fetches its pinned wheels into build/pwa/ once.
pwa: setup
	$(BIN)/python -m pwa.build

## Phone-size screenshots of every screen into docs/screenshots/.
screenshots: setup
	$(BIN)/python -m tests.e2e.screenshots

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build dist-pwa
