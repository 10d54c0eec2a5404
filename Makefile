# Croupier: `make test` and `make demo` work on a fresh machine (they install first).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: install test test-long check lint typecheck imports bench load demo clean

install: $(STAMP)

# The hot modules are compiled at install (setup.py): their sources and C types are inputs too
# (pipeline/compiled.py lists them, and prints them when run).
COMPILED_SOURCES := setup.py pipeline/compiled.py $(shell $(PYTHON) pipeline/compiled.py)

$(STAMP): pyproject.toml $(COMPILED_SOURCES)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@$(BIN)/python -c "$$SAY_FORM"
	touch $(STAMP)

# pip --quiet hides setup.py's own word on a build that fell back to pure Python (a missing
# compiler, or an error in a .pxd being edited): say which form was installed.
define SAY_FORM
from pipeline.compiled import built_form
form = built_form()
print(f"croupier: installed the {form} form" + ("" if form == "compiled" else
      " (slower; pip install -v -e . shows why the modules were not compiled)"))
endef
export SAY_FORM

# Test files run in parallel, one process per core, each file whole on one (its module-wide
# set-up, such as the PokerKit hands, is made once). The tests marked `long` (a minute or so
# each: the load run, fuzzing at length, the fairness tests' long deals, the 5- and 6-card
# evaluator differentials, settlement and the rules of PLO8 against PokerKit) run in
# `test-long`, which CI runs after `test` and `check` runs too: `make test` stays within 15
# minutes.
test: install
	$(BIN)/python -m pytest -q -n auto --dist loadfile -m 'not slow and not long'

test-long: install
	$(BIN)/python -m pytest -q -n auto --dist loadfile -m long

lint: install
	$(BIN)/ruff check pipeline tests bench fuzz setup.py conftest.py
	$(BIN)/ruff format --check pipeline tests bench fuzz setup.py conftest.py

typecheck: install
	$(BIN)/mypy --strict pipeline tests conftest.py

imports: install
	$(BIN)/lint-imports

check: lint typecheck imports test test-long

demo: install
	$(BIN)/croupier run data/sample --out lake
	$(BIN)/croupier query "SELECT * FROM hands_by_variant" --lake lake
	$(BIN)/croupier query "SELECT hand_id, player, position, won, net, high_hand, low_hand FROM seats_money WHERE won::DECIMAL(38, 9) > 0 ORDER BY hand_id, seat LIMIT 8" --lake lake

bench: install
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	$(BIN)/python -m bench

load: install  # 5,000,000 generated hands through croupier run - (about an hour on 2 cores)
	$(BIN)/python -m bench.load

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis lake build
	find pipeline \( -name '*.so' -o -name '*.c' \) -delete
	rm -f pipeline/compiled.json
