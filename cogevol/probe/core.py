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
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import re
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from cogevol.browser.pool import PAGE_URL, BrowserPool, PageHung

log = logging.getLogger(__name__)

_HERE = Path(__file__).parent
_INSTRUMENT = (_HERE / "instrument.js").read_text()
_PAGE_JS = (_HERE / "page.js").read_text()
T0 = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
KEYS = ("ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Space", "Enter", "KeyW", "KeyA", "KeyS", "KeyD")


@dataclass
class ProbeConfig:
    """Knobs of the probe (params.yaml: probe.probe, where each one is explained)."""

    seed: int = 1234
    quiet_ms: int = 500
    quiet_steps: int = 2
    settle_ms: int = 400
    idle_ms: int = 600
    overlay_wait_ms: int = 1500
    key_hold_ms: int = 250
    frame_ms: int = 32
    max_controls: int = 16
    max_keys: int = 16
    canvas_shapes: int = 6
    method: str = "twin"
    idle_shortcut: bool = True
    page_timeout_s: float = 10.0
    hang_s: float = 1.5
    clock_slice_ms: int = 100
    max_twin_rebuilds: int = 3
    pixel_check: bool = True
    pixel_min: int = 30
    screenshot: bool = False


@dataclass
class Control:
    index: int
    kind: str
    tag: str
    label: str
    status: str  # operable | not_operable | excluded | skipped (the budget ran out first)
    reason: str = ""
    verdict: str = ""  # live | dead | "" (not driven)
    evidence: str = ""
    driver: str = ""  # the input that made it live: click, type, select, range, handler-keys, default-keys, canvas-points, canvas-shapes, drag
    errors: int = 0  # uncaught errors its input raised
    baseline_verdict: str = ""
    twin_verdict: str = ""
    drag: bool = False  # the page listens for a press on it: a drag is tried after the click
    hears: bool = False  # a click or press listener on it, an ancestor, or the document


@dataclass
class ProbeResult:
    rendered_ok: bool = False
    outcome: str = "ok"  # ok | page_hung | page_crashed | page_navigated | harness_error
    reason: str = ""
    controls: list[Control] = field(default_factory=list)
    animates: bool = False  # visible change on its own during the quiet window
    moves_later: bool = False  # ... or still on its own at the end (an animation a button set off, or a timer started late)
    moves_at_end: bool | None = None  # still changing on its own after the inputs (None: not measured, budget spent)
    method: str = "twin"
    viewport: dict = field(default_factory=dict)  # desktop / tablet / mobile layout measures
    fill: float = 0.0  # share of the first screen that is not background (first screenshot)
    errors: list[str] = field(default_factory=list)  # first uncaught errors and console errors
    error_count: int = 0
    load_errors: int = 0  # of which before any input
    budget_exhausted: bool = False  # driving stopped at page_timeout_s: skipped controls are not verdicts
    twin_rebuilds: int = 0
    resources: dict = field(default_factory=dict)  # mirrored / blocked requests (cogevol.browser.pool.page_resources)
    seconds: float = 0.0
    screenshot: bytes | None = field(default=None, repr=False)  # with ProbeConfig.screenshot

    @property
    def controls_skipped(self) -> int:
        return sum(c.status == "skipped" for c in self.controls)

    def as_dict(self) -> dict:
        return {k: v for k, v in asdict(self).items() if k != "screenshot"} | {"controls_skipped": self.controls_skipped}


# a gesture: (how, driver, *args); the driver names the input in the report
Step = tuple


