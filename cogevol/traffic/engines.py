"""The mine stage on the engine params.yaml `curation` names (cogevol/pipeline/curation.py)."""

from __future__ import annotations

from pathlib import Path

from cogevol.pipeline.curation import CurationConfig
from cogevol.traffic.mine import MineConfig, MineStats, run_mine
from cogevol.traffic.ray_engine import run_mine_ray


def mine(
    inputs: list[str],
    out_dir: str | Path,
    cfg: MineConfig | None = None,
    root: Path | None = None,
    where: CurationConfig | None = None,
) -> MineStats:
    where = where or CurationConfig()
    if where.engine == "ray":
        return run_mine_ray(inputs, out_dir, cfg, root, where.ray)
    return run_mine(inputs, out_dir, cfg, root)
