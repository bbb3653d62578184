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

This module runs those steps for one page (`probe_html`); each part has its own module:
config (what the probe is told and reports), session (one page under the virtual clock and
its inputs), drivers (which input each control gets, in what order), lockstep (the twin and
its replay), compare (live or dead against the counterfactual), motion (whether the page moves
on its own, by what moves), pixels (screenshot measures).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections import deque
from dataclasses import replace

from cogevol.browser.pool import BrowserPool, PageHung
from cogevol.probe.budget import Budget
from cogevol.probe.compare import differs, drive, tokens, verdict
from cogevol.probe.config import Action, Control, PageOutcome, ProbeConfig, ProbeResult
from cogevol.probe.drivers import key_name, keyboard_action, order_controls, pointer_action
from cogevol.probe.explore import FIELDS, StateGraph, state_key
from cogevol.probe.flows import run_flows
from cogevol.probe.lockstep import Lockstep
from cogevol.probe.motion import MOVES, observe_motion
from cogevol.probe.pixels import ink_in_boxes, screen_fill
from cogevol.probe.session import Session, instrument_script, is_closed, is_timeout, renders
from cogevol.probe.trace import Tracer

__all__ = ["probe_html"]  # the probe's public names are cogevol.probe's

_ERROR_TYPE = re.compile(r"^(?:Uncaught )?\w*(?:Error|Exception):\s*")

log = logging.getLogger(__name__)
RESIZE_WAIT_MS = 1000  # real time for a page to hear a viewport change
# states in which controls found detached are looked for again, drawn anew (a page that redraws
# its buttons on a clock would otherwise be looked at in every state)
RERENDERS = 3
# inertia after an input (see _Probe._goes_on): the canvases' speed, looked at this many times
# across decay_ms, falls at every look to under this share of the first
DECAY_LOOKS = 3
DECAY_RATIO = 0.5


