"""The filter stage on the engine params.yaml `curation` names (cogevol/pipeline/curation.py)."""

from __future__ import annotations

from pathlib import Path

from cogevol.checklist.planner import PlannerConfig
from cogevol.curate.pipeline import FilterStats, run_filter
from cogevol.curate.ray_engine import run_filter_ray
from cogevol.pipeline.curation import CurationConfig
from cogevol.taxonomy.classify import TaxonomyConfig


def filter_requests(
    input_path: str | Path,
    out_dir: str | Path,
    cfg: dict,
    planner: PlannerConfig | None = None,
    where: CurationConfig | None = None,
    taxonomy: TaxonomyConfig | None = None,
) -> FilterStats:
    where = where or CurationConfig()
    if where.engine == "ray":
        return run_filter_ray(input_path, out_dir, cfg, planner, where.ray, taxonomy)
    return run_filter(input_path, out_dir, cfg, planner, taxonomy)