class _Session:
    """One page under a paused virtual clock."""

    def __init__(self, page, timeout_s: float = 3.0, slice_ms: int = 100, on_error=None):
        self.page = page
        self.timeout_s = timeout_s
        self.slice_ms = max(1, slice_ms)
        self.on_error = on_error  # page errors thrown out of timer callbacks (the clock rethrows them)
        self.t = 0
        self.crashed = False
        page.on("crash", self._on_crash)

    def _on_crash(self, *_: object) -> None:
        self.crashed = True

    async def load(self, timeout_ms: int, instrument: str, hang_s: float) -> None:
        await self.page.clock.install(time=T0)
        # the installed clock runs in real time until paused: pause far enough ahead that a
        # loaded machine cannot have passed it already
        await self.page.clock.pause_at(T0 + dt.timedelta(minutes=10))
        await self.page.add_init_script(instrument)  # after the clock's script, so ours wins
        try:
            await self.page.goto(PAGE_URL, wait_until="load", timeout=timeout_ms)
        except Exception as e:  # slow to load is not hung: a page that still answers goes on
            if "Timeout" not in f"{type(e).__name__} {e}" or not await self.answers(hang_s):
                raise

    async def answers(self, within_s: float) -> bool:
        """Whether the page's main thread still answers: the line between slow and hung."""
        try:
            await asyncio.wait_for(self.page.evaluate("1"), within_s)
            return True
        except Exception:
            return False

    async def run(self, ms: int) -> None:
        # in slices: every slice of virtual time has its own bound, so a heavy page is slow
        # without looking hung, and the page budget can stop between slices
        while ms > 0:
            step = min(ms, self.slice_ms)
            try:
                await asyncio.wait_for(self.page.clock.run_for(step), self.timeout_s + step / 100)
            except Exception as e:
                # a timer callback threw: the clock ran the whole slice and rethrows the page's
                # first error, which is the page's defect, not the probe's
                msg = str(e).split("\n")[0]
                if not msg.startswith("Clock.run_for:") or _is_timeout(e) or "closed" in msg or "crash" in msg.lower():
                    raise
                if self.on_error is not None:
                    self.on_error(msg.removeprefix("Clock.run_for:").strip())
            self.t += step
            ms -= step

    async def call(self, fn: str, *args):
        # a page that pegs its main thread never answers: bound every call
        return await asyncio.wait_for(self.page.evaluate(f"(a) => window.__cogevolProbe.{fn}(...a)", list(args)), self.timeout_s)

    async def perform(self, act: _Action, cfg: ProbeConfig) -> None:
        for step in act.steps:
            await self.gesture(step, act, cfg)

    async def gesture(self, step: Step, act: _Action, cfg: ProbeConfig) -> None:
        """One real input, bounded: a handler that never returns blocks input dispatch too."""
        await asyncio.wait_for(_gesture(self, step, act, cfg), self.timeout_s + (cfg.key_hold_ms + 200) / 100)

    async def snapshot(self, skip: int = -1) -> dict:
        return await self.call("snapshot", skip)

    async def screenshot(self) -> bytes:
        return await self.page.screenshot(type="png", animations="disabled", caret="hide")

    @staticmethod
    def masked(png: bytes, boxes: list[list[float]]):
        from io import BytesIO

        from PIL import Image, ImageDraw

        im = Image.open(BytesIO(png)).convert("RGB")
        for x, y, w, h in boxes:  # a control and its focus ring
            ImageDraw.Draw(im).rectangle([x - 10, y - 10, x + w + 10, y + h + 10], fill=(0, 0, 0))
        return im


@dataclass
class _Action:
    kind: str
    index: int
    x: float = 0
    y: float = 0
    box: list[float] | None = None
    steps: list[Step] = field(default_factory=list)  # after driving: the steps performed, for replays
    key_target: int = -1
    also_mask: list = field(default_factory=list)  # boxes whose redraw is not a response


async def _mirror(a: _Session, b: _Session, step: Step | None) -> None:
    """The twin gets what the input left behind except the input: pointer position and focus."""
    if step is not None and step[0] in ("click", "type", "tap", "drag"):
        x, y = (step[4], step[5]) if step[0] == "drag" else (step[2], step[3])
        await b.page.mouse.move(x, y)
    await b.call("setFocus", await a.call("focused"))


async def _gesture(s: _Session, step: Step, act: _Action, cfg: ProbeConfig) -> None:
    m, kb = s.page.mouse, s.page.keyboard
    how = step[0]
    if how == "click":
        await m.click(step[2], step[3])
    elif how == "tap":  # a click on a canvas, then a couple of frames to draw the response
        await m.click(step[2], step[3])
        await s.run(40)
    elif how == "type":
        await m.click(step[2], step[3])
        await kb.type(step[4])
    elif how == "select":
        handle = await s.page.evaluate_handle("(i) => window.__cogevolProbe.controls[i]", act.index)
        await handle.as_element().select_option(index=step[2])
    elif how == "key":
        if act.key_target >= 0:
            await s.call("focus", act.key_target)
        await kb.down(step[2])
        await s.run(cfg.key_hold_ms)
        await kb.up(step[2])
        await s.run(30)
    elif how == "drag":  # press, move across a few frames, release: ropes, sliders, sketch pads
        x0, y0, x1, y1 = step[2:6]
        await m.move(x0, y0)
        await m.down()
        for k in range(1, 6):
            await m.move(x0 + (x1 - x0) * k / 5, y0 + (y1 - y0) * k / 5)
            await s.run(16)
        await m.up()
        await s.run(16)


