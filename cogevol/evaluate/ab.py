"""Blind A/B between systems on the held-out suites (seed 002's evaluation), and the judge watch
of an evaluation.

For each pair of systems and each suite item both answered, a judge sees the two answers'
screenshots side by side, in an order drawn per item (cogevol.judge.ab), and picks the better
or calls a tie. An answer with no screenshot (no page, a deck that did not render) loses to one
that has one without a call; two such answers tie. Win rates, with a bootstrap interval over
items and the judge's position bias, go to metrics/evaluate.json beside the absolute scores. One
or two judges can be configured (`evaluate.ab.judges`: overrides of the judge group, e.g. another
model on another endpoint); each gives its own win rates.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field

from cogevol.evaluate.run import ItemResult

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ABConfig:
    """params.yaml: evaluate.ab."""

    enabled: bool = False
    pairs: list = field(default_factory=list)
    judges: list = field(default_factory=list)
    seed: int = 0


def pairs_of(cfg: ABConfig, systems: list[str]) -> list[tuple[str, str]]:
    """The configured pairs, or every system against the first one (the base)."""
    if cfg.pairs:
        bad = [p for p in cfg.pairs if len(p) != 2 or any(s not in systems for s in p)]
        if bad:
            raise ValueError(f"evaluate.ab.pairs: {bad} name systems not evaluated ({systems})")
        return [(a, b) for a, b in cfg.pairs]
    return [(s, systems[0]) for s in systems[1:]]


def judge_configs(cfg: ABConfig, params: dict) -> list[tuple[str, object]]:
    """(name, JudgeConfig) per judge: each entry of `judges` overrides the judge group (`name`
    names it); none: the judge group itself."""
    from cogevol.judge.vlm import from_params

    base = dict(params.get("judge") or {})
    entries = cfg.judges or [{}]
    if len(entries) > 2:
        raise ValueError("evaluate.ab.judges: one or two judges")
    out = []
    for e in entries:
        e = dict(e)
        name = str(e.pop("name", "") or e.get("model") or base.get("model") or "judge")
        out.append((name, from_params({**base, **e, "enabled": True})))
    return out


async def _pair_outcomes(judge, x: str, y: str, rows: dict, seed: int) -> list[dict]:
    from cogevol.judge.ab import compare, first_shown
    from cogevol.judge.vlm import JudgeError

    async def one(item_id: str) -> dict | None:
        rx, ry = rows[x][item_id], rows[y][item_id]
        if not rx.images or not ry.images:
            w = "tie" if not rx.images and not ry.images else "x" if rx.images else "y"
            return {"winner": w, "shown_first": "none", "picked": "", "reason": "no screenshot"}
        kind = "slide" if rx.item.kind == "slide" else "page"
        request = rx.item.prompt
        try:
            return await compare(
                judge, kind, request, rx.images, ry.images, first_shown(request, x, y, seed)
            )
        except JudgeError as e:
            log.warning("evaluate: A/B %s vs %s on %s: no verdict (%s)", x, y, item_id, e)
            return None

    shared = sorted(set(rows[x]) & set(rows[y]))
    done = await asyncio.gather(*(one(i) for i in shared))
    return [d for d in done if d is not None]


async def run_ab(
    cfg: ABConfig, results: list[ItemResult], params: dict, resamples: int = 1000
) -> dict:
    """{"x vs y": {judge name: win rate record}} over the suite items both systems answered."""
    from cogevol.judge.ab import win_rate
    from cogevol.judge.vlm import VisionJudge

    rows: dict[str, dict[str, ItemResult]] = {}
    for r in results:
        if r.item.suite != "distilled":  # the reference row answers its own prompts
            rows.setdefault(r.system, {})[r.item.id] = r
    pairs = pairs_of(cfg, list(rows))
    out: dict[str, dict] = {}
    for name, jcfg in judge_configs(cfg, params):
        async with VisionJudge(jcfg) as judge:
            for x, y in pairs:
                outcomes = await _pair_outcomes(judge, x, y, rows, cfg.seed)
                rec = win_rate(outcomes, resamples, cfg.seed).record()
                out.setdefault(f"{x} vs {y}", {})[name] = rec
                log.info("evaluate: A/B %s vs %s (%s): %s", x, y, name, rec)
    return out


def watch(results: list[ItemResult], per_system: dict[str, tuple[list, list]]) -> dict:
    """cogevol.judge.monitor over an evaluation: each suite item's answers across systems are a
    group (their lengths, and the absolute judge's score of each); empty without judge scores."""
    from cogevol.judge.monitor import judge_stats

    length = {
        (name, item.id): len(out or "")
        for name, (items, outs) in per_system.items()
        for item, out in zip(items, outs)
    }
    groups: dict[str, dict] = {}
    for r in results:
        s = _judge_score(r)
        if s is None or r.item.suite == "distilled":
            continue
        g = groups.setdefault(r.item.id, {"lengths": [], "judge": []})
        g["lengths"].append(length.get((r.system, r.item.id), 0))
        g["judge"].append(s)
    return judge_stats(list(groups.values())) if groups else {}


def _judge_score(r: ItemResult) -> float | None:
    if r.item.kind == "slide":
        v = r.details.get("vlm_score")
        return v / 5 if isinstance(v, int | float) else None
    t = r.details.get("terms") or {}
    if "vlm_visual" not in t or "vlm_content" not in t:
        return None
    return 1 - (t["vlm_visual"] + t["vlm_content"]) / 2
