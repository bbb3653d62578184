"""Discover: the page's controls and the keys it listens for, on the first screen, after a
wait when time is what enables them, and in every new state an input reveals."""

from __future__ import annotations

import logging

from cogevol.probe import page_load
from cogevol.probe.compare import tokens
from cogevol.probe.config import Control
from cogevol.probe.drivers import key_name
from cogevol.probe.lockstep import Lockstep
from cogevol.probe.session import Session
from cogevol.probe.state import ProbeState

log = logging.getLogger(__name__)


async def discover(p: ProbeState, a: Session) -> int:
    """The page's controls (result.controls) and the keys its handlers read; returns how
    many controls the page itself offers (a twin must find as many)."""
    found = await a.call("discover")
    controls = [control_from(c) for c in found["controls"]]
    # keys: one pseudo-control, held across frames (focused on the listening element if only it
    # listens): first the keys the handlers compare against, then the usual game keys
    p.key_values = [k for k in dict.fromkeys(map(key_name, found["keyValues"])) if k]
    if found["keyTargets"]:
        controls.append(
            Control(
                found["keyIndex"],
                "keyboard",
                "keyboard",
                "+".join(found["keyTargets"]),
                "operable",
            )
        )
    p.result.controls = controls
    return len(found["controls"])


def waiting_for_time(p: ProbeState) -> bool:
    """No control can be driven yet, some are disabled, and the page changes on its own: a
    Restart that the countdown enables, a Next after an intro. Time is the input."""
    r = p.result
    return (
        r.changes
        and p.cfg.enable_wait_ms > 0
        and not any(c.status == "operable" for c in r.controls)
        and any(c.reason == "disabled" for c in r.controls)
    )


async def wait_for_enabled(p: ProbeState, a: Session, baseline: set[str]) -> int:
    """Let the page run on its own (virtual time, in quiet-window steps) until a control is
    enabled or enable_wait_ms is spent; the wait joins the quiet window, so every twin and
    fresh load replays it and what the page did meanwhile stays in the baseline."""
    r, step, waited = p.result, max(p.cfg.quiet_ms, 250), 0
    n_found = len([c for c in r.controls if c.index >= 0])
    while waited < p.cfg.enable_wait_ms and not p.budget.over():
        await a.run(step)
        waited += step
        r.quiet_ms += step
        baseline.update(tokens(await a.call("drain")))
        n_found = await discover(p, a)
        if any(c.status == "operable" for c in r.controls):
            log.debug("probe: a control was enabled after %d virtual ms on its own", waited)
            break
    return n_found


async def reveal(p: ProbeState, a: Session, lock: Lockstep, depth: int, by: str) -> list[int]:
    """A new state: the controls that appeared, were revealed or became enabled (on the
    twin too, at the same moment, so indices stay the same on both), what the state shows
    (for the checklist) and, when kept, its screenshot; `by` is the label of the input that
    revealed them. Returns the controls to drive."""
    r = p.result
    hidden = {
        c.index: k
        for k, c in enumerate(r.controls)
        if c.status == "not_operable" and c.reason in ("disabled", "not visible") and c.index >= 0
    }
    found = await lock.discover(a, list(hidden))
    revealed: list[tuple[int, Control]] = []
    for d in found["now"]:
        if d["status"] == "operable" and d["index"] in hidden:
            k = hidden[d["index"]]
            c = r.controls[k]
            c.status, c.reason, c.label, c.depth = "operable", "", d["label"], depth
            c.group = d.get("group", c.group)
            c.revealed_by = by
            revealed.append((k, c))
    for d in found["controls"]:
        c = control_from(d)
        c.depth, c.revealed_by = depth, by
        r.controls.append(c)
        revealed.append((len(r.controls) - 1, c))
    if found["keyTargets"] and not any(c.kind == "keyboard" for c in r.controls):
        # a game that listens for keys only once Play was pressed
        p.key_values = [k for k in dict.fromkeys(map(key_name, found["keyValues"])) if k]
        c = Control(-1, "keyboard", "keyboard", "+".join(found["keyTargets"]), "operable")
        c.depth, c.revealed_by = depth, by
        r.controls.append(c)
        revealed.append((len(r.controls) - 1, c))
    await page_load.facts(p, a)  # a quiz's next question, a tab's content
    if p.cfg.screenshot and len(r.state_shots) < p.cfg.explore_shots:
        r.state_shots.append(await a.screenshot())
    return p.graph.pick(revealed, depth)


def control_from(c: dict) -> Control:
    """A control as page.js describes it."""
    return Control(
        c["index"],
        c["kind"],
        c["tag"],
        c["label"],
        c["status"],
        c["reason"],
        drag=c.get("drag", False),
        hears=c.get("hears", False),
        type=c.get("type", ""),
        group=c.get("group", ""),
    )
