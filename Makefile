# Build/test entry points for taolong_lab.  GNU make; recipes run under /bin/sh.

VENV   ?= .venv
PY      = $(VENV)/bin/python
PYTHON ?= python3
PIP     = $(PY) -m pip

DEV_STAMP = $(VENV)/.installed-dev
LAB_SETTINGS = $(VENV)/share/jupyter/lab/settings

# Reinstall when the packaging config or the version string changes
# (the installed metadata carries the version read from taolong_lab/version.py).
INSTALL_DEPS = pyproject.toml setup.py taolong_lab/version.py $(wildcard native/*/*.cpp native/*/*.hpp)

.DEFAULT_GOAL := help

.PHONY: help setup test test-full test-browser fuzz lab notebooks lint fmt bench golden atlas \
	proofs proofs-artefact site site-serve clean

help:
	@echo "Targets (each sets up $(VENV) first, with 'make setup'):"
	@echo "  make setup      create $(VENV) and install '.[dev]': the lab, JupyterLab and the test tools"
	@echo "  make test       ruff check + format check + pytest (not slow), 2 xdist workers"
	@echo "  make test-full  ruff check + format check + pytest, all tests incl. slow"
	@echo "  make test-browser  only the real-browser tests (JupyterLab and the web page in chromium)"
	@echo "  make fuzz       a long random fuzz campaign of the readers (FUZZ_EXAMPLES a test)"
	@echo "  make lab        trust the notebooks, start JupyterLab in notebooks/ (the dev set holds it)"
	@echo "  make notebooks  execute every notebook in place, outputs stored (tools/notebooks.py)"
	@echo "  make site       build the web page into $(SITE_DIR) (npm's pinned Pyodide + the lab's wheel)"
	@echo "  make site-serve serve $(SITE_DIR) on http://127.0.0.1:$(SITE_PORT)/"
	@echo "  make lint       ruff check . and ruff format --check ."
	@echo "  make fmt        ruff check --fix . and ruff format ."
	@echo "  make bench      run bench/run.py, bench/solo.py and bench/widgets.py"
	@echo "  make golden     regenerate golden files (tools/golden.py)"
	@echo "  make atlas      prove more of the solo atlas (resumes), then its README table"
	@echo "  make proofs     make the SAT proofs not in the repository (docs/proofs.md)"
	@echo "  make proofs-artefact  pack puzzles/proofs/ into $(PROOFS_ARTEFACT) + .sha256"
	@echo "  make clean      remove $(VENV), caches and build artefacts"
	@echo "Variables: VENV=$(VENV) PYTHON=$(PYTHON) SITE_DIR=$(SITE_DIR) SITE_PORT=$(SITE_PORT)"
	@echo "Without make: pip install . (the library and the taolong command), pip install '.[lab]'"
	@echo "  (JupyterLab and the Explorer too); see the README's 'Installing the library only'."

setup: $(DEV_STAMP)

# One environment for everything: the dev extra holds JupyterLab and ipywidgets too.
$(DEV_STAMP): $(INSTALL_DEPS)
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install --upgrade pip
	mkdir -p data
	$(PIP) install -e '.[dev]'
	@# replacing a hatchling-era install leaves an empty site-packages/taolong_lab, which
	@# would shadow the editable package
	rmdir $(VENV)/lib/python3*/site-packages/taolong_lab 2>/dev/null || true
	@# JupyterLab without its news and update toasts (they cover the notebook)
	mkdir -p $(LAB_SETTINGS)
	printf '%s\n' '{"@jupyterlab/apputils-extension:notification":' \
		'{"fetchNews": "false", "checkForUpdates": false}}' > $(LAB_SETTINGS)/overrides.json
	touch $@

test: $(DEV_STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(PY) -m pytest -m "not slow" -n 2

test-full: $(DEV_STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(PY) -m pytest -n 2

# Needs /usr/bin/chromium (apt-get install -y chromium); the screenshot goes to artifacts/.
test-browser: $(DEV_STAMP)
	$(PY) -m pytest -m browser -p no:xdist

# tests/test_fuzz.py with a random seed and FUZZ_EXAMPLES examples a test; an input read in more
# than one second fails too. Hypothesis prints how to reproduce a failure.
FUZZ_EXAMPLES ?= 20000

fuzz: $(DEV_STAMP)
	TAOLONG_FUZZ=1 TAOLONG_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(PY) -m pytest tests/test_fuzz.py \
		--hypothesis-show-statistics

# JupyterLab refuses to run as root unless told to (these machines run as root).
LAB_FLAGS ?= $(if $(filter 0,$(shell id -u)),--allow-root,)

# The lab's own notebooks are trusted, so their stored SVG and HTML outputs render (opened
# untrusted they show the PNG stored beside each SVG).
lab: $(DEV_STAMP)
	$(VENV)/bin/jupyter trust notebooks/*.ipynb
	$(VENV)/bin/jupyter lab $(LAB_FLAGS) notebooks/

# Each notebook runs in a fresh python3 kernel with PYTHONHASHSEED=0; tests/test_notebooks.py
# checks that the stored outputs are current.
notebooks: $(DEV_STAMP)
	$(PY) tools/notebooks.py

lint: $(DEV_STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

fmt: $(DEV_STAMP)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

bench: $(DEV_STAMP)
	$(PY) bench/run.py
	$(PY) bench/solo.py
	$(PY) bench/widgets.py

golden: $(DEV_STAMP)
	$(PY) tools/golden.py

atlas: $(DEV_STAMP)
	$(VENV)/bin/taolong atlas puzzles/atlas
	$(PY) tools/atlas_table.py

# The large SAT proofs are a release artefact, not in git (docs/proofs.md): made again here, the
# same CNF and DRAT files byte for byte, each checked before it is moved into puzzles/proofs/.
PROOFS_ARTEFACT = dist/taolong-proofs.tar.gz

proofs: $(DEV_STAMP)
	$(PY) bench/proofs.py --set rulebook --missing
	$(PY) bench/proofs.py --set bundled --missing

# Unpack from the repository's root: tar -xzf dist/taolong-proofs.tar.gz
proofs-artefact: proofs
	mkdir -p dist
	tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 --exclude='*.partial' \
		--exclude=.gitignore -cf - puzzles/proofs | gzip -n > $(PROOFS_ARTEFACT).tmp
	mv $(PROOFS_ARTEFACT).tmp $(PROOFS_ARTEFACT)
	cd dist && sha256sum taolong-proofs.tar.gz > taolong-proofs.tar.gz.sha256

# The web page: a static folder (docs/performance.md has its figures; the README says how to
# publish it). npm installs the Pyodide pinned in site/package-lock.json into site/node_modules.
SITE_DIR ?= build/site
SITE_PORT ?= 8000

site: $(DEV_STAMP)
	$(PY) tools/build_site.py $(SITE_DIR)

site-serve: site
	@echo "serving $(SITE_DIR) on http://127.0.0.1:$(SITE_PORT)/ (Ctrl-C stops it)"
	$(PY) -m http.server $(SITE_PORT) --bind 127.0.0.1 --directory $(SITE_DIR)

clean:
	rm -rf $(VENV) build dist .pytest_cache .ruff_cache .hypothesis site/node_modules
	rm -rf *.egg-info
	find . -path ./.git -prune -o -type d -name __pycache__ -prune -exec rm -rf {} +