# key values as handlers compare them -> Playwright key names
_NAMED = {"Enter", "Escape", "Tab", "Backspace", "Delete", "Home", "End", "PageUp", "PageDown", "Shift", "Control", "Alt",
          "Meta", "Space", "Insert", "ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", *(f"F{k}" for k in range(1, 13))}
_KEYCODES = {8: "Backspace", 9: "Tab", 13: "Enter", 27: "Escape", 32: "Space", 37: "ArrowLeft", 38: "ArrowUp",
             39: "ArrowRight", 40: "ArrowDown", 46: "Delete", **{c: chr(c).lower() for c in range(65, 91)}, **{c: chr(c) for c in range(48, 58)}}


def key_name(value: str) -> str | None:
    """A key value read from a handler (`'r'`, `"KeyR"`, `'ArrowUp'`, `'#82'` for keyCode 82)
    as a key Playwright can press, or None."""
    if value.startswith("#"):
        return _KEYCODES.get(int(value[1:]))
    if value in (" ", "Spacebar"):
        return "Space"
    if value in ("Esc",):
        return "Escape"
    if len(value) == 1 and value.isprintable():
        return value
    if value in _NAMED or re.fullmatch(r"(Key[A-Z]|Digit[0-9]|Numpad[0-9])", value):
        return value
    if value.startswith("Arrow") and value.lower() in {k.lower() for k in _NAMED}:
        return next(k for k in _NAMED if k.lower() == value.lower())
    return None


