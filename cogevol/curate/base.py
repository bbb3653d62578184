"""The filter contract: one admissibility axis per filter, keep or (drop, reason).

Modelled on datatrove's filters: small, independent, each with a name that ends up in the
per-reason counts, so that a curator can see which axis removed what.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

AXES = (
    "safety",
    "privacy",
    "task_direction",
    "intent_clarity",
    "executability",
    "dependency",
    "logic",
)
# Cookie-Bench A.2: a failure on any of these is an automatic rejection; a failure on one of
# the others only routes the query to a human.
AUTO_REJECT_AXES = frozenset({"safety", "privacy", "executability", "logic"})


@dataclass(frozen=True, slots=True)
class Verdict:
    axis: str
    keep: bool
    reason: str = ""


KEEP = {axis: Verdict(axis, True) for axis in AXES}


class Filter:
    """One admissibility axis. Subclasses implement `check(record) -> reason or None`."""

    axis: str = ""

    def __call__(self, record: dict) -> Verdict:
        reason = self.check(record)
        return KEEP[self.axis] if reason is None else Verdict(self.axis, False, reason)

    def check(self, record: dict) -> str | None:  # pragma: no cover - interface
        raise NotImplementedError


class PatternFilter(Filter):
    """Drops a request when one of its named patterns matches; the name is the reason."""

    patterns: dict[str, list[str]] = {}

    def __init__(self) -> None:
        self._compiled = [
            (name, re.compile("|".join(ps), re.I)) for name, ps in self.patterns.items()
        ]

    def check(self, record: dict) -> str | None:
        text = record["request"]
        for name, rx in self._compiled:
            m = rx.search(text)
            if m:
                return f"{name} ({m.group(0)[:40]!r})"
        return None
