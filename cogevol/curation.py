"""Where curation runs: mine, dedup and filter, each on the local backend (one process, one file
per output) or on Ray Data (cogevol/{traffic,dedup,curate}/ray_backend.py: a cluster, a directory
of parts per output). The two give the same records; params.yaml `curation` picks one, never
what comes out, so DVC does not track it. Stages and the CLI go through each package's
`backends.py`, which reads this.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from cogevol.config import from_dict
from cogevol.raydata.session import RayDataConfig

BACKENDS = ("local", "ray")
BACKEND_ENV = "COGEVOL_CURATION_BACKEND"  # overrides curation.backend (flows, one-off runs)


@dataclass(frozen=True)
class CurationConfig:
    """params.yaml: curation (each knob explained there)."""

    backend: str = "local"
    ray: RayDataConfig = field(default_factory=RayDataConfig)

    def __post_init__(self) -> None:
        if self.backend not in BACKENDS:
            raise ValueError(f"curation.backend must be one of {BACKENDS}, got {self.backend!r}")

    @classmethod
    def from_params(
        cls, params: dict, backend: str | None = None, address: str | None = None
    ) -> CurationConfig:
        """The `curation` group; a CLI flag, else $COGEVOL_CURATION_BACKEND, picks the backend
        over params, and `address` the Ray cluster."""
        group = dict(params.get("curation") or {})
        chosen = backend or os.environ.get(BACKEND_ENV)
        if chosen:
            group["backend"] = chosen
        if address:
            group["ray"] = {**(group.get("ray") or {}), "address": address}
        return from_dict(cls, group)
