# Two commands matter: `make demo` (a working site with demo data on SQLite, no services
# needed) and `make test` (the whole suite against PostgreSQL and Redis on 127.0.0.1).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/cardclub
TEST_REDIS_URL ?= redis://127.0.0.1:6379/15
PORT ?= 8000

.PHONY: venv demo test lint format typecheck bench clean

$(BIN)/python: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(BIN)/python

venv: $(BIN)/python

demo: venv
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py seed_demo
	$(BIN)/python manage.py runserver 0.0.0.0:$(PORT)

TEST_ENV := DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) \
	SECRET_KEY=tests-only-secret STATIC_MANIFEST=0 CACHE_KEY_PREFIX=tests CHANNELS_PREFIX=tests

test: venv
	$(TEST_ENV) $(BIN)/pytest $(PYTEST_ARGS)

lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: venv
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

typecheck: venv
	$(BIN)/mypy

bench: venv
	$(BIN)/python -m bench.swiss
	$(BIN)/python -m bench.standings
	DATABASE_URL=$(TEST_DATABASE_URL) $(BIN)/python -m bench.draft

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .pytest_cache .mypy_cache .ruff_cache
