"""The filter contract: one admissibility axis per filter, keep or (drop, reason id, detail).

Modelled on datatrove's filters: small, independent, each declaring what it is. A filter's
`AXIS` names the axis, carries its line of the LLM judge's prompt, says whether failing it
rejects without human review (Cookie-Bench A.2), and lists the stable reason ids it may return.
The axis list, the judge's prompt and the metrics' keys are built from these declarations
(cogevol.curate.axes), so adding a reason or an axis is one edit in one place, and a count is
keyed by an id, never by free text parsed back.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

JUDGE = "judge"  # the reason id of an LLM judge's verdict on any axis (its words go in `detail`)


@dataclass(frozen=True)
class Axis:
    """One admissibility axis as its filter declares it."""

    name: str
    judge_line: str  # what the LLM judge is told this axis means
    auto_reject: bool  # failing it rejects the request; failing only others routes it to review
    reasons: Mapping[str, str]  # stable reason id -> what it means

    def __post_init__(self) -> None:
        if JUDGE in self.reasons:
            raise ValueError(f"{self.name}: reason id {JUDGE!r} is reserved for the LLM judge")


@dataclass(frozen=True, slots=True)
class Verdict:
    axis: str
    keep: bool
    reason: str = ""  # a reason id of the axis ("phishing"); "" when kept
    detail: str = ""  # for people: the words that matched, the value measured

    def to_json(self) -> dict:
        return {"axis": self.axis, "reason": self.reason, "detail": self.detail}


class Filter:
    """One admissibility axis. Subclasses declare `AXIS` and implement
    `check(record) -> (reason id, detail) or None`."""

    AXIS: Axis

    @property
    def axis(self) -> str:
        return self.AXIS.name

    def __call__(self, record: dict) -> Verdict:
        found = self.check(record)
        if found is None:
            return Verdict(self.AXIS.name, True)
        reason, detail = found
        if reason not in self.AXIS.reasons:
            raise ValueError(f"{type(self).__name__} returned undeclared reason id {reason!r}")
        return Verdict(self.AXIS.name, False, reason, detail)

    def check(self, record: dict) -> tuple[str, str] | None:  # pragma: no cover - interface
        raise NotImplementedError


class PatternFilter(Filter):
    """Drops a request when one of its patterns matches: `patterns` maps a reason id to its
    patterns; the matched words are the detail."""

    patterns: dict[str, list[str]] = {}

    def __init__(self) -> None:
        self._compiled = [
            (name, re.compile("|".join(ps), re.I)) for name, ps in self.patterns.items()
        ]

    def check(self, record: dict) -> tuple[str, str] | None:
        text = record["request"]
        for name, rx in self._compiled:
            m = rx.search(text)
            if m:
                return name, m.group(0)[:40]
        return None
