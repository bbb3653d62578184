"""Whether a page moves on its own, judged by what moves rather than by whether anything changed.

The quiet window and the end-of-run check both ask this. Every kind of motion counts, whatever
makes it: canvas 2D and WebGL pixels; CSS animations, transitions and the Web Animations API
(held on the virtual clock by instrument.js, so they advance with it and two copies of a page
agree); inline styles and SVG attributes changed by script and SMIL (an element's painted style,
offsets and box, compared element by element, leaving out elements whose text changed: they
reflow with it); text that changes (a typewriter, rotating quotes, a clock
on a page built around it).

What does not count: a still scene whose only change is a counter. When the only thing that
changes is digits (an FPS counter, a frame number, a timestamp) written over a canvas, a drawing
or a picture that fills a good part of the screen, the scene is dead and its counter is not an
animation. A page with no such scene whose digits tick (a clock, a countdown) does move: the
numbers are what it shows.

Ticks once a second are common (clocks, timers), so the window grows past its minimum while
nothing at all has changed and the page still has timers or animations pending, up to a
maximum; an idle page stops at the minimum.
"""

from __future__ import annotations

from collections.abc import Callable

from cogevol.probe.session import Session

MOVES = "moves:"  # prefix of the evidence when something moves
STILL = "still:"  # prefix when nothing does (and why)


def judge(prev: dict, cur: dict, canvas: bool = True) -> str:
    """What moved between two motion samples (page.js `motion`), as evidence; "" for nothing
    that counts. Counters over a scene are named apart (see the module docstring). `canvas`:
    whether canvas pixels count (not between the first two samples: see observe_motion)."""
    if cur["paintMoved"]:
        return MOVES + " elements move or change style (CSS, inline styles or SVG)"
    if canvas and cur["canvasMoved"]:
        return MOVES + " canvas pixels change"
    if cur["digits"] != prev["digits"]:
        return MOVES + " visible text changes"
    # with the text unchanged, no reflow explains it
    if cur["boxMoved"] and cur["dom"] == prev["dom"]:
        return MOVES + " elements change size or place"
    if cur["dom"] != prev["dom"] and not cur["scene"]:
        return MOVES + " numbers tick"
    return ""


def changed(prev: dict, cur: dict, canvas: bool = True) -> bool:
    """Any visible change at all (a counter included): the page is not still for the lockstep."""
    return any(prev[k] != cur[k] for k in ("dom", "paint", "box", "canvas")[: 4 if canvas else 3])


async def observe_motion(
    a: Session, min_ms: int, max_ms: int, steps: int, on_step: Callable[[dict], None] | None = None
) -> tuple[str, bool, int]:
    """Run the page untouched for at least `min_ms` of virtual time in `steps` steps, and up to
    `max_ms` while nothing has changed and the page is not idle. Returns (evidence, changed,
    virtual ms run): evidence starts with MOVES when something moved, else with STILL and why.
    `on_step` gets what each step drained (the quiet window's baseline signatures)."""
    step = max(1, min_ms // max(1, steps))
    prev = await a.call("motion", True)
    t, moved, any_change, counter = 0, "", False, False
    while t < max(min_ms, max_ms, 1):
        await a.run(step)
        t += step
        if on_step is not None:
            on_step(await a.call("drain"))
        cur = await a.call("motion")
        # a canvas's first frame is its appearance, not motion: a loop that paints its scene
        # and then covers it with the background every frame is a still black canvas
        canvas = t > step
        moved = moved or judge(prev, cur, canvas)
        if changed(prev, cur, canvas):
            any_change = True
            counter = counter or cur["dom"] != prev["dom"]
        prev = cur
        if t >= min_ms and (moved or any_change or t >= max_ms or await a.call("idle")):
            break
    if moved:
        return moved, True, t
    if counter:
        return (
            STILL
            + " only a counter changes (digits over a still scene: FPS, frame number or time)",
            True,
            t,
        )
    if any_change:
        return STILL + " only canvas text with numbers changes", True, t
    return STILL + f" nothing changes in {t} ms", False, t
