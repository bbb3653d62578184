"""params.yaml access: one file holds every knob, one group per stage."""

from __future__ import annotations

import os
from pathlib import Path

import yaml


def load_params(path: str | Path | None = None) -> dict:
    p = Path(path or os.environ.get("COGEVOL_PARAMS", "params.yaml"))
    if not p.exists():
        raise FileNotFoundError(f"{p}: params file not found (run from the repository root or set COGEVOL_PARAMS)")
    return yaml.safe_load(p.read_text(encoding="utf-8")) or {}


def stage_params(stage: str, path: str | Path | None = None) -> dict:
    params = load_params(path)
    if stage not in params:
        raise KeyError(f"params.yaml has no '{stage}' group")
    return params[stage] or {}
