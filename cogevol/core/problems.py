"""One thing that stops a planned run, with the knob that fixes it."""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Problem:
    knob: str  # a params.yaml key (grpo.requests_per_step), an env var (COGEVOL_LAUNCH) or a file
    why: str  # what breaks, with the numbers, and what to set instead

    def to_dict(self) -> dict:
        return asdict(self)

    def __str__(self) -> str:
        return f"{self.knob}: {self.why}"
