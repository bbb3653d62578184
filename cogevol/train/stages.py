"""The training stages as functions of (input paths, params, MLflow run): SFT here, the GRPO
stages in cogevol.train.grpo_stage (so that SFT imports nothing of the reward stack).

stages/sft.py, stages/grpo_slide.py and stages/grpo_html.py only parse arguments and write the
DVC files; benchmarks and tests call these functions directly. Schedules (train.schedule):

* serial (the CogEvol recipe): grpo_slide trains on slide prompts from models/sft, grpo_html on
  HTML prompts from models/grpo_slide.
* joint (One-Big-Round): grpo_slide runs one GRPO round on both modalities with per-sample reward
  routing; grpo_html then passes that checkpoint through unchanged, so the DAG and every later
  stage stay the same.
"""

from __future__ import annotations

import logging
import tempfile
from pathlib import Path

from cogevol.pipeline.tracking import StageRun
from cogevol.train.config import ModelConfig, SFTSettings, TrainConfig, from_dict
from cogevol.train.data import assistant_texts, load_sft
from cogevol.train.distributed import is_main_process
from cogevol.train.model_factory import TINY, corpus_texts, resolve_base
from cogevol.train.plots import curves
from cogevol.train.sft import SFTResult, run_sft

log = logging.getLogger(__name__)


def configs(params: dict) -> tuple[ModelConfig, TrainConfig]:
    return from_dict(ModelConfig, params.get("model")), from_dict(TrainConfig, params.get("train"))


def sft_stage(
    sft_dir: str | Path,
    prompts_path: str | Path | None,
    out_dir: str | Path,
    params: dict,
    run: StageRun | None = None,
) -> SFTResult:
    """Build (tiny) or name (hub) the base model, then SFT it on the distilled dataset."""
    model_cfg, train = configs(params)
    dataset = load_sft(sft_dir)
    texts = corpus_texts(prompts_path, assistant_texts(dataset)) if model_cfg.base == TINY else None
    # the tiny build is deterministic: under a launcher every rank builds it, rank 0 keeps it
    tiny_dir = (
        Path(out_dir) / "base" if is_main_process() else Path(tempfile.mkdtemp(prefix="tiny-"))
    )
    base = resolve_base(model_cfg, tiny_dir, texts)
    res = run_sft(
        base, dataset, out_dir, from_dict(SFTSettings, params.get("sft")), train, model_cfg, run
    )
    if run is not None:
        log_figure(
            run,
            curves(res.history, ["loss"], "SFT loss (completion tokens)", "loss"),
            "sft_loss.png",
        )
    return res


def log_figure(run: StageRun, fig, name: str) -> None:
    import matplotlib.pyplot as plt

    run.log_figure(fig, name)
    plt.close(fig)
