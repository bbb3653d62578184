"""GRPO with TRL for slides, HTML, or both at once (One-Big-Round).

A step samples `requests_per_step` prompts, `num_generations` completions each (the group),
scores every completion with its modality's reward (ModalityReward: routed and itemised, on
one set of scorers from cogevol.scoring),
normalises rewards within the group and takes one clipped policy-gradient step with a small
KL pull towards the starting checkpoint. Rollouts use `model.generate` (CPU) or vLLM (GPU,
colocated or a server from infra/vllm/serve.sh); vLLM is imported only when asked for.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import math
import os
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import torch
import trl
from datasets import Dataset
from trl import GRPOConfig, GRPOTrainer

from cogevol.pipeline.tracking import StageRun
from cogevol.train.atc import AtcStats, credit
from cogevol.train.callbacks import MetricsCallback, StepTimingCallback
from cogevol.train.config import (
    AtcSettings,
    GRPOSettings,
    ModelConfig,
    TrainConfig,
    save_args,
    shared_fields,
)
from cogevol.train.distributed import trainer_kwargs, world_size
from cogevol.train.model_factory import load
from cogevol.train.monitor import RolloutLog, StepTimer
from cogevol.train.rewards import SPECS, ModalityReward

log = logging.getLogger(__name__)


# TRL offers no public hook around a step's rollouts, nor one that reshapes advantages: this one
# private method is overridden, and checked to exist on the TRL that runs (tested on TRL 1.16).
ROLLOUT_PHASE = "_generate_and_score_completions"
TESTED_TRL = "1.16"


# keyword flags of GRPOTrainer._get_per_token_logps_and_entropies a text-only chunk may carry
TEXT_ONLY_FLAGS = ("compute_entropy", "compute_aux_loss")


def used_columns(attention_mask: torch.Tensor, logits_to_keep: int) -> tuple[slice, int]:
    """The columns of a left- and right-padded chunk that any of its rows uses, and how many of
    the last `logits_to_keep` (the completion) remain: a column no row attends to changes no
    other column's output, and RoPE's attention depends on relative positions only, so dropping
    the padding at both ends leaves every kept log-prob as it was, up to float rounding."""
    used = attention_mask.any(0).nonzero().flatten()
    width = attention_mask.size(1)
    if used.numel() == 0:
        return slice(0, width), logits_to_keep
    first = min(int(used[0]), width - logits_to_keep)  # never into the completion
    last = max(int(used[-1]) + 1, width - logits_to_keep + 1)  # at least one completion column
    return slice(first, last), logits_to_keep - (width - last)


class TimedGRPOTrainer(GRPOTrainer):
    """GRPOTrainer with one guarded override, around the rollout phase: it charges the phase to
    the StepTimer's `generate` share (less the reward time inside it, which the reward functions
    charge themselves) and, with Action-Trace Credit on (`atc`), turns each traced completion's
    advantage into token advantages (cogevol.train.atc); with it off, TRL's batch is returned
    untouched. ATC's metrics reach the logs through `log`, TRL's public method. Two more private
    methods are wrapped, each a saving that changes no result and falls back to TRL's own
    behaviour if TRL stops calling it: the per-token log-probs (each chunk at its own width) and
    the colocated vLLM's weight sync on a CPU."""

    timer: StepTimer | None = None
    atc: AtcSettings | None = None

    def __init__(self, *args, **kwargs):
        if not callable(getattr(GRPOTrainer, ROLLOUT_PHASE, None)):
            raise RuntimeError(
                f"TRL {trl.__version__}: GRPOTrainer has no {ROLLOUT_PHASE}, which cogevol's "
                f"rollout timing and Action-Trace Credit override (tested on TRL {TESTED_TRL})"
            )
        super().__init__(*args, **kwargs)
        self._atc_metrics: dict[str, list[float]] = defaultdict(list)

    def _generate_and_score_completions(self, inputs: list) -> dict:
        reward_before, t0 = self.timer.reward if self.timer else 0.0, time.perf_counter()
        self._sync_colocated_vllm_on_cpu()
        out = super()._generate_and_score_completions(inputs)
        if self.timer is not None:
            inside = time.perf_counter() - t0 - (self.timer.reward - reward_before)
            self.timer.add("generate", max(0.0, inside))
        if self.atc is None or not self.atc.enabled:
            return out
        traces: list = [None] * len(inputs)
        for f in self.reward_funcs:
            for i, t in enumerate(getattr(f, "last_traces", None) or []):
                if t is not None and i < len(traces):
                    traces[i] = t
        stats = credit(out, traces, self.processing_class, self.atc.beta, self.atc.gamma)
        if self.accelerator.num_processes > 1:  # every rank credits its own completions
            from accelerate.utils import gather_object

            stats = AtcStats.merged(gather_object([stats]))
        for k, v in stats.metrics().items():
            self._atc_metrics[k].append(v)
        return out

    def _get_per_token_logps_and_entropies(
        self, model, input_ids, attention_mask, logits_to_keep, batch_size=None, **kwargs
    ):
        """TRL's per-token log-probs, each chunk cut to the columns its own rows use. TRL pads a
        step's whole batch to its longest prompt (left) and longest completion (right) and runs
        every chunk of `batch_size` at that width; a chunk whose rows are all shorter computes
        the empty columns for nothing (on the CPU benchmark, forwards and backwards are most of
        a step). The cut columns come back as zeros, where the completion mask is 0 anyway.
        Inputs with images (kwargs other than the two flags) go to TRL's method unchanged."""
        parent = super()._get_per_token_logps_and_entropies
        if any(v is not None for k, v in kwargs.items() if k not in TEXT_ONLY_FLAGS):
            return parent(model, input_ids, attention_mask, logits_to_keep, batch_size, **kwargs)
        step, parts = batch_size or input_ids.size(0), []
        for start in range(0, input_ids.size(0), step):
            ids, mask = input_ids[start : start + step], attention_mask[start : start + step]
            cols, keep = used_columns(mask, logits_to_keep)
            logps, ent, aux = parent(model, ids[:, cols], mask[:, cols], keep, None, **kwargs)
            pad = logits_to_keep - keep
            parts.append(
                (
                    torch.nn.functional.pad(logps, (0, pad)),
                    None if ent is None else torch.nn.functional.pad(ent, (0, pad)),
                    aux,
                )
            )
        logps, ents, auxes = zip(*parts)
        return (
            torch.cat(logps),
            None if ents[0] is None else torch.cat(ents),
            None if auxes[0] is None else torch.stack(auxes).mean(),
        )

    def _sync_colocated_vllm_on_cpu(self) -> None:
        """Push the policy's weights into a colocated vLLM on a CPU, before TRL's rollout phase
        would, through vLLM's own `reload_weights`, then mark the step synced so TRL skips its
        own sync. TRL's (VLLMGeneration.sync_weights) feeds each tensor to
        `model.load_weights`; vLLM's CPU backend repacks every linear layer's weight into a
        oneDNN kernel once loaded and leaves an empty Parameter without a `weight_loader`
        (vllm/model_executor/layers/utils.py), so that raises AttributeError at the first
        sync. `reload_weights(is_checkpoint_format=True)` restores the checkpoint layout, loads
        and repacks again. On a GPU, or with a vLLM server, TRL's own sync runs untouched."""
        gen = getattr(self, "vllm_generation", None)
        if (
            not getattr(self, "use_vllm", False)
            or gen is None
            or gen.mode != "colocate"
            or self.accelerator.device.type != "cpu"
            or self.state.global_step == self._last_loaded_step
        ):
            return
        t0 = time.perf_counter()
        # the generator merges a LoRA adapter for the walk and unmerges it once it is spent,
        # which reload_weights does before it returns (in process, nothing is serialised)
        gen.llm.collective_rpc(
            "reload_weights",
            kwargs={"weights_iterator": gen._iter_named_params(), "is_checkpoint_format": True},
        )
        gen.llm.reset_prefix_cache()
        self._last_loaded_step = self.state.global_step
        log.debug("vllm on cpu: weights synced in %.2f s", time.perf_counter() - t0)

    def log(self, logs: dict[str, float], start_time: float | None = None) -> None:
        """TRL's log, with the mean of each ATC metric since the last one."""
        logs.update({k: sum(v) / len(v) for k, v in self._atc_metrics.items() if v})
        self._atc_metrics.clear()
        super().log(logs, start_time)


