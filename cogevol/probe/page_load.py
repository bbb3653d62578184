"""Load: what the page does by itself (the quiet window), whether it shows anything, the first
screen's measures and the text and groups it shows (for the request's checklist)."""

from __future__ import annotations

from cogevol.probe.compare import tokens
from cogevol.probe.config import PageOutcome
from cogevol.probe.motion import MOVES, observe_motion
from cogevol.probe.pixels import ink_in_boxes, screen_fill
from cogevol.probe.session import Session
from cogevol.probe.state import ProbeState


async def quiet(p: ProbeState, a: Session) -> set[str]:
    """Run the page untouched: the draw and mutation signatures it makes by itself (the
    baseline method subtracts them); whether anything moves on its own and whether its
    visible state changes at all go into the result (animates, changes, motion)."""
    r, baseline = p.result, set()
    await a.call("drain")  # what loading did is not what the page does by itself

    def collect(drained: dict) -> None:
        baseline.update(tokens(drained))

    r.motion, r.changes, r.quiet_ms = await observe_motion(
        a, p.cfg.quiet_ms, p.cfg.quiet_max_ms, p.cfg.quiet_steps, collect
    )
    r.animates = r.motion.startswith(MOVES)
    if p.tracer is not None:  # what ran in the quiet window runs on its own
        await p.tracer.autonomous()
    return baseline


async def rendered(p: ProbeState, a: Session, content: dict) -> bool:
    """Whether the page shows anything (`content`: what it showed right after loading);
    when not, the result says why and no control is driven."""
    r = p.result
    if a.crashed:
        r.outcome, r.reason = PageOutcome.PAGE_CRASHED, "render: the tab crashed while loading"
        return False
    if content["area"] <= 0 and content["text"] <= 0:
        # content drawn by timers during the quiet window
        content = await a.call("visibleContent")
    if content["area"] <= 0 and content["text"] <= 0:
        why = f"; script error: {r.errors[0]}" if r.errors else ""
        r.reason = "render: nothing visible" + why
        return False
    r.rendered_ok = True
    return True


async def first_screen(p: ProbeState, a: Session) -> None:
    """Measures of the first screen before any input: fill, screenshot, desktop layout."""
    r = p.result
    first = await a.screenshot()
    r.fill = screen_fill(first)
    shown = await a.call("substance")
    shown["canvasInk"] = ink_in_boxes(first, shown.pop("canvases"))
    r.shown = shown
    if p.cfg.screenshot:
        r.screenshot = first
    r.viewport["desktop"] = await a.call("viewport")
    await facts(p, a)


async def facts(p: ProbeState, a: Session) -> None:
    """What the page shows, for the request's checklist: text seen at any point counts."""
    r = p.result
    f = await a.call("facts")
    if f["text"] and f["text"] not in r.text:
        r.text = (r.text + "\n" + f["text"]).strip()[:60000]
    r.groups = sorted(set(r.groups) | set(f["groups"]))
    r.scene = r.scene or f["scene"]
    r.drawn = r.drawn or f["drawn"]