def _words(text: str) -> set[str]:
    """Words of a label or request for matching them against each other (CJK: characters)."""
    text = text.lower()
    return {w for w in re.findall(r"[^\W\d_]{3,}", text) if w.isascii()} | set(re.findall(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]", text))


def order_controls(controls: list[Control], request: str) -> list[int]:
    """Operable controls to drive: those whose label the request names first, then the rest in
    document order (so the budget is spent on what the request asks for)."""
    asked = _words(request or "")
    operable = [k for k, c in enumerate(controls) if c.status == "operable"]
    if not asked:
        return operable
    if re.search(r"\b(key|keys|keyboard|arrow|wasd|press)\b|键盘|按键|キー|키보드", request.lower()):
        asked |= {"keyboard"}
    named = [k for k in operable if _words(controls[k].label + " " + controls[k].kind) & asked]
    return named + [k for k in operable if k not in named]


def _tokens(drained: dict) -> set[str]:
    """Signatures for the baseline method: draw calls without coordinates, DOM mutation kinds."""
    out = set()
    for d in drained["draws"]:
        name, _, rest = d.partition("(")
        out.add("draw:" + name + ":" + rest.rpartition(")")[2])
    out.update("dom:" + m for m in drained["mutations"])
    return out


class _Probe:
    def __init__(self, pool: BrowserPool, html: str, cfg: ProbeConfig, request: str = "", motion: bool = True):
        self.pool, self.html, self.cfg, self.request = pool, html, cfg, request or ""
        self.motion = motion  # measure motion after the inputs (the request asks for animation)
        self.result = ProbeResult(method=cfg.method)
        self.history: list[tuple[int, _Action]] = []
        self.instrument = _INSTRUMENT.replace("__SEED__", str(int(cfg.seed))).replace("__FRAME_MS__", str(int(cfg.frame_ms))) + "\n" + _PAGE_JS
        self.a: _Session | None = None
        self.waited = False  # for an overlay to lift (once per page)
        self.deadline = time.perf_counter() + cfg.page_timeout_s

    def _on_console(self, msg) -> None:
        if msg.type == "error" and not msg.text.startswith("Failed to load resource"):  # blocked resources are listed apart
            self._error(f"console.error: {msg.text}")

    def _error(self, text: str) -> None:
        r = self.result
        r.error_count += 1
        if len(r.errors) < 10:
            r.errors.append(text[:200])

    async def _open(self, stack: contextlib.AsyncExitStack) -> _Session:
        page = await stack.enter_async_context(self.pool.page(self.html))
        s = _Session(page, self.pool.cfg.action_timeout_ms / 1000 * 2, self.cfg.clock_slice_ms)
        if self.a is None:  # the page under test: its errors (the twin's would count twice)
            self.a = s
            s.on_error = self._error
            page.on("pageerror", lambda e: self._error(str(e)))
            page.on("console", self._on_console)
        await s.load(self.pool.cfg.load_timeout_ms, self.instrument, self.cfg.hang_s)
        return s

    async def _quiet(self, a: _Session) -> tuple[set[str], bool]:
        baseline: set[str] = set()
        states = set()
        step = max(1, self.cfg.quiet_ms // self.cfg.quiet_steps)
        await a.call("drain")  # what loading did is not what the page does by itself
        for _ in range(self.cfg.quiet_steps):
            await a.run(step)
            baseline |= _tokens(await a.call("drain"))
            snap = await a.snapshot()
            states.add((snap["dom"], snap["canvas"]))
        return baseline, len(states) > 1

    async def _rebuild_twin(self, stack: contextlib.AsyncExitStack, target_t: int) -> _Session:
        b = await self._open(stack)
        await b.run(max(1, self.cfg.quiet_ms // self.cfg.quiet_steps) * self.cfg.quiet_steps)  # what `a` ran
        await b.call("discover")
        for t, act in self.history:
            if t > b.t:
                await b.run(t - b.t)
            if act.kind not in ("keyboard",):
                await b.call("aim", act.index)
            await b.perform(act, self.cfg)
        if target_t > b.t:
            await b.run(target_t - b.t)
        return b

    async def run(self) -> ProbeResult:
        """Probe within the budget. Out of time with the page still answering: a verdict over
        the controls driven so far (the rest `skipped`); not answering: page_hung."""
        cfg, r = self.cfg, self.result
        hard_cap = cfg.page_timeout_s + 2 * cfg.hang_s + 3  # the budget is checked between controls; this bounds the one in flight
        async with contextlib.AsyncExitStack() as stack:
            try:
                await asyncio.wait_for(self._run(stack), hard_cap)
            except Exception as e:
                if not _is_timeout(e) or self.a is None or r.outcome != "ok":
                    raise
                if not await self.a.answers(cfg.hang_s):
                    raise
                await self._out_of_budget()
            with contextlib.suppress(Exception):
                from cogevol.browser.pool import page_resources

                r.resources = page_resources(self.a.page) if self.a is not None else {}
        return r

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
        r, cfg = self.result, self.cfg
        twin_stack = contextlib.AsyncExitStack()
        await stack.enter_async_context(twin_stack)
        a = await self._open(stack)
        content = await a.call("visibleContent")
        baseline, r.animates = await self._quiet(a)
        r.load_errors = r.error_count
        if a.crashed:
            r.outcome, r.reason = "page_crashed", "render: the tab crashed while loading"
            return
        if content["area"] <= 0 and content["text"] <= 0:
            content = await a.call("visibleContent")  # content drawn by timers during the quiet window
        if content["area"] <= 0 and content["text"] <= 0:
            why = f"; script error: {r.errors[0]}" if r.errors else ""
            r.reason = "render: nothing visible" + why
            return
        r.rendered_ok = True
        first = await a.screenshot()
        r.fill = screen_fill(first)
        if cfg.screenshot:
            r.screenshot = first
        r.viewport["desktop"] = await a.call("viewport")
        found = await a.call("discover")
        controls = [Control(c["index"], c["kind"], c["tag"], c["label"], c["status"], c["reason"], drag=c.get("drag", False),
                            hears=c.get("hears", False)) for c in found["controls"]]
        # keys: one pseudo-control, held across frames (focused on the listening element if only it
        # listens): first the keys the handlers compare against, then the usual game keys
        self.key_values = [k for k in dict.fromkeys(map(key_name, found["keyValues"])) if k]
        if found["keyTargets"]:
            controls.append(Control(found["keyIndex"], "keyboard", "keyboard", "+".join(found["keyTargets"]), "operable"))
        r.controls = controls
        order = order_controls(controls, self.request)
        # An idle page (no timers, no frames pending) shows without input exactly what it shows
        # now: its own state before the input is the counterfactual, and no twin is needed until
        # an input wakes it up. Otherwise a twin runs in lockstep from the start.
        use_twin = cfg.method == "twin"
        static = use_twin and cfg.idle_shortcut and not r.animates and await a.call("idle")
        b = None
        if use_twin and order and not static and time.perf_counter() < self.deadline:
            b, use_twin = await self._start_twin(twin_stack, a, len(found["controls"]))
        driven = 0
        for k in order:
            c = controls[k]
            if driven >= cfg.max_controls:
                c.status, c.reason = "not_operable", "over max_controls"
                continue
            if time.perf_counter() > self.deadline:
                r.budget_exhausted = True
                c.status, c.reason = "skipped", "page budget ran out before this control"
                continue
            act = await self._aim(a, c)
            if act is None:
                continue
            driven += 1
            skip = act.index if act.kind in ("text", "select", "range", "click") else -1
            before = None
            if static:  # pointer on the control first, so hover is part of the counterfactual
                if act.kind != "keyboard":
                    await a.page.mouse.move(act.x, act.y)
                before = (await a.snapshot(skip), await a.screenshot() if cfg.pixel_check else None)
            elif b is not None and act.kind != "keyboard":
                await b.call("aim", c.index)  # same scroll position
            # an element that loses focus to the input redraws its focus ring: not a response
            # (in the twin too: its focus is mirrored by script, which draws rings differently)
            had_focus = await a.call("focused")
            act.also_mask = [await a.call("box", had_focus)] if had_focus >= 0 and had_focus != act.index else []
            await a.call("drain")
            errors_before = r.error_count
            t_input = a.t
            early = await self._drive(a, b, act, before)
            if b is not None and b.t < a.t:
                await b.run(a.t - b.t)
            await asyncio.gather(*(s.run(cfg.settle_ms) for s in (a, b) if s is not None))
            new = _tokens(await a.call("drain")) - baseline
            c.baseline_verdict = "live" if new else "dead"
            c.errors = r.error_count - errors_before
            self.history.append((t_input, act))
            if early:
                c.twin_verdict, c.evidence, c.driver = early
            elif static:
                c.twin_verdict, c.evidence = await self._verdict((await a.snapshot(skip), before[0]), before[1], a, None, act)
            elif b is not None:
                snaps = await asyncio.gather(a.snapshot(skip), b.snapshot(skip))
                c.twin_verdict, c.evidence = await self._verdict(snaps, None, a, b, act)
            if use_twin and c.twin_verdict:
                c.verdict = c.twin_verdict
            else:
                c.verdict, c.evidence = c.baseline_verdict, ", ".join(sorted(new)[:3]) or "no new draw or DOM signature"
            if c.verdict == "live" and not c.driver:
                c.driver = "+".join(dict.fromkeys(st[1] for st in act.steps))
            if k == order[-1]:
                pass  # nothing to keep in step for after the last control
            elif static and not await a.call("idle"):  # the input woke the page up: a twin from here on
                static = False
                b, use_twin = await self._start_twin(twin_stack, a, len(found["controls"]))
            elif b is not None:
                b, use_twin = await self._resync(twin_stack, a, b, act)
            if a.crashed:
                r.outcome, r.reason = "page_crashed", f"the tab crashed after input on {c.kind} {c.label!r}"
                return
        r.method = ("twin" if b is not None or not static else "idle-state") if use_twin else "baseline"
        if self.motion and not r.budget_exhausted:  # still moving on its own? (started by a button or a timer; or frozen by an error)
            if not r.animates:  # let the inertia of the last input (a drag's damping, a transition) die down first
                await a.run(cfg.idle_ms)
            s1 = await a.snapshot()
            await a.run(cfg.settle_ms)
            r.moves_at_end = s1 != await a.snapshot()
            r.moves_later = r.moves_at_end and not r.animates
        r.viewport.update(await self._viewports(a))

    async def _drive(self, a: _Session, b: _Session | None, act: _Action, before) -> tuple[str, str, str] | None:
        """Perform the action's steps one by one; with several steps (keys, canvas points, a
        click then a drag) compare after each and stop at the first visible change, so a later
        step cannot undo an earlier one's effect. `act.steps` ends up holding the steps
        performed, so a replay presses the same ones."""
        steps, done = act.steps, []
        for step in steps:
            done.append(step)
            await a.gesture(step, act, self.cfg)
            if len(steps) == 1:
                break
            if b is not None:
                await _mirror(a, b, step)
                if b.t < a.t:
                    await b.run(a.t - b.t)
                sa, sb = await asyncio.gather(a.snapshot(), b.snapshot())
            elif before is not None:
                sa, sb = await a.snapshot(), before[0]
            else:
                continue
            if sa["dom"] != sb["dom"] or sa["canvas"] != sb["canvas"]:
                act.steps = done
                what = "visible text or form state" if sa["dom"] != sb["dom"] else "canvas pixels"
                how = f"holding {step[2]}" if step[0] == "key" else f"{step[1]} at ({step[2]:.0f}, {step[3]:.0f})" if step[0] in ("tap", "click", "drag") else step[1]
                return "live", f"{what} changed after {how}", step[1]
        act.steps = done
        if b is not None:
            await _mirror(a, b, done[-1] if done else None)
        return None

    async def _start_twin(self, twin_stack, a: _Session, n_controls: int) -> tuple[_Session | None, bool]:
        """A twin in lockstep with `a`; (None, False) when the page is not deterministic enough."""
        b = await self._rebuild_twin(twin_stack, a.t)
        found_b = await b.call("discover") if not self.history else None
        if (found_b is not None and len(found_b["controls"]) != n_controls) or await a.snapshot() != await b.snapshot():
            log.info("probe: page is not deterministic under the seeded clock; baseline method decides")
            await twin_stack.aclose()
            return None, False
        return b, True

    async def _aim(self, a: _Session, c: Control) -> _Action | None:
        cfg = self.cfg
        if c.kind == "keyboard":  # the focused listener's own focus ring is not a response
            box = await a.call("box", c.index) if c.index >= 0 else None
            found = [k for k in self.key_values if k not in KEYS][: cfg.max_keys]
            steps = [("key", "handler-keys", k) for k in found] + [("key", "default-keys", k) for k in KEYS][: max(0, cfg.max_keys - len(found))]
            return _Action("keyboard", c.index, box=box, key_target=c.index, steps=steps)
        aim = await a.call("aim", c.index)
        if not aim["ok"] and aim["reason"].startswith("covered by") and not self.waited and not await a.call("idle"):
            self.waited = True  # a loading screen or an intro overlay that lifts by itself: wait once
            await a.run(cfg.overlay_wait_ms)
            aim = await a.call("aim", c.index)
        if not aim["ok"]:
            c.status, c.reason = "not_operable", aim["reason"]
            return None
        x, y, box = aim["x"], aim["y"], aim["box"]
        drag = [("drag", "drag", x, y, x + min(80, box[2] / 3 + 20), y + min(40, box[3] / 3 + 10))] if c.drag else []
        if c.kind == "select":
            option = await a.call("nextOption", c.index)
            if option < 0:
                c.status, c.reason = "not_operable", "select with a single option"
                return None
            steps = [("select", "select", option)]
        elif c.kind == "text":
            number = await a.page.evaluate("(i) => window.__cogevolProbe.controls[i].type === 'number'", c.index)
            steps = [("type", "type", x, y, "42" if number else " hello world")]
        elif c.kind == "range":
            steps = [("click", "range", box[0] + 0.85 * box[2], y)]
        elif c.kind == "canvas":
            x0, y0, w, h = box
            steps = [("tap", "canvas-points", x0 + fx * w, y0 + fy * h) for fx, fy in ((0.5, 0.5), (0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75))]
            # drawn shapes are worth clicking only where something listens for the click
            shapes = await a.call("shapeTargets", c.index, cfg.canvas_shapes) if cfg.canvas_shapes and c.hears else []
            steps += [("tap", "canvas-shapes", sx, sy) for sx, sy in shapes]
            steps += drag
        else:
            steps = [("click", "click", x, y), *drag]
        return _Action(c.kind, c.index, x, y, box, steps=steps)

    async def _verdict(self, snaps: tuple[dict, dict], shot_before, a: _Session, b: _Session | None, act: _Action) -> tuple[str, str]:
        """Live when the page with the input (snaps[0]) differs visibly from its counterfactual
        (snaps[1]): the twin `b`, or for an idle page its own state before the input, whose
        screenshot is `shot_before`."""
        sa, sb = snaps
        if sa["dom"] != sb["dom"]:
            return "live", "visible text or form state changed"
        if sa["canvas"] != sb["canvas"]:
            return "live", "canvas pixels changed"
        if self.cfg.pixel_check:
            if b is not None:
                pa, pb = await asyncio.gather(a.screenshot(), b.screenshot())
            else:
                pa, pb = await a.screenshot(), shot_before
            if pa == pb:
                return "dead", "no visible difference"
            mask = ([act.box] if act.box and act.kind in ("text", "select", "range", "click", "keyboard") else []) + act.also_mask
            changed = _changed_pixels(_Session.masked(pa, mask), _Session.masked(pb, mask))
            if changed >= self.cfg.pixel_min:
                return "live", f"rendered pixels changed ({changed} px)"
        return "dead", "no visible difference"

    async def _resync(self, twin_stack, a: _Session, b: _Session, act: _Action) -> tuple[_Session | None, bool]:
        """Give the twin the input it was denied; rebuild it by replay if it does not converge,
        at most max_twin_rebuilds times (then the baseline method decides the rest)."""
        await b.perform(act, self.cfg)
        if a.t < b.t:
            await a.run(b.t - a.t)
        await a.run(self.cfg.settle_ms)
        if b.t < a.t:
            await b.run(a.t - b.t)
        sa, sb = await asyncio.gather(a.snapshot(), b.snapshot())
        if sa == sb:
            return b, True
        await twin_stack.aclose()
        if self.result.twin_rebuilds >= self.cfg.max_twin_rebuilds:
            log.info("probe: twin diverged %d times; baseline method decides the remaining controls", self.result.twin_rebuilds)
            return None, False
        self.result.twin_rebuilds += 1
        return await self._rebuild_twin(twin_stack, a.t), True

    async def _viewports(self, a: _Session) -> dict:
        out = {}
        for name, (w, h) in (("tablet", (768, 1024)), ("mobile", (375, 812))):
            await a.page.set_viewport_size({"width": w, "height": h})
            await a.run(100)
            out[name] = await a.call("viewport")
        return out


def _is_timeout(e: BaseException) -> bool:
    return isinstance(e, asyncio.TimeoutError) or "Timeout" in type(e).__name__ or "Timeout" in str(e).split("\n")[0]


def screen_fill(png: bytes) -> float:
    """Share of the screen that is not background: 8x8-pixel cells whose colour differs from the
    most common cell colour. A blank canvas with one small sprite is near 0; a laid-out page
    or a scene that fills the window is well above 0.2."""
    from io import BytesIO

    import numpy as np
    from PIL import Image

    im = Image.open(BytesIO(png)).convert("RGB")
    cells = np.asarray(im.resize((max(1, im.width // 8), max(1, im.height // 8)), Image.BOX)).reshape(-1, 3).astype(np.int32) >> 4
    keys = (cells[:, 0] << 8) | (cells[:, 1] << 4) | cells[:, 2]
    mode = cells[np.bincount(keys).argmax() == keys][0]
    return round(float((np.abs(cells - mode).max(axis=1) > 1).mean()), 4)


async def probe_html(pool: BrowserPool, html: str, cfg: ProbeConfig | None = None, request: str = "",
                     motion: bool = True) -> ProbeResult:
    """Probe one page; never raises for anything the page does. `request` orders the controls
    (those it names are driven first); `motion` measures whether the page still moves on its own
    after the inputs (needed when the request asks for animation; costs an idle stretch)."""
    cfg = cfg or ProbeConfig()
    t0 = time.perf_counter()
    probe = _Probe(pool, html, cfg, request, motion)
    try:
        result = await probe.run()
    except Exception as e:  # classify: the page's fault or ours
        result = probe.result
        msg = f"{type(e).__name__}: {e}".splitlines()[0][:240]
        if _is_timeout(e) or isinstance(e, PageHung):
            result.outcome, result.reason = "page_hung", f"page hung: it stopped answering for {cfg.hang_s:g} s (busy main thread or runaway script)"
        elif "Execution context was destroyed" in msg or "navigat" in msg.lower():
            result.outcome, result.reason = "page_navigated", f"page reloads or navigates by itself: {msg}"
        elif "crash" in msg.lower() or "Target closed" in msg or "has been closed" in msg:
            result.outcome, result.reason = "page_crashed", f"page crashed: {msg}"
        else:
            result.outcome, result.reason = "harness_error", f"probe error: {msg}"
            log.warning("probe: harness error: %s", msg)
    result.seconds = round(time.perf_counter() - t0, 3)
    return result


def _changed_pixels(a, b) -> int:
    """Pixels that differ between two screenshots (PIL images of the same size)."""
    from PIL import ImageChops

    if a.size != b.size:
        return a.size[0] * a.size[1]
    diff = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > 8 else 0)
    return diff.histogram()[255]