def grpo_config(out_dir: str | Path, g: GRPOSettings, train: TrainConfig) -> GRPOConfig:
    # first: it may export the one-process world that world_size() reads
    common = trainer_kwargs(train)
    if g.torch_threads > 0:
        torch.set_num_threads(g.torch_threads)
    per_device, accumulation = g.micro_batch(world_size())
    return GRPOConfig(
        output_dir=str(out_dir),
        per_device_train_batch_size=per_device,
        gradient_accumulation_steps=accumulation,
        remove_unused_columns=False,  # the reward functions route on the `modality` column
        # the vllm_* knobs matter only with use_vllm
        **shared_fields(g, GRPOConfig, exclude=("save_steps",)),
        **save_args(g.save_steps),
        **common,
    )


@dataclass
class GRPOResult:
    metrics: dict  # results (DVC metrics file)
    timing: dict  # wall seconds and shares of generate / reward / update (MLflow only)
    history: list[dict] = field(default_factory=list)  # one row per logged step
    steps: list[dict] = field(default_factory=list)  # one timing row per optimizer step


def run_grpo(
    model_path: str,
    dataset: Dataset,
    out_dir: str | Path,
    g: GRPOSettings,
    train: TrainConfig,
    model_cfg: ModelConfig,
    scorers,
    run: StageRun | None = None,
    callbacks: Sequence = (),
    shuffle_seed: int | None = None,
    record: list | None = None,
) -> GRPOResult:
    """Train on `dataset` (columns prompt, modality, prompt_id) with one reward per modality
    present, all scored on `scorers` (cogevol.scoring.open_scorers: any transport; closed here),
    then save model and tokenizer to `out_dir` like a hub checkpoint. For benchmarks: `callbacks`
    are added to the trainer's own (e.g. callbacks.TimeBudgetCallback); `shuffle_seed` trains on
    rewards permuted within each call (a control; logs keep the true rewards) and `record`
    collects one row per scored completion (both: rewards.ModalityReward)."""
    modalities = sorted(set(dataset["modality"]))
    timer, rollouts = StepTimer(), RolloutLog()
    metrics_cb = MetricsCallback(run)
    timing_cb = StepTimingCallback(timer, rollouts, run, sample=g.log_rollouts)
    reward_fns = [
        ModalityReward(
            m,
            scorers,
            SPECS[m],
            rollouts,
            shuffle_seed=shuffle_seed,
            record=record,
            max_judge_failure_rate=g.max_judge_failure_rate,
            timer=timer,
        )
        for m in modalities
    ]
    trainer = None
    try:
        model, tokenizer = load(model_path, model_cfg, train)
        with colocated_vllm_on_cpu(g, model_cfg):
            trainer = TimedGRPOTrainer(
                model=model,
                reward_funcs=reward_fns,
                args=grpo_config(out_dir, g, train),
                train_dataset=dataset,
                processing_class=tokenizer,
                callbacks=[metrics_cb, timing_cb, *callbacks],
                peft_config=g.lora.peft_config(),
            )
        trainer.timer = timer
        trainer.atc = g.atc if "html" in modalities else None
        trainer.train()
        log.info("grpo: %s, %s engine", "+".join(modalities), type(trainer.model_wrapped).__name__)
        save_policy(trainer, tokenizer, out_dir)
    finally:
        _close_on_trainer_loop(scorers, trainer)
    return GRPOResult(
        _metrics(metrics_cb.history, modalities),
        _timing(timer),
        metrics_cb.history,
        timing_cb.steps,
    )


