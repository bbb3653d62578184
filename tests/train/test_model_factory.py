import json

import torch
from safetensors.torch import load_file
from transformers import AutoModelForCausalLM, AutoTokenizer

from cogevol.train.model_factory import PROVENANCE, TARGET_WEIGHT, build_tiny, corpus_texts, load
from cogevol.train.tokenizer import IM_END, PAD
from tests.conftest import small_model_config

TEST_MODEL = small_model_config()


def test_same_seed_same_vocab_and_weights_other_seed_other_weights(tmp_path, sft_data):
    texts = corpus_texts(None, ["<div>hello</div>"] * 3)
    a = build_tiny(tmp_path / "a", TEST_MODEL, texts)
    b = build_tiny(tmp_path / "b", TEST_MODEL, texts)
    c = build_tiny(tmp_path / "c", type(TEST_MODEL)(seed=8, tiny=TEST_MODEL.tiny), texts)
    assert (a / "tokenizer.json").read_text() == (b / "tokenizer.json").read_text()
    wa, wb, wc = (load_file(p / "model.safetensors") for p in (a, b, c))
    assert wa.keys() == wb.keys() and all(torch.equal(wa[k], wb[k]) for k in wa)
    assert any(not torch.equal(wa[k], wc[k]) for k in wa)
    assert json.loads((a / PROVENANCE).read_text())["seed"] == TEST_MODEL.seed


def test_the_tokenizer_learns_the_targets_with_the_weight_of_the_samples():
    texts = corpus_texts(None, ["<p id=\"out\"></p>", ""])
    assert texts.count("<p id=\"out\"></p>") == TARGET_WEIGHT > 1 and "" not in texts


def test_saved_like_a_hub_checkpoint_and_round_trips(tiny_dir, model_cfg):
    model = AutoModelForCausalLM.from_pretrained(tiny_dir)
    tok = AutoTokenizer.from_pretrained(tiny_dir)
    assert type(model).__name__ == "Qwen3ForCausalLM" and model.config.model_type == "qwen3"
    assert model.config.vocab_size == len(tok) <= model_cfg.tiny.vocab_size
    assert tok.eos_token == IM_END and tok.pad_token == PAD
    for text in ["Make a quiz about volcanoes", "Fais une courbe des températures 🌋", "中文幻灯片",
                 '<button id="b">+</button>', '{"type": "title", "x": 80}']:
        ids = tok(text, add_special_tokens=False)["input_ids"]
        assert tok.decode(ids) == text  # byte-level: any text round-trips
    resaved = tiny_dir.parent / "resaved"
    m2, t2 = load(tiny_dir, model_cfg)
    m2.save_pretrained(resaved)
    t2.save_pretrained(resaved)
    m3 = AutoModelForCausalLM.from_pretrained(resaved)
    assert all(torch.equal(p, q) for p, q in zip(model.state_dict().values(), m3.state_dict().values()))


def test_html_and_slide_json_get_merges(tiny_dir):
    tok = AutoTokenizer.from_pretrained(tiny_dir)
    page = "<!DOCTYPE html>\n<html>\n<head>\n<style>\nbody { margin: 0; }\n</style>"
    assert len(tok(page)["input_ids"]) < len(page.encode()) / 2


def test_chat_template_is_qwen_style_and_generation_stops_at_end_of_turn(tiny_dir, model_cfg):
    model, tok = load(tiny_dir, model_cfg)
    msgs = [{"role": "system", "content": "S"}, {"role": "user", "content": "U"}, {"role": "assistant", "content": "A"}]
    text = tok.apply_chat_template(msgs, tokenize=False)
    assert text == "<|im_start|>system\nS<|im_end|>\n<|im_start|>user\nU<|im_end|>\n<|im_start|>assistant\nA<|im_end|>\n"
    prompt = tok.apply_chat_template(msgs[:2], tokenize=False, add_generation_prompt=True)
    assert prompt.endswith("<|im_start|>assistant\n") and text.startswith(prompt)
    special = tok.convert_ids_to_tokens(tok(text, add_special_tokens=False)["input_ids"])
    assert special.count("<|im_start|>") == 3 and special.count("<|im_end|>") == 3
    assert tok.convert_tokens_to_ids(IM_END) in model.generation_config.eos_token_id
    ids = tok(prompt, return_tensors="pt", add_special_tokens=False)
    out = model.generate(**ids, max_new_tokens=5, do_sample=False)
    assert out.shape[1] <= ids["input_ids"].shape[1] + 5


def test_bf16_weights_trained_without_deepspeed_are_held_in_fp32(tiny_dir, model_cfg):
    """torch AdamW on bf16 weights rounds an lr-1e-6 update away; DeepSpeed keeps fp32 masters."""
    from dataclasses import replace

    from cogevol.train.config import TrainConfig

    bf16 = replace(model_cfg, dtype="bfloat16")
    plain, _ = load(tiny_dir, bf16, TrainConfig(bf16=True, deepspeed=None))
    assert {p.dtype for p in plain.parameters()} == {torch.float32}
    zero, _ = load(tiny_dir, bf16, TrainConfig(bf16=True, deepspeed="infra/deepspeed/zero2.json"))
    assert {p.dtype for p in zero.parameters()} == {torch.bfloat16}
    served, _ = load(tiny_dir, bf16)  # for generation: as model.dtype says
    assert {p.dtype for p in served.parameters()} == {torch.bfloat16}
    # why: one lr-1e-6 step on a weight near 1 is lost in bf16 and kept in fp32
    w = torch.ones(4)
    assert torch.equal((w.bfloat16() - 1e-6).float(), w) and not torch.equal(w - 1e-6, w)
