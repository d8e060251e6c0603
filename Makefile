# Zongheng Deckbox. `make run` and `make test` work on a fresh machine with python3 (3.11+) and make.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test test-browser-all test-fast check install messages makemessages migrate catalog lint format typecheck bench bench-scale bench-scene audit serve-prod cluster clean

$(STAMP): requirements.txt requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -r requirements-dev.txt
	touch $(STAMP)

install: $(STAMP)

# Translations compile in pure Python (no GNU gettext needed).
messages: install
	$(BIN)/python manage.py translations -v0

# For developers (needs GNU gettext): collect new strings into locale/zh_Hant; translate them, then
# `manage.py translations --simplified` writes zh_Hans.
makemessages: install
	$(BIN)/python manage.py makemessages -l zh_Hant -e html,txt,py,svg --ignore='.venv/*' --ignore='tests/*' --ignore='bench/*' --no-location

migrate: messages
	$(BIN)/python manage.py migrate --noinput

catalog: migrate
	$(BIN)/python manage.py loadcatalog
	$(BIN)/python manage.py refreshverdicts

# The server and, beside it, the worker that reads photos (Django's tasks, kept in the database),
# started again whenever it exits; stopping the server stops the worker.
run: catalog
	$(BIN)/python manage.py worker --interval 1 & worker=$$!; \
	trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

# On every core (pytest-xdist), each worker with its own database. `--dist load` hands tests out
# in the collected order, in which the tests that empty the tables come last (tests/conftest.py):
# a worker never runs a test that needs the catalogue after one that emptied it.
test: messages
	$(BIN)/python -m pytest -n auto --dist load $(PYTEST_ARGS)

# The browser tests, each journey (tests/site_wide/test_journeys.py) in all three languages
# rather than the one CI rotates to.
test-browser-all: messages
	JOURNEY_LANGUAGES=all $(BIN)/python -m pytest -n auto --dist load -m browser $(PYTEST_ARGS)

# The edit-test loop: the tests of the apps changed against main and the fast ones (tests/fast.py),
# on SQLite, without the browser and the tests that start servers of their own.
test-fast: messages
	$(BIN)/python -m pytest -q -m "not browser and not once" $$($(BIN)/python tests/fast.py) $(PYTEST_ARGS)

# Before a commit: lint, import contracts, migrations, types and the fast tests.
check: lint typecheck test-fast

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/python manage.py makemigrations --check --dry-run

format: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

typecheck: install
	$(BIN)/mypy

bench: messages
	$(BIN)/python bench/legality.py
	$(BIN)/python bench/collection_import.py
	$(BIN)/python bench/search.py
	$(BIN)/python bench/events.py
	$(BIN)/python bench/queries.py
	$(BIN)/python bench/http.py
	$(BIN)/python bench/machinery.py
	$(BIN)/python bench/tournament.py
	$(BIN)/python bench/buildable.py
	$(BIN)/python bench/rows.py
	$(BIN)/python bench/scan.py
	$(BIN)/python bench/uploads.py
	$(BIN)/python bench/markup.py

# The site at community scale on PostgreSQL (BENCH_SCALE_URL): 100,000 decks, 10,000 users.
bench-scale: messages
	$(BIN)/python bench/scale.py

# The scene on PostgreSQL (BENCH_SCENE_URL): 10,000 events, 1,000,000 matches, the ratings.
bench-scene: messages
	$(BIN)/python bench/scene.py

# Lighthouse (npm, pinned in audit/package-lock.json) on the main pages, mobile profile, with
# Debian's chromium (apt-get install chromium); needs Node.js and npm.
audit: messages
	cd audit && npm ci --no-audit --no-fund --loglevel=error
	$(BIN)/python bench/audit.py

# Production: DEBUG off, hashed static files served by whitenoise, gunicorn.
# Two gunicorn servers behind haproxy on one machine, sharing PostgreSQL, Redis and an S3 store
# (deploy/cluster.py; needs Debian's haproxy, and PostgreSQL and Redis running).
cluster: messages
	$(BIN)/python -m deploy.cluster

serve-prod: messages
	DEBUG=0 $(BIN)/python manage.py collectstatic --noinput -v0
	DEBUG=0 $(BIN)/python manage.py migrate --noinput
	DEBUG=0 $(BIN)/python manage.py loadcatalog
	DEBUG=0 $(BIN)/python manage.py refreshverdicts
	DEBUG=0 $(BIN)/python manage.py worker --interval 1 & worker=$$!; \
	trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	DEBUG=0 $(BIN)/gunicorn zongheng.wsgi -c zongheng/gunicorn_conf.py --bind $(HOST):$(PORT) --workers $${WEB_CONCURRENCY:-3} --access-logfile -

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache .mypy_cache
