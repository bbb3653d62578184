"""DVC stage `distill`: curated prompts -> teacher candidates -> executed -> admitted SFT dataset."""

from __future__ import annotations

import asyncio
from pathlib import Path

from cogevol.distill.pipeline import (
    DistillConfig,
    distill,
    load_prompts,
    score_bins,
    summarise,
    write_outputs,
)
from cogevol.pipeline.plots import histogram
from cogevol.pipeline.stage_io import stage_args, start, write_csv, write_metrics
from cogevol.pipeline.tracking import stage_run
from cogevol.scoring import open_scorers


def main() -> None:
    a = stage_args("CSV of candidate score counts per modality and bin for `dvc plots`", many_inputs=True)
    params, allp = start("distill")
    cfg = DistillConfig.from_params(params)
    prompts_path, failures_path = (a.input + [None])[:2]
    with stage_run("distill", {**params, "probe": allp.get("probe", {}), "slides": allp.get("slides", {})}) as run:
        prompts = load_prompts(prompts_path, failures_path)
        items, kept, chosen = asyncio.run(distill(prompts, cfg, open_scorers(allp)))
        write_outputs(a.out, items, kept)
        metrics = summarise(items, kept, chosen)
        write_metrics(a.metrics, metrics)
        run.log_metrics(metrics)
        run.log_dict(metrics, "distill_summary.json")
        write_csv(a.plot, ["bin", "candidates"], score_bins(items))
        for modality in ("html", "slide"):
            vals = [s.score for s in items if s.prompt.modality == modality and s.score is not None]
            if vals:
                scale = "reward 0..1" if modality == "html" else "score 0-5"
                run.log_figure(histogram(vals, f"{modality} candidate scores", scale, log_y=False, bins=20),
                               f"distill_{modality}_scores.png")
        run.log_artifact(Path(a.out) / "candidates.jsonl")


if __name__ == "__main__":
    main()
