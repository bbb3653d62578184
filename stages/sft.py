"""DVC stage `sft`: distilled chat dataset -> models/sft (mixed slide + HTML SFT, TRL + DeepSpeed).

--input SFT_DIR [PROMPTS_JSONL]: the distill stage's dataset, and the curated prompts the tiny
tokenizer also learns from (model.base: tiny).
"""

from __future__ import annotations

from cogevol.pipeline.stage_io import stage_args, start, write_csv, write_metrics
from cogevol.pipeline.tracking import stage_run
from cogevol.preflight.plan import check_stage
from cogevol.train.distributed import quiet_other_ranks
from cogevol.train.stages import sft_stage

GROUPS = ("model", "train", "sft")


def main() -> None:
    a = stage_args("CSV of the training loss per step for `dvc plots`", many_inputs=True)
    _, params = start("sft")
    check_stage("sft", params)  # refuse a layout that cannot run, before any model loads
    main_rank = quiet_other_ranks()  # under a launcher, rank 0 writes the DVC files and the MLflow run
    with stage_run("sft", {g: params.get(g) for g in GROUPS}) as run:
        res = sft_stage(a.input[0], a.input[1] if len(a.input) > 1 else None, a.out, params, run)
        if main_rank:
            write_metrics(a.metrics, res.metrics)
            run.log_metrics(res.metrics)
            write_csv(a.plot, ["step", "loss"], [(h["step"], h["loss"]) for h in res.history if "loss" in h])


if __name__ == "__main__":
    main()
