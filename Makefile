# Two commands do all set-up on a fresh machine with Python 3.11: make serve, make test.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# installed: the package and its dependencies (all `make serve` needs) ...
STAMP := $(VENV)/.installed
# ... and the test extras and example plugins (`make test`, `make lint`)
TEST_STAMP := $(VENV)/.installed-test

.PHONY: serve test lint bench clean postgresql chromium

# .venv is made whole or not at all. A Python older than 3.11 is refused before it makes
# one (pip refused the package only after a minute of installing, and the .venv stayed,
# refused again with the right PYTHON= given); one whose venv fails half-way (Debian
# without python3-venv: bin/python made, then no ensurepip) has it removed, so the make
# after `apt-get install python3-venv` makes it afresh (tests/test_make_venv.py).
NEED_PY := import sys; sys.exit(sys.version_info < (3, 11))
$(BIN)/python:
	@$(PYTHON) -c '$(NEED_PY)' || { echo "deberc-net needs Python 3.11 or newer;" \
		"$(PYTHON) is $$($(PYTHON) -V 2>&1): give one, e.g. make serve PYTHON=python3.11"; \
		exit 2; }
	@echo "$(PYTHON) -m venv $(VENV)"
	@$(PYTHON) -m venv $(VENV) || { rm -rf $(VENV); exit 1; }

# a .venv that cannot install (made by an older Python, or half-made by a make of
# before): said with its cure, not pip's error at every run
VENV_OK = @$(BIN)/python -c '$(NEED_PY); import pip' 2>/dev/null || { echo "$(VENV) is" \
	"not a whole venv of Python 3.11 or newer: remove it (make clean), then run this again"; \
	exit 2; }

# pip is upgraded first: Python 3.11's own (23.2 here) installs all this too, but slower
# (make test's install 37 s and 23 s of CPU against 27 + 4 s and 16.5 + 2 s, load 5)
$(STAMP): $(BIN)/python pyproject.toml
	$(VENV_OK)
	@echo "Installing deberc-net and its dependencies into $(VENV) (once; a minute or more)..."
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $(STAMP)

# ARGS: more of serve's flags, e.g. make serve ARGS="--port 7600 --http-port 7680"
ARGS ?=
serve: $(STAMP)
	$(BIN)/deberc-net serve --house-bots $(ARGS)

# The tests install the test extras (pytest, ruff, mypy, selenium, hypothesis: never
# needed to serve) and the example third-party rule packages, to prove they plug in
# (their own tests, examples/*/tests, run with ours). All in one pip install, the
# package with them: two pip runs (each a resolve) and one build of the package fewer
# than the package, then its extras, then the examples (63 s → 36 s of a fresh clone's
# set-up, 23 → 17 s of CPU, at load 7 to 10; docs/performance.md). It is all $(STAMP)
# stands for too, so both stamps are touched. A new pyproject.toml (ours or an
# example's) installs all again; a `make serve` first leaves this stamp missing, so the
# next `make test` installs all.
# Its three editable builds run in the venv, with the setuptools upgraded here beside pip
# (the newest, so above every one's build requirement, `setuptools>=68`), not each in a
# fresh environment that pip fills with setuptools first: 19.3 s → 10.9 s, 16.5 → 10.5 s
# of CPU (load 5 to 8). `make serve`'s one build stays in pip's isolated environment.
EXAMPLES := examples/posled20 examples/perezdacha
$(TEST_STAMP): $(BIN)/python pyproject.toml $(addsuffix /pyproject.toml,$(EXAMPLES))
	$(VENV_OK)
	@echo "Installing deberc-net, the test tools and the example plugins into $(VENV) (once; a minute or more)..."
	$(BIN)/python -m pip install --quiet --upgrade pip setuptools
	$(BIN)/python -m pip install --quiet --no-build-isolation -e '.[test]' $(addprefix -e ,$(EXAMPLES))
	touch $(STAMP) $(TEST_STAMP)

# Debian packages the tests need, installed only when missing (root only: CI runs as root).
define apt_install
if [ "$$(id -u)" = 0 ]; then \
	apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $(1); \
else \
	echo "missing: run 'apt-get install $(1)' as root"; \
fi
endef

# The PostgreSQL store's tests start their own server from Debian's postgresql package:
# installed here when its binaries are missing (as root, as in CI; otherwise the tests
# say they need it and are skipped, except under CI=true, where they fail).
postgresql:
	@if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
		$(call apt_install,postgresql); \
	fi

# The web tests drive Debian's Chromium and its driver (tests/web): installed here when
# /usr/bin/chromium or /usr/bin/chromedriver is missing (as root, as in CI).
chromium:
	@if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then \
		$(call apt_install,chromium chromium-driver); \
	fi

# The suite waits on sockets, processes and browsers more than it computes: pytest
# workers (pytest-xdist) run a test while another waits. Four on two cores: the extra
# ones fill a core while others wait (2026-12-07, fresh clones, quiet: pytest 266 s with
# four against 315 s with three, all 5,087 passed; four also passed beside a helper's
# work at load 6-9; docs/performance.md, "Test suite"). TEST_WORKERS=0 runs it in one
# process. --dist worksteal: a worker that runs out of tests takes half of what the
# other has queued, so a file of slow tests does not end the run on one worker alone.
# The tests start many Python processes (servers, ladders, bots): with
# PYTHONDONTWRITEBYTECODE set in the environment each would compile our sources again,
# so the run writes its bytecode (__pycache__/, ignored by git) and they read it.
# The tests' temporary files (a fresh SQLite file for most of them, the ladders' files,
# the processes' scratch) go to tmpfs where there is one (TMPDIR, which pytest's tmp_path
# and every child process follow): on a disk each new SQLite file costs some 40 ms of
# fsync (the switch to WAL, the checkpoint at close), a fifth of the server tests' time.
# The files and SQLite are as real; no test is about surviving a power cut.
# Each run gets a directory of its own there, removed after a green run: pytest keeps only its last
# three base directories per user, so two runs side by side (two clones, CI beside a
# developer) sharing one TMPDIR could delete each other's files mid-test.
TEST_WORKERS ?= 4
TEST_TMPDIR ?= $(shell test -d /dev/shm -a -w /dev/shm && echo /dev/shm || echo /tmp)
test: $(TEST_STAMP) postgresql chromium
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	run_tmp=$$(mktemp -d $(TEST_TMPDIR)/deberc-test.XXXXXX) && \
	TMPDIR=$$run_tmp PYTHONDONTWRITEBYTECODE= \
		$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist worksteal; \
	status=$$?; if [ $$status -eq 0 ]; then rm -rf "$$run_tmp"; \
	else echo "the failed run's files are kept in $$run_tmp"; fi; exit $$status

lint: $(TEST_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python bench/engine.py --seconds 0.3
	$(BIN)/python bench/server.py
	$(BIN)/python bench/startup.py --repeat 5

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
