"""Where curation runs: mine, dedup and filter, each on the local engine (one process, one file
per output) or on Ray Data (cogevol/{traffic,dedup,curate}/ray_engine.py: a cluster, a directory
of parts per output). The two give the same records; params.yaml `curation` picks one, never
what comes out, so DVC does not track it. One dispatcher, `CurationStep`, runs a step on the
engine named (datatrove's shape: the executor apart from the step); each package's `engines.py`
names its two functions, and stages and the CLI call those.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cogevol.core.config import RenamedKey, from_dict, renamed_message
from cogevol.raydata.session import RayDataConfig

ENGINES = ("local", "ray")
ENGINE_ENV = "COGEVOL_CURATION_ENGINE"  # overrides curation.engine (flows, one-off runs)


@dataclass(frozen=True)
class CurationConfig:
    """params.yaml: curation (each knob explained there)."""

    engine: str = "local"
    ray: RayDataConfig = field(default_factory=RayDataConfig)

    def __post_init__(self) -> None:
        if self.engine not in ENGINES:
            raise ValueError(f"curation.engine must be one of {ENGINES}, got {self.engine!r}")

    @classmethod
    def from_params(
        cls, params: dict, engine: str | None = None, address: str | None = None
    ) -> CurationConfig:
        """The `curation` group; a CLI flag, else $COGEVOL_CURATION_ENGINE, picks the engine
        over params, and `address` the Ray cluster."""
        if os.environ.get("COGEVOL_CURATION_BACKEND"):
            raise RenamedKey(renamed_message("$COGEVOL_CURATION_BACKEND", f"${ENGINE_ENV}"))
        group = dict(params.get("curation") or {})
        chosen = engine or os.environ.get(ENGINE_ENV)
        if chosen:
            group["engine"] = chosen
        if address:
            group["ray"] = {**(group.get("ray") or {}), "address": address}
        return from_dict(cls, group)


@dataclass(frozen=True)
class CurationStep:
    """One curation step on either engine: `local` runs it in this process; `ray` takes the same
    arguments, plus the keyword `ray_cfg` (the cluster), and gives the same answer on Ray Data.
    Call it with the step's arguments and `where`, the CurationConfig (default: local)."""

    local: Callable[..., Any]
    ray: Callable[..., Any]

    def __call__(self, *args: Any, where: CurationConfig | None = None, **kwargs: Any) -> Any:
        where = where or CurationConfig()
        if where.engine == "ray":
            return self.ray(*args, ray_cfg=where.ray, **kwargs)
        return self.local(*args, **kwargs)