@contextlib.contextmanager
def colocated_vllm_on_cpu(g: GRPOSettings, model_cfg: ModelConfig):
    """While TRL builds its colocated vLLM on a CPU: the engine in the policy's dtype and eager,
    with an explicit KV cache. TRL's LLM(...) names no dtype, and vLLM's `auto` casts an fp32
    checkpoint to bf16, which a CPU without AVX-512 BF16 or AMX emulates (a matmul ~20x slower
    than fp32); its compile costs ~3 min at every start (vLLM 0.30's saved artefact fails to
    load), where eager starts in seconds at the same speed; and its memory-share rule would
    reserve that share of the machine's RAM (grpo.vllm_cpu_kv_cache_gb instead). On a GPU,
    nothing changes."""
    if not g.use_vllm or g.vllm_mode != "colocate" or torch.cuda.is_available():
        yield
        return
    from trl.generation import vllm_generation

    os.environ.setdefault("VLLM_CPU_KVCACHE_SPACE", str(g.vllm_cpu_kv_cache_gb))
    built = vllm_generation.LLM
    vllm_generation.LLM = functools.partial(built, dtype=model_cfg.dtype, enforce_eager=True)
    try:
        yield
    finally:
        vllm_generation.LLM = built


def save_policy(trainer, tokenizer, out_dir: str | Path) -> None:
    """Save the trained policy like a hub checkpoint: a LoRA adapter is merged into the weights
    first, so every loader (transformers, vLLM, the next stage) reads the checkpoint as it is."""
    model = trainer.accelerator.unwrap_model(trainer.model)
    model.config.use_cache = True  # the checkpoint is for generation
    if hasattr(model, "merge_and_unload"):  # a PEFT model
        if trainer.is_world_process_zero():
            model.merge_and_unload().save_pretrained(str(out_dir))
            tokenizer.save_pretrained(str(out_dir))
        return
    trainer.save_model(str(out_dir))
    if trainer.is_world_process_zero():
        tokenizer.save_pretrained(str(out_dir))


