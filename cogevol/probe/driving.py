"""Drive: play the page through, every operable control given its input in order and judged
against the counterfactual (twin, idle state or baseline), the states the inputs reach
explored, dead controls given once more where the state has changed."""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from dataclasses import replace

from cogevol.probe import discovery, end_look
from cogevol.probe.compare import differs, drive, tokens, verdict
from cogevol.probe.config import Action, Control, PageOutcome
from cogevol.probe.drivers import keyboard_action, order_controls, pointer_action
from cogevol.probe.explore import FIELDS, state_key
from cogevol.probe.lockstep import Lockstep
from cogevol.probe.session import Session
from cogevol.probe.state import ProbeState

# states in which controls found detached are looked for again, drawn anew (a page that redraws
# its buttons on a clock would otherwise be looked at in every state)
RERENDERS = 3


async def drive_controls(p: ProbeState, a: Session, lock: Lockstep, baseline: set[str]) -> bool:
    """Play the page through: drive the operable controls in order (those the request names
    first) within max_controls; in every new state a live input reached, the controls it
    revealed or enabled (cogevol.probe.explore); when nothing is left, the dead controls
    once more where the state has changed since (Add once a task is typed, Reset after a
    change), all within the explore_* budgets and the page budget. False when the tab
    crashed under an input."""
    cfg, r = p.cfg, p.result
    order = order_controls(r.controls, p.request)
    await lock.begin(a, r.changes, bool(order), p.budget)
    graph = p.graph
    cur = state_key(await a.snapshot())
    graph.state(cur)
    queue: deque[tuple[int, int, bool]] = deque((k, 0, False) for k in order)
    dead_in: dict[int, str] = {}  # dead control -> the state it was driven in
    tried_again: set[int] = set()
    typed: list[int] = []  # fields typed into or set (echo only) since the last live input
    early: set[int] = set()  # dead before any input changed the state (a Reset pressed early)
    rendered: set[str] = set()  # states whose controls were found drawn anew
    moved = False  # a live input has changed the state
    first = later = 0
    while queue or queue_again(p, queue, dead_in, tried_again, cur):
        k, depth, again = queue.popleft()
        c = r.controls[k]
        if again and c.verdict != "dead":  # came alive meanwhile (a field whose text was used)
            continue
        if p.budget.over():
            r.budget_exhausted = True
            if not again:
                c.status, c.reason = "skipped", "page budget ran out before this control"
            elif k in early and moved:
                # pressed before anything changed, it is no verdict until it is given again
                # after a change (a Reset), and the budget ran out first
                c.status, c.verdict, c.evidence = "skipped", "", ""
                c.reason = (
                    "dead before any input changed the page; the page budget ran out"
                    " before it was given again"
                )
            continue
        if depth == 0 and not again:
            if first >= cfg.max_controls:
                c.status, c.reason = "not_operable", "over max_controls"
                continue
        elif later >= cfg.explore_controls:
            graph.stop("explore_controls")
            if not again:
                c.status, c.reason = "not_operable", "over explore_controls"
            continue
        kept = replace(c) if again else None  # its first verdict, if the second try fails
        act = await aim(p, a, c)
        if act is None:
            if kept is not None:
                c.__dict__.update(kept.__dict__)
            elif c.reason == "detached" and len(rendered) < RERENDERS and cur not in rendered:
                # the page drew its controls anew (a board rebuilt by a Restart that looked
                # dead, a list rendered again): drive the new ones in their place
                rendered.add(cur)
                queue.extend(
                    (j, depth, False) for j in await discovery.reveal(p, a, lock, depth, "")
                )
            continue
        if depth == 0 and not again:
            first += 1
        else:
            later += 1
        if again:
            c.driver = ""
        try:
            await drive_one(p, a, lock, c, act, baseline)
            await lock.after_input(a, act)
        except Exception:
            # not a reload this input caused: the page's fault (or ours), as before
            if not await a.reloaded_itself():
                raise
            reloaded = True
        else:
            # without an error, a reload shows as a navigation event by now (the protocol's
            # events arrive in order, before the later calls' answers)
            reloaded = a.navigated and await a.reloaded_itself()
        if reloaded:
            # a Reset that reloads the page (location.reload(), a link to the page itself)
            # is a reset: live when the state it left was not the first screen
            c.verdict, c.driver = ("live" if graph.keys.get(cur) else "dead"), "click"
            c.evidence = "reloads the page (a reset)" + (
                "" if c.verdict == "live" else ": nothing had changed before it"
            )
            a, lock = await fresh_load(p, baseline)
        verdict = c.verdict
        if kept is not None:
            if c.verdict == "live":
                c.again, c.evidence = True, f"{c.evidence} (given again in a changed state)"
            else:
                c.__dict__.update(kept.__dict__)
        if a.crashed:
            r.outcome, r.reason = (
                PageOutcome.PAGE_CRASHED,
                f"the tab crashed after input on {c.kind} {c.label!r}",
            )
            return False
        new = state_key(await a.snapshot())
        if verdict == "dead" and not again and not moved:
            early.add(k)
        if verdict == "live" and new != cur:
            moved = True
            graph.moved(c)
        elif c.verdict == "dead" and graph.answered(r.controls, c):
            c.status, c.verdict, verdict = "alike", "", ""
            c.reason = "an option of a set another option of which already answered"
        if verdict == "dead" and not again:
            dead_in[k] = cur
        if c.kind in FIELDS and verdict == "dead":
            typed.append(k)  # its text or choice may be what the next button uses
        elif verdict == "live":
            await credit_fields(p, a, typed, c)
        explore = verdict == "live" and not reloaded and graph.can_explore(new, depth)
        graph.transition(cur, new, k, c, depth, again, verdict)
        cur = new
        if explore:
            revealed = await discovery.reveal(p, a, lock, depth + 1, c.label or c.kind)
            queue.extend((j, depth + 1, False) for j in revealed)
    r.counterfactual = lock.method
    r.explore = graph.report()
    p.a = a  # the page under test (another copy after a reload from a Reset)
    return True


