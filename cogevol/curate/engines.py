"""The filter stage on the engine params.yaml `curation` names (cogevol/pipeline/curation.py)."""

from __future__ import annotations

from cogevol.curate.pipeline import run_filter
from cogevol.curate.ray_engine import run_filter_ray
from cogevol.pipeline.curation import CurationStep

# filter_requests(input_path, out_dir, cfg, planner=None, taxonomy=None, where=None) -> FilterStats
filter_requests = CurationStep(run_filter, run_filter_ray)
