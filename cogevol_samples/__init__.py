"""Sample generators and fixtures for tests and benchmarks: the seeded production-traffic
generator and its vocabulary, the labelled near-duplicate query sets, the real-page agreement
helpers and the learning-run verdicts.

Why a package of its own: DVC reruns a stage when a module it depends on changes. These modules
serve benchmarks and tests, not the pipeline; inside `cogevol/traffic`, `cogevol/dedup`,
`cogevol/evaluate` or `cogevol/train` an edit to a benchmark helper reran curation, training and
evaluation. No stage imports this package (tests/test_dvc_deps.py would list it); `cogevol
traffic` (the CLI) does, to write sample traffic.
"""
