# pokeview: `make demo` and `make test` set up everything they need on a fresh machine
# (Python 3.11+, Node.js 18+ and npm): a virtual environment, pokeview, and the pinned Showdown.
# Node.js 18 is what pokeview/sim/install.py checks for; CI runs 20; `make lint` installs ESLint 9,
# which wants 18.18 or newer.

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)
# The JavaScript's development tools (ESLint, TypeScript; html-validate and axe-core, which the
# site's checks run), from package.json's pinned lock file.
NODE_STAMP := node_modules/.installed-$(shell cat package-lock.json | cksum | cut -d' ' -f1)

.PHONY: setup browser demo test test-fast test-js check lint format schemas docs bench clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev,ray]'
	@rm -f $(VENV)/.installed-*
	@touch $(STAMP)

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	@rm -f node_modules/.installed-*
	@touch $(NODE_STAMP)

setup: $(STAMP)
	$(BIN)/pokeview setup

DEMO_DB ?= $(VENV)/demo.db

demo: setup
	$(BIN)/pokeview run examples/demo.toml --db $(DEMO_DB)
	$(BIN)/pokeview ratings demo --db $(DEMO_DB)
	$(BIN)/pokeview verify --all --quiet --db $(DEMO_DB)
	@if [ -t 0 ] && [ -t 1 ]; then $(BIN)/pokeview watch recordings/loopback-test-model-vs-heuristic.json; \
	else echo "Open the replay viewer with: $(BIN)/pokeview watch recordings/loopback-test-model-vs-heuristic.json"; fi

# The report's test renders its page in headless Chromium (Debian's package); where it cannot be
# installed, that one test is skipped and says why.
browser:
	@command -v chromium >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && \
	  { apt-get install -y -qq chromium >/dev/null 2>&1 || \
	    { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq chromium >/dev/null 2>&1; }; }; } || \
	  echo "chromium is not installed: the report's browser test will be skipped"

# Every layer: the JavaScript's (tests/js), then tests/unit, tests/integration (real Showdown in
# Node), tests/ray (a real Ray cluster on loopback: Ray comes with the install step's `ray` extra)
# and tests/tui (Pilot, snapshots); pytest's closing line is the last one printed.
test: setup browser test-js $(NODE_STAMP)
	$(BIN)/pytest -q

# Node's own test runner on the bridge's and the search's modules; the ones that need Showdown
# find it where pokeview installed it.
test-js: setup
	POKEVIEW_SHOWDOWN_DIR="$$($(BIN)/python -c 'from pokeview import paths; print(paths.showdown_dir())')" \
	  node --test tests/js/*.test.js

# The unit layer alone: no Node, no app, under 20 seconds.
test-fast: $(STAMP)
	$(BIN)/pytest -q tests/unit

# tsc checks the JS's JSDoc types against the Showdown and @pkmn packages it runs with: the ones
# `pokeview setup` installed in the data dir, linked where tsconfig.json's paths look for them.
lint: setup $(NODE_STAMP)
	$(BIN)/ruff check pokeview tests benchmarks docs
	$(BIN)/ruff format --check pokeview tests benchmarks docs
	$(BIN)/lint-imports
	$(BIN)/mypy pokeview
	node_modules/.bin/eslint .
	ln -sfn "$$($(BIN)/python -c 'from pokeview import paths; print(paths.showdown_dir())')" node_modules/.pokeview-showdown
	node_modules/.bin/tsc -p tsconfig.json

format: $(STAMP)
	$(BIN)/ruff format pokeview tests benchmarks docs
	$(BIN)/ruff check --fix pokeview tests benchmarks docs

check: lint test

# The JSON schemas of the config files (for editors) and of a side's state, from their
# declarations (a unit test compares).
schemas: $(STAMP)
	$(BIN)/python -m pokeview.config_schemas docs/schemas

# The README's table of commands (from the parser) and its picture of the viewer (the real app
# under Pilot); unit tests check the table and every link.
docs: $(STAMP)
	$(BIN)/python docs/commands.py
	$(BIN)/python docs/screenshot.py

bench: setup
	$(BIN)/python benchmarks/ratings.py
	$(BIN)/python benchmarks/tui.py
	$(BIN)/python benchmarks/spectate.py
	$(BIN)/python benchmarks/run.py
	$(BIN)/python benchmarks/record.py
	$(BIN)/python benchmarks/record_cpu.py
	$(BIN)/python benchmarks/ladder.py --pairs 8 --seeds 3
	$(BIN)/python benchmarks/search.py --pairs 10 --cpu 200
	$(BIN)/python benchmarks/ray.py --pairs 100
	$(BIN)/python benchmarks/site.py --serial

clean:
	rm -rf $(VENV) node_modules .pytest_cache .ruff_cache
