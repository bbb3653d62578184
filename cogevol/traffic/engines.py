"""The mine stage on the engine params.yaml `curation` names (cogevol/pipeline/curation.py)."""

from __future__ import annotations

from cogevol.pipeline.curation import CurationStep
from cogevol.traffic.mine import run_mine
from cogevol.traffic.ray_engine import run_mine_ray

# mine(inputs, out_dir, cfg=None, root=None, where=None) -> MineStats
mine = CurationStep(run_mine, run_mine_ray)
