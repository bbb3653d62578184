"""Shared glue for stage scripts: logging, params, metrics files. No pipeline logic here."""

from __future__ import annotations

import json
from pathlib import Path

from cogevol.config import stage_params
from cogevol.logs import setup_logging


def start(stage: str) -> dict:
    setup_logging()
    return stage_params(stage)


def write_metrics(path: str | Path, metrics: dict) -> None:
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(json.dumps(metrics, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
