import pytest
from transformers import AutoTokenizer

from cogevol.prompts import system_prompt
from cogevol.train.data import _length, grpo_prompts, load_sft, to_prompt_completion
from cogevol.train.synthetic import prompt_records


def test_sft_contract_and_prompt_completion_split(tmp_path, sft_data):
    sft_data.save_to_disk(str(tmp_path / "train"))
    ds = load_sft(tmp_path / "train")
    assert {"messages", "modality", "category", "prompt_id", "teacher", "candidate", "score"} <= set(ds.column_names)
    pc = to_prompt_completion(ds)
    assert pc.column_names == ["prompt", "completion"]
    ex = pc[0]
    assert [m["role"] for m in ex["prompt"]] == ["system", "user"] and ex["completion"][0]["role"] == "assistant"
    bad = sft_data.select([0]).map(lambda e: {"messages": e["messages"][:2]})
    with pytest.raises(ValueError, match="assistant"):
        to_prompt_completion(bad)


def test_grpo_prompts_are_seeded_per_modality_and_length_bounded(tiny_dir):
    recs = prompt_records(40, seed=1)
    a = grpo_prompts(recs, ["slide"], 5, seed=3)
    assert a["prompt_id"] == grpo_prompts(recs, ["slide"], 5, seed=3)["prompt_id"]
    assert a["prompt_id"] != grpo_prompts(recs, ["slide"], 5, seed=4)["prompt_id"]
    assert set(a["modality"]) == {"slide"} and len(a) == 5
    assert a[0]["prompt"][0] == {"role": "system", "content": system_prompt("slide")}
    both = grpo_prompts(recs, ["slide", "html"], 3, seed=0)
    assert sorted(both["modality"]) == ["html"] * 3 + ["slide"] * 3
    tok = AutoTokenizer.from_pretrained(tiny_dir)
    lengths = sorted(_length(tok, p) for p in grpo_prompts(recs, ["html"], 20, seed=0)["prompt"])
    limit = lengths[len(lengths) // 2]
    kept = grpo_prompts(recs, ["html"], 20, seed=0, tokenizer=tok, max_prompt_length=limit)
    assert 0 < len(kept) < 20 and all(_length(tok, p) <= limit for p in kept["prompt"])  # dropped, not cut
    with pytest.raises(ValueError, match="no slide prompts"):
        grpo_prompts(recs, ["slide"], 3, seed=0, tokenizer=tok, max_prompt_length=10)
