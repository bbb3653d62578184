"""Probe many pages concurrently on one browser pool: the CLI's and the reward's engine."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Iterable
from dataclasses import asdict, replace

from cogevol.browser.pool import BrowserConfig, BrowserPool
from cogevol.probe.core import ProbeConfig, probe_html
from cogevol.rewards.expects import expects_from_request
from cogevol.rewards.html import TermSettings, score

log = logging.getLogger(__name__)


def record(name: str, result, s) -> dict:
    """The per-page JSON of `cogevol probe` (contract in ARCHITECTURE.md, plus details)."""
    res = result.resources or {}
    return {
        "path": name, "rendered_ok": s.rendered_ok, "hard_fail": s.hard_fail,
        "reward": 0.0 if s.reward is None else s.reward, "interactivity": s.interactivity,
        "controls_total": s.controls_total, "controls_live": s.controls_live, "controls_operable": s.controls_operable,
        "controls_skipped": s.controls_skipped, "controls_excluded": s.controls_excluded, "expects": s.expects,
        "reason": s.reason, "seconds": result.seconds, "outcome": result.outcome, "harness_error": s.harness_error,
        "resource_failure": s.resource_failure, "no_reward": s.reward is None, "method": result.method,
        "animates": result.animates, "moves_later": result.moves_later, "moves_at_end": result.moves_at_end, "budget_exhausted": result.budget_exhausted,
        "fill": result.fill, "errors": result.errors[:3], "error_count": result.error_count, "load_errors": result.load_errors,
        "blocked_resources": res.get("blocked", []), "mirrored_resources": res.get("mirrored", []),
        "terms": s.terms, "weights_used": s.weights_used,
        "controls": [{k: v for k, v in asdict(c).items() if v not in ("", None) and (v or k not in ("drag", "hears", "errors"))}
                     for c in result.controls],
    }


def settings_from_params(probe: dict | None, workers: int | None = None) -> dict:
    """probe_stream's keyword arguments from params.yaml's `probe` group: the probe and browser
    settings, the defect weights and term scales, and the worker count."""
    probe = probe or {}
    workers = int(workers or probe.get("workers", 1))
    return {"workers": workers, "cfg": ProbeConfig(**probe.get("probe", {})),
            "browser": BrowserConfig(**{**probe.get("browser", {}), "instances": max(1, workers)}),
            "weights": probe.get("weights"), "terms": TermSettings(**probe.get("terms", {}))}


async def judge_terms(judge, result, request: str) -> tuple[dict[str, float] | None, str]:
    """The judge's defect terms for a rendered page (1 - score / 5 for visual and content), or
    (None, why) when the judge gives no verdict after its retries: the terms are then left out
    and the weights renormalised, never guessed."""
    from cogevol.judge.vlm import JudgeError

    if result.screenshot is None:
        return None, "judge: no screenshot"
    try:
        v = await judge.score("page", result.screenshot, request)
    except JudgeError as e:
        return None, f"judge failed: {e}"
    return {"vlm_visual": round(1 - v.visual / 5, 4), "vlm_content": round(1 - v.content / 5, 4)}, ""


async def probe_stream(items: Iterable[tuple[str, str]], workers: int = 1, cfg: ProbeConfig | None = None,
                       browser: BrowserConfig | None = None, pool: BrowserPool | None = None,
                       weights: dict[str, float] | None = None, judge=None,
                       requests: dict[str, str] | None = None, terms: TermSettings | None = None) -> AsyncIterator[dict]:
    """Yield one record per (name, html) as pages finish; at most `workers` pages in flight.
    `requests[name]` is what the page answers: the gate follows what it asks for (no request:
    the interactive gate) and the controls it names are driven first. With a judge
    (cogevol.judge.vlm.VisionJudge), pages past the hard-fail gate also get the vlm_visual /
    vlm_content terms from their first screenshot and the request."""
    cfg = cfg or ProbeConfig()
    if judge is not None and not cfg.screenshot:
        cfg = replace(cfg, screenshot=True)
    own = pool is None
    if own:
        pool = BrowserPool(browser or BrowserConfig(instances=max(1, workers)))
        await pool.__aenter__()
    sem = asyncio.Semaphore(max(1, workers))

    async def one(name: str, html: str) -> dict:
        request = (requests or {}).get(name) or ""
        expects = expects_from_request(request)
        async with sem:
            result = await probe_html(pool, html, cfg, request, motion=expects.animation)
            if result.outcome == "harness_error":  # the harness's fault: one retry on a fresh context
                log.warning("probe: retrying %s after a harness error: %s", name, result.reason)
                result = await probe_html(pool, html, cfg, request, motion=expects.animation)
            s = score(result, expects, weights=weights, settings=terms)
            if judge is not None and s.reward is not None and not s.hard_fail:  # the gate first: no judge call for a dead page
                jterms, why = await judge_terms(judge, result, request)
                s = score(result, expects, judge_terms=jterms, weights=weights, settings=terms)
                if why:
                    s.reason = f"{s.reason}; {why}"
            return record(name, result, s)

    try:
        tasks = [asyncio.create_task(one(n, h)) for n, h in items]
        for fut in asyncio.as_completed(tasks):
            yield await fut
    finally:
        if own:
            await pool.close()


async def probe_all(items: Iterable[tuple[str, str]], **kw) -> list[dict]:
    items = list(items)
    order = {name: k for k, (name, _) in enumerate(items)}
    out = [r async for r in probe_stream(items, **kw)]
    return sorted(out, key=lambda r: order[r["path"]])
