"""The curation flow under Prefect's test harness, on a throwaway DVC project whose three stages
are small shell commands: order, log forwarding, and retries on a flaky stage."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

pytestmark = pytest.mark.timeout(600)


def test_curation_flow_runs_stages_in_order_with_retries(tmp_path, monkeypatch, prefect_server):
    from flows.curation import curation

    root = tmp_path / "proj"
    root.mkdir()
    py = sys.executable
    flaky = f"{py} -c \"import pathlib,sys; p=pathlib.Path('tries'); n=int(p.read_text()) if p.exists() else 0; p.write_text(str(n+1)); sys.exit(n < 1)\""
    dvc_yaml = {"stages": {
        "mine": {"cmd": "echo mined > mined.txt && echo $COGEVOL_CURATION_ENGINE $RAY_ADDRESS > where.txt",
                 "outs": ["mined.txt"]},
        "dedup": {"cmd": "cat mined.txt > dedup.txt && echo deduped >> dedup.txt", "deps": ["mined.txt"], "outs": ["dedup.txt"]},
        "filter": {"cmd": f"{flaky} && cat dedup.txt > prompts.txt", "deps": ["dedup.txt"], "outs": ["prompts.txt"]},
    }}
    (root / "dvc.yaml").write_text(yaml.safe_dump(dvc_yaml))
    env = {**os.environ, "DVC_NO_ANALYTICS": "1"}
    subprocess.run(["git", "init", "-q"], cwd=root, check=True, env=env)
    subprocess.run([str(Path(py).parent / "dvc"), "init", "-q"], cwd=root, check=True, env=env)
    monkeypatch.setenv("COGEVOL_TRACKING", "0")

    result = curation(repo=str(root), retries={"filter": 1}, track=False, engine="ray",
                      ray_address="10.0.0.5:6379")

    assert [r["stage"] for r in result] == ["mine", "dedup", "filter"]
    assert (root / "prompts.txt").read_text() == "mined\ndeduped\n"
    assert (root / "tries").read_text() == "2"  # failed once, retried once
    assert (root / "where.txt").read_text() == "ray 10.0.0.5:6379\n"  # the stages learn where to run
    assert "filter" in yaml.safe_load((root / "dvc.lock").read_text())["stages"]
