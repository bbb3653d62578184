"""The full-pipeline flow in DAG order on a throwaway DVC project, and the deployment file."""

import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from flows.common import dag_order

ROOT = Path(__file__).parents[2]
pytestmark = pytest.mark.timeout(600)


PIPELINE_STAGES = ("mine", "dedup", "filter", "scoring", "distill", "sft", "grpo_slide", "grpo_html", "evaluate")


def test_stage_order_comes_from_dvc_yaml_deps(tmp_path):
    assert dag_order(ROOT) == PIPELINE_STAGES and dag_order(ROOT, upto="filter") == ("mine", "dedup", "filter")
    stages = yaml.safe_load((ROOT / "dvc.yaml").read_text())["stages"]
    (tmp_path / "dvc.yaml").write_text(yaml.safe_dump({"stages": dict(reversed(list(stages.items())))}))
    assert dag_order(tmp_path) == PIPELINE_STAGES  # the deps decide, not the file's order


def test_pipeline_flow_runs_every_stage_in_order(tmp_path, monkeypatch, prefect_server):
    from flows.pipeline import pipeline

    root = tmp_path / "proj"
    root.mkdir()
    stages, prev = {}, None
    for s in PIPELINE_STAGES:
        cmd = f"echo {s} > {s}.txt" if prev is None else f"cat {prev}.txt > {s}.txt && echo {s} >> {s}.txt"
        stages[s] = {"cmd": cmd, "outs": [f"{s}.txt"], **({"deps": [f"{prev}.txt"]} if prev else {})}
        prev = s
    (root / "dvc.yaml").write_text(yaml.safe_dump({"stages": stages}))
    env = {**os.environ, "DVC_NO_ANALYTICS": "1"}
    subprocess.run(["git", "init", "-q"], cwd=root, check=True, env=env)
    subprocess.run([str(Path(sys.executable).parent / "dvc"), "init", "-q"], cwd=root, check=True, env=env)
    monkeypatch.setenv("COGEVOL_TRACKING", "0")
    result = pipeline(repo=str(root), track=False)
    assert [r["stage"] for r in result] == list(PIPELINE_STAGES)
    assert (root / "evaluate.txt").read_text().split() == list(PIPELINE_STAGES)


def test_deployments_point_at_real_flows_with_a_nightly_schedule():
    spec = yaml.safe_load((ROOT / "infra" / "prefect" / "prefect.yaml").read_text())
    names = {d["name"]: d for d in spec["deployments"]}
    assert names["cogevol-gpu"]["work_pool"]["name"] == "gpu-pool"
    assert names["nightly-mining"]["schedules"][0]["cron"] == "0 2 * * *"
    for d in spec["deployments"]:
        path, fn = d["entrypoint"].split(":")
        module = importlib.import_module(path.removesuffix(".py").replace("/", "."))
        assert callable(getattr(module, fn)), d["entrypoint"]
