"""What is scored and what comes back, the same on every transport (in process, HTTP, Ray).

A `ScoreItem` is one model answer: its modality, its text and the request it answers. A `Score`
is the verdict as it travels (`Score.of` a scorer's cogevol.rewards.verdict.Verdict): the reward
on 0..1 (None when the harness, not the answer, failed: trainers leave it out), whether the
answer passed its gate (`gate`; `hard_fail` and `rendered_ok` as in the probe's JSON), the defect
terms (0..1 for both modalities) and weights that made the reward, the reason, the time it took
and the verdict's whole record in `details` (derived from its fields: the probe's report for
pages, the deck's scores for slides). Both are plain dataclasses that round-trip through JSON.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any

from cogevol.rewards.verdict import Defects, Verdict

MODALITIES = ("html", "slide")


@dataclass(frozen=True)
class ScoreItem:
    modality: str  # html | slide
    # the model's answer (a page may be fenced or wrapped in prose), or the artifact itself
    text: str
    request: str = ""  # what the answer was asked for: the HTML gate and the judge follow it
    raw: bool = False  # html: `text` is the page itself (a file), probed as is with no extraction
    # the request's stored checklist as JSON
    # (cogevol.checklist); "": the rules plan it from `request`
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
    # defects on 0..1 for both modalities (0: nothing wrong; a deck's 0-5 scores as 1 - s / 5)
    terms: Defects = field(default_factory=Defects)
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

    def line(self) -> dict:
        """The verdict's record as the CLI prints it (`cogevol probe`, `slide-score`): reward
        0.0 where there is none, the contract's float on every line (`no_reward`, the harness
        error and the reason say why)."""
        return {**self.details, "reward": self.reward or 0.0}

    @classmethod
    def from_json(cls, d: dict) -> Score:
        names = {f.name for f in fields(cls)} - {"images"}
        kw = {k: v for k, v in d.items() if k in names}
        return cls(**kw | {"terms": Defects(kw.get("terms") or {})})

    @classmethod
    def of(cls, modality: str, v: Verdict) -> Score:
        """The Score of a scorer's verdict: its fields, and `details` its whole record."""
        return cls(
            modality,
            v.reward,
            v.gate,
            v.reason,
            v.hard_fail,
            v.rendered_ok,
            Defects(v.terms),
            dict(v.weights_used),
            seconds=v.seconds,
            harness_error=v.harness_error,
            details=v.record(),
            images=v.images(),
        )

    @classmethod
    def no_verdict(cls, modality: str, why: str) -> Score:
        """A Score for an item the harness could not judge (a dead worker, a missed deadline)."""
        return cls(
            modality,
            None,
            "none",
            why,
            harness_error=why,
            details={"harness_error": why, "reason": why},
        )


@dataclass(frozen=True)
class ScoreGroup:
    """One prompt's rollouts, scored together (`Scorers.score_groups`, `POST /score_group`): the
    judges that compare (group pick, cogevol.judge.group_pick) see them side by side."""

    modality: str
    request: str
    texts: tuple[str, ...]
    checklist: str = ""  # the request's stored checklist as JSON; "": the rules plan it
    raw: bool = False  # html: each text is the page itself

    def __post_init__(self) -> None:
        if self.modality not in MODALITIES:
            raise ValueError(f"modality must be one of {MODALITIES}, got {self.modality!r}")
        object.__setattr__(self, "texts", tuple(self.texts))

    def items(self) -> list[ScoreItem]:
        return [
            ScoreItem(self.modality, t, self.request, raw=self.raw, checklist=self.checklist)
            for t in self.texts
        ]


@dataclass
class GroupScores:
    """A group's Scores in order, and what the group's judges said (`judge`: the group-pick
    rounds, the anchor's degradations, lengths and judge scores for cogevol.judge.monitor; empty
    when no judge compared them)."""

    scores: list[Score]
    judge: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"scores": [s.to_json() for s in self.scores], "judge": self.judge}

    @classmethod
    def from_json(cls, d: dict) -> GroupScores:
        return cls([Score.from_json(s) for s in d["scores"]], dict(d.get("judge") or {}))
