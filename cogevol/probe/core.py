"""Probe one page: load it deterministically, learn what it does by itself, drive every
operable control with real input, and decide per control whether the visible state responded.

Two counterfactuals answer "would the page have looked like this without the input?":

* twin (default): a second copy of the page runs in lockstep (same seed, same virtual clock,
  same earlier inputs, same pointer position and focus) and does not receive the input under
  test; the control is live when the two pages' visible state differs (text and structure of
  rendered elements, form state, canvas 2D / WebGL pixels, and a masked screenshot when those
  agree). After each control the twin receives the same input; if the pages do not converge,
  the twin is rebuilt by replaying the input history at the same virtual times.
* idle pages (no animation, no timer or frame pending): the page's own state just before the
  input is the exact counterfactual, so no twin is opened until an input wakes the page up.
* baseline (CogEvol's reference): draw-call and DOM-mutation signatures seen during the quiet
  window are subtracted from those seen after the input; anything new means live.

A control's own echo of the input (the text typed into a field, a checkbox's tick) does not
count: a form that changes nothing else is dead.

This module runs those steps for one page (`probe_html`), in order: state (what the steps
share), page_load, discovery, driving and end_look, each a module of functions of the state.
What they use: config (what the probe is told and reports), session (one page under the virtual
clock and its inputs), drivers (which input each control gets, in what order), lockstep (the
twin and its replay), compare (live or dead against the counterfactual), motion (whether the
page moves on its own, by what moves), pixels (screenshot measures).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from cogevol.browser.pool import BrowserPool
from cogevol.probe import discovery, driving, end_look, page_load
from cogevol.probe.checklist_flows import run_flows
from cogevol.probe.config import PageOutcome, ProbeConfig, ProbeResult
from cogevol.probe.lockstep import Lockstep
from cogevol.probe.session import is_timeout
from cogevol.probe.state import ProbeState
from cogevol.probe.wiring import runtime_wiring, source_wiring

log = logging.getLogger(__name__)

__all__ = ["probe_html"]  # the probe's public names are cogevol.probe's


async def run(p: ProbeState) -> ProbeResult:
    """Probe within the budget. Out of time with the page still answering: a verdict over
    the controls driven so far (the rest `skipped`); not answering: page_hung."""
    cfg, r = p.cfg, p.result
    # the budget is checked between controls; this bounds the one in flight (on a busy
    # machine the budget stretches up to budget_cap times: so does this bound)
    hard_cap = cfg.page_timeout_s * max(cfg.budget_cap, 1.0) + 2 * p.hang_s + 3
    async with contextlib.AsyncExitStack() as stack:
        try:
            await asyncio.wait_for(steps(p, stack), hard_cap)
        except Exception as e:
            if not is_timeout(e) or p.a is None or r.outcome is not PageOutcome.OK:
                raise
            # hung only when it never answers again within the grace: a loaded machine
            # makes a page slow, not hung (the verdict must not depend on the load)
            if not await p.a.answers(max(p.hang_s, cfg.hang_grace_s)):
                raise
            await out_of_budget(p)
        with contextlib.suppress(Exception):
            from cogevol.browser.pool import page_resources

            r.resources = page_resources(p.a.page) if p.a is not None else {}
    return r


async def out_of_budget(p: ProbeState) -> None:
    """A slow page that still answers: what was driven stands, the rest is skipped."""
    r = p.result
    r.budget_exhausted = True
    if not r.rendered_ok:  # slow to show its first state: judge what it shows now
        content = await p.a.call("visibleContent")
        r.rendered_ok = content["area"] > 0 or content["text"] > 0
        if not r.rendered_ok:
            r.reason = "render: nothing visible within the page budget"
    for c in r.controls:
        if c.status == "operable" and not c.verdict:
            c.status, c.reason = "skipped", "page budget ran out before this control"


async def steps(p: ProbeState, stack: contextlib.AsyncExitStack) -> None:
    """The steps: load, quiet window (what the page does by itself), render check, first
    screen, discover controls, drive them, motion at the end, layout at other viewports.
    A page that fails a step gets no later ones; the result says why."""
    r = p.result
    twin_stack = contextlib.AsyncExitStack()  # twins close on their own when they diverge
    await stack.enter_async_context(twin_stack)
    p.stack = stack
    a = await p.open(stack)
    content = await a.call("visibleContent")
    baseline = await page_load.quiet(p, a)
    r.load_errors, r.load_error_kinds = r.error_count, r.error_kinds
    if not await page_load.rendered(p, a, content):
        return
    await page_load.first_screen(p, a)
    n_found = await discovery.discover(p, a)
    if discovery.waiting_for_time(p):
        n_found = await discovery.wait_for_enabled(p, a, baseline)
    lock = Lockstep(p.open, twin_stack, p.cfg, r, n_found)
    if not await driving.drive_controls(p, a, lock, baseline):
        return
    a = p.a
    # how far a spent budget got depends on the machine's load: first-screen facts only
    if not r.budget_exhausted:
        await page_load.facts(
            p, a
        )  # again after the inputs: a quiz shows its questions once started
    await end_look.motion_at_end(p, a)
    size = a.page.viewport_size
    r.viewport.update(await end_look.viewports(p, a))
    await end_look.frozen_by_error(p, a, size)
    if p.flows:
        r.flows = await run_flows(
            lambda st: p.open(st, register=False),
            p.flows,
            p.cfg,
            r.quiet_ms,
            p.flow_labels,
            r.controls,
        )


async def probe_html(
    pool: BrowserPool,
    html: str,
    cfg: ProbeConfig | None = None,
    request: str = "",
    motion: bool = True,
    flows: list[dict] | None = None,
    flow_labels: dict[str, tuple[str, ...]] | None = None,
) -> ProbeResult:
    """Probe one page; never raises for anything the page does. `request` orders the controls
    (those it names are driven first); `motion` measures whether the page still moves on its own
    after the inputs (needed when the request asks for animation; costs an idle stretch);
    `flows`: the request's flow checks ({"value", "steps", "expect"}), each run on a fresh copy
    of the page with `flow_labels` (label group -> words) for the controls its steps name."""
    cfg = cfg or ProbeConfig()
    t0 = time.perf_counter()
    probe = ProbeState(pool, html, cfg, request, motion, flows, flow_labels)
    try:
        result = await run(probe)
    except Exception as e:  # the page's fault or ours
        result = probe.result
        result.outcome, result.reason = probe.fault(e)
        if result.outcome is PageOutcome.HARNESS_ERROR:
            log.warning("probe: harness error: %s", result.reason)
    result.wired = source_wiring(html) + runtime_wiring(result.controls)
    if probe.tracer is not None:
        result.trace, result.trace_page = probe.tracer.spans(), probe.tracer.page_info()
    result.seconds = round(time.perf_counter() - t0, 3)
    return result
