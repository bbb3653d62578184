"""Sizes of the models a run loads: parameters, and the KV cache one token costs a server.

The plan needs them before anything is downloaded, so the Qwen models the profiles name are
described here from their published config.json; any other model is read from its own
config.json (a local checkpoint, or a copy in the Hugging Face cache). Parameter counts are
computed from the architecture the same way for all of them, so a new entry cannot disagree
with the formula (Qwen3-4B: 4.02 B; Qwen3-32B: 32.8 B; tested).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Arch:
    hidden: int
    layers: int
    heads: int
    kv_heads: int
    head_dim: int
    intermediate: int
    vocab: int
    tied: bool
    extra_params: float = 0.0  # parameters outside the decoder (a vision tower), in billions

    @property
    def params_b(self) -> float:
        """Decoder parameters (embeddings, attention, SwiGLU MLP, norms) plus extra, in billions."""
        h, d = self.hidden, self.head_dim
        attn = h * self.heads * d * 2 + h * self.kv_heads * d * 2
        mlp = 3 * h * self.intermediate
        embed = self.vocab * h * (1 if self.tied else 2)
        return (embed + self.layers * (attn + mlp + 2 * h)) / 1e9 + self.extra_params

    @property
    def kv_bytes_per_token(self) -> int:
        """bf16 K and V of every layer for one token (what a vLLM server keeps per token)."""
        return 2 * self.layers * self.kv_heads * self.head_dim * 2


# published config.json values (Hugging Face hub, 2025)
_QWEN3 = {
    "0.6B": Arch(1024, 28, 16, 8, 128, 3072, 151936, True),
    "1.7B": Arch(2048, 28, 16, 8, 128, 6144, 151936, True),
    "4B": Arch(2560, 36, 32, 8, 128, 9728, 151936, True),
    "8B": Arch(4096, 36, 32, 8, 128, 12288, 151936, False),
    "14B": Arch(5120, 40, 40, 8, 128, 17408, 151936, False),
    "32B": Arch(5120, 64, 64, 8, 128, 25600, 151936, False),
}
KNOWN: dict[str, Arch] = {
    **{f"Qwen/Qwen3-{k}": a for k, a in _QWEN3.items()},
    **{f"Qwen/Qwen3-{k}-Base": a for k, a in _QWEN3.items() if k != "32B"},
    "Qwen/Qwen2.5-VL-7B-Instruct": Arch(3584, 28, 28, 4, 128, 18944, 152064, False, 0.67),
    "Qwen/Qwen2.5-VL-3B-Instruct": Arch(2048, 36, 16, 2, 128, 11008, 151936, True, 0.67),
}


def from_config(cfg: dict) -> Arch:
    """An Arch from a transformers config.json (the text config of a vision-language model)."""
    text = cfg.get("text_config") or cfg
    heads = text["num_attention_heads"]
    return Arch(
        hidden=text["hidden_size"],
        layers=text["num_hidden_layers"],
        heads=heads,
        kv_heads=text.get("num_key_value_heads", heads),
        head_dim=text.get("head_dim") or text["hidden_size"] // heads,
        intermediate=text["intermediate_size"],
        vocab=text.get("vocab_size", cfg.get("vocab_size", 0)),
        tied=bool(cfg.get("tie_word_embeddings", text.get("tie_word_embeddings", False))),
        extra_params=0.67 if "vision_config" in cfg else 0.0,
    )


def _cached_config(model: str) -> Path | None:
    """The config.json of a hub id in the local Hugging Face cache (nothing is downloaded)."""
    from huggingface_hub import try_to_load_from_cache

    try:
        found = try_to_load_from_cache(model, "config.json")
    except ValueError:  # not a hub id (a path that does not exist, a typo)
        return None
    return Path(found) if isinstance(found, str) else None


def arch_of(model: str, tiny: dict | None = None) -> Arch | None:
    """The architecture of a model id or path; None when nothing says what it is.

    `tiny` is params.yaml's model.tiny (the embedded build has no config until it is built)."""
    if model == "tiny" and tiny is not None:
        heads = tiny["num_attention_heads"]
        return Arch(
            tiny["hidden_size"],
            tiny["num_hidden_layers"],
            heads,
            tiny["num_key_value_heads"],
            tiny["hidden_size"] // heads,
            tiny["intermediate_size"],
            tiny["vocab_size"],
            bool(tiny.get("tie_word_embeddings", True)),
        )
    if model == "smollm2-135m":
        return Arch(576, 30, 9, 3, 64, 1536, 49152, True)
    if model in KNOWN:
        return KNOWN[model]
    path = Path(model) / "config.json"
    if not path.is_file():
        path = _cached_config(model)
    if path is not None and path.is_file():
        return from_config(json.loads(path.read_text(encoding="utf-8")))
    return None


def params_from_name(model: str) -> float | None:
    """A last resort for an unknown hub id: the size its name states ("...-7B-..."), or None."""
    m = re.search(r"(\d+(?:\.\d+)?)\s*[Bb](?![a-z])", model.rsplit("/", 1)[-1])
    return float(m.group(1)) if m else None
