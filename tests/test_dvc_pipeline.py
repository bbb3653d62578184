"""The real DAG on a copy of the repository: `dvc repro filter` (the curation third; the whole
DAG runs in the quick start), then a filter param change reruns only filter."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import mlflow
import pytest
import yaml

from cogevol_samples.traffic import MALFORMED_LINES, write_sample
from tests.conftest import REPO

pytestmark = pytest.mark.timeout(600)


def _sh(cmd, cwd, env):
    p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr
    return p.stdout + p.stderr


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "proj"
    root.mkdir()
    for f in ("dvc.yaml", "params.yaml"):
        shutil.copy(REPO / f, root / f)
    for d in ("stages", "cogevol", "data/checklists"):  # the filter stage plans from the checklist replay
        shutil.copytree(REPO / d, root / d, ignore=shutil.ignore_patterns("__pycache__"))
    write_sample(str(root / "data" / "raw" / "traffic"), n=400, seed=1)
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}", "DVC_NO_ANALYTICS": "1"}
    _sh(["git", "init", "-q"], root, env)
    _sh(["git", "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-q", "--allow-empty", "-m", "init"], root, env)
    _sh(["dvc", "init", "-q"], root, env)
    return root, env


def test_repro_then_filter_param_reruns_only_filter(project):
    root, env = project
    out = _sh(["dvc", "repro", "filter"], root, env)
    assert all(f"Running stage '{s}'" in out for s in ("mine", "dedup", "filter"))
    assert (root / "data/curated/prompts/prompts.jsonl").stat().st_size > 0
    assert (root / "data/curated/dedup/semantic_query_groups.csv").exists()
    planted = sum(1 for raw, _ in MALFORMED_LINES if raw.strip())  # blank lines are not records
    assert (root / "data/mined/quarantine.jsonl").read_text().count("\n") == planted

    params = yaml.safe_load((root / "params.yaml").read_text())
    params["filter"]["min_content_units"] = 3.0
    (root / "params.yaml").write_text(yaml.safe_dump(params))
    out = _sh(["dvc", "repro", "filter"], root, env)
    assert "Running stage 'filter'" in out
    assert "Stage 'mine' didn't change" in out and "Stage 'dedup' didn't change" in out
    assert "up to date" in _sh(["dvc", "status", "filter"], root, env)

    c = mlflow.MlflowClient()
    runs = c.search_runs([c.get_experiment_by_name("cogevol").experiment_id], order_by=["attributes.start_time ASC"])
    stages = [(r.data.tags.get("mlflow.parentRunId"), r.data.tags["cogevol.stage"]) for r in runs if r.data.tags.get("cogevol.kind") == "stage"]
    parents = list(dict.fromkeys(p for p, _ in stages))
    assert [[s for p2, s in stages if p2 == p] for p in parents] == [["mine", "dedup", "filter"], ["filter"]]
    filter_run = [r for r in runs if r.info.run_name == "filter"][-1]
    assert filter_run.data.params["min_content_units"] == "3.0" and filter_run.data.metrics["kept"] > 0
