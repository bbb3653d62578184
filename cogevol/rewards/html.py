"""The interactive-HTML reward: hard-fail gate, then 1 - weighted mean of defect terms.

Terms (each a defect in 0..1): vlm_visual, vlm_content (judge; absent until a judge is
configured), viewport_tablet, viewport_mobile, interactivity. Absent terms are left out and the
weights renormalised; every score records the terms it used and why it is what it is.
Harness failures (the probe's own errors) are kept apart from page verdicts: they carry
`harness_error` and no reward, so a broken harness never punishes the policy.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cogevol.probe.core import ProbeResult

DEFAULT_WEIGHTS = {"vlm_visual": 0.2, "vlm_content": 0.2, "viewport_tablet": 0.15, "viewport_mobile": 0.15, "interactivity": 0.3}


@dataclass
class HtmlScore:
    rendered_ok: bool
    hard_fail: bool
    reward: float | None  # None only for harness errors
    interactivity: float
    controls_total: int
    controls_operable: int
    controls_live: int
    controls_excluded: int
    reason: str
    terms: dict[str, float] = field(default_factory=dict)
    weights_used: dict[str, float] = field(default_factory=dict)
    harness_error: bool = False


def viewport_defect(v: dict) -> float:
    """Horizontal overflow, clipped text, unreadable (< 11 px) text, overlapping text boxes."""
    if not v:
        return 0.0
    n = max(1, v["textEls"])
    d = 0.4 * (v["overflow"] > 8) + 0.3 * min(1.0, 5 * v["clipped"] / n) + 0.2 * min(1.0, 2 * v["small"] / n) + 0.1 * min(1.0, v["overlaps"] / 3)
    return round(min(1.0, d), 4)


def score(result: ProbeResult, judge_terms: dict[str, float] | None = None, weights: dict[str, float] | None = None) -> HtmlScore:
    weights = weights or DEFAULT_WEIGHTS
    operable = [c for c in result.controls if c.status == "operable" and c.verdict]
    live = [c for c in operable if c.verdict == "live"]
    excluded = sum(c.status == "excluded" for c in result.controls)
    interactivity = len(live) / len(operable) if operable else 0.0
    base = dict(rendered_ok=result.rendered_ok, interactivity=round(interactivity, 4), controls_total=len(result.controls),
                controls_operable=len(operable), controls_live=len(live), controls_excluded=excluded)
    if result.outcome == "harness_error":
        return HtmlScore(hard_fail=False, reward=None, reason=result.reason, harness_error=True, **base)
    if result.outcome in ("page_hung", "page_crashed", "page_navigated") or not result.rendered_ok:
        return HtmlScore(hard_fail=True, reward=0.0, reason=result.reason or "not rendered", **base)
    if not operable:
        return HtmlScore(hard_fail=True, reward=0.0, reason="hard fail: no operable control" + _not_operable(result), **base)
    if not live:
        return HtmlScore(hard_fail=True, reward=0.0, reason=f"hard fail: none of {len(operable)} operable controls changes the visible state", **base)
    terms = {"interactivity": round(1 - interactivity, 4)}
    for name in ("tablet", "mobile"):
        if name in result.viewport:
            terms[f"viewport_{name}"] = viewport_defect(result.viewport[name])
    for k, v in (judge_terms or {}).items():
        terms[k] = min(1.0, max(0.0, float(v)))
    used = {k: weights[k] for k in terms if k in weights}
    total = sum(used.values())
    reward = 1 - sum(terms[k] * w for k, w in used.items()) / total
    dead = [c for c in operable if c.verdict == "dead"]
    reason = f"{len(live)}/{len(operable)} operable controls live" + (f"; dead: {', '.join(_name(c) for c in dead[:3])}" if dead else "")
    return HtmlScore(hard_fail=False, reward=round(reward, 4), reason=reason, terms=terms,
                     weights_used={k: round(w / total, 4) for k, w in used.items()}, **base)


def _name(c) -> str:
    return f"{c.kind} {c.label!r}" if c.label else c.kind


def _not_operable(result: ProbeResult) -> str:
    blocked = [c for c in result.controls if c.status != "operable"]
    return f" ({'; '.join(f'{_name(c)}: {c.reason}' for c in blocked[:3])})" if blocked else ""
