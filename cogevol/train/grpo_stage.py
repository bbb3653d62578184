"""The GRPO stages as functions of (input paths, params, MLflow run); see cogevol.train.stages
for the schedules. stages/grpo.py parses arguments and writes the DVC files."""

from __future__ import annotations

import logging
import os
import shutil
from pathlib import Path

from cogevol.pipeline.tracking import StageRun
from cogevol.train.config import GRPOSettings, from_dict
from cogevol.train.data import grpo_prompts, read_prompts
from cogevol.train.distributed import is_main_process, local_world_size
from cogevol.train.grpo import GRPOResult, run_grpo
from cogevol.train.plots import curves, time_split
from cogevol.train.stages import configs, log_figure

log = logging.getLogger(__name__)

MODALITY = {"grpo_slide": "slide", "grpo_html": "html"}


def workers_per_rank(per_node: int) -> int:
    """grpo.reward_workers is what one node runs: every rank of the node opens its own scorers,
    so each takes its share (8 ranks x 6 workers would be 48 pages and 96 renderers at once)."""
    return max(1, -(-per_node // max(local_world_size(), 1)))


def grpo_stage(
    stage: str,
    model_dir: str | Path,
    prompts_path: str | Path,
    out_dir: str | Path,
    params: dict,
    run: StageRun | None = None,
    scorers=None,
) -> GRPOResult:
    """One GRPO stage; a pass-through (metrics say trained: false) when the joint schedule already
    trained this stage's modality. The
    rewards run on `scorers`, by default those params.yaml's `scoring` group names, with
    grpo.reward_workers pages in flight per node (shared by the node's ranks)."""
    model_cfg, train = configs(params)
    g = from_dict(GRPOSettings, params.get("grpo"))
    if train.schedule == "joint" and stage == "grpo_html":
        if is_main_process():
            passthrough(model_dir, out_dir)
        return GRPOResult({"schedule": "joint", "trained": False, "source": str(model_dir)}, {})
    modalities = ["slide", "html"] if train.schedule == "joint" else [MODALITY[stage]]
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(model_dir))
    dataset = grpo_prompts(
        read_prompts(prompts_path),
        modalities,
        g.num_prompts,
        train.seed,
        tokenizer,
        g.max_prompt_length,
        g.draw,
    )
    if scorers is None:
        from cogevol.scoring import open_scorers

        workers = workers_per_rank(g.reward_workers)
        log.info(
            "grpo: rank %s opens %d reward worker(s): grpo.reward_workers %d over %d local rank(s)",
            os.environ.get("RANK", "0"), workers, g.reward_workers, local_world_size(),
        )  # fmt: skip
        scorers = open_scorers(with_trace(params) if g.atc.enabled else params, workers)
    res = run_grpo(str(model_dir), dataset, out_dir, g, train, model_cfg, scorers, run)
    if run is not None:
        keys = ["reward"] + [f"rewards/{m}_reward/mean" for m in modalities]
        log_figure(
            run, curves(res.history, keys, f"{stage}: reward per step"), f"{stage}_reward.png"
        )
        log_figure(run, time_split(res.steps, f"{stage}: time per step"), f"{stage}_time_split.png")
        run.log_metrics(res.timing)
    return res


def with_trace(params: dict) -> dict:
    """params with the probe tracing live inputs (probe.harness.trace), as Action-Trace Credit
    needs. Over http the service must run with the same setting: the client's fingerprint check
    refuses one that does not."""
    probe = dict(params.get("probe") or {})
    probe["harness"] = {**(probe.get("harness") or {}), "trace": True}
    return {**params, "probe": probe}


def passthrough(src: str | Path, dst: str | Path) -> None:
    """Copy a checkpoint directory (the joint schedule's grpo_html output)."""
    dst = Path(dst)
    if dst.exists():
        shutil.rmtree(dst)
    shutil.copytree(src, dst)
    log.info("joint schedule: %s passed through to %s", src, dst)
