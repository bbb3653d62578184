"""Flows: what a request asks a person to be able to do, run as a script on a fresh copy of a
page.

Why: driving each control once says whether it responds, not whether the page does the job. A
to-do list whose Add button draws an empty row responds; a flow types a task, presses Add and
looks for the task. Seed 003 writes such flow contracts from the request alone; so do both
planners (cogevol.checklist: `flow` checks), and the probe runs them here in its own regime: a
fresh seeded copy under the paused virtual clock, its quiet window run first, real inputs.

Steps (a flow check's `steps`): `type` TEXT into a field (`into`: text, a field that is no
search box when there is one; or search, a search field first), `fill` every empty field with
TEXT (a page with no field but keys labelled with TEXT's characters, a keypad calculator, gets
TEXT on its keys), `click` the control whose label holds a word of a label group
(cogevol/core/lexicons/checklist.yaml flow_labels; `or_key`: press that key in the last field typed
into when there is none), `press` a key, `wait` MS. Expectations (`expect`), after the last
step, against the first state: TEXT `appears`, TEXT `disappears`, the visible text `changes`.
A flow is met, unmet (with the step or expectation that failed) or unverifiable (the budget ran
out, the copy did not load, or a search changed nothing on a page that listed fewer than two
alike items: there was nothing to narrow).
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable

from cogevol.core.errors import CogevolError
from cogevol.probe.budget import Budget
from cogevol.probe.config import Control, ProbeConfig
from cogevol.probe.session import Session

NOTHING_CHANGED = "nothing shown changed"


class StepFailed(CogevolError):
    """A step found nothing to act on: the flow is unmet at that step."""


def _describe(step: dict) -> str:
    do = step.get("do")
    if do == "click":
        return f"click {step.get('label')!r}"
    if do in ("type", "fill"):
        return f"{do} {step.get('text')!r}" + (
            f" into a {step['into']} field" if "into" in step else ""
        )
    if do == "press":
        return f"press {step.get('key')}"
    return f"{do} {step.get('ms', '')}".strip()


async def _click(s: Session, index: int) -> None:
    aim = await s.call("aim", index)
    if not aim["ok"]:
        raise StepFailed(aim["reason"])
    await s.page.mouse.click(aim["x"], aim["y"])


async def _type(s: Session, index: int, text: str) -> None:
    await _click(s, index)
    await s.page.keyboard.type(text)
    # kept by the page, not by index: the next discovery renumbers what a step added
    await s.call("flowTyped", index)


def route(controls: list[Control], kind: str, words: list[str]) -> list[str]:
    """The labels of the inputs to give, first screen first, to reach a control of `kind` whose
    label holds one of `words` (any of the kind when `words` is empty) that the play-through
    found behind an input (Calculate on a wizard's second step, the fields of a second tab)."""
    for c in controls:
        label = c.label.lower()
        if c.depth and c.kind == kind and (not words or any(w in label for w in words)):
            path, by, seen = [], c.revealed_by, set()
            while by and by not in seen:
                seen.add(by)
                path.insert(0, by)
                up = next((x for x in controls if x.label == by and x.depth), None)
                by = up.revealed_by if up is not None else ""
            return path
    return []


async def _find(
    s: Session,
    kind: str,
    words: list[str],
    search: bool,
    controls: list[Control],
    avoid: tuple[str, ...] = (),
    beside: bool = False,
) -> int:
    """The control a step acts on; when the page shows none, the inputs that revealed one in
    the play-through are given first (a wizard's Next, a second tab, a notes app's New note).
    A field that holds a word of `avoid` (a search box, for a task to type) is taken only when
    no other is there or can be revealed. With `beside`, of several the one closest to the field
    last typed into comes first: the button that uses what was typed."""
    await s.call("discover")  # what the page shows now (a row added by the last step)
    k = await s.call("flowFind", kind, words, search, list(avoid), beside)
    if k >= 0:
        return k
    for label in route(controls, kind, words):
        j = await s.call("flowFind", "click", [label.lower()])
        if j < 0:
            break
        await _click(s, j)
        await s.run(200)
        await s.call("discover")
    k = await s.call("flowFind", kind, words, search, list(avoid), beside)
    return k if k >= 0 or not avoid else await s.call("flowFind", kind, words, search)


async def _open_item(s: Session, text: str, words: list[str], first: str) -> int:
    """An item's own controls may show only once it is opened (a notes app's Delete inside the
    note it opens): click the control that shows what the flow typed, then look again. Only an
    item the flow added: text the first state showed already (a "12" in a calendar) is not one."""
    if text in first:
        return -1
    item = await s.call("flowFind", "click", [text.lower()])
    if item < 0:
        return -1
    await _click(s, item)
    await s.run(200)
    await s.call("discover")
    return await s.call("flowFind", "click", words)


async def _step(
    s: Session,
    step: dict,
    labels: dict[str, tuple[str, ...]],
    typed: list[str],
    controls: list[Control],
    first: str = "",
) -> None:
    """Perform one step; StepFailed when there is nothing to act on. `typed`: the texts typed
    so far; `first`: the text the page showed before the flow."""
    do = step.get("do")
    if do == "type":
        into_search = step.get("into") == "search"
        avoid = () if into_search else labels.get("search", ())
        k = await _find(s, "text", [], into_search, controls, avoid)
        if k < 0:
            raise StepFailed("no text field")
        await _type(s, k, step["text"])
        typed.append(step["text"])
    elif do == "fill":
        await s.call("discover")
        empty = await s.call("flowEmpty")
        if not empty and await _find(s, "text", [], False, controls) >= 0:
            empty = await s.call("flowEmpty")
        if not empty:
            # a keypad calculator takes its numbers from its keys, not from a field
            keys = [await s.call("flowKey", ch) for ch in step["text"]]
            if not keys or min(keys) < 0:
                raise StepFailed("no empty field to fill, and no keypad to enter it on")
            for k in keys:
                await _click(s, k)
                await s.call("sync")
        for k in empty:
            await _type(s, k, step["text"])
            typed.append(step["text"])
    elif do == "click":
        words = list(labels.get(step.get("label", ""), (str(step.get("label", "")).lower(),)))
        k = await _find(s, "click", words, False, controls, beside=bool(typed))
        if k < 0 and typed:
            k = await _open_item(s, typed[-1], words, first)
        if k >= 0:
            await _click(s, k)
        elif step.get("or_key") and typed:
            await s.call("flowFocus")
            await s.page.keyboard.press(step["or_key"])
        else:
            raise StepFailed(f"no control labelled {step.get('label')!r}")
    elif do == "press":
        await s.page.keyboard.press(step["key"])
    elif do != "wait":
        raise StepFailed(f"unknown step {do!r}")
    await s.call("sync")


def _met(expect: list[dict], first: str, last: str) -> str:
    """The first expectation the final text fails, as a reason ("" when all hold)."""
    for e in expect:
        if "appears" in e and not (e["appears"] in last and e["appears"] not in first):
            return f"{e['appears']!r} did not appear"
        if "disappears" in e and e["disappears"] in last:
            return f"{e['disappears']!r} is still shown"
        if e.get("changes") and last == first:
            return NOTHING_CHANGED
    return ""


async def run_flow(
    open_page: Callable[[], Awaitable[Session]],
    flow: dict,
    cfg: ProbeConfig,
    quiet_ms: int,
    labels: dict[str, tuple[str, ...]],
    controls: list[Control] = (),
) -> dict:
    """Run one flow check (its `value`, `steps`, `expect`) on a fresh copy of the page:
    {"name", "status", "reason"}."""
    name = flow["value"]
    s = await open_page()
    await s.run(quiet_ms)
    first = await s.call("flowText")
    # a search narrows a list: with fewer than two items listed, nothing it does can show
    searches = any(x.get("do") == "type" and x.get("into") == "search" for x in flow["steps"])
    listed = await s.call("listed") if searches else None
    typed: list[str] = []
    for k, step in enumerate(flow["steps"], 1):
        try:
            await _step(s, step, labels, typed, list(controls), first)
        except StepFailed as e:
            return {"name": name, "status": "unmet", "reason": f"step {k} ({_describe(step)}): {e}"}
        await s.run(int(step["ms"]) if step.get("do") == "wait" else cfg.settle_ms)
    why = _met(list(flow["expect"]), first, await s.call("flowText"))
    steps = "; ".join(_describe(x) for x in flow["steps"])
    if why == NOTHING_CHANGED and listed is not None and listed < 2:
        return {
            "name": name,
            "status": "unverifiable",
            "reason": f"after {steps}: {why}, but nothing was listed to search",
        }
    if why:
        return {"name": name, "status": "unmet", "reason": f"after {steps}: {why}"}
    return {"name": name, "status": "met", "reason": f"{steps}: as asked"}


async def run_flows(
    open_page: Callable[[contextlib.AsyncExitStack], Awaitable[Session]],
    flows: list[dict],
    cfg: ProbeConfig,
    quiet_ms: int,
    labels: dict[str, tuple[str, ...]],
    controls: list[Control] = (),
) -> list[dict]:
    """Every flow within flow_budget_s, each on its own fresh copy (closed after it); flows the
    budget leaves are not in the result (their checks stay unverifiable), and a copy that fails
    under a flow makes that flow unverifiable, not the page's verdict. The budget is counted like
    the page's (cogevol.probe.budget: the time the machine gave the probe, capped at budget_cap
    times it on the wall clock), so a busy machine runs as many flows as an idle one."""
    out, budget = [], Budget(cfg.flow_budget_s, cfg.budget_cap)
    for flow in flows[: cfg.max_flows]:
        if budget.over():
            break
        async with contextlib.AsyncExitStack() as stack:
            try:
                out.append(
                    await run_flow(
                        lambda st=stack: open_page(st), flow, cfg, quiet_ms, labels, controls
                    )
                )
            except Exception as e:  # the copy hung, crashed or navigated under the flow
                reason = f"the flow could not be run: {type(e).__name__}: {e}".splitlines()[0]
                out.append(
                    {"name": flow["value"], "status": "unverifiable", "reason": reason[:200]}
                )
    return out
