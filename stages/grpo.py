"""The GRPO stages' shared script body (stages/grpo_slide.py and stages/grpo_html.py call it).

--input MODEL_DIR PROMPTS_JSONL: the previous checkpoint and the curated prompts.
"""

from __future__ import annotations

from cogevol.pipeline.stage_io import stage_args, start, write_csv, write_metrics
from cogevol.pipeline.tracking import stage_run
from cogevol.preflight.plan import check_stage
from cogevol.train.distributed import quiet_other_ranks
from cogevol.train.grpo_stage import grpo_stage

GROUPS = ("model", "train", "grpo", "probe", "slides", "judge")


def main(stage: str) -> None:
    a = stage_args("CSV of the mean reward per step for `dvc plots`", many_inputs=True)
    _, params = start("grpo")
    check_stage(stage, params)  # refuse a layout that cannot run, before any model loads
    main_rank = quiet_other_ranks()  # under a launcher, rank 0 writes the DVC files and the MLflow run
    with stage_run(stage, {g: params.get(g) for g in GROUPS}) as run:
        res = grpo_stage(stage, a.input[0], a.input[1], a.out, params, run)
        if not main_rank:
            return
        write_metrics(a.metrics, res.metrics)
        run.log_metrics(res.metrics)
        rows = [(h["step"], h["reward"], h.get("kl", 0.0)) for h in res.history if "reward" in h]
        write_csv(a.plot, ["step", "reward", "kl"], rows)
