"""The three stage scripts as `dvc repro` runs them (subprocesses, params from a file, DeepSpeed)."""

import csv
import json
import os
import subprocess
import sys

import pytest
import yaml
from transformers import AutoModelForCausalLM

from cogevol.train.synthetic import prompt_records
from tests.conftest import REPO

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.timeout(900)]


def test_sft_grpo_slide_grpo_html_scripts_write_checkpoints_metrics_and_plots(tmp_path, sft_data, tracking):
    params = yaml.safe_load((REPO / "params.yaml").read_text())
    params["model"]["tiny"].update(vocab_size=768, hidden_size=64, intermediate_size=128, num_hidden_layers=2)
    params["sft"].update(epochs=1, max_steps=4)
    params["grpo"].update(max_steps=1, num_prompts=2, max_completion_length=16)
    (tmp_path / "params.yaml").write_text(yaml.safe_dump(params))
    sft_data.save_to_disk(str(tmp_path / "sft" / "train"))
    prompts = tmp_path / "prompts.jsonl"
    prompts.write_text("".join(json.dumps(r) + "\n" for r in prompt_records(20)))
    world = ("RANK", "LOCAL_RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT")
    env = {k: v for k, v in os.environ.items() if k not in world}  # each stage makes its own one-process world
    env["COGEVOL_PARAMS"] = str(tmp_path / "params.yaml")
    inputs = {"sft": tmp_path / "sft" / "train", "grpo_slide": tmp_path / "sft_out", "grpo_html": tmp_path / "grpo_slide_out"}
    for stage, src in inputs.items():
        cmd = [sys.executable, f"stages/{stage}.py", "--input", str(src), str(prompts), "--out", str(tmp_path / f"{stage}_out"),
               "--metrics", str(tmp_path / f"{stage}.json"), "--plot", str(tmp_path / f"{stage}.csv")]
        p = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True)
        assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
        metrics = json.loads((tmp_path / f"{stage}.json").read_text())
        assert metrics and not any(k.endswith("_s") for k in metrics)  # results only in the DVC file
        rows = list(csv.DictReader(open(tmp_path / f"{stage}.csv")))
        assert rows and ("loss" in rows[0] if stage == "sft" else "reward" in rows[0])
        assert AutoModelForCausalLM.from_pretrained(tmp_path / f"{stage}_out").config.model_type == "qwen3"
    assert (tmp_path / "sft_out" / "base" / "cogevol_tiny.json").exists()
    assert json.loads((tmp_path / "grpo_html.json").read_text())["modalities"] == ["html"]
