"""One GPU first (issue 58): the one-GPU profiles plan, overrides apply like DVC's, and refusals
name a layout that runs."""

import json
import subprocess
import sys

import pytest

from cogevol.core.config import load_profile, with_overrides
from cogevol.preflight.environment import Hardware, launch_line
from cogevol.preflight.plan import plan
from tests.conftest import REPO


def declared(gpus, nodes=1, mem=80.0):
    return Hardware(gpus, nodes, mem, "declared", declared=True)


@pytest.mark.parametrize("profile,mem", [("gpu-1x80", 80.0), ("gpu-1x80", 141.0), ("gpu-1x24", 24.0),
                                         ("gpu-1x24", 48.0)])
def test_the_one_gpu_profiles_plan_one_card(profile, mem, monkeypatch):
    monkeypatch.chdir(REPO)
    p = plan(load_profile(profile, REPO / "params.yaml"), declared(1, mem=mem))
    assert p.ok, p.render()
    assert p.ranks == 1
    g = p.grpo
    assert g["per_device_batch_size"] * g["gradient_accumulation_steps"] == g["requests_per_step"] * g["num_generations"]
    usable = mem * 0.95
    for rank in ("sft rank", "grpo rank"):
        assert p.memory[rank]["total_gib"] <= usable, (rank, p.memory[rank])
    assert "margin" in p.render()


def test_a_profile_extends_another_and_overrides_win(monkeypatch):
    monkeypatch.chdir(REPO)
    one = load_profile("gpu-1x24", REPO / "params.yaml")
    assert one["model"]["base"] == "Qwen/Qwen3-1.7B-Base"
    assert one["cluster"]["judge_gpus"] == 0  # from gpu-1x80
    assert one["train"]["gradient_checkpointing"] is True  # from gpu
    p = with_overrides(one, ["model.base='Qwen/Qwen3-0.6B-Base'", "grpo.learning_rate=1e-6",
                             "judge.enabled=true", "grpo.num_generations=8"])
    assert p["model"]["base"] == "Qwen/Qwen3-0.6B-Base" and p["grpo"]["learning_rate"] == 1e-6
    assert p["judge"]["enabled"] is True and p["grpo"]["num_generations"] == 8
    with pytest.raises(KeyError, match="grpo.learning_rat"):
        with_overrides(one, ["grpo.learning_rat=1e-6"])
    with pytest.raises(ValueError, match="key=value"):
        with_overrides(one, ["grpo.learning_rate"])


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "cogevol.cli", "preflight", *args], cwd=REPO,
                          capture_output=True, text=True, timeout=120)


def test_preflight_takes_dvc_style_overrides():
    bad = run_cli("--profile", "gpu-1x80", "--gpus", "1", "--gpu-memory-gb", "80",
                  "-S", "train.deepspeed=infra/deepspeed/zero2.json")
    assert bad.returncode == 2 and "train.deepspeed" in bad.stdout
    ok = run_cli("--profile", "gpu-1x80", "--gpus", "1", "--gpu-memory-gb", "80", "--json",
                 "-S", "grpo.num_generations=4", "-S", "model.base='Qwen/Qwen3-1.7B-Base'")
    assert ok.returncode == 0, ok.stdout + ok.stderr
    d = json.loads(ok.stdout)
    assert d["grpo"]["num_generations"] == 4 and d["grpo"]["completions_per_step"] == 16
    typo = run_cli("--profile", "gpu-1x80", "--gpus", "1", "-S", "grpo.num_generation=4")
    assert typo.returncode == 2 and "grpo.num_generation" in typo.stderr


def test_apply_prints_a_profile_with_overrides_as_dvc_arguments():
    out = subprocess.run([sys.executable, "infra/profiles/apply.py", "gpu-1x24", "-S", "grpo.learning_rate=2e-6"],
                         cwd=REPO, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    args = out.stdout.split()
    assert "model.base='Qwen/Qwen3-1.7B-Base'" in args and "cluster.judge_gpus=0" in args
    assert "grpo.learning_rate=2e-06" in args or "grpo.learning_rate=2e-6" in args
    assert "train.deepspeed='infra/deepspeed/zero2_offload.json'" in args


@pytest.mark.parametrize("profile,gpus,mem", [("gpu", 1, 80.0), ("gpu", 1, 141.0), ("gpu", 4, 24.0)])
def test_every_refusal_names_a_layout_that_runs(profile, gpus, mem, monkeypatch):
    """The refusal's suggestion, applied, plans (exit 0): advice that can be followed."""
    monkeypatch.chdir(REPO)
    params = load_profile(profile, REPO / "params.yaml")
    p = plan(params, declared(gpus, mem=mem))
    assert not p.ok
    assert p.suggestion is not None, p.render()
    assert p.suggestion["profile"] in p.render()
    fixed = with_overrides(load_profile(p.suggestion["profile"], REPO / "params.yaml"), p.suggestion["overrides"])
    assert plan(fixed, declared(gpus, mem=mem)).ok


def test_refusals_never_advise_what_the_profile_already_sets(monkeypatch):
    monkeypatch.chdir(REPO)
    params = load_profile("gpu", REPO / "params.yaml")  # checkpointing on, micro-batch 1
    params = with_overrides(params, ["grpo.max_completion_length=30000", "grpo.max_prompt_length=2048"])
    text = plan(params, declared(8, mem=80.0)).render()
    assert "set train.gradient_checkpointing: true" not in text
    assert "lower grpo.per_device_batch_size" not in text


def test_the_multi_node_launch_line_names_the_project_directory_not_pwd(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    line = launch_line(7, 2, list(range(7)), 8)
    assert "$PWD" not in line and str(tmp_path) in line
    monkeypatch.chdir(REPO)
    p = plan(load_profile("gpu", REPO / "params.yaml"), declared(8, nodes=2))
    assert "$PWD" not in p.render()