def _close_on_trainer_loop(scorers, trainer) -> None:
    """Close the scorers on the loop that opened them: TRL's reward loop when the trainer made one
    (a browser pool belongs to its event loop), else a fresh one (nothing was opened)."""
    loop = getattr(trainer, "async_loop", None)
    if loop is not None and loop.is_running():
        asyncio.run_coroutine_threadsafe(scorers.aclose(), loop).result(timeout=120)
    else:
        asyncio.run(scorers.aclose())


def _mean(rows: list[dict], key: str) -> float | None:
    vals = [r[key] for r in rows if isinstance(r.get(key), float) and math.isfinite(r[key])]
    return round(sum(vals) / len(vals), 4) if vals else None


def _spread(steps: list[dict]) -> float | None:
    """Share of steps where at least one group's rewards differ (TRL's frac_reward_zero_std < 1):
    only those steps have non-zero advantages, so only they move the policy."""
    fracs = [
        h["frac_reward_zero_std"]
        for h in steps
        if isinstance(h.get("frac_reward_zero_std"), int | float)
    ]
    return round(sum(f < 1 for f in fracs) / len(fracs), 4) if fracs else None


def _metrics(history: list[dict], modalities: list[str]) -> dict:
    steps = [h for h in history if "reward" in h]
    first, last = steps[:1], steps[-1:]
    out: dict = {
        "steps": len(steps),
        "modalities": modalities,
        "reward_first": _mean(first, "reward"),
        "reward_final": _mean(last, "reward"),
        "reward_mean": _mean(steps, "reward"),
        "kl_final": _mean(last, "kl"),
        "completion_length_mean": _mean(steps, "completions/mean_length"),
        "steps_with_spread": _spread(steps),
    }
    for m in modalities:
        keys = sorted(
            {
                k
                for h in steps
                for k in h
                if k.startswith(f"{m}/") and not k.endswith("seconds_per_completion")
            }
        )
        out[m] = {k.split("/", 1)[1]: _mean(steps, k) for k in keys}
    return out


def _timing(timer: StepTimer) -> dict:
    t = {f"{k}_s": round(v, 3) for k, v in timer.totals.items()}
    t["step_mean_s"] = round(sum(timer.totals.values()) / max(1, timer.steps), 3)
    t.update({f"{k}_share": round(v, 4) for k, v in timer.shares().items()})
    return t
