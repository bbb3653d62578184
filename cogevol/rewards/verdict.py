"""The one verdict every scorer returns, whatever the modality: gate, defect terms, weights,
reward, reason and the request's checks, in one typed record.

Terms have one scale and one direction for pages and decks alike (`Defects`: 0 = nothing wrong,
1 = as bad as it gets), and one rule makes the reward from them (`weigh`: 1 - the weighted mean
of the defects present). A deck's 0-5 rule and judge scores enter as 1 - score / 5, so a deck's
reward is its 0-5 score divided by 5, as before. The record a transport sends (`Score.details`)
is derived from the fields here and in each modality's subclass, never listed by hand, so a new
field reaches every transport's answer and the CLI by being declared once.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from cogevol.core.errors import CogevolError


class TermError(CogevolError, ValueError):
    """A defect off its 0..1 scale, or a term with no weight declared for it."""


class Defects(dict[str, float]):
    """term -> defect on 0..1 (0: nothing wrong, 1: as bad as it gets), for every modality.
    Building one checks the scale, so a score on another scale (a deck's 0-5) cannot slip in."""

    def __init__(self, items: Mapping[str, float] | Iterable[tuple[str, float]] = (), /):
        super().__init__(items)
        for k, v in self.items():
            if not isinstance(v, int | float) or isinstance(v, bool) or not math.isfinite(v):
                raise TermError(f"term {k!r}: a defect is a number in 0..1, got {v!r}")
            if not 0.0 <= v <= 1.0:
                raise TermError(f"term {k!r}: a defect is in 0..1 (0 = nothing wrong), got {v}")

    @classmethod
    def from_score(cls, name: str, score: float, top: float = 5.0) -> Defects:
        """One term from a higher-is-better score on 0..top (a deck's rules and judge)."""
        return cls({name: round(1 - score / top, 4)})


def weigh(terms: Defects, weights: Mapping[str, float]) -> tuple[float, dict[str, float]]:
    """1 - the weighted mean of the defects, and the weights used, renormalised. Every term must
    have a declared weight: weight 0 leaves a term out on purpose, a term with no weight at all is
    an error (a misspelt key in params.yaml fails at load, cogevol.core.config.check_weights; one
    here is a bug). With no weighted term the reward is 1 - 0 over nothing: 1.0, and no weights."""
    unknown = sorted(set(terms) - set(weights))
    if unknown:
        raise TermError(f"terms with no weight declared: {unknown} (weights: {sorted(weights)})")
    used = {k: float(weights[k]) for k in terms if weights[k] > 0}
    total = sum(used.values())
    if not total:
        return 1.0, {}
    reward = 1 - sum(terms[k] * w for k, w in used.items()) / total
    return reward, {k: round(w / total, 4) for k, w in used.items()}


@dataclass(kw_only=True)
class Verdict:
    """What a scorer says about one answer. `reward` is on 0..1, None when the harness (not the
    answer) failed; `hard_fail` is a failed gate; `terms` and `weights_used` made the reward;
    `checks` is the request's checklist, each met / unmet / unverifiable with why."""

    reward: float | None
    reason: str
    # the fixed id of the cause beside the text (cogevol.rewards.reasons.ReasonId for pages):
    # what consumers group by; nothing parses `reason`
    reason_id: str = ""
    hard_fail: bool = False
    rendered_ok: bool = False  # the page rendered / the deck parsed and rendered
    terms: Defects = field(default_factory=Defects)
    weights_used: dict[str, float] = field(default_factory=dict)
    checks: list[dict] = field(default_factory=list)
    harness_error: str = ""  # why there is no verdict, when the fault is the harness's
    # why a configured judge gave no verdict (its terms were left out and the weights
    # renormalised); GRPO fails the step when too many completions have one
    judge_error: str = ""
    seconds: float = 0.0  # wall time of the scoring itself

    # fields that stay out of record(): raw artefacts and what subclasses lay out themselves
    RECORD_SKIP = frozenset()

    @property
    def gate(self) -> str:
        """pass | fail | none (no verdict)."""
        return "none" if self.reward is None else "fail" if self.hard_fail else "pass"

    def record(self) -> dict[str, Any]:
        """The JSON-able record of every declared field (Score.details; the CLI's lines)."""
        out = {
            f.name: _plain(getattr(self, f.name))
            for f in fields(self)
            if f.name not in self.RECORD_SKIP
        }
        out.update(self.extra_record())
        return out

    def extra_record(self) -> dict[str, Any]:
        """Derived fields a modality adds to its record (none by default)."""
        return {}

    def images(self) -> list[bytes]:
        """The screenshots kept with the verdict (PNG bytes; none by default)."""
        return []


def _plain(v: Any) -> Any:
    """A JSON-able copy: dataclasses as dicts, Defects as a plain dict."""
    if hasattr(v, "__dataclass_fields__"):
        return {f.name: _plain(getattr(v, f.name)) for f in fields(v)}
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, list | tuple):
        return [_plain(x) for x in v]
    return v
