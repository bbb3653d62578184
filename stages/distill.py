"""DVC stage `distill`: curated prompts -> teacher candidates -> executed -> admitted SFT dataset."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _common import stage_args, start, write_csv, write_metrics  # noqa: E402

from cogevol.config import load_params  # noqa: E402
from cogevol.distill.pipeline import DistillConfig, distill, load_prompts, summarise, write_outputs  # noqa: E402
from cogevol.plots import histogram  # noqa: E402
from cogevol.scoring import Scorers  # noqa: E402
from cogevol.tracking import stage_run  # noqa: E402


def score_bins(items, width: float = 0.1) -> list[tuple[str, int]]:
    """Counts per modality and score bin (slides on 0-5 are shown on 0..1 too) for `dvc plots`."""
    rows = {}
    for s in items:
        if s.score is None:
            continue
        v = s.score / 5 if s.prompt.modality == "slide" else s.score
        lo = min(int(v / width), int(1 / width) - 1) * width
        key = f"{s.prompt.modality} {lo:.1f}-{lo + width:.1f}"
        rows[key] = rows.get(key, 0) + 1
    return sorted(rows.items())


def main() -> None:
    a = stage_args("CSV of candidate score counts per modality and bin for `dvc plots`", many_inputs=True)
    params = start("distill")
    allp = load_params()
    cfg = DistillConfig.from_params(params)
    probe = allp.get("probe", {})
    prompts_path, failures_path = (a.input + [None])[:2]
    with stage_run("distill", {**params, "probe": probe, "slides": allp.get("slides", {})}) as run:
        prompts = load_prompts(prompts_path, failures_path)
        items, kept, chosen = asyncio.run(distill(prompts, cfg, Scorers.from_params(allp)))
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
