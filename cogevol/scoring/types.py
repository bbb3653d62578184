"""What is scored and what comes back, the same on every backend (in process, HTTP, Ray).

A `ScoreItem` is one model answer: its modality, its text and the request it answers. A `Score`
is the verdict: the reward on 0..1 (None when the harness, not the answer, failed: trainers leave
it out), whether the answer passed its gate (`gate`; `hard_fail` and `rendered_ok` as in the
probe's JSON), the terms and weights that made the reward, the
reason, the time it took and the full per-modality record in `details` (the probe's JSON for
pages, SlideScore.record() for decks). Both are plain dataclasses that round-trip through JSON.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any

MODALITIES = ("html", "slide")


@dataclass(frozen=True)
class ScoreItem:
    modality: str  # html | slide
    # the model's answer (a page may be fenced or wrapped in prose), or the artifact itself
    text: str
    request: str = ""  # what the answer was asked for: the HTML gate and the judge follow it
    raw: bool = False  # html: `text` is the page itself (a file), probed as is with no extraction
    # the request's stored checklist as JSON
    # (cogevol.rewards.checklist); "": the rules plan it from `request`
    checklist: str = ""

    def __post_init__(self) -> None:
        if self.modality not in MODALITIES:
            raise ValueError(f"modality must be one of {MODALITIES}, got {self.modality!r}")


@dataclass
class Score:
    modality: str
    reward: float | None  # 0..1; None: no verdict (gate "none")
    gate: str  # pass | fail | none
    reason: str
    # failed its gate: html not alive as asked (or no page at all), a deck breaking the contract
    hard_fail: bool = False
    rendered_ok: bool = False  # the page rendered / the deck parsed and rendered
    # html: defects 0..1; slide: rules / vlm scores 0-5
    terms: dict[str, float] = field(default_factory=dict)
    # the weights the terms carried (renormalised)
    weights: dict[str, float] = field(default_factory=dict)
    seconds: float = 0.0  # wall time of the scoring itself (not of any queue before it)
    harness_error: str = ""  # why there is no verdict, when the fault is the harness's
    details: dict[str, Any] = field(default_factory=dict)  # the full per-modality record
    # what decided it: the scorer's settings, CDN lock and code (cogevol.scoring.fingerprint)
    fingerprint: str = ""
    # screenshots when asked for; never serialised
    images: list[bytes] = field(default_factory=list, repr=False)

    @property
    def passed(self) -> bool:
        return self.gate == "pass"

    def to_json(self) -> dict:
        out = asdict(self)
        out.pop("images")
        return out

    @classmethod
    def from_json(cls, d: dict) -> Score:
        names = {f.name for f in fields(cls)} - {"images"}
        return cls(**{k: v for k, v in d.items() if k in names})

    @classmethod
    def no_verdict(cls, modality: str, why: str) -> Score:
        """A Score for an item the harness could not judge (a dead worker, a missed deadline)."""
        return cls(
            modality,
            None,
            "none",
            why,
            harness_error=why,
            details={"harness_error": True, "reason": why},
        )