async def fresh_load(p: ProbeState, baseline: set[str]) -> tuple[Session, Lockstep]:
    """After a reload an input caused: the page under test opened again in the same
    deterministic regime (same seed, clock and quiet window), its first-screen controls
    discovered again (same order, so their indices hold), and a new counterfactual. Revealed
    controls belonged to the old document and are not driven again."""
    r = p.result
    p.a, p.tracer = None, None  # the traced document is gone
    a = await p.open(p.stack)
    await a.call("drain")
    await a.run(r.quiet_ms)
    baseline.update(tokens(await a.call("drain")))
    found = await a.call("discover")
    twins = contextlib.AsyncExitStack()
    await p.stack.enter_async_context(twins)
    lock = Lockstep(p.open, twins, p.cfg, r, len(found["controls"]))
    await lock.begin(a, r.changes, True, p.budget)
    return a, lock


async def credit_fields(p: ProbeState, a: Session, typed: list[int], c: Control) -> None:
    """A form that works only when filled is live, not dead: fields typed into or set since
    the last live input, beside the button that just responded (type a task, pick its
    priority, then Add), are live."""
    if c.kind in FIELDS:  # a live field (a preview, a counter) is part of the form
        return
    r = p.result
    if c.kind == "click" and c.index >= 0:
        for j in typed:
            f = r.controls[j]
            if await a.call("near", f.index, c.index):
                f.verdict, f.driver = "live", "type+click"
                what = "text" if f.kind == "text" else "choice"
                f.evidence = f"its {what} was used: {c.label or c.kind!r} responded after it"
    typed.clear()


def queue_again(
    p: ProbeState, queue: deque, dead_in: dict[int, str], tried: set[int], cur: str
) -> bool:
    """Queue the dead controls once more when the state has changed since they were driven
    (a Reset pressed before anything changed, an Add pressed while its field was empty);
    each gets one more try. False when there is none."""
    controls = p.result.controls
    again = [
        k
        for k, key in dead_in.items()
        if k not in tried and key != cur and controls[k].verdict == "dead"
    ]
    tried.update(again)
    queue.extend((k, controls[k].depth, True) for k in again)
    return bool(again)


async def aim(p: ProbeState, a: Session, c: Control) -> Action | None:
    """The input for `c`, scrolled into view; None (and `c` not operable) when it cannot be
    reached. A control under an overlay that may lift by itself is waited for, once."""
    if c.kind == "keyboard":
        return await keyboard_action(a, c, p.key_values, p.cfg)
    aim = await a.call("aim", c.index)
    if not aim["ok"] and aim.get("why") == "covered" and not p.waited and not await a.call("idle"):
        # a loading screen or an intro overlay that lifts by itself: wait once
        p.waited = True
        await a.run(p.cfg.overlay_wait_ms)
        aim = await a.call("aim", c.index)
    if not aim["ok"]:
        c.status, c.reason = "not_operable", aim["reason"]
        return None
    return await pointer_action(a, c, aim, p.cfg)


