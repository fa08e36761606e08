# Two set-up commands (README): `make run` and `make test`. Everything they need is installed here:
# the virtualenv from pyproject.toml, and the Debian packages a feature needs when they are missing.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 8000
# Serving anything but loopback is production (venue mode): DEBUG off, gunicorn with WORKERS workers,
# static files collected for whitenoise, a generated secret key kept outside the repository
# (KALOOKI_SECRET_KEY_FILE, default ~/.config/kalooki/secret_key). DEMO=1 loads the demo there too.
LOOPBACK := 127.0.0.1 localhost ::1
WORKERS  ?= 3
VENUE    := $(if $(filter $(HOST),$(LOOPBACK)),,1)
BIND     := $(if $(findstring :,$(HOST)),[$(HOST)],$(HOST)):$(PORT)
VENUE_ENV := DJANGO_VENUE=1

# WeasyPrint: Pango and HarfBuzz (subsetting makes PDFs several times faster); DejaVu shows ♠ ♥ ♦ ♣.
PDF_PACKAGES     := libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core
# The browser tests drive Debian's Chromium in its headless shell (the same engine without the browser's
# window: two fifths of the CPU of a full Chromium run headless); `make bench`'s entry section drives the
# full Chromium. Nothing downloads a browser at run time.
BROWSER_PACKAGES := chromium chromium-headless-shell
# The self-entry test renders a printed sheet (poppler's pdftoppm) and decodes its QR code (zbarimg).
QR_PACKAGES      := poppler-utils zbar-tools
# The load measurement drives the server with wrk (a Python client competes with the server for CPU).
BENCH_PACKAGES   := wrk

.PHONY: run test test-full bench lint format install install-test system-pdf system-browser system-qr system-bench clean help

help:
	@echo "make run    - install, migrate, load the demo event and serve http://$(HOST):$(PORT)"
	@echo "             (HOST=0.0.0.0: the venue's network, in production: gunicorn, DEBUG off)"
	@echo "make test   - install what the tests need and run the whole suite"
	@echo "make test-full - the whole suite with the heavy cases at full size (KALOOKI_FULL=1)"
	@echo "make bench  - the tournament-scale benchmark (1,024 players; BENCH_ARGS=--large adds 16,384)"
	@echo "make lint   - ruff and mypy --strict on the engine"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	@touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[test]'
	@touch $@ $(VENV)/.installed

install: $(VENV)/.installed
install-test: $(VENV)/.installed-test

# Install Debian packages that are missing, when we can (root with apt-get); otherwise say what is missing.
define ensure_debs
	@missing=""; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "Installing system packages:$$missing"; \
	    (apt-get update -qq || true) && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	  else \
	    echo "Missing system packages:$$missing (install them with: sudo apt-get install$$missing)"; \
	  fi; \
	fi
endef

system-pdf:
	$(call ensure_debs,$(PDF_PACKAGES))

system-browser:
	$(call ensure_debs,$(BROWSER_PACKAGES))

system-qr:
	$(call ensure_debs,$(QR_PACKAGES))

system-bench:
	$(call ensure_debs,$(BENCH_PACKAGES))

run: install system-pdf
ifeq ($(VENUE),)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_demo
	@echo
	@echo "Serving on http://$(HOST):$(PORT)/  (Ctrl+C stops it)"
	@echo "Directors log in at http://$(HOST):$(PORT)/accounts/login/ with the demo director's login above."
	@# The worker for long jobs (big round packs, standings PDFs, imports) runs beside the server.
	@# It is started again whenever it stops (a crash, kill -9); jobs it left running are run again.
	( trap 'kill $$w 2>/dev/null; exit 0' INT TERM; while :; do $(BIN)/python manage.py jobs_worker --no-reload --verbosity 0 & w=$$!; wait $$w; echo "The worker stopped; starting it again." >&2; sleep 2; done ) & worker=$$!; trap 'kill $$worker' EXIT INT TERM; \
	  $(BIN)/python manage.py runserver $(BIND)
else
	$(VENUE_ENV) $(BIN)/python manage.py migrate --noinput
	$(VENUE_ENV) $(BIN)/python manage.py createcachetable
	$(VENUE_ENV) $(BIN)/python manage.py collectstatic --noinput --verbosity 0
	$(VENUE_ENV) $(BIN)/python manage.py load_demo $(if $(DEMO),--force,--lock)
	@echo
	@echo "Venue mode: gunicorn ($(WORKERS) workers, DEBUG off) on http://$(HOST):$(PORT)/  (Ctrl+C stops it)"
	@echo "Phones and the projector connect by this machine's address on the venue's network."
	@echo "Directors: python manage.py create_director NAME --event SLUG (or DEMO=1 for the demo's login above)."
	( trap 'kill $$w 2>/dev/null; exit 0' INT TERM; while :; do $(VENUE_ENV) $(BIN)/python manage.py jobs_worker --no-reload & w=$$!; wait $$w; echo "The worker stopped; starting it again." >&2; sleep 2; done ) & worker=$$!; trap 'kill $$worker' EXIT INT TERM; \
	  $(VENUE_ENV) $(BIN)/gunicorn kalooki_tournament.wsgi --workers $(WORKERS) --bind $(BIND) --timeout 120 \
	  --access-logfile -
endif

# The suite runs on parallel workers, one a core, at most 8 (pytest-xdist; TEST_JOBS=0: one process).
# A test file runs whole on one worker (--dist loadfile), so a browser module's Chromium and live
# server, or a module's world, is made once; each worker has its own test database (an SQLite file of
# its own, or test_<name>_gw0, _gw1 … on PostgreSQL) and its own Redis database (settings.py). The files
# are handed out in the suite's order, the long ones first (tests/conftest.py): left to itself, xdist
# hands out the files of most tests first, and the long one-test browser files came last, one worker
# busy for half a minute while the other waited (--no-loadscope-reorder).
# The tests keep their compiled modules (and pytest its rewritten test modules) in __pycache__ even where
# the environment says PYTHONDONTWRITEBYTECODE: otherwise every worker, server and command the suite
# starts compiles the project again (4 to 5 seconds for each worker's collection alone).
TEST_JOBS ?= $(shell n=$$(nproc 2>/dev/null || echo 1); [ "$$n" -gt 8 ] && n=8; echo $$n)
PYTEST := env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest \
  $(if $(filter 0,$(TEST_JOBS)),,-n $(TEST_JOBS) --dist loadfile --no-loadscope-reorder)

test: install-test system-pdf system-browser system-qr
	$(PYTEST) $(PYTEST_ARGS)

# Heavy cases (fuzzing, property runs) run small in `make test`; KALOOKI_FULL=1 gives them their full size.
test-full: install-test system-pdf system-browser system-qr
	KALOOKI_FULL=1 $(PYTEST) $(PYTEST_ARGS)

bench: install-test system-pdf system-browser system-bench
	$(BIN)/python manage.py bench $(BENCH_ARGS)

lint: install-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy --strict adjudication/engine

format: install-test
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

clean:
	rm -rf $(VENV) build staticfiles .pytest_cache .mypy_cache .ruff_cache .hypothesis .test-db-*.sqlite3*
