# Two commands matter: `make demo` (a working site with demo data on SQLite, no services
# needed) and `make test` (the whole suite against PostgreSQL and Redis on 127.0.0.1).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/cardclub
TEST_REDIS_URL ?= redis://127.0.0.1:6379/15
PORT ?= 8000

.PHONY: venv demo demo-reset web test fuzz lint format typecheck bench clean messages

$(BIN)/python: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(BIN)/python

venv: $(BIN)/python

# Links in the demo's e-mails and webhooks point at this PORT; the e-mails the demo sends
# are written to demo-mail/ (one file each) instead of burying the logins in the terminal.
DEMO_ENV := SITE_URL=$${SITE_URL:-http://localhost:$(PORT)} \
	EMAIL_BACKEND=$${EMAIL_BACKEND:-django.core.mail.backends.filebased.EmailBackend} \
	EMAIL_FILE_PATH=$${EMAIL_FILE_PATH:-$(CURDIR)/demo-mail}

demo: venv
	$(BIN)/python manage.py migrate --noinput
	$(DEMO_ENV) $(BIN)/python manage.py seed_demo
	$(DEMO_ENV) $(BIN)/python manage.py runserver 0.0.0.0:$(PORT)

# The demo from scratch: its SQLite database and the e-mails it wrote are removed first.
demo-reset:
	rm -f db.sqlite3 && rm -rf demo-mail
	$(MAKE) demo

# The production web server, locally (docker-compose's `web` runs the same scripts/web):
# DATABASE_URL and REDIS_URL from the environment, SECRET_KEY a real key, on PORT.
web: venv
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py collectstatic --noinput -v0
	PYTHON=$(BIN)/python scripts/web $(PORT)

# DB_POOL=0: the suite's websocket tests end every other database session between tests
# (pg_terminate_backend), which a shared pool does not survive; the production server's
# test (tests/tooling/test_web_server.py) and bench/http.py run with the pool.
TEST_ENV := DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) \
	SECRET_KEY=tests-only-0f3b9c2e7a1d4f8b6c5e9a2d7f1b3c8e4a6d9f2b7c1e5a8d3f6b9c2e STATIC_MANIFEST=0 CACHE_KEY_PREFIX=tests CHANNELS_PREFIX=tests \
	SECURE_SSL_REDIRECT=0 DB_POOL=0

# Stops at once, saying what to install, when PostgreSQL, Redis or Chromium is missing
# (Chromium is installed through apt when this user may).
test: venv
	CHROMIUM_PATH=$(CHROMIUM_PATH) scripts/test-prereqs $(BIN)/python \
		'$(TEST_DATABASE_URL)' '$(TEST_REDIS_URL)' '$(PYTEST_ARGS)'
	$(TEST_ENV) CHROMIUM_PATH=$(CHROMIUM_PATH) $(BIN)/pytest $(PYTEST_ARGS)

# Open-ended fuzzing of the API (schemathesis): new random cases on every run, unlike the
# fixed cases `make test` runs; what it finds is replayed first next time (.hypothesis/).
# FUZZ_EXAMPLES cases per operation (default 25). CI runs it without letting it decide.
fuzz: venv
	$(TEST_ENV) FUZZ_EXPLORE=1 $(BIN)/pytest -m fuzz tests/test_api_fuzz.py $(PYTEST_ARGS)

# After any change of words in the code or templates: collect them into the catalogues
# (locale/<code>/LC_MESSAGES/django.po; needs GNU gettext's xgettext), then compile the
# .mo files the site reads (committed with them). docs/translating.md.
messages: venv
	SECRET_KEY=messages $(BIN)/python manage.py catalogues --update

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
	$(BIN)/python -m bench.elimination
	$(BIN)/python -m bench.round_robin
	$(BIN)/python -m bench.standings
	DATABASE_URL=$(TEST_DATABASE_URL) $(BIN)/python -m bench.draft
	DATABASE_URL=$(TEST_DATABASE_URL) $(BIN)/python -m bench.bracket_page

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .pytest_cache .mypy_cache .ruff_cache
