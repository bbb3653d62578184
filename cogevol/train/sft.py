"""Mixed SFT (slides + HTML) with TRL's SFTTrainer, under DeepSpeed ZeRO.

Loss on completions only: the dataset is turned into prompt/completion pairs (data.py) and TRL
sets the prompt's labels to -100, so the model is trained to write the page or deck, not to
reproduce the system prompt it reads 50k times. Packing (best-fit decreasing) fills each block
with whole conversations; transformers turns the packed position ids into a block-diagonal
mask, so examples never attend to each other, on sdpa (CPU) as on flash attention (GPU).
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from datasets import Dataset
from trl import SFTConfig, SFTTrainer

from cogevol.pipeline.tracking import StageRun
from cogevol.train.callbacks import MetricsCallback
from cogevol.train.config import ModelConfig, SFTSettings, TrainConfig, save_args, shared_fields
from cogevol.train.data import to_prompt_completion
from cogevol.train.distributed import trainer_kwargs
from cogevol.train.model_factory import load

log = logging.getLogger(__name__)


def sft_config(out_dir: str | Path, s: SFTSettings, train: TrainConfig) -> SFTConfig:
    return SFTConfig(
        output_dir=str(out_dir),
        num_train_epochs=s.epochs,
        warmup_steps=s.warmup_ratio,  # a float < 1 is a ratio of the total steps
        per_device_train_batch_size=s.per_device_batch_size,
        completion_only_loss=True,
        dataset_num_proc=None,
        # max_steps is a cap here (applied in build_trainer), not HF's repeat-until-N
        **shared_fields(s, SFTConfig, exclude=("max_steps", "save_steps")),
        **save_args(s.save_steps),
        **trainer_kwargs(train),
    )


def build_trainer(
    model_path: str,
    dataset: Dataset,
    out_dir: str | Path,
    s: SFTSettings,
    train: TrainConfig,
    model_cfg: ModelConfig,
    callbacks: list | None = None,
) -> SFTTrainer:
    """An SFTTrainer on `dataset` (distill contract: `messages` column) from checkpoint
    `model_path`."""
    model, tokenizer = load(model_path, model_cfg, train)
    trainer = SFTTrainer(
        model=model,
        args=sft_config(out_dir, s, train),
        train_dataset=to_prompt_completion(dataset),
        processing_class=tokenizer,
        callbacks=callbacks or [],
    )
    if s.max_steps > 0:  # a cap, unlike HF's max_steps (which would repeat a small dataset)
        batch = s.per_device_batch_size * s.gradient_accumulation_steps * trainer.args.world_size
        per_epoch = math.ceil(len(trainer.train_dataset) / batch)
        if s.epochs * per_epoch > s.max_steps:
            trainer.args.max_steps = s.max_steps
            log.info(
                "sft: %g epochs of %d steps capped at %d steps", s.epochs, per_epoch, s.max_steps
            )
    return trainer


@dataclass
class SFTResult:
    metrics: dict
    history: list[dict] = field(default_factory=list)


def run_sft(
    model_path: str,
    dataset: Dataset,
    out_dir: str | Path,
    s: SFTSettings,
    train: TrainConfig,
    model_cfg: ModelConfig,
    run: StageRun | None = None,
    callbacks: Sequence = (),
) -> SFTResult:
    """Train, save the final model and tokenizer to `out_dir` like a hub checkpoint, and
    summarise the run (loss first/last, tokens, throughput; keys ending in _s are timings).
    `callbacks` are added to the trainer's own (the smoke run's engine witness)."""
    cb = MetricsCallback(run)
    trainer = build_trainer(model_path, dataset, out_dir, s, train, model_cfg, [cb, *callbacks])
    t0 = time.perf_counter()
    out = trainer.train()
    train_s = time.perf_counter() - t0
    log.info("sft: %s engine, %d steps", type(trainer.model_wrapped).__name__, out.global_step)
    trainer.model.config.use_cache = True  # the checkpoint is for generation
    trainer.save_model(str(out_dir))
    if trainer.is_world_process_zero():
        trainer.processing_class.save_pretrained(str(out_dir))
    losses = [(h["step"], h["loss"]) for h in cb.history if "loss" in h]
    last = next((h for h in reversed(cb.history) if "mean_token_accuracy" in h), {})
    tokens = float(last.get("num_tokens", 0.0))
    k = max(1, len(losses) // 5)  # first and last fifth: a noisy step does not decide "decreased"
    first = sum(v for _, v in losses[:k]) / k if losses else float("nan")
    final = sum(v for _, v in losses[-k:]) / k if losses else float("nan")
    metrics = {
        "examples": len(dataset),
        "examples_by_modality": {m: int(c) for m, c in _counts(dataset, "modality").items()},
        "steps": out.global_step,
        "epochs": round(float(out.metrics.get("epoch", 0.0)), 3),
        "tokens": int(tokens),
        "loss_first": round(first, 4),
        "loss_final": round(final, 4),
        "loss_decrease": round(first - final, 4),
        "mean_token_accuracy": round(float(last.get("mean_token_accuracy", 0.0)), 4),
        "train_s": round(train_s, 2),
        "tokens_per_s": round(tokens / train_s, 1) if train_s else 0.0,
    }
    return SFTResult(metrics, cb.history)


def _counts(ds: Dataset, column: str) -> dict:
    if column not in ds.column_names:
        return {}
    out: dict = {}
    for v in ds[column]:
        out[v] = out.get(v, 0) + 1
    return dict(sorted(out.items()))
