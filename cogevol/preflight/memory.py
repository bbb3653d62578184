"""Per-GPU memory of a training rank and of a vLLM server, estimated from the architecture.

An estimate, not a measurement: it counts what dominates (weights, gradients and Adam state as
ZeRO shards them, the frozen reference model, a colocated vLLM's share, activations with or
without checkpointing, the logits of one micro-batch) plus a fixed allowance for the CUDA
context and the allocator. Its job is to refuse layouts that cannot fit (a 4B policy with its
optimizer on one 24 GB card) and to show where the memory goes in those that can.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cogevol.preflight.models import Arch

GIB = 2**30
CONTEXT_GIB = 3.0  # CUDA context, NCCL buffers, allocator fragmentation


@dataclass
class Zero:
    """What the DeepSpeed config shards or offloads (stage 0 = plain data parallel)."""

    stage: int = 0
    offload_optimizer: bool = False
    offload_params: bool = False

    @classmethod
    def from_config(cls, ds: dict | None) -> Zero:
        z = (ds or {}).get("zero_optimization") or {}

        def on_cpu(key: str) -> bool:
            return (z.get(key) or {}).get("device", "none") in ("cpu", "nvme")

        return cls(int(z.get("stage", 0)), on_cpu("offload_optimizer"), on_cpu("offload_param"))


@dataclass
class Estimate:
    parts: dict[str, float] = field(default_factory=dict)  # GiB per component
    # GiB counted in parts that is never resident with the rest at the peak (a colocated vLLM in
    # sleep mode frees its share during the update, whose gradients and activations it makes
    # room for): the peak is the larger of the two phases
    never_together: float = 0.0

    @property
    def total(self) -> float:
        return sum(self.parts.values()) - self.never_together

    def to_dict(self) -> dict:
        out = {"total_gib": round(self.total, 1), **{k: round(v, 2) for k, v in self.parts.items()}}
        if self.never_together:
            out["not_at_once"] = round(self.never_together, 2)
        return out


def training_rank(
    arch: Arch,
    *,
    world: int,
    zero: Zero,
    bytes_per_param: int,
    tokens: int,
    logit_tokens: int,
    checkpointing: bool,
    reference: bool = False,
    colocated_vllm_gib: float = 0.0,
    vllm_sleeps: bool = False,
) -> Estimate:
    """One rank's memory. tokens: a micro-batch's sequence tokens; logit_tokens: those whose
    logits are kept (the completion in GRPO, the whole block in SFT). vllm_sleeps: the colocated
    vLLM releases its share during the update (grpo.vllm_enable_sleep_mode), so the peak is the
    rollout phase (vLLM awake) or the update (gradients, activations, logits), not both."""
    p = arch.params_b * 1e9
    w = max(world, 1)
    weights = p * bytes_per_param / (w if zero.stage >= 3 else 1)
    grads = p * bytes_per_param / (w if zero.stage >= 2 else 1)
    # Adam m and v in fp32, plus an fp32 master copy when the weights are 16-bit
    opt_bytes = 8 + (4 if bytes_per_param < 4 else 0)
    optimizer = 0.0 if zero.offload_optimizer else p * opt_bytes / (w if zero.stage >= 1 else 1)
    if zero.offload_params:
        weights = 0.0
    per_layer_full = tokens * (arch.hidden * 14 + arch.intermediate * 6)  # bf16 saved tensors
    inputs = tokens * arch.hidden * 2 * arch.layers
    acts = inputs + per_layer_full if checkpointing else per_layer_full * arch.layers
    # bf16 logits, their gradient and the fp32 log-softmax of a row at a time: ~8 bytes each
    logits = logit_tokens * arch.vocab * 8
    parts = {
        "weights": weights / GIB,
        "gradients": grads / GIB,
        "optimizer": optimizer / GIB,
        "activations": acts / GIB,
        "logits": logits / GIB,
        "context": CONTEXT_GIB,
    }
    if reference:
        parts["reference_model"] = p * bytes_per_param / (w if zero.stage >= 3 else 1) / GIB
    overlap = 0.0
    if colocated_vllm_gib:
        parts["vllm_colocated"] = colocated_vllm_gib
        if vllm_sleeps:
            update = parts["gradients"] + parts["activations"] + parts["logits"]
            overlap = min(colocated_vllm_gib, update)
    return Estimate(parts, overlap)


@dataclass
class ServerFit:
    """A vLLM server on tp GPUs: weights per GPU and how many full-length sequences its KV
    cache holds."""

    model: str
    tp: int
    weights_gib: float  # per GPU
    kv_gib: float  # per GPU, what remains of the memory share
    sequences: float  # full max_len sequences the KV cache holds at once
    max_len: int

    def to_dict(self) -> dict:
        return {
            "model": self.model,
            "tensor_parallel": self.tp,
            "weights_gib_per_gpu": round(self.weights_gib, 1),
            "kv_cache_gib_per_gpu": round(self.kv_gib, 1),
            "max_len": self.max_len,
            "full_length_sequences": round(self.sequences, 1),
        }


def server_fit(
    model: str, arch: Arch, *, tp: int, gpu_gib: float, utilization: float, max_len: int
) -> ServerFit:
    tp = max(tp, 1)
    weights = arch.params_b * 1e9 * 2 / tp / GIB
    kv = utilization * gpu_gib - weights - 1.5  # activations and CUDA graphs of the server
    per_seq = arch.kv_bytes_per_token * max_len / tp / GIB
    return ServerFit(model, tp, weights, kv, max(kv, 0.0) / per_seq, max_len)
