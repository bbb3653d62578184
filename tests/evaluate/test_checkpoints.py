"""Evaluation answers keyed by a checkpoint's weights; the end-of-turn stop; the vLLM engine."""

import json
import os
import shutil
import sys
import types

import torch

from cogevol.evaluate import stage
from cogevol.evaluate.checkpoints import weights_digest
from cogevol.evaluate.generate import stop_token_ids
from cogevol.evaluate.suites import SuiteItem


def test_the_digest_follows_the_weights_not_the_path_or_the_trainer_state(tmp_path, tiny_dir):
    a, b = tmp_path / "a", tmp_path / "b"
    shutil.copytree(tiny_dir, a)
    shutil.copytree(tiny_dir, b)
    (b / "training_args.bin").write_bytes(b"other run")
    assert weights_digest(a) == weights_digest(b) is not None
    raw = bytearray((b / "model.safetensors").read_bytes())
    raw[-1] ^= 1
    (b / "model.safetensors").write_bytes(bytes(raw))
    assert weights_digest(a) != weights_digest(b)
    assert weights_digest("Qwen/Qwen3-4B-Base") is None  # a hub id is not here to hash


def test_same_weights_generate_once_and_a_rerun_generates_nothing(tmp_path, tiny_dir, monkeypatch):
    shutil.copytree(tiny_dir, tmp_path / "sft")
    shutil.copytree(tiny_dir, tmp_path / "grpo")  # an update that changed no weight
    calls = []

    def fake_local(path, prompts, *a, **k):
        calls.append(path)
        return [f"answer {i}" for i in range(len(prompts))]

    monkeypatch.setattr(stage, "generate_local", fake_local)
    cfg = stage.EvalConfig(systems=[{"name": "sft", "path": str(tmp_path / "sft")},
                                    {"name": "grpo", "path": str(tmp_path / "grpo")}],
                           cache_dir=str(tmp_path / "cache"))
    items = [SuiteItem(id="a", kind="html", category="tool", prompt="make a counter")]
    first = stage.generate_all(cfg, items, {})
    assert first == {"sft": ["answer 0"], "grpo": ["answer 0"]} and len(calls) == 1
    stage.generate_all(cfg, items, {})
    assert len(calls) == 1
    cfg.max_new_tokens = 64  # other settings: other answers
    stage.generate_all(cfg, items, {})
    assert len(calls) == 2


def test_generation_stops_at_the_chat_templates_end_of_turn(tiny_dir):
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(tiny_dir)
    ids = stop_token_ids(tok)
    assert tok.convert_tokens_to_ids("<|im_end|>") in ids and tok.eos_token_id in ids


def test_the_vllm_engine_gets_the_checkpoint_its_chat_template_and_the_stops(tmp_path, tiny_dir, monkeypatch):
    """vLLM cannot run here (no GPU); its offline API is stood in for to check the wiring."""
    seen = {}

    class LLM:
        def __init__(self, model, **kw):
            seen["model"], seen["engine"] = model, kw
            seen["reserved"] = os.environ.get("VLLM_CPU_NUM_OF_RESERVED_CPU")

        def chat(self, conversations, params):
            seen["conversations"], seen["params"] = conversations, params
            out = types.SimpleNamespace(text="<!DOCTYPE html><html></html>")
            return [types.SimpleNamespace(outputs=[out]) for _ in conversations]

    monkeypatch.setitem(sys.modules, "vllm", types.SimpleNamespace(LLM=LLM, SamplingParams=lambda **k: k))
    monkeypatch.setenv("VLLM_CPU_NUM_OF_RESERVED_CPU", "")  # so that what main sets is undone after
    monkeypatch.delenv("VLLM_CPU_NUM_OF_RESERVED_CPU")
    from cogevol.evaluate import vllm_generate

    job = {"path": str(tiny_dir), "prompts": [[{"role": "user", "content": "hi"}]], "max_new_tokens": 99,
           "temperature": 0.0, "seed": 3, "options": {"tensor_parallel_size": 2}}
    (tmp_path / "job.json").write_text(json.dumps(job))
    assert vllm_generate.main([str(tmp_path / "job.json"), str(tmp_path / "out.json")]) == 0
    assert json.loads((tmp_path / "out.json").read_text()) == ["<!DOCTYPE html><html></html>"]
    assert seen["model"] == str(tiny_dir) and seen["engine"] == {"seed": 3, "tensor_parallel_size": 2}
    assert seen["params"]["max_tokens"] == 99 and seen["params"]["stop_token_ids"]
    assert "seed" not in seen["params"]  # the engine's seed: repeated prompts must differ when sampled
    # on a CPU the engine keeps no core for a front end that only waits
    assert seen["reserved"] == ("0" if not torch.cuda.is_available() else None)
