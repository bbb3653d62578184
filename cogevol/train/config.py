"""Training knobs as documented dataclasses (TRL style), built from params.yaml groups.

params.yaml holds the values; these classes hold the meaning and the defaults, and refuse
unknown keys so that a typo in params.yaml fails loudly instead of silently training with a
default. GPU values from seed 001 (WebCatalyst, Table 7) are quoted next to each GRPO knob; the
committed params are the tiny CPU values.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from cogevol.core.config import from_dict  # noqa: F401  (the strict loader; re-exported for the stages)


@dataclass
class TinyModelConfig:
    """Architecture of the embedded CPU model (a Qwen3ForCausalLM; params.yaml: model.tiny, where
    each knob is explained).

    Small enough that sft + grpo_slide + grpo_html finish in minutes on 2 cores, but the same
    architecture class as Qwen3-4B-Base so every code path (chat template, generation, DeepSpeed,
    save/load) is the one the GPU profile runs.
    """

    vocab_size: int = 3072
    hidden_size: int = 128
    intermediate_size: int = 256
    num_hidden_layers: int = 4
    num_attention_heads: int = 4
    num_key_value_heads: int = 2
    max_position_embeddings: int = 4096
    tie_word_embeddings: bool = True


@dataclass
class ModelConfig:
    """Where the policy comes from (params.yaml: model)."""

    base: str = "tiny"
    seed: int = 1234
    dtype: str = "float32"
    attn_implementation: str = "sdpa"
    tiny: TinyModelConfig = field(default_factory=TinyModelConfig)


@dataclass
class TrainConfig:
    """Settings shared by the training stages (params.yaml: train)."""

    schedule: str = "serial"
    deepspeed: str | None = "infra/deepspeed/zero2.json"
    seed: int = 42
    bf16: bool | str = False
    gradient_checkpointing: bool = False
    torch_threads: int = 0

    def __post_init__(self) -> None:
        if self.schedule not in ("serial", "joint"):
            raise ValueError(f"train.schedule must be serial or joint, not {self.schedule!r}")
        if self.bf16 not in (True, False, "auto"):
            raise ValueError(f"train.bf16 must be true, false or auto, not {self.bf16!r}")

    def use_bf16(self) -> bool:
        """Whether to train in bf16: `auto` decides at run time, where the device has fast bf16
        (a CUDA card that supports it; a CPU with AVX-512 BF16 or AMX tiles: on a CPU without
        them bf16 is emulated and slower than fp32)."""
        if self.bf16 != "auto":
            return bool(self.bf16)
        import torch

        if torch.cuda.is_available():
            return torch.cuda.is_bf16_supported()
        cpu = torch.cpu
        return any(
            getattr(cpu, probe, lambda: False)()
            for probe in ("_is_avx512_bf16_supported", "_is_amx_tile_supported")
        )


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
    max_steps: int = 400
    learning_rate: float = 3e-3
    lr_scheduler_type: str = "cosine"
    warmup_ratio: float = 0.05
    weight_decay: float = 0.0
    per_device_batch_size: int = 1
    gradient_accumulation_steps: int = 1
    max_length: int = 2048
    packing: bool = True
    max_grad_norm: float = 1.0
    logging_steps: int = 1
    save_steps: int | None = None


@dataclass
class AtcSettings:
    """Action-Trace Credit (params.yaml: grpo.atc, where each knob is explained;
    cogevol.train.atc)."""

    enabled: bool = False
    beta: float = 0.5
    gamma: float = 0.9

    def __post_init__(self) -> None:
        if not 0.0 <= self.beta < 1.0 or not 0.0 < self.gamma < 1.0:
            raise ValueError(f"grpo.atc: need 0 <= beta < 1 and 0 < gamma < 1, got {self}")


@dataclass
class LoraSettings:
    """LoRA adapters for GRPO through TRL's peft_config (params.yaml: grpo.lora, where each knob
    is explained): the adapter switched off is the KL reference, so no second model is loaded,
    and the adapter is merged into the weights before the checkpoint is saved."""

    enabled: bool = False
    r: int = 16
    alpha: int = 32
    dropout: float = 0.0
    target_modules: str = "all-linear"

    def __post_init__(self) -> None:
        if self.r < 1 or self.alpha < 1:
            raise ValueError(f"grpo.lora: need r >= 1 and alpha >= 1, got {self}")

    def peft_config(self):
        """The PEFT LoraConfig, or None when off."""
        if not self.enabled:
            return None
        from peft import LoraConfig

        return LoraConfig(
            r=self.r,
            lora_alpha=self.alpha,
            lora_dropout=self.dropout,
            target_modules=self.target_modules,
            task_type="CAUSAL_LM",
        )


@dataclass
class GRPOSettings:
    """GRPO for one or both modalities (params.yaml: grpo, where each knob is explained with seed
    001's GPU value)."""

    num_prompts: int = 8
    draw: str = "stratified"
    requests_per_step: int = 2
    num_generations: int = 4
    per_device_batch_size: int | None = None
    num_iterations: int = 1
    max_steps: int = 4
    learning_rate: float = 1e-6
    lr_scheduler_type: str = "constant"
    adam_beta1: float = 0.9
    beta: float = 0.001
    epsilon: float = 0.2
    max_grad_norm: float = 1.0
    loss_type: str = "dapo"
    scale_rewards: str = "group"
    temperature: float = 0.5
    top_p: float = 1.0
    max_prompt_length: int = 1024
    max_completion_length: int = 640
    reward_workers: int = 2
    max_judge_failure_rate: float = 0.1
    torch_threads: int = 1
    log_rollouts: int = 4
    logging_steps: int = 1
    save_steps: int | None = None
    use_vllm: bool = False
    vllm_mode: str = "colocate"
    vllm_server_base_url: str | None = None
    vllm_gpu_memory_utilization: float = 0.3
    vllm_tensor_parallel_size: int = 1
    vllm_max_model_length: int | None = None
    vllm_enable_sleep_mode: bool = False
    vllm_cpu_kv_cache_gb: int = 1
    vllm_importance_sampling_correction: bool = True
    atc: AtcSettings = field(default_factory=AtcSettings)
    lora: LoraSettings = field(default_factory=LoraSettings)

    def micro_batch(self, world_size: int = 1) -> tuple[int, int]:
        """(per-device batch, gradient accumulation steps), the accumulation derived: one optimizer
        step sees exactly requests_per_step groups, in micro-batches of per_device_batch_size
        completions on each of world_size ranks.
        A layout where that does not divide is refused with the knobs that fix it (the same
        arithmetic `cogevol preflight` plans with: cogevol.train.batch)."""
        from cogevol.train.batch import grpo_batch

        plan = grpo_batch(
            self.requests_per_step, self.num_generations, self.per_device_batch_size, world_size
        )
        if plan.problems:
            raise ValueError("; ".join(f"{p.knob}: {p.why}" for p in plan.problems))
        return plan.per_device_batch_size, plan.gradient_accumulation_steps
