"""Watching the judges (seed 002): what a judge pays for besides quality.

Per GRPO step (cogevol.train.rewards) and per evaluation, from the groups a judge saw:
- `length_score_spearman`: the within-group rank correlation between an answer's length and its
  judge score, averaged over groups. Seed 002 found judges that prefer longer pages: a positive
  value that grows is the policy learning to write longer, not better.
- `round_agreement`: how often the position-shifted rounds of group pick give a page the same
  vote (1: the judge sees the pages, not their positions).
- `position_bias`: how far the mean vote at one display position strays from the mean vote over
  all positions (the largest such gap; 0: no position is favoured). `first_position_bias` is
  the first position's own gap, the usual suspect.
- `no_clear_difference`: the share of groups the judge saw no clear difference in.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from scipy.stats import spearmanr


def _finite(x) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)


def length_score_spearman(groups: Sequence[dict]) -> float | None:
    """Mean within-group Spearman of (length, judge score) over groups where both vary."""
    rhos = []
    for g in groups:
        pairs = [(n, s) for n, s in zip(g.get("lengths") or [], g.get("judge") or []) if _finite(s)]
        if len(pairs) < 3 or len({n for n, _ in pairs}) < 2 or len({s for _, s in pairs}) < 2:
            continue
        rho = spearmanr([n for n, _ in pairs], [s for _, s in pairs]).statistic
        if _finite(rho):
            rhos.append(float(rho))
    return round(sum(rhos) / len(rhos), 4) if rhos else None


def position_bias(picks: Sequence[dict]) -> tuple[float | None, float | None]:
    """(largest gap, first position's gap) between a display position's mean vote and the mean
    vote over all positions, pooled over every round of every group."""
    by_pos: dict[int, list[int]] = {}
    for p in picks:
        for votes in p.get("position_votes") or []:
            for pos, v in enumerate(votes):
                by_pos.setdefault(pos, []).append(v)
    if len(by_pos) < 2:
        return None, None
    everything = [v for vs in by_pos.values() for v in vs]
    mean = sum(everything) / len(everything)
    gaps = {pos: sum(vs) / len(vs) - mean for pos, vs in by_pos.items()}
    worst = max(gaps.values(), key=abs)
    return round(worst, 4), round(gaps[0], 4)


def judge_stats(groups: Sequence[dict]) -> dict[str, float]:
    """The judge's health over `groups` (each: `lengths` and `judge` scores per member, `pick`:
    its group-pick record when group pick ran). Only what could be measured is returned."""
    picks = [g["pick"] for g in groups if g.get("pick") and not g["pick"].get("error")]
    out: dict[str, float | None] = {"length_score_spearman": length_score_spearman(groups)}
    if picks:
        agree = [p["agreement"] for p in picks if _finite(p.get("agreement"))]
        out["round_agreement"] = round(sum(agree) / len(agree), 4) if agree else None
        out["position_bias"], out["first_position_bias"] = position_bias(picks)
        out["no_clear_difference"] = round(
            sum(bool(p.get("no_clear_difference")) for p in picks) / len(picks), 4
        )
        scores = [s for p in picks for s in p.get("scores") or [] if _finite(s)]
        out["pick_mean"] = round(sum(scores) / len(scores), 4) if scores else None
        out["pick_groups"] = float(len(picks))
    return {k: v for k, v in out.items() if v is not None}
