"""How long each training stage will take on the declared hardware: an estimate, not a promise.

From tokens per step, FLOPs per token (6 x parameters to train a token, 2 x to run it forward, a
third more when activations are recomputed) and the card's bf16 dense throughput at a stated
utilisation. Rollouts are decoded, which is bound by memory traffic rather than arithmetic, so
they get a much lower utilisation. The figures are there to catch runs that are an order of
magnitude off (an SFT of three optimizer steps, a GRPO step of an hour), not to plan to the
minute; every assumption is in the output.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

# bf16 dense TFLOPS by the memory a card is sold with (GiB): the nearest at or below is used
CARDS = {
    16: ("T4 / V100 16 GB class", 65.0),
    24: ("RTX 4090 / L4 / A10 class", 165.0),
    40: ("A100 40 GB", 312.0),
    48: ("L40S / A6000 class", 180.0),
    80: ("H100 SXM", 989.0),
    141: ("H200", 989.0),
}
TRAIN_MFU = 0.35  # share of peak a packed bf16 training step reaches
DECODE_MFU = 0.02  # share of peak for batched decoding of long rollouts (memory-bound)
SFT_MIN_STEPS = 50  # fewer optimizer steps than this barely moves a model
GRPO_MAX_STEP_S = 600.0  # a longer GRPO step is worth a warning
ANSWER_SHARE = 0.5  # a distilled answer is about half its teacher's max_tokens


@dataclass
class StageTime:
    stage: str
    steps: int
    seconds_per_step: float
    assumptions: str

    @property
    def seconds(self) -> float:
        return self.steps * self.seconds_per_step

    def to_dict(self) -> dict:
        return {
            "steps": self.steps,
            "seconds_per_step": round(self.seconds_per_step, 1),
            "minutes": round(self.seconds / 60, 1),
            "assumptions": self.assumptions,
        }


def card(gpu_gib: float, tflops: float | None = None) -> tuple[str, float]:
    """(name, bf16 dense TFLOPS) of the declared card; `tflops` overrides the table."""
    fits = [m for m in CARDS if m <= gpu_gib + 0.5] or [min(CARDS)]
    name, table = CARDS[max(fits)]
    return (f"{tflops:g} TFLOPS (given)", tflops) if tflops else (name, table)


def sft_time(params: dict, params_b: float, ranks: int, tflops: float) -> StageTime:
    """Optimizer steps of the SFT stage and their time, from the distilled data it will get."""
    s, d = params.get("sft") or {}, params.get("distill") or {}
    max_len = int(s.get("max_length", 2048))
    teachers = d.get("teachers") or []
    answer = max((int(t.get("max_tokens") or 0) for t in teachers), default=0) * ANSWER_SHARE
    if not answer:  # a replay teacher has no token cap: its pages are cut at max_answer_chars
        answer = (d.get("max_answer_chars") or 4 * max_len) / 4
    record = min(max_len, 512 + answer)  # system prompt and request, then the answer
    prompts = int(d.get("max_prompts") or 0)
    blocks = math.ceil(prompts * record / max_len)
    per_step = int(s.get("per_device_batch_size", 1)) * int(s.get("gradient_accumulation_steps", 1))
    per_step *= max(ranks, 1)
    epochs = float(s.get("epochs", 1))
    steps = max(1, math.ceil(epochs * math.ceil(blocks / per_step)))
    if int(s.get("max_steps", -1)) > 0:
        steps = min(steps, int(s["max_steps"]))
    recompute = 4 / 3 if (params.get("train") or {}).get("gradient_checkpointing") else 1.0
    flops = per_step * max_len * 6 * params_b * 1e9 * recompute
    sec = flops / (max(ranks, 1) * tflops * 1e12 * TRAIN_MFU)
    why = (
        f"{prompts} distilled prompts x 1 admitted answer of ~{record:.0f} tokens packed into "
        f"{max_len}-token blocks, {per_step} blocks per step, {epochs:g} epochs; "
        f"training at {TRAIN_MFU:.0%} of peak"
    )
    return StageTime("sft", steps, sec, why)


def grpo_time(params: dict, params_b: float, ranks: int, tflops: float) -> StageTime:
    """One GRPO stage: rollouts decoded on the training GPUs (colocated vLLM or generate), the
    reference forward when beta > 0, and the policy's forward and backward."""
    g = params.get("grpo") or {}
    completions = int(g.get("requests_per_step", 1)) * int(g.get("num_generations", 1))
    comp = int(g.get("max_completion_length", 640))
    seq = int(g.get("max_prompt_length", 1024)) + comp
    p = params_b * 1e9
    recompute = 4 / 3 if (params.get("train") or {}).get("gradient_checkpointing") else 1.0
    gen = completions * comp * 2 * p / (max(ranks, 1) * tflops * 1e12 * DECODE_MFU)
    per_token = 6 * p * recompute + (2 * p if float(g.get("beta", 0)) > 0 else 0)
    update = completions * seq * per_token / (max(ranks, 1) * tflops * 1e12 * TRAIN_MFU)
    why = (
        f"{completions} completions of up to {comp} tokens decoded at {DECODE_MFU:.0%} of peak, "
        f"then trained on at {TRAIN_MFU:.0%} (full-length completions: an upper bound)"
    )
    return StageTime("grpo", int(g.get("max_steps", 1)), gen + update, why)


def warnings(times: list[StageTime]) -> list[tuple[str, str]]:
    """(knob, why) for an SFT too short to train and a GRPO step too long to iterate on."""
    out = []
    for t in times:
        if t.stage == "sft" and t.steps < SFT_MIN_STEPS:
            out.append(
                (
                    "distill.max_prompts",
                    f"SFT would make about {t.steps} optimizer steps (< {SFT_MIN_STEPS}): it would "
                    "barely train; distill more prompts, or lower sft.gradient_accumulation_steps",
                )
            )
        if t.stage == "grpo" and t.seconds_per_step > GRPO_MAX_STEP_S:
            out.append(
                (
                    "grpo.max_completion_length",
                    f"one GRPO step would take about {t.seconds_per_step / 60:.0f} min "
                    f"(> {GRPO_MAX_STEP_S / 60:.0f}); shorten completions or use fewer per step",
                )
            )
    return out
