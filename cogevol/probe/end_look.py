"""End look: whether an input set the page moving, whether it still moves on its own after the
inputs (not the last input's inertia), whether an error froze it, and its layout at tablet
and phone sizes."""

from __future__ import annotations

import asyncio
import logging

from cogevol.probe.motion import MOVES, observe_motion
from cogevol.probe.session import Session
from cogevol.probe.state import ProbeState

log = logging.getLogger(__name__)
RESIZE_WAIT_MS = 1000  # real time for a page to hear a viewport change
# inertia after an input (see goes_on): the canvases' speed, looked at this many times
# across decay_ms, falls at every look to under this share of the first
DECAY_LOOKS = 3
DECAY_RATIO = 0.5


async def set_off(p: ProbeState, a: Session, b: Session | None) -> None:
    """Whether the input just given set the page moving on its own (a Play or Start button
    of an animation request whose page is still until then): later inputs may stop it
    again (a Reset, a Pause), so this is looked at now, not only at the end. The twin, if
    any, runs the same stretch so the two stay in step."""
    r = p.result
    motion = await look(p, a, b)
    if motion.startswith(MOVES) and await goes_on(p, a, b):
        r.moves_later, r.motion = True, motion + " after an input"


async def look(p: ProbeState, a: Session, b: Session | None) -> str:
    """Whether the page moves over the next settle_ms (the twin, if any, runs in step)."""
    ms = p.cfg.settle_ms
    if b is None:
        return (await observe_motion(a, ms, ms, 2))[0]
    return (await asyncio.gather(observe_motion(a, ms, ms, 2), b.run(ms)))[0][0]


async def goes_on(p: ProbeState, a: Session, b: Session | None) -> bool:
    """Motion right after an input may be the input's own inertia dying down: an orbit
    drag eased by damping, a transition, a thrown ball coming to rest. Motion on its own is
    change that goes on. Damping eases out frame by frame for many seconds (three.js
    OrbitControls' 0.05 is still visible on a dense grid 6 s later), too long to wait for
    inside the RL loop; but its speed falls every frame. So the canvases' change over two
    frames is measured DECAY_LOOKS times across decay_ms: falling at every look, to under
    DECAY_RATIO of the first, is inertia. Otherwise the page must still move at the end."""
    cfg = p.cfg
    speeds = []
    for i in range(DECAY_LOOKS):
        if i:
            gap = cfg.decay_ms // (DECAY_LOOKS - 1)
            await asyncio.gather(*(s.run(gap) for s in (a, b) if s is not None))
        await a.call("motion", True)
        await asyncio.gather(*(s.run(2 * cfg.frame_ms) for s in (a, b) if s is not None))
        speeds.append((await a.call("motion"))["canvasChange"])
    log.debug("probe: canvas change per two frames after an input: %s", speeds)
    if 0 < speeds[-1] < DECAY_RATIO * speeds[0] and all(y < x for x, y in zip(speeds, speeds[1:])):
        return False
    return (await look(p, a, b)).startswith(MOVES)


async def motion_at_end(p: ProbeState, a: Session) -> None:
    """Whether the page still moves on its own after the inputs (an animation a button set
    off, a timer started late; or frozen by an error) once it has run `watch_ms` in all.
    Only when the request asks for motion and the budget is not spent: it costs an idle
    stretch, which the budget also bounds."""
    r, cfg = p.result, p.cfg
    if not p.motion or r.budget_exhausted:
        return
    # let the inertia of the last input (a drag's damping, a transition) die down first;
    # and watch the page as long as a person watches an animation before judging it (a
    # loop that throws or a simulation that falls apart after its first seconds)
    idle = max(0 if r.animates else cfg.idle_ms, cfg.watch_ms - a.t)
    while idle > 0 and not p.budget.over():
        await a.run(min(idle, 500))
        idle -= 500
    p.errors_at_end = r.error_count
    motion, _, _ = await observe_motion(a, cfg.settle_ms, cfg.quiet_max_ms, 2)
    r.moves_at_end = motion.startswith(MOVES)
    if r.moves_at_end and not r.animates and not r.moves_later:
        r.moves_at_end = await goes_on(p, a, None)  # not the last input's inertia
        if r.moves_at_end:
            r.moves_later, r.motion = True, motion


async def frozen_by_error(p: ProbeState, a: Session, size: dict | None) -> None:
    """An error thrown after the end look saw the page move (while it looked, or during the
    layout measures) may have stopped it: an animation loop that throws schedules no next
    frame. The clock's frames are longer than a screen's (frame_ms), so a loop that throws
    after its first second on a screen throws after the look here. Looked at once more, at
    the first screen's size."""
    r, cfg = p.result, p.cfg
    if not r.moves_at_end or r.error_count <= p.errors_at_end or size is None:
        return
    await a.resize(size["width"], size["height"], RESIZE_WAIT_MS)
    await a.run(100)
    motion, _, _ = await observe_motion(a, cfg.settle_ms, cfg.settle_ms, 2)
    r.moves_at_end = motion.startswith(MOVES)


async def viewports(p: ProbeState, a: Session) -> dict:
    """Layout measures at tablet and phone sizes (the desktop ones come from the first
    screen). The browser tells the page of a new size at its next frame, in real time: the
    measure waits until the page has heard it (a canvas sized to the window resizes in its
    handler), or RESIZE_WAIT_MS, so a busy machine does not measure the old layout."""
    out = {}
    for name, (w, h) in (("tablet", (768, 1024)), ("mobile", (375, 812))):
        await a.resize(w, h, RESIZE_WAIT_MS)
        await a.run(100)
        out[name] = await a.call("viewport")
    return out
