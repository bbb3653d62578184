"""The judges that compare, turned into reward: group pick and the Visual Anchor on a group's
Scores (cogevol.scoring's `score_groups`).

Each rollout is first scored alone (gate, probe or rules, the absolute or rubric judge). Then,
among the rollouts that passed their gate and kept screenshots:
- group pick (cogevol.judge.group_pick) gives each a pick score in -1..1. With
  `compose: term` it enters as the defect term `vlm_pick` = (1 - pick) / 2, weighed with the
  others (probe.weights / slides.weights); with `compose: seed002` the reward is seed 002's
  `(pick + F + 1) / 3`, F being the rollout's own reward;
- the anchor (cogevol.judge.anchor) gives each page a degradation D on 0..1 against the
  reference page, and the reward is multiplied by 1 - anchor.weight x D.
A failed gate stays 0 and costs no judge call. A judge that gives no verdict leaves its term out
(the reason is recorded in `judge_error`), as the absolute judge's terms are.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace

from cogevol.rewards.verdict import Defects, weigh
from cogevol.scoring.types import GroupScores, Score, ScoreGroup

# the anchor image for a request, or None (no reference, or it did not pass its own gate)
AnchorFor = Callable[[str], Awaitable[bytes | None]]


def judge_score(s: Score) -> float | None:
    """The absolute (or rubric) judge's score of one answer on 0..1, for monitoring."""
    if s.modality == "slide":
        v = s.details.get("vlm_score")
        return v / 5 if isinstance(v, int | float) else None
    vis, con = s.terms.get("vlm_visual"), s.terms.get("vlm_content")
    return None if vis is None or con is None else round(1 - (vis + con) / 2, 4)


def recompose(
    s: Score,
    weights: dict[str, float],
    extra: dict[str, float],
    factor: float = 1.0,
    seed002_pick: float | None = None,
    note: str = "",
) -> Score:
    """`s` with the group's terms added and its reward made again the way its scorer made it:
    1 - the weighted mean of the defects, times the subject factor (pages), times `factor`."""
    if s.reward is None or s.hard_fail:
        return s
    terms = Defects({**s.terms, **extra})
    reward, used = weigh(terms, weights)
    reward *= float(s.details.get("subject", 1.0) or 1.0)
    if seed002_pick is not None:
        reward = (seed002_pick + reward + 1) / 3
    reward = round(max(0.0, min(1.0, reward * factor)), 4)
    reason = f"{s.reason}; {note}" if note else s.reason
    details = {**s.details, "reward": reward, "terms": dict(terms), "weights_used": used}
    details["reason"] = reason
    return replace(s, reward=reward, terms=terms, weights=used, reason=reason, details=details)


async def judge_group(
    judge,
    group: ScoreGroup,
    scores: Sequence[Score],
    weights: dict[str, float],
    anchor_for: AnchorFor | None = None,
) -> GroupScores:
    """The group's Scores with the configured comparing judges applied (see the module doc).
    `judge`: a cogevol.judge.vlm.VisionJudge; `anchor_for`: the reference image of a request
    (pages, when the anchor is on)."""
    from cogevol.judge.anchor import degradation
    from cogevol.judge.group_pick import group_pick
    from cogevol.judge.vlm import JudgeError

    cfg = judge.cfg
    scores = list(scores)
    shots = [s.images if s.passed and s.images else [] for s in scores]
    record: dict = {
        "lengths": [len(t) for t in group.texts],
        "judge": [judge_score(s) for s in scores],
    }
    extra: list[dict[str, float]] = [{} for _ in scores]
    notes: list[list[str]] = [[] for _ in scores]
    errors: list[str] = ["" for _ in scores]
    picks: list[float | None] = [None] * len(scores)
    factor = [1.0] * len(scores)
    if cfg.group_pick.enabled:
        kind = "slide" if group.modality == "slide" else "page"
        res = await group_pick(judge, kind, group.request, shots, cfg.group_pick)
        record["pick"] = res.record()
        record["judge"] = list(res.scores)
        for k, p in enumerate(res.scores):
            if res.error and shots[k]:
                errors[k] = f"group pick failed: {res.error}"
            if p is None:
                continue
            picks[k] = p
            if cfg.group_pick.compose == "term":
                extra[k]["vlm_pick"] = round((1 - p) / 2, 4)
            notes[k].append(f"group pick {p:+.2f} over {len(res.rounds)} rounds")
    if cfg.anchor.enabled and group.modality == "html" and anchor_for is not None:
        anchor = await anchor_for(group.request)
        record["anchor"] = [None] * len(scores)
        if anchor is not None:
            done = await asyncio.gather(
                *(
                    degradation(judge, group.request, anchor, shots[k]) if shots[k] else _none()
                    for k in range(len(scores))
                ),
                return_exceptions=True,
            )
            for k, d in enumerate(done):
                if isinstance(d, JudgeError):
                    errors[k] = errors[k] or f"visual anchor failed: {d}"
                elif isinstance(d, BaseException):
                    raise d
                elif d is not None:
                    record["anchor"][k] = d
                    factor[k] = 1 - cfg.anchor.weight * d["degradation"] / 100
                    if d["degradation"] > 0:
                        notes[k].append(
                            f"visual anchor: {d['degradation']:g}/100 worse than the reference "
                            f"(reward x {factor[k]:.2f})"
                        )
    out = []
    for k, s in enumerate(scores):
        seed002 = picks[k] if cfg.group_pick.compose == "seed002" else None
        changed = extra[k] or seed002 is not None or not math.isclose(factor[k], 1.0)
        s = (
            recompose(s, weights, extra[k], factor[k], seed002, "; ".join(notes[k]))
            if changed
            else s
        )
        if errors[k]:
            s = replace(s, details={**s.details, "judge_error": errors[k]})
        out.append(s)
    return GroupScores(out, record)


async def _none() -> None:
    return None
