"""DVC stage `evaluate`: every system on the suites, scored with the training rewards, compared;
reward-human agreement on the ratings file."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _common import start, write_csv, write_metrics  # noqa: E402

from cogevol.config import load_params  # noqa: E402
from cogevol.evaluate.stage import EvalConfig, evaluate  # noqa: E402
from cogevol.tracking import stage_run  # noqa: E402


def main() -> None:
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--metrics", required=True)
    ap.add_argument("--plot", required=True, help="CSV of overall score per system for `dvc plots`")
    a = ap.parse_args()
    params = start("evaluate")
    allp = load_params()
    cfg = EvalConfig.from_params(params)
    with stage_run("evaluate", params) as run:
        metrics = evaluate(cfg, a.out, allp, run)
        write_metrics(a.metrics, metrics)
        write_csv(a.plot, ["system", "overall"], [(k, s["overall"]) for k, s in metrics["systems"].items()])


if __name__ == "__main__":
    main()