class _Probe:
    """One page's probe, as a sequence of steps with one job each (see `_run`)."""

    def __init__(
        self,
        pool: BrowserPool,
        html: str,
        cfg: ProbeConfig,
        request: str = "",
        motion: bool = True,
        flows: list[dict] | None = None,
        flow_labels: dict[str, tuple[str, ...]] | None = None,
    ):
        self.pool, self.html, self.cfg, self.request = pool, html, cfg, request or ""
        # the request's flow checks (cogevol.probe.flows) and the label words their steps use
        self.flows, self.flow_labels = flows or [], flow_labels or {}
        self.motion = motion  # measure motion after the inputs (the request asks for animation)
        self.result = ProbeResult(method=cfg.method)
        self.instrument = instrument_script(cfg)
        self.a: Session | None = None
        self.sessions: list[Session] = []  # the page under test and its twins
        self.stack: contextlib.AsyncExitStack | None = None  # what closes them
        # which functions live inputs ran (ProbeConfig.trace): on the page under test only
        self.tracer: Tracer | None = None
        self.key_values: list[str] = []  # keys the page's handlers compare against
        self.waited = False  # for an overlay to lift (once per page)
        self.graph = StateGraph(cfg)  # the states the inputs reach (the play-through)
        # live inputs looked at for motion they set off (animation requests on still pages)
        self.set_off_tries = 0
        self.errors_at_end = 0  # errors thrown before the end-of-run motion look
        self.error_seen: set[str] = set()  # the errors thrown so far, digits aside
        # the driving budget, in the time the machine gave this probe (budget.py)
        self.budget = Budget(cfg.page_timeout_s, cfg.budget_cap)
        # a page that renders may keep its main thread waiting on the rasteriser: slow, not hung
        self.hang_s = max(cfg.hang_s, cfg.render_hang_s) if renders(html) else cfg.hang_s

    def _on_console(self, msg) -> None:
        # blocked resources are listed apart
        if msg.type == "error" and not msg.text.startswith("Failed to load resource"):
            self._error(f"console.error: {msg.text}")

    def _error(self, text: str) -> None:
        r = self.result
        r.error_count += 1
        # the clock rethrows a timer's error without its type: "ReferenceError: x" is "x"
        self.error_seen.add(re.sub(r"\d+", "0", _ERROR_TYPE.sub("", text[:200])))
        r.error_kinds = len(self.error_seen)
        if len(r.errors) < 10:
            r.errors.append(text[:200])

    async def _open(self, stack: contextlib.AsyncExitStack, register: bool = True) -> Session:
        """Open and load a copy of the page: the first is the page under test, later ones twins
        (`register` False: a copy of its own, for a flow, whose fate is not the page's)."""
        page = await stack.enter_async_context(self.pool.page(self.html))
        s = Session(
            page,
            self.pool.cfg.action_timeout_ms / 1000 * 2,
            self.cfg.clock_slice_ms,
            hang_s=self.hang_s,
            grace_s=max(self.hang_s, self.cfg.hang_grace_s),
        )
        if not register:
            await s.load(self.pool.cfg.load_timeout_ms, self.instrument)
            return s
        self.sessions.append(s)
        if self.a is None:  # the page under test: its errors (the twin's would count twice)
            self.a = s
            s.on_error = self._error
            page.on("pageerror", lambda e: self._error(str(e)))
            page.on("console", self._on_console)
            if self.cfg.trace:
                self.tracer = Tracer(page, self.html, self.cfg.trace_pause_cap)
                await self.tracer.start()
        await s.load(self.pool.cfg.load_timeout_ms, self.instrument)
        if s is self.a and self.tracer is not None:
            await self.tracer.loaded()
        return s

    async def run(self) -> ProbeResult:
        """Probe within the budget. Out of time with the page still answering: a verdict over
        the controls driven so far (the rest `skipped`); not answering: page_hung."""
        cfg, r = self.cfg, self.result
        # the budget is checked between controls; this bounds the one in flight (on a busy
        # machine the budget stretches up to budget_cap times: so does this bound)
        hard_cap = cfg.page_timeout_s * max(cfg.budget_cap, 1.0) + 2 * self.hang_s + 3
        async with contextlib.AsyncExitStack() as stack:
            try:
                await asyncio.wait_for(self._run(stack), hard_cap)
            except Exception as e:
                if not is_timeout(e) or self.a is None or r.outcome is not PageOutcome.OK:
                    raise
                # hung only when it never answers again within the grace: a loaded machine
                # makes a page slow, not hung (the verdict must not depend on the load)
                if not await self.a.answers(max(self.hang_s, cfg.hang_grace_s)):
                    raise
                await self._out_of_budget()
            with contextlib.suppress(Exception):
                from cogevol.browser.pool import page_resources

                r.resources = page_resources(self.a.page) if self.a is not None else {}
        return r

    def fault(self, e: BaseException) -> tuple[PageOutcome, str]:
        """Whose fault an exception out of the probe is, from what the pages did (Playwright's
        crash and navigation events, a timeout or a page that stopped answering) rather than
        from the exception's wording; anything else is the harness's."""
        msg = f"{type(e).__name__}: {e}".splitlines()[0][:240]
        if is_timeout(e) or isinstance(e, PageHung):
            grace = max(self.hang_s, self.cfg.hang_grace_s)
            return PageOutcome.PAGE_HUNG, (
                f"page hung: it stopped answering for {grace:g} s "
                "(busy main thread or runaway script)"
            )
        if any(s.navigated for s in self.sessions):
            return PageOutcome.PAGE_NAVIGATED, f"page reloads or navigates by itself: {msg}"
        if any(s.crashed for s in self.sessions) or is_closed(e):
            return PageOutcome.PAGE_CRASHED, f"page crashed: {msg}"
        return PageOutcome.HARNESS_ERROR, f"probe error: {msg}"

    async def _out_of_budget(self) -> None:
        """A slow page that still answers: what was driven stands, the rest is skipped."""
        r = self.result
        r.budget_exhausted = True
        if not r.rendered_ok:  # slow to show its first state: judge what it shows now
            content = await self.a.call("visibleContent")
            r.rendered_ok = content["area"] > 0 or content["text"] > 0
            if not r.rendered_ok:
                r.reason = "render: nothing visible within the page budget"
        for c in r.controls:
            if c.status == "operable" and not c.verdict:
                c.status, c.reason = "skipped", "page budget ran out before this control"

    async def _run(self, stack: contextlib.AsyncExitStack) -> None:
        """The steps: load, quiet window (what the page does by itself), render check, first
        screen, discover controls, drive them, motion at the end, layout at other viewports.
        A page that fails a step gets no later ones; the result says why."""
        r = self.result
        twin_stack = contextlib.AsyncExitStack()  # twins close on their own when they diverge
        await stack.enter_async_context(twin_stack)
        self.stack = stack
        a = await self._open(stack)
        content = await a.call("visibleContent")
        baseline = await self._quiet(a)
        r.load_errors, r.load_error_kinds = r.error_count, r.error_kinds
        if not await self._rendered(a, content):
            return
        await self._first_screen(a)
        n_found = await self._discover(a)
        if self._waiting_for_time():
            n_found = await self._wait_for_enabled(a, baseline)
        lock = Lockstep(self._open, twin_stack, self.cfg, r, n_found)
        if not await self._drive_controls(a, lock, baseline):
            return
        a = self.a
        # how far a spent budget got depends on the machine's load: first-screen facts only
        if not r.budget_exhausted:
            await self._facts(a)  # again after the inputs: a quiz shows its questions once started
        await self._motion_at_end(a)
        size = a.page.viewport_size
        r.viewport.update(await self._viewports(a))
        await self._frozen_by_error(a, size)
        if self.flows:
            r.flows = await run_flows(
                lambda st: self._open(st, register=False),
                self.flows,
                self.cfg,
                r.quiet_ms,
                self.flow_labels,
                r.controls,
            )

    async def _quiet(self, a: Session) -> set[str]:
        """Run the page untouched: the draw and mutation signatures it makes by itself (the
        baseline method subtracts them); whether anything moves on its own and whether its
        visible state changes at all go into the result (animates, changes, motion)."""
        r, baseline = self.result, set()
        await a.call("drain")  # what loading did is not what the page does by itself

        def collect(drained: dict) -> None:
            baseline.update(tokens(drained))

        r.motion, r.changes, r.quiet_ms = await observe_motion(
            a, self.cfg.quiet_ms, self.cfg.quiet_max_ms, self.cfg.quiet_steps, collect
        )
        r.animates = r.motion.startswith(MOVES)
        if self.tracer is not None:  # what ran in the quiet window runs on its own
            await self.tracer.autonomous()
        return baseline

    async def _rendered(self, a: Session, content: dict) -> bool:
        """Whether the page shows anything (`content`: what it showed right after loading);
        when not, the result says why and no control is driven."""
        r = self.result
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

    async def _first_screen(self, a: Session) -> None:
        """Measures of the first screen before any input: fill, screenshot, desktop layout."""
        r = self.result
        first = await a.screenshot()
        r.fill = screen_fill(first)
        shown = await a.call("substance")
        shown["canvasInk"] = ink_in_boxes(first, shown.pop("canvases"))
        r.shown = shown
        if self.cfg.screenshot:
            r.screenshot = first
        r.viewport["desktop"] = await a.call("viewport")
        await self._facts(a)

    async def _facts(self, a: Session) -> None:
        """What the page shows, for the request's checklist: text seen at any point counts."""
        r = self.result
        f = await a.call("facts")
        if f["text"] and f["text"] not in r.text:
            r.text = (r.text + "\n" + f["text"]).strip()[:60000]
        r.groups = sorted(set(r.groups) | set(f["groups"]))
        r.scene = r.scene or f["scene"]
        r.drawn = r.drawn or f["drawn"]

    async def _discover(self, a: Session) -> int:
        """The page's controls (result.controls) and the keys its handlers read; returns how
        many controls the page itself offers (a twin must find as many)."""
        found = await a.call("discover")
        controls = [_control(c) for c in found["controls"]]
        # keys: one pseudo-control, held across frames (focused on the listening element if only it
        # listens): first the keys the handlers compare against, then the usual game keys
        self.key_values = [k for k in dict.fromkeys(map(key_name, found["keyValues"])) if k]
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
        self.result.controls = controls
        return len(found["controls"])

    def _waiting_for_time(self) -> bool:
        """No control can be driven yet, some are disabled, and the page changes on its own: a
        Restart that the countdown enables, a Next after an intro. Time is the input."""
        r = self.result
        return (
            r.changes
            and self.cfg.enable_wait_ms > 0
            and not any(c.status == "operable" for c in r.controls)
            and any(c.reason == "disabled" for c in r.controls)
        )

    async def _wait_for_enabled(self, a: Session, baseline: set[str]) -> int:
        """Let the page run on its own (virtual time, in quiet-window steps) until a control is
        enabled or enable_wait_ms is spent; the wait joins the quiet window, so every twin and
        fresh load replays it and what the page did meanwhile stays in the baseline."""
        r, step, waited = self.result, max(self.cfg.quiet_ms, 250), 0
        n_found = len([c for c in r.controls if c.index >= 0])
        while waited < self.cfg.enable_wait_ms and not self.budget.over():
            await a.run(step)
            waited += step
            r.quiet_ms += step
            baseline.update(tokens(await a.call("drain")))
            n_found = await self._discover(a)
            if any(c.status == "operable" for c in r.controls):
                log.debug("probe: a control was enabled after %d virtual ms on its own", waited)
                break
        return n_found

    async def _drive_controls(self, a: Session, lock: Lockstep, baseline: set[str]) -> bool:
        """Play the page through: drive the operable controls in order (those the request names
        first) within max_controls; in every new state a live input reached, the controls it
        revealed or enabled (cogevol.probe.explore); when nothing is left, the dead controls
        once more where the state has changed since (Add once a task is typed, Reset after a
        change), all within the explore_* budgets and the page budget. False when the tab
        crashed under an input."""
        cfg, r = self.cfg, self.result
        order = order_controls(r.controls, self.request)
        await lock.begin(a, r.changes, bool(order), self.budget)
        graph = self.graph
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
        while queue or self._again(queue, dead_in, tried_again, cur):
            k, depth, again = queue.popleft()
            c = r.controls[k]
            if again and c.verdict != "dead":  # came alive meanwhile (a field whose text was used)
                continue
            if self.budget.over():
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
            act = await self._aim(a, c)
            if act is None:
                if kept is not None:
                    c.__dict__.update(kept.__dict__)
                elif c.reason == "detached" and len(rendered) < RERENDERS and cur not in rendered:
                    # the page drew its controls anew (a board rebuilt by a Restart that looked
                    # dead, a list rendered again): drive the new ones in their place
                    rendered.add(cur)
                    queue.extend((j, depth, False) for j in await self._reveal(a, lock, depth, ""))
                continue
            if depth == 0 and not again:
                first += 1
            else:
                later += 1
            if again:
                c.driver = ""
            try:
                await self._drive_one(a, lock, c, act, baseline)
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
                a, lock = await self._fresh_load(baseline)
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
                await self._credit_fields(a, typed, c)
            explore = verdict == "live" and not reloaded and graph.can_explore(new, depth)
            graph.transition(cur, new, k, c, depth, again, verdict)
            cur = new
            if explore:
                revealed = await self._reveal(a, lock, depth + 1, c.label or c.kind)
                queue.extend((j, depth + 1, False) for j in revealed)
        r.method = lock.method
        r.explore = graph.report()
        self.a = a  # the page under test (another copy after a reload from a Reset)
        return True

    async def _fresh_load(self, baseline: set[str]) -> tuple[Session, Lockstep]:
        """After a reload an input caused: the page under test opened again in the same
        deterministic regime (same seed, clock and quiet window), its first-screen controls
        discovered again (same order, so their indices hold), and a new counterfactual. Revealed
        controls belonged to the old document and are not driven again."""
        r = self.result
        self.a, self.tracer = None, None  # the traced document is gone
        a = await self._open(self.stack)
        await a.call("drain")
        await a.run(r.quiet_ms)
        baseline.update(tokens(await a.call("drain")))
        found = await a.call("discover")
        twins = contextlib.AsyncExitStack()
        await self.stack.enter_async_context(twins)
        lock = Lockstep(self._open, twins, self.cfg, r, len(found["controls"]))
        await lock.begin(a, r.changes, True, self.budget)
        return a, lock

    async def _credit_fields(self, a: Session, typed: list[int], c: Control) -> None:
        """A form that works only when filled is live, not dead: fields typed into or set since
        the last live input, beside the button that just responded (type a task, pick its
        priority, then Add), are live."""
        if c.kind in FIELDS:  # a live field (a preview, a counter) is part of the form
            return
        r = self.result
        if c.kind == "click" and c.index >= 0:
            for j in typed:
                f = r.controls[j]
                if await a.call("near", f.index, c.index):
                    f.verdict, f.driver = "live", "type+click"
                    what = "text" if f.kind == "text" else "choice"
                    f.evidence = f"its {what} was used: {c.label or c.kind!r} responded after it"
        typed.clear()

    def _again(self, queue: deque, dead_in: dict[int, str], tried: set[int], cur: str) -> bool:
        """Queue the dead controls once more when the state has changed since they were driven
        (a Reset pressed before anything changed, an Add pressed while its field was empty);
        each gets one more try. False when there is none."""
        controls = self.result.controls
        again = [
            k
            for k, key in dead_in.items()
            if k not in tried and key != cur and controls[k].verdict == "dead"
        ]
        tried.update(again)
        queue.extend((k, controls[k].depth, True) for k in again)
        return bool(again)

    async def _reveal(self, a: Session, lock: Lockstep, depth: int, by: str) -> list[int]:
        """A new state: the controls that appeared, were revealed or became enabled (on the
        twin too, at the same moment, so indices stay the same on both), what the state shows
        (for the checklist) and, when kept, its screenshot; `by` is the label of the input that
        revealed them. Returns the controls to drive."""
        r = self.result
        hidden = {
            c.index: k
            for k, c in enumerate(r.controls)
            if c.status == "not_operable"
            and c.reason in ("disabled", "not visible")
            and c.index >= 0
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
            c = _control(d)
            c.depth, c.revealed_by = depth, by
            r.controls.append(c)
            revealed.append((len(r.controls) - 1, c))
        if found["keyTargets"] and not any(c.kind == "keyboard" for c in r.controls):
            # a game that listens for keys only once Play was pressed
            self.key_values = [k for k in dict.fromkeys(map(key_name, found["keyValues"])) if k]
            c = Control(-1, "keyboard", "keyboard", "+".join(found["keyTargets"]), "operable")
            c.depth, c.revealed_by = depth, by
            r.controls.append(c)
            revealed.append((len(r.controls) - 1, c))
        await self._facts(a)  # a quiz's next question, a tab's content
        if self.cfg.screenshot and len(r.state_shots) < self.cfg.explore_shots:
            r.state_shots.append(await a.screenshot())
        return self.graph.pick(revealed, depth)

    async def _aim(self, a: Session, c: Control) -> Action | None:
        """The input for `c`, scrolled into view; None (and `c` not operable) when it cannot be
        reached. A control under an overlay that may lift by itself is waited for, once."""
        if c.kind == "keyboard":
            return await keyboard_action(a, c, self.key_values, self.cfg)
        aim = await a.call("aim", c.index)
        if (
            not aim["ok"]
            and aim.get("why") == "covered"
            and not self.waited
            and not await a.call("idle")
        ):
            # a loading screen or an intro overlay that lifts by itself: wait once
            self.waited = True
            await a.run(self.cfg.overlay_wait_ms)
            aim = await a.call("aim", c.index)
        if not aim["ok"]:
            c.status, c.reason = "not_operable", aim["reason"]
            return None
        return await pointer_action(a, c, aim, self.cfg)

    async def _drive_one(
        self, a: Session, lock: Lockstep, c: Control, act: Action, baseline: set[str]
    ) -> None:
        """Give `c` its input and record its verdicts: against the counterfactual in use and,
        always, against the quiet-window baseline."""
        cfg, r, b = self.cfg, self.result, lock.b
        skip = act.index if act.kind in ("text", "select", "range", "click") else -1
        before = await self._before_input(a, lock, c, act, skip)
        scheduled = (await a.call("drain"))["scheduled"]
        errors_before = r.error_count
        t_input = a.t
        if self.tracer is not None:
            await self.tracer.begin()
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
            late = await self._late_response(a, b, lock, before, skip)
            if late:
                c.twin_verdict, c.evidence = late
        if lock.use_twin and c.twin_verdict:
            c.verdict = c.twin_verdict
        else:
            late = ""
            if not new and drained["scheduled"] > scheduled:
                new, late = await self._late_signatures(a, b, baseline)
                c.baseline_verdict = "live" if new else "dead"
            c.verdict, c.evidence = (
                "live" if new else "dead",
                ", ".join(sorted(new)[:3]) + late if new else "no new draw or DOM signature",
            )
        if c.verdict == "live" and not c.driver:
            c.driver = "+".join(dict.fromkeys(st[1] for st in act.steps))
        if self.tracer is not None:  # only a live input's code earns credit
            trace = await self.tracer.end()
            if c.verdict == "live":
                self.tracer.keep(trace)
        if (
            c.verdict == "live"
            and self.motion
            and not (r.animates or r.moves_later)
            and self.set_off_tries < 3
        ):
            # the first live controls are the ones the request names (Play, Start)
            self.set_off_tries += 1
            await self._set_off(a, b)

    async def _set_off(self, a: Session, b: Session | None) -> None:
        """Whether the input just given set the page moving on its own (a Play or Start button
        of an animation request whose page is still until then): later inputs may stop it
        again (a Reset, a Pause), so this is looked at now, not only at the end. The twin, if
        any, runs the same stretch so the two stay in step."""
        r = self.result
        motion = await self._look(a, b)
        if motion.startswith(MOVES) and await self._goes_on(a, b):
            r.moves_later, r.motion = True, motion + " after an input"

    async def _look(self, a: Session, b: Session | None) -> str:
        """Whether the page moves over the next settle_ms (the twin, if any, runs in step)."""
        ms = self.cfg.settle_ms
        if b is None:
            return (await observe_motion(a, ms, ms, 2))[0]
        return (await asyncio.gather(observe_motion(a, ms, ms, 2), b.run(ms)))[0][0]

    async def _goes_on(self, a: Session, b: Session | None) -> bool:
        """Motion right after an input may be the input's own inertia dying down: an orbit
        drag eased by damping, a transition, a thrown ball coming to rest. Motion on its own is
        change that goes on. Damping eases out frame by frame for many seconds (three.js
        OrbitControls' 0.05 is still visible on a dense grid 6 s later), too long to wait for
        inside the RL loop; but its speed falls every frame. So the canvases' change over two
        frames is measured DECAY_LOOKS times across decay_ms: falling at every look, to under
        DECAY_RATIO of the first, is inertia. Otherwise the page must still move at the end."""
        cfg = self.cfg
        speeds = []
        for i in range(DECAY_LOOKS):
            if i:
                gap = cfg.decay_ms // (DECAY_LOOKS - 1)
                await asyncio.gather(*(s.run(gap) for s in (a, b) if s is not None))
            await a.call("motion", True)
            await asyncio.gather(*(s.run(2 * cfg.frame_ms) for s in (a, b) if s is not None))
            speeds.append((await a.call("motion"))["canvasChange"])
        log.debug("probe: canvas change per two frames after an input: %s", speeds)
        if 0 < speeds[-1] < DECAY_RATIO * speeds[0] and all(
            y < x for x, y in zip(speeds, speeds[1:])
        ):
            return False
        return (await self._look(a, b)).startswith(MOVES)

    async def _late_response(
        self, a: Session, b: Session | None, lock: Lockstep, before: tuple | None, skip: int
    ) -> tuple[str, str] | None:
        """A control whose handler scheduled work (a Start button whose timer ticks once a
        second, a search animated over the next seconds) may show nothing within settle_ms:
        keep both pages running in step, up to response_wait_ms more, and compare as we go."""
        cfg, waited = self.cfg, 0
        step = max(1, cfg.response_wait_ms // 4)
        while waited < cfg.response_wait_ms and not self.budget.over():
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

    async def _late_signatures(
        self, a: Session, b: Session | None, baseline: set[str]
    ) -> tuple[set[str], str]:
        """The baseline method's late response: the signatures the work a handler scheduled
        leaves within response_wait_ms (a Start Scan that answers after a timer), and when."""
        cfg, waited = self.cfg, 0
        step = max(1, cfg.response_wait_ms // 4)
        new = tokens(await a.call("drain")) - baseline
        while not new and waited < cfg.response_wait_ms and not self.budget.over():
            await asyncio.gather(*(s.run(step) for s in (a, b) if s is not None))
            waited += step
            new = tokens(await a.call("drain")) - baseline
        return new, f" ({cfg.settle_ms + waited} ms after the input)" if new and waited else ""

    async def _before_input(
        self, a: Session, lock: Lockstep, c: Control, act: Action, skip: int
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
                    await a.run(self.cfg.settle_ms)
            before = (
                await a.snapshot(skip),
                await a.screenshot() if self.cfg.pixel_check else None,
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

    async def _motion_at_end(self, a: Session) -> None:
        """Whether the page still moves on its own after the inputs (an animation a button set
        off, a timer started late; or frozen by an error) once it has run `watch_ms` in all.
        Only when the request asks for motion and the budget is not spent: it costs an idle
        stretch, which the budget also bounds."""
        r, cfg = self.result, self.cfg
        if not self.motion or r.budget_exhausted:
            return
        # let the inertia of the last input (a drag's damping, a transition) die down first;
        # and watch the page as long as a person watches an animation before judging it (a
        # loop that throws or a simulation that falls apart after its first seconds)
        idle = max(0 if r.animates else cfg.idle_ms, cfg.watch_ms - a.t)
        while idle > 0 and not self.budget.over():
            await a.run(min(idle, 500))
            idle -= 500
        self.errors_at_end = r.error_count
        motion, _, _ = await observe_motion(a, cfg.settle_ms, cfg.quiet_max_ms, 2)
        r.moves_at_end = motion.startswith(MOVES)
        if r.moves_at_end and not r.animates and not r.moves_later:
            r.moves_at_end = await self._goes_on(a, None)  # not the last input's inertia
            if r.moves_at_end:
                r.moves_later, r.motion = True, motion

    async def _frozen_by_error(self, a: Session, size: dict | None) -> None:
        """An error thrown after the end look saw the page move (while it looked, or during the
        layout measures) may have stopped it: an animation loop that throws schedules no next
        frame. The clock's frames are longer than a screen's (frame_ms), so a loop that throws
        after its first second on a screen throws after the look here. Looked at once more, at
        the first screen's size."""
        r, cfg = self.result, self.cfg
        if not r.moves_at_end or r.error_count <= self.errors_at_end or size is None:
            return
        await a.resize(size["width"], size["height"], RESIZE_WAIT_MS)
        await a.run(100)
        motion, _, _ = await observe_motion(a, cfg.settle_ms, cfg.settle_ms, 2)
        r.moves_at_end = motion.startswith(MOVES)

    async def _viewports(self, a: Session) -> dict:
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


def _control(c: dict) -> Control:
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
    probe = _Probe(pool, html, cfg, request, motion, flows, flow_labels)
    try:
        result = await probe.run()
    except Exception as e:  # the page's fault or ours
        result = probe.result
        result.outcome, result.reason = probe.fault(e)
        if result.outcome is PageOutcome.HARNESS_ERROR:
            log.warning("probe: harness error: %s", result.reason)
    if probe.tracer is not None:
        result.trace, result.trace_page = probe.tracer.spans(), probe.tracer.page_info()
    result.seconds = round(time.perf_counter() - t0, 3)
    return result
