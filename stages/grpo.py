"""The GRPO stages' shared script body (stages/grpo_slide.py and stages/grpo_html.py call it).

--input MODEL_DIR PROMPTS_JSONL: the previous checkpoint and the curated prompts.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _common import stage_args, start, write_csv, write_metrics  # noqa: E402

from cogevol.config import load_params  # noqa: E402
from cogevol.tracking import stage_run  # noqa: E402
from cogevol.train.distributed import quiet_other_ranks  # noqa: E402
from cogevol.train.stages import grpo_stage  # noqa: E402

GROUPS = ("model", "train", "grpo", "probe", "slides", "judge")


def main(stage: str) -> None:
    a = stage_args("CSV of the mean reward per step for `dvc plots`", many_inputs=True)
    start("grpo")
    params = load_params()
    main_rank = quiet_other_ranks()  # under a launcher, rank 0 writes the DVC files and the MLflow run
    with stage_run(stage, {g: params.get(g) for g in GROUPS}) as run:
        res = grpo_stage(stage, a.input[0], a.input[1], a.out, params, run)
        if not main_rank:
            return
        metrics = res.metrics if res else {"schedule": "joint", "trained": False, "source": a.input[0]}
        write_metrics(a.metrics, metrics)
        run.log_metrics(metrics)
        rows = [(h["step"], h["reward"], h.get("kl", 0.0)) for h in (res.history if res else []) if "reward" in h]
        write_csv(a.plot, ["step", "reward", "kl"], rows)
