"""DVC stage `evaluate`: every system on the suites, scored with the training rewards, compared;
reward-human agreement on the ratings file."""

from __future__ import annotations

from cogevol.core.config import from_dict
from cogevol.evaluate.stage import EvalConfig, evaluate
from cogevol.pipeline.stage_io import start, write_csv, write_metrics
from cogevol.pipeline.tracking import stage_run


def main() -> None:
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--metrics", required=True)
    ap.add_argument("--plot", required=True, help="CSV of overall score per system for `dvc plots`")
    a = ap.parse_args()
    params, allp = start("evaluate")
    cfg = from_dict(EvalConfig, params)
    with stage_run("evaluate", params) as run:
        metrics = evaluate(cfg, a.out, allp, run)
        write_metrics(a.metrics, metrics)
        write_csv(a.plot, ["system", "overall"], [(k, s["overall"]) for k, s in metrics["systems"].items()])


if __name__ == "__main__":
    main()
