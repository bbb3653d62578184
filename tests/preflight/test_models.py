import json

import pytest

from cogevol.preflight.models import KNOWN, arch_of, from_config, params_from_name


@pytest.mark.parametrize(
    "model,published",
    [("Qwen/Qwen3-4B-Base", 4.02), ("Qwen/Qwen3-32B", 32.8), ("Qwen/Qwen3-8B", 8.19),
     ("Qwen/Qwen2.5-VL-7B-Instruct", 8.29), ("Qwen/Qwen3-0.6B", 0.6)],
)
def test_parameter_counts_follow_the_architecture(model, published):
    assert KNOWN[model].params_b == pytest.approx(published, abs=0.05)


def test_a_local_checkpoint_is_read_from_its_config(tmp_path):
    cfg = {"hidden_size": 2560, "num_hidden_layers": 36, "num_attention_heads": 32,
           "num_key_value_heads": 8, "head_dim": 128, "intermediate_size": 9728,
           "vocab_size": 151936, "tie_word_embeddings": True}
    (tmp_path / "config.json").write_text(json.dumps(cfg))
    assert arch_of(str(tmp_path)) == from_config(cfg) == KNOWN["Qwen/Qwen3-4B"]
    assert KNOWN["Qwen/Qwen3-32B"].kv_bytes_per_token == 2 * 64 * 8 * 128 * 2


def test_unknown_models_say_nothing_rather_than_guess(tmp_path):
    assert arch_of(str(tmp_path / "nowhere")) is None
    assert params_from_name("acme/Coder-7B-Instruct") == 7.0 and params_from_name("acme/coder") is None
    assert arch_of("tiny", {"hidden_size": 128, "num_hidden_layers": 4, "num_attention_heads": 4,
                            "num_key_value_heads": 2, "intermediate_size": 256,
                            "vocab_size": 3072}).params_b < 0.01
