"""Training knobs as documented dataclasses (TRL style), built from params.yaml groups.

params.yaml holds the values; these classes hold the meaning and the defaults, and refuse
unknown keys so that a typo in params.yaml fails loudly instead of silently training with a
default. GPU values from seed 001 (WebCatalyst, Table 7) are quoted next to each GRPO knob; the
committed params are the tiny CPU values.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from cogevol.config import from_dict  # noqa: F401  (the strict loader; re-exported for the stages)


@dataclass
class TinyModelConfig:
    """Architecture of the embedded CPU model (a Qwen3ForCausalLM).

    Small enough that sft + grpo_slide + grpo_html finish in minutes on 2 cores, but the same
    architecture class as Qwen3-4B-Base so every code path (chat template, generation, DeepSpeed,
    save/load) is the one the GPU profile runs.
    """

    vocab_size: int = 3072  # BPE merges are learned up to this size (special tokens included)
    hidden_size: int = 128
    intermediate_size: int = 256
    num_hidden_layers: int = 4
    num_attention_heads: int = 4
    num_key_value_heads: int = 2  # grouped-query attention, like Qwen3
    max_position_embeddings: int = 4096  # >= sft.max_length and prompt + completion in GRPO
    tie_word_embeddings: bool = True  # halves the parameters of a small-vocab model


@dataclass
class ModelConfig:
    """Where the policy comes from (params.yaml: model)."""

    # tiny | smollm2-135m (packaged, offline) | hub id
    # (Qwen/Qwen3-4B-Base) | local checkpoint directory
    base: str = "tiny"
    seed: int = 1234  # tiny: same seed -> same vocabulary and weights
    dtype: str = "float32"  # float32 on CPU; bfloat16 on GPU
    attn_implementation: str = "sdpa"  # sdpa | flash_attention_2 (GPU) | eager
    tiny: TinyModelConfig = field(default_factory=TinyModelConfig)


@dataclass
class TrainConfig:
    """Settings shared by the training stages (params.yaml: train)."""

    # serial: grpo_slide then grpo_html | joint: one GRPO round, both modalities
    schedule: str = "serial"
    # ZeRO config; null trains with plain torch
    deepspeed: str | None = "infra/deepspeed/zero2.json"
    seed: int = 42
    bf16: bool = False  # GPU: true
    gradient_checkpointing: bool = False  # GPU: true for 4B+ (trades compute for activation memory)
    torch_threads: int = 0  # intra-op threads; 0 leaves torch's default (all cores)

    def __post_init__(self) -> None:
        if self.schedule not in ("serial", "joint"):
            raise ValueError(f"train.schedule must be serial or joint, not {self.schedule!r}")


def shared_fields(settings, trl_config: type, exclude: tuple[str, ...] = ()) -> dict[str, Any]:
    """The settings whose names are fields of the TRL config class, passed through as they are:
    a knob added to both needs no line of glue, and none can be forgotten."""
    names = {f.name for f in fields(trl_config)}
    return {
        f.name: getattr(settings, f.name)
        for f in fields(settings)
        if f.name in names and f.name not in exclude
    }


def save_args(save_steps: int | None) -> dict[str, Any]:
    """TRL's save arguments from our `save_steps` (null: the final checkpoint only)."""
    return {"save_strategy": "steps" if save_steps else "no", "save_steps": save_steps or 500}


@dataclass
class SFTSettings:
    """Mixed SFT on the distilled chat dataset (params.yaml: sft)."""

    epochs: float = 30.0
    # > 0 caps the optimizer steps of `epochs` (the embedded profile's time guard)
    max_steps: int = 400
    learning_rate: float = 3e-3  # a tiny model from scratch needs a high rate; GPU (4B): 1e-5
    lr_scheduler_type: str = "cosine"
    warmup_ratio: float = 0.05
    weight_decay: float = 0.0
    # packed blocks are flattened into one sequence: sdpa cost ~ its square
    per_device_batch_size: int = 1
    gradient_accumulation_steps: int = 1
    max_length: int = 2048  # packed block length in tokens (GPU: 16384+)
    packing: bool = True  # best-fit-decreasing packing: no padding, no cross-example attention
    max_grad_norm: float = 1.0
    logging_steps: int = 1
    # intermediate checkpoints (models/sft/checkpoint-N); null: final only
    save_steps: int | None = None


@dataclass
class GRPOSettings:
    """GRPO for one or both modalities (params.yaml: grpo). Seed 001 GPU values in comments."""

    num_prompts: int = 8  # prompts drawn (seeded) from the curated set per modality
    requests_per_step: int = 2  # prompts per optimizer step (seed 001: 16)
    num_generations: int = 4  # group size G (seed 001: 5)
    gradient_accumulation_steps: int = 1  # completions per step split into this many micro-batches
    # updates per batch of rollouts (PPO epochs; > 1 uses the clip; seed 001: 1)
    num_iterations: int = 1
    max_steps: int = 4  # optimizer steps (seed 001: 40)
    learning_rate: float = 1e-6  # seed 001: 1e-6, constant
    lr_scheduler_type: str = "constant"
    beta: float = 0.001  # KL coefficient eta (seed 001: 0.001)
    epsilon: float = 0.2  # PPO clip epsilon_c (seed 001: 0.2)
    max_grad_norm: float = 1.0  # gradient clipping (seed 001: 1.0)
    loss_type: str = "dapo"  # token-mean over the global batch (seed 001: token mean)
    scale_rewards: str = "group"  # group std normalisation (seed 001)
    temperature: float = 0.5  # the embedded tiny model; seed 001: 1.0
    top_p: float = 1.0
    # prompts longer than this (tokens, chat-templated) are dropped (seed 001: 2048)
    max_prompt_length: int = 1024
    max_completion_length: int = 640  # seed 001: 32768
    # completions of a group scored in parallel (probe pages / slide renders in flight)
    reward_workers: int = 2
    # CPU rollouts are token-at-a-time: 1 thread is as fast and never stalls; 0: train's
    torch_threads: int = 1
    log_rollouts: int = 4  # rollouts per step written to the MLflow table
    logging_steps: int = 1
    save_steps: int | None = None  # intermediate checkpoints; null: final only
    use_vllm: bool = False  # GPU: true; rollouts with vLLM instead of model.generate
    vllm_mode: str = "colocate"  # colocate (same GPUs) | server (infra/vllm/serve.sh --rollout)
    # server mode: http://HOST:8003 (infra/vllm/serve.sh rollout)
    vllm_server_base_url: str | None = None
    vllm_gpu_memory_utilization: float = 0.3  # colocate: share of each GPU vLLM may take
    vllm_tensor_parallel_size: int = 1  # colocate

    def per_device_batch_size(self, world_size: int = 1) -> int:
        """Completions per micro-batch so that one optimizer step sees requests_per_step groups."""
        total = self.requests_per_step * self.num_generations
        div = self.gradient_accumulation_steps * world_size
        if total % div:
            raise ValueError(
                f"requests_per_step * num_generations = {total} must divide evenly over "
                f"gradient_accumulation_steps * world_size = {div}"
            )
        return total // div
