"""The admissibility axes as the filters declare them (cogevol.curate.base.Axis): their order,
which reject without review, every stable reason id, and the axis lines of the LLM judge's
prompt. Built from the declarations, never written twice."""

from __future__ import annotations

from cogevol.curate.base import JUDGE, Axis
from cogevol.curate.rules import FILTERS

DECLARED: tuple[Axis, ...] = tuple(f.AXIS for f in FILTERS)
AXES: tuple[str, ...] = tuple(a.name for a in DECLARED)
# Cookie-Bench A.2: a failure on any of these is an automatic rejection; a failure on one of
# the others only routes the query to a human.
AUTO_REJECT_AXES = frozenset(a.name for a in DECLARED if a.auto_reject)
ROMAN = ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x")
COUNT = {5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten"}


def reason_ids() -> dict[str, dict[str, str]]:
    """axis -> {reason id: what it means}, the LLM judge's id included (docs, metrics keys)."""
    return {
        a.name: {**a.reasons, JUDGE: "the LLM judge's verdict (its words in the detail)"}
        for a in DECLARED
    }


def judge_lines() -> str:
    """The axes' lines of the judge's prompt, numbered in order."""
    lines = [f"({ROMAN[k]}) {a.name}: {a.judge_line}" for k, a in enumerate(DECLARED)]
    return ";\n".join(lines) + "."
