"""What every DVC stage script does around the library call: logging, params, the DVC metrics and
plot files, and the arguments dvc.yaml passes. No pipeline logic here."""

from __future__ import annotations

import argparse
import csv
import json
from collections.abc import Iterable
from pathlib import Path

from cogevol.core.config import load_params
from cogevol.core.logs import setup_logging


def start(stage: str) -> tuple[dict, dict]:
    """Logging on; (this stage's params group, the whole of params.yaml)."""
    setup_logging()
    params = load_params()
    if stage not in params:
        raise KeyError(f"params.yaml has no '{stage}' group")
    return params[stage] or {}, params


def write_metrics(path: str | Path, metrics: dict) -> None:
    """The DVC metrics file: results only. Timings and rates (keys ending in _s) go to MLflow,
    so that dvc.lock changes when results change, not on every run."""
    metrics = {k: v for k, v in metrics.items() if not k.endswith("_s")}
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(json.dumps(metrics, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def write_csv(path: str | Path, header: list[str], rows: Iterable[Iterable]) -> None:
    """A small CSV for `dvc plots` (cache: false outputs)."""
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def stage_args(plot_help: str | None = None, many_inputs: bool = False) -> argparse.Namespace:
    """The arguments every stage takes from dvc.yaml: inputs, output dir, metrics file, plot CSV."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--input", nargs="+" if many_inputs else None, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--metrics", required=True)
    if plot_help:
        ap.add_argument("--plot", required=True, help=plot_help)
    return ap.parse_args()