async def drive_one(
    p: ProbeState, a: Session, lock: Lockstep, c: Control, act: Action, baseline: set[str]
) -> None:
    """Give `c` its input and record its verdicts: against the counterfactual in use and,
    always, against the quiet-window baseline."""
    cfg, r, b = p.cfg, p.result, lock.b
    skip = act.index if act.kind in ("text", "select", "range", "click") else -1
    before = await before_input(p, a, lock, c, act, skip)
    scheduled = (await a.call("drain"))["scheduled"]
    errors_before = r.error_count
    t_input = a.t
    if p.tracer is not None:
        await p.tracer.begin()
    early = await drive(a, b, act, before, cfg, skip)
    if b is not None and b.t < a.t:
        await b.run(a.t - b.t)
    await asyncio.gather(*(s.run(cfg.settle_ms) for s in (a, b) if s is not None))
    drained = await a.call("drain")
    new = tokens(drained) - baseline
    c.baseline_verdict = "live" if new else "dead"
    c.errors = r.error_count - errors_before
    lock.history.append((t_input, act))
    if early:
        c.twin_verdict, c.evidence, c.driver = early
    elif lock.static:
        c.twin_verdict, c.evidence = await verdict(
            (await a.snapshot(skip), before[0]), before[1], a, None, act, cfg
        )
    elif b is not None:
        snaps = await asyncio.gather(a.snapshot(skip), b.snapshot(skip))
        c.twin_verdict, c.evidence = await verdict(snaps, None, a, b, act, cfg)
    # the handler scheduled work: it may answer late
    if c.twin_verdict == "dead" and drained["scheduled"] > scheduled:
        late = await late_response(p, a, b, lock, before, skip)
        if late:
            c.twin_verdict, c.evidence = late
    if lock.use_twin and c.twin_verdict:
        c.verdict = c.twin_verdict
    else:
        late = ""
        if not new and drained["scheduled"] > scheduled:
            new, late = await late_signatures(p, a, b, baseline)
            c.baseline_verdict = "live" if new else "dead"
        c.verdict, c.evidence = (
            "live" if new else "dead",
            ", ".join(sorted(new)[:3]) + late if new else "no new draw or DOM signature",
        )
    if c.verdict == "live" and not c.driver:
        c.driver = "+".join(dict.fromkeys(st[1] for st in act.steps))
    if p.tracer is not None:  # only a live input's code earns credit
        trace = await p.tracer.end()
        if c.verdict == "live":
            p.tracer.keep(trace)
    if (
        c.verdict == "live"
        and p.motion
        and not (r.animates or r.moves_later)
        and p.set_off_tries < 3
    ):
        # the first live controls are the ones the request names (Play, Start)
        p.set_off_tries += 1
        await end_look.set_off(p, a, b)


async def before_input(
    p: ProbeState, a: Session, lock: Lockstep, c: Control, act: Action, skip: int
) -> tuple | None:
    """Make the counterfactual match the moment before the input: for an idle page, its
    own state (snapshot, screenshot) with the pointer already on the control, so hover is
    part of it; for a twin, the same scroll position. Focus rings redrawn by the input
    are masked."""
    before = None
    if lock.static:
        if act.kind != "keyboard":
            await a.point(act.x, act.y)
            # a hover transition: let it finish, it is not the response
            if not await a.call("idle"):
                await a.run(p.cfg.settle_ms)
        before = (
            await a.snapshot(skip),
            await a.screenshot() if p.cfg.pixel_check else None,
        )
    elif lock.b is not None and act.kind != "keyboard":
        await lock.b.call("aim", c.index)  # same scroll position
        # the pointer reaches the control on both pages at the same virtual time, so hover
        # styles (and the transitions they start) are the same on both; only the input differs
        await asyncio.gather(a.point(act.x, act.y), lock.b.point(act.x, act.y))
    # an element that loses focus to the input redraws its focus ring: not a response
    # (in the twin too: its focus is mirrored by script, which draws rings differently)
    had_focus = await a.call("focused")
    act.also_mask = (
        [await a.call("box", had_focus)] if had_focus >= 0 and had_focus != act.index else []
    )
    return before


async def late_response(
    p: ProbeState, a: Session, b: Session | None, lock: Lockstep, before: tuple | None, skip: int
) -> tuple[str, str] | None:
    """A control whose handler scheduled work (a Start button whose timer ticks once a
    second, a search animated over the next seconds) may show nothing within settle_ms:
    keep both pages running in step, up to response_wait_ms more, and compare as we go."""
    cfg, waited = p.cfg, 0
    step = max(1, cfg.response_wait_ms // 4)
    while waited < cfg.response_wait_ms and not p.budget.over():
        await asyncio.gather(*(s.run(step) for s in (a, b) if s is not None))
        waited += step
        if lock.static:
            counter = before[0] if before else None
        elif b is not None:
            counter = await b.snapshot(skip)
        else:
            return None
        what = differs(await a.snapshot(skip), counter) if counter else ""
        if what:
            return "live", f"{what} changed {cfg.settle_ms + waited} ms after the input"
    return None


async def late_signatures(
    p: ProbeState, a: Session, b: Session | None, baseline: set[str]
) -> tuple[set[str], str]:
    """The baseline method's late response: the signatures the work a handler scheduled
    leaves within response_wait_ms (a Start Scan that answers after a timer), and when."""
    cfg, waited = p.cfg, 0
    step = max(1, cfg.response_wait_ms // 4)
    new = tokens(await a.call("drain")) - baseline
    while not new and waited < cfg.response_wait_ms and not p.budget.over():
        await asyncio.gather(*(s.run(step) for s in (a, b) if s is not None))
        waited += step
        new = tokens(await a.call("drain")) - baseline
    return new, f" ({cfg.settle_ms + waited} ms after the input)" if new and waited else ""
