import os

import pytest
import yaml

from cogevol.train.config import GRPOSettings, ModelConfig, SFTSettings, TrainConfig, from_dict
from tests.conftest import REPO


def test_params_yaml_groups_build_the_dataclasses():
    params = yaml.safe_load((REPO / "params.yaml").read_text())
    m = from_dict(ModelConfig, params["model"])
    assert m.base == "tiny" and m.tiny.hidden_size == params["model"]["tiny"]["hidden_size"]
    t = from_dict(TrainConfig, params["train"])
    assert t.deepspeed and (REPO / t.deepspeed).exists()
    from_dict(SFTSettings, params["sft"])
    g = from_dict(GRPOSettings, params["grpo"])
    assert (g.beta, g.epsilon, g.learning_rate) == (0.001, 0.2, 1e-6)  # seed 001
    b, accumulation = g.micro_batch()
    assert b * accumulation == g.requests_per_step * g.num_generations


def test_unknown_keys_and_bad_values_fail_loudly():
    with pytest.raises(KeyError, match="learning_rat"):
        from_dict(SFTSettings, {"learning_rat": 1.0})
    with pytest.raises(KeyError):
        from_dict(ModelConfig, {"tiny": {"layers": 2}})
    with pytest.raises(ValueError, match="schedule"):
        TrainConfig(schedule="parallel")
    with pytest.raises(ValueError, match="grpo.requests_per_step: .* 15 completions do not split over 1 ranks x 2"):
        GRPOSettings(requests_per_step=3, num_generations=5, per_device_batch_size=2).micro_batch()
    assert GRPOSettings(requests_per_step=16, num_generations=5, per_device_batch_size=5).micro_batch(8) == (5, 2)
    assert GRPOSettings(requests_per_step=2, num_generations=4).micro_batch() == (8, 1)  # one micro-batch


def test_gpu_profile_overrides_only_existing_knobs():
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "infra/profiles/apply.py", "gpu"], cwd=REPO, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    args = out.stdout.split()
    assert "model.base='Qwen/Qwen3-4B-Base'" in args and "grpo.use_vllm=true" in args
    assert all(a == "-S" for a in args[::2])  # one shell word per override


def test_reward_workers_are_per_node_and_shared_by_its_ranks(monkeypatch):
    from cogevol.train.grpo_stage import workers_per_rank

    assert workers_per_rank(6) == 6
    monkeypatch.setenv("LOCAL_WORLD_SIZE", "7")
    assert workers_per_rank(6) == 1 and workers_per_rank(14) == 2


def test_reward_workers_are_shared_under_the_deepspeed_launcher_too(monkeypatch):
    """The deepspeed launcher exports LOCAL_SIZE, not torchrun's LOCAL_WORLD_SIZE: without it
    each of 7 ranks would open all 6 workers (42 pages, 84 renderers on one node)."""
    from cogevol.train.grpo_stage import workers_per_rank

    monkeypatch.delenv("LOCAL_WORLD_SIZE", raising=False)
    monkeypatch.setenv("LOCAL_SIZE", "7")
    assert workers_per_rank(6) == 1 and workers_per_rank(14) == 2


def test_colocated_vllm_context_and_sleep_mode_reach_trl(tmp_path):
    from cogevol.train.grpo import grpo_config

    g = from_dict(GRPOSettings, {"vllm_max_model_length": 18432, "vllm_enable_sleep_mode": True})
    cfg = grpo_config(tmp_path, g, from_dict(TrainConfig, {"deepspeed": None}))
    assert cfg.vllm_max_model_length == 18432 and cfg.vllm_enable_sleep_mode is True


def test_a_second_one_process_world_takes_a_fresh_port_and_a_launchers_world_is_kept(monkeypatch):
    """SFT then GRPO in one process (the smoke run): the first world's port may be taken by the
    time the second starts; a launcher started later exports its own port and is left alone."""
    from cogevol.train import distributed as d

    for var in ("RANK", "LOCAL_RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT", d.ONE_PROCESS_WORLD):
        monkeypatch.delenv(var, raising=False)
    ports = iter([40001, 40002])
    monkeypatch.setattr(d, "free_port", lambda: next(ports))
    d.single_process_world()
    assert os.environ["MASTER_PORT"] == "40001" and os.environ["WORLD_SIZE"] == "1"
    d.single_process_world()  # no process group is up: a new port
    assert os.environ["MASTER_PORT"] == "40002"
    monkeypatch.setenv("MASTER_PORT", "29500")  # a launcher's world (torchrun, deepspeed)
    monkeypatch.setenv("WORLD_SIZE", "2")
    d.single_process_world()
    assert os.environ["MASTER_PORT"] == "29500" and os.environ["WORLD_SIZE"] == "2"
