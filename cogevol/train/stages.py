"""The three training stages as functions of (input paths, params, MLflow run).

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
import shutil
import tempfile
from pathlib import Path

from cogevol.tracking import StageRun
from cogevol.train.config import GRPOSettings, ModelConfig, SFTSettings, TrainConfig, from_dict
from cogevol.train.data import assistant_texts, grpo_prompts, load_sft, read_prompts
from cogevol.train.distributed import is_main_process
from cogevol.train.grpo import GRPOResult, run_grpo
from cogevol.train.model_factory import TINY, corpus_texts, resolve_base
from cogevol.train.plots import curves, time_split
from cogevol.train.sft import SFTResult, run_sft

log = logging.getLogger(__name__)

MODALITY = {"grpo_slide": "slide", "grpo_html": "html"}


def configs(params: dict) -> tuple[ModelConfig, TrainConfig]:
    return from_dict(ModelConfig, params.get("model")), from_dict(TrainConfig, params.get("train"))


def sft_stage(sft_dir: str | Path, prompts_path: str | Path | None, out_dir: str | Path, params: dict,
              run: StageRun | None = None) -> SFTResult:
    """Build (tiny) or name (hub) the base model, then SFT it on the distilled dataset."""
    model_cfg, train = configs(params)
    dataset = load_sft(sft_dir)
    texts = corpus_texts(prompts_path, assistant_texts(dataset)) if model_cfg.base == TINY else None
    # the tiny build is deterministic: under a launcher every rank builds it, rank 0 keeps it
    tiny_dir = Path(out_dir) / "base" if is_main_process() else Path(tempfile.mkdtemp(prefix="tiny-"))
    base = resolve_base(model_cfg, tiny_dir, texts)
    res = run_sft(base, dataset, out_dir, from_dict(SFTSettings, params.get("sft")), train, model_cfg, run)
    if run is not None:
        _log_figure(run, curves(res.history, ["loss"], "SFT loss (completion tokens)", "loss"), "sft_loss.png")
    return res


def grpo_stage(stage: str, model_dir: str | Path, prompts_path: str | Path, out_dir: str | Path, params: dict,
               run: StageRun | None = None, scorers=None) -> GRPOResult | None:
    """One GRPO stage; None when the joint schedule already trained this stage's modality. The
    rewards run on `scorers`, by default those params.yaml's `scoring` group names, with
    grpo.reward_workers pages in flight."""
    model_cfg, train = configs(params)
    g = from_dict(GRPOSettings, params.get("grpo"))
    if train.schedule == "joint" and stage == "grpo_html":
        if is_main_process():
            passthrough(model_dir, out_dir)
        return None
    modalities = ["slide", "html"] if train.schedule == "joint" else [MODALITY[stage]]
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(model_dir))
    dataset = grpo_prompts(read_prompts(prompts_path), modalities, g.num_prompts, train.seed, tokenizer,
                           g.max_prompt_length)
    if scorers is None:
        from cogevol.scoring import Scorers

        scorers = Scorers.from_params(params, g.reward_workers)
    res = run_grpo(str(model_dir), dataset, out_dir, g, train, model_cfg, scorers, run)
    if run is not None:
        keys = ["reward"] + [f"rewards/{m}_reward/mean" for m in modalities]
        _log_figure(run, curves(res.history, keys, f"{stage}: reward per step"), f"{stage}_reward.png")
        _log_figure(run, time_split(res.steps, f"{stage}: time per step"), f"{stage}_time_split.png")
        run.log_metrics(res.timing)
    return res


def _log_figure(run: StageRun, fig, name: str) -> None:
    import matplotlib.pyplot as plt

    run.log_figure(fig, name)
    plt.close(fig)


def passthrough(src: str | Path, dst: str | Path) -> None:
    """Copy a checkpoint directory (the joint schedule's grpo_html output)."""
    dst = Path(dst)
    if dst.exists():
        shutil.rmtree(dst)
    shutil.copytree(src, dst)
    log.info("joint schedule: %s passed through to %s", src, dst)
