"""The dedup stage on the engine params.yaml `curation` names (cogevol/pipeline/curation.py)."""

from __future__ import annotations

from pathlib import Path

from cogevol.dedup.pipeline import DedupConfig
from cogevol.dedup.ray_engine import dedup_ray
from cogevol.dedup.records import dedup_file
from cogevol.pipeline.curation import CurationStep


def dedup_local(
    input_path: str | Path,
    field_name: str,
    out_dir: str | Path,
    cfg: DedupConfig | None = None,
    id_field: str = "id",
    survivors: bool = False,
) -> tuple[dict, dict[int, int]]:
    """(summary, semantic group size -> number of groups), as the Ray engine answers."""
    res, summary = dedup_file(input_path, field_name, out_dir, cfg, id_field, survivors)
    sizes: dict[int, int] = {}
    for size in res.group_sizes():
        sizes[size] = sizes.get(size, 0) + 1
    return summary, dict(sorted(sizes.items()))


# dedup(input_path, field_name, out_dir, cfg=None, id_field="id", survivors=False, where=None)
dedup = CurationStep(dedup_local, dedup_ray)
