"""Deciding whether an input changed what the page shows, against its counterfactual.

The counterfactual is the twin (a lockstep copy that did not get the input) or, for an idle
page, the page's own state just before the input. Comparison goes from cheap to expensive:
visible DOM text and form state, canvas pixels, then (when those agree) a screenshot with
the control's own redraw masked. Multi-step inputs are compared after every step, so that a
later step cannot undo what an earlier one did. The baseline method's signatures (draw calls
and DOM mutation kinds) are also computed here.
"""

from __future__ import annotations

import asyncio

from cogevol.probe.config import Action, ProbeConfig, Step, pointer_end
from cogevol.probe.pixels import changed_pixels, masked
from cogevol.probe.session import Session


def tokens(drained: dict) -> set[str]:
    """Signatures for the baseline method: draw calls without coordinates, DOM mutation kinds,
    what the page did off the screen (instrument.js `effect`: a download, the clipboard)."""
    out = set()
    for d in drained["draws"]:
        name, _, rest = d.partition("(")
        out.add("draw:" + name + ":" + rest.rpartition(")")[2])
    out.update(m if m.startswith("effect:") else "dom:" + m for m in drained["mutations"])
    return out


def differs(sa: dict, sb: dict) -> str:
    """What differs between two snapshots, as evidence ("" when nothing does): text and form
    state, canvas pixels, where elements are and how they are painted (CSS animations and
    transitions, inline styles, SVG attributes, layout and visibility), or what the page did off
    the screen (a file downloaded, the clipboard written, a print)."""
    if sa["dom"] != sb["dom"]:
        return "visible text or form state"
    if sa["canvas"] != sb["canvas"]:
        return "canvas pixels"
    if sa.get("paint") != sb.get("paint") or sa.get("box") != sb.get("box"):
        return "element position or style"
    if sa.get("effects") != sb.get("effects"):
        # a download, the clipboard, a print: a response a person gets off the screen
        what = (sa.get("effects") or sb.get("effects")).split(" ", 1)[1]
        return f"what it did off the screen ({what})"
    return ""


async def mirror_input(a: Session, b: Session, step: Step | None) -> None:
    """The twin gets what the input left behind except the input: pointer position and focus.
    After a hover the pointer's place is the input: the twin's stays where it was."""
    if step is not None and step[0] in ("click", "type", "tap", "drag"):
        await b.point(*pointer_end(step))
    await b.call("setFocus", await a.call("focused"))


async def drive(
    a: Session,
    b: Session | None,
    act: Action,
    before: tuple | None,
    cfg: ProbeConfig,
    skip: int = -1,
) -> tuple[str, str, str] | None:
    """Perform the action's steps one by one; with several steps (keys, canvas points, a
    board's pieces, a click then a drag) compare after each and stop at the first visible
    change, so a later step cannot undo an earlier one's effect. Snapshots leave out control
    `skip`'s own look, as `before` does (its hover or pressed style is no response).
    `act.steps` ends up holding the steps performed, so a replay presses the same ones.
    Returns (verdict, evidence, driver) for a change seen between steps, else None."""
    steps, done = act.steps, []
    for step in steps:
        done.append(step)
        await a.gesture(step, act, cfg)
        if len(steps) == 1:
            break
        if b is not None:
            await mirror_input(a, b, step)
            if b.t < a.t:
                await b.run(a.t - b.t)
            sa, sb = await asyncio.gather(a.snapshot(skip), b.snapshot(skip))
        elif before is not None:
            sa, sb = await a.snapshot(skip), before[0]
        else:
            continue
        if differs(sa, sb):
            act.steps = done
            what = differs(sa, sb)
            how = (
                f"holding {step[2]}"
                if step[0] == "key"
                else f"{step[1]} at ({step[2]:.0f}, {step[3]:.0f})"
                if step[0] in ("tap", "click", "drag", "hover")
                else step[1]
            )
            return "live", f"{what} changed after {how}", step[1]
    act.steps = done
    if b is not None:
        await mirror_input(a, b, done[-1] if done else None)
    return None


async def verdict(
    snaps: tuple[dict, dict],
    shot_before: bytes | None,
    a: Session,
    b: Session | None,
    act: Action,
    cfg: ProbeConfig,
) -> tuple[str, str]:
    """Live when the page with the input (snaps[0]) differs visibly from its counterfactual
    (snaps[1]): the twin `b`, or for an idle page its own state before the input, whose
    screenshot is `shot_before`. Returns (verdict, evidence)."""
    sa, sb = snaps
    what = differs(sa, sb)
    if what:
        return "live", f"{what} changed"
    if cfg.pixel_check:
        if b is not None:
            pa, pb = await asyncio.gather(a.screenshot(), b.screenshot())
        else:
            pa, pb = await a.screenshot(), shot_before
        if pa == pb:
            return "dead", "no visible difference"
        mask = (
            [act.box]
            if act.box and act.kind in ("text", "select", "range", "click", "keyboard")
            else []
        ) + act.also_mask
        changed = changed_pixels(masked(pa, mask), masked(pb, mask))
        if changed >= cfg.pixel_min:
            return "live", f"rendered pixels changed ({changed} px)"
    return "dead", "no visible difference"
