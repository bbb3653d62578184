# Thin wrappers; the real work is in infra/setup.sh, dvc.yaml and pytest.
export PATH := $(CURDIR)/.venv/bin:$(PATH)

.PHONY: setup repro test test-all lint bench
setup:            ## .venv with cogevol (CPU torch), Debian chromium, DVC
	@bash infra/setup.sh

repro: setup      ## the whole DAG on the embedded default (params.yaml)
	dvc repro

test: setup       ## the default (fast) test suite, as CI runs it
	python -m pytest -q

test-all: setup   ## including slow tests
	python -m pytest -q -m "slow or not slow"

lint: setup
	ruff check cogevol cogevol_samples stages flows tests benchmarks scripts

bench: setup      ## benchmarks named in the issues (results in docs/benchmarks.md)
	python benchmarks/dedup_speed.py
	python benchmarks/dedup_quality.py
	python benchmarks/mine_speed.py
	python benchmarks/probe_real.py
	python benchmarks/probe_stability.py
	python benchmarks/probe_depth.py
	python benchmarks/probe_language.py
	python benchmarks/probe_load.py
	python benchmarks/scoring_service.py
