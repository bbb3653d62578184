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
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from cogevol.browser.pool import PAGE_URL, BrowserPool

log = logging.getLogger(__name__)

_HERE = Path(__file__).parent
_INSTRUMENT = (_HERE / "instrument.js").read_text()
_PAGE_JS = (_HERE / "page.js").read_text()
T0 = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
KEYS = ("ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Space", "Enter", "KeyW", "KeyA", "KeyS", "KeyD")


@dataclass
class ProbeConfig:
    """Knobs of the probe (params.yaml: probe)."""

    seed: int = 1234  # seeds Math.random and crypto.getRandomValues
    quiet_ms: int = 500  # virtual time the page runs on its own before any input
    quiet_steps: int = 2
    settle_ms: int = 400  # virtual time after an input before the verdict
    key_hold_ms: int = 250  # each key is held across this many ms of frames
    max_controls: int = 16  # operable controls driven per page (document order)
    method: str = "twin"  # twin | baseline: which counterfactual decides
    idle_shortcut: bool = True  # twin: an idle page's own pre-input state stands in for the twin
    page_timeout_s: float = 10.0  # whole-page budget
    pixel_check: bool = True  # masked screenshots when DOM and canvas agree
    pixel_min: int = 30  # changed pixels that count as a visible change (anti-aliasing noise is below)
    screenshot: bool = False  # keep the page as first shown (after the quiet window): the judge's input


@dataclass
class Control:
    index: int
    kind: str
    tag: str
    label: str
    status: str  # operable | not_operable | excluded
    reason: str = ""
    verdict: str = ""  # live | dead | "" (not driven)
    evidence: str = ""
    baseline_verdict: str = ""
    twin_verdict: str = ""


@dataclass
class ProbeResult:
    rendered_ok: bool = False
    outcome: str = "ok"  # ok | page_hung | page_crashed | page_navigated | harness_error
    reason: str = ""
    controls: list[Control] = field(default_factory=list)
    animates: bool = False
    method: str = "twin"
    viewport: dict = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0
    screenshot: bytes | None = field(default=None, repr=False)  # with ProbeConfig.screenshot

    def as_dict(self) -> dict:
        return {k: v for k, v in asdict(self).items() if k != "screenshot"}


class _Session:
    """One page under a paused virtual clock."""

    def __init__(self, page, timeout_s: float = 3.0):
        self.page = page
        self.timeout_s = timeout_s
        self.t = 0
        self.crashed = False
        page.on("crash", self._on_crash)

    def _on_crash(self, *_: object) -> None:
        self.crashed = True

    async def load(self, timeout_ms: int, instrument: str) -> None:
        await self.page.clock.install(time=T0)
        # the installed clock runs in real time until paused: pause far enough ahead that a
        # loaded machine cannot have passed it already
        await self.page.clock.pause_at(T0 + dt.timedelta(minutes=10))
        await self.page.add_init_script(instrument)  # after the clock's script, so ours wins
        await self.page.goto(PAGE_URL, wait_until="load", timeout=timeout_ms)

    async def run(self, ms: int) -> None:
        await asyncio.wait_for(self.page.clock.run_for(ms), self.timeout_s + ms / 200)
        self.t += ms

    async def call(self, fn: str, *args):
        # a page that pegs its main thread never answers: bound every call
        return await asyncio.wait_for(self.page.evaluate(f"(a) => window.__cogevolProbe.{fn}(...a)", list(args)), self.timeout_s)

    async def perform(self, act: _Action, cfg: ProbeConfig) -> None:
        """Real input, bounded: a handler that never returns blocks input dispatch too."""
        budget = self.timeout_s + (len(KEYS) * (cfg.key_hold_ms + 30) / 200 if act.kind == "keyboard" else 0)
        await asyncio.wait_for(_perform(self, act, cfg), budget)

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
    option: int = -1
    key_target: int = -1
    also_mask: list = field(default_factory=list)  # boxes whose redraw is not a response
    keys: tuple[str, ...] = KEYS  # keyboard: the keys pressed, one hold each


async def _mirror(a: _Session, b: _Session, act: _Action) -> None:
    """The twin gets what the input left behind except the input: pointer position and focus."""
    if act.kind != "keyboard":
        await b.page.mouse.move(act.x, act.y)
    await b.call("setFocus", await a.call("focused"))


async def _perform(s: _Session, a: _Action, cfg: ProbeConfig) -> None:
    """Real input: the mouse at the control, typing, key holds across frames, option picks."""
    m, kb = s.page.mouse, s.page.keyboard
    if a.kind == "click":
        await m.click(a.x, a.y)
    elif a.kind == "text":
        await m.click(a.x, a.y)
        await kb.type("42" if a.option == 1 else " hello world")
    elif a.kind == "range":
        x0, _, w, _ = a.box
        await m.click(x0 + 0.85 * w, a.y)
    elif a.kind == "select":
        handle = await s.page.evaluate_handle("(i) => window.__cogevolProbe.controls[i]", a.index)
        await handle.as_element().select_option(index=a.option)
    elif a.kind == "canvas":
        x0, y0, w, h = a.box
        for fx, fy in ((0.5, 0.5), (0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)):
            await m.click(x0 + fx * w, y0 + fy * h)
            await s.run(40)
    elif a.kind == "keyboard":
        if a.key_target >= 0:
            await s.call("focus", a.key_target)
        for key in a.keys:
            await kb.down(key)
            await s.run(cfg.key_hold_ms)
            await kb.up(key)
            await s.run(30)


def _tokens(drained: dict) -> set[str]:
    """Signatures for the baseline method: draw calls without coordinates, DOM mutation kinds."""
    out = set()
    for d in drained["draws"]:
        name, _, rest = d.partition("(")
        out.add("draw:" + name + ":" + rest.rpartition(")")[2])
    out.update("dom:" + m for m in drained["mutations"])
    return out


class _Probe:
    def __init__(self, pool: BrowserPool, html: str, cfg: ProbeConfig):
        self.pool, self.html, self.cfg = pool, html, cfg
        self.result = ProbeResult(method=cfg.method)
        self.history: list[tuple[int, _Action]] = []
        self.instrument = _INSTRUMENT.replace("__SEED__", str(int(cfg.seed))) + "\n" + _PAGE_JS

    async def _open(self, stack: contextlib.AsyncExitStack) -> _Session:
        page = await stack.enter_async_context(self.pool.page(self.html))
        s = _Session(page, self.pool.cfg.action_timeout_ms / 1000 * 2)
        page.on("pageerror", lambda e: self.result.errors.append(str(e)[:200]) if len(self.result.errors) < 10 else None)
        await s.load(self.pool.cfg.load_timeout_ms, self.instrument)
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
            if act.kind != "keyboard":
                await b.call("aim", act.index)
            await b.perform(act, self.cfg)
        if target_t > b.t:
            await b.run(target_t - b.t)
        return b

    async def run(self) -> ProbeResult:
        r, cfg = self.result, self.cfg
        async with contextlib.AsyncExitStack() as stack:
            twin_stack = contextlib.AsyncExitStack()
            await stack.enter_async_context(twin_stack)
            a = await self._open(stack)
            content = await a.call("visibleContent")
            baseline, r.animates = await self._quiet(a)
            if a.crashed:
                r.outcome, r.reason = "page_crashed", "render: the tab crashed while loading"
                return r
            if content["area"] <= 0 and content["text"] <= 0:
                content = await a.call("visibleContent")  # content drawn by timers during the quiet window
            if content["area"] <= 0 and content["text"] <= 0:
                why = f"; script error: {r.errors[0]}" if r.errors else ""
                r.reason = "render: nothing visible" + why
                return r
            r.rendered_ok = True
            if cfg.screenshot:
                r.screenshot = await a.screenshot()
            found = await a.call("discover")
            controls = [Control(c["index"], c["kind"], c["tag"], c["label"], c["status"], c["reason"]) for c in found["controls"]]
            keys = found["keyTargets"]
            if keys:  # one pseudo-control: key holds across frames, focused on the listening element if only it listens
                controls.append(Control(found["keyIndex"], "keyboard", "keyboard", "+".join(keys), "operable"))
            r.controls = controls
            operable = [k for k, c in enumerate(controls) if c.status == "operable"]
            # An idle page (no timers, no frames pending) shows without input exactly what it shows
            # now: its own state before the input is the counterfactual, and no twin is needed until
            # an input wakes it up. Otherwise a twin runs in lockstep from the start.
            use_twin = cfg.method == "twin"
            static = use_twin and cfg.idle_shortcut and not r.animates and await a.call("idle")
            b = None
            if use_twin and operable and not static:
                b, use_twin = await self._start_twin(twin_stack, a, len(found["controls"]))
            driven = 0
            for k in operable:
                c = controls[k]
                if driven >= cfg.max_controls:
                    c.status, c.reason = "not_operable", "over max_controls"
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
                t_input = a.t
                early = None
                if act.kind == "keyboard":  # key by key: a later key may undo what an earlier one did
                    early = await self._drive_keys(a, b, act, before)
                else:
                    await a.perform(act, cfg)
                if b is not None:
                    await _mirror(a, b, act)
                    if b.t < a.t:
                        await b.run(a.t - b.t)
                await asyncio.gather(*(s.run(cfg.settle_ms) for s in (a, b) if s is not None))
                new = _tokens(await a.call("drain")) - baseline
                c.baseline_verdict = "live" if new else "dead"
                self.history.append((t_input, act))
                if early:
                    c.twin_verdict, c.evidence = early
                elif static:
                    c.twin_verdict, c.evidence = await self._verdict((await a.snapshot(skip), before[0]), before[1], a, None, act)
                elif b is not None:
                    snaps = await asyncio.gather(a.snapshot(skip), b.snapshot(skip))
                    c.twin_verdict, c.evidence = await self._verdict(snaps, None, a, b, act)
                if use_twin and c.twin_verdict:
                    c.verdict = c.twin_verdict
                else:
                    c.verdict, c.evidence = c.baseline_verdict, ", ".join(sorted(new)[:3]) or "no new draw or DOM signature"
                if k == operable[-1]:
                    pass  # nothing to keep in step for after the last control
                elif static and not await a.call("idle"):  # the input woke the page up: a twin from here on
                    static = False
                    b, use_twin = await self._start_twin(twin_stack, a, len(found["controls"]))
                elif b is not None:
                    b = await self._resync(twin_stack, a, b, act)
                if a.crashed:
                    r.outcome, r.reason = "page_crashed", f"the tab crashed after input on {c.kind} {c.label!r}"
                    return r
            r.method = ("twin" if b is not None or not static else "idle-state") if use_twin else "baseline"
            r.viewport = await self._viewports(a)
        return r

    async def _drive_keys(self, a: _Session, b: _Session | None, act: _Action, before) -> tuple[str, str] | None:
        """Hold each key in turn and compare after each; stop at the first visible change.
        `act.keys` ends up holding the keys pressed, so a replay presses the same ones."""
        pressed = []
        for key in KEYS:
            pressed.append(key)
            await a.perform(_Action("keyboard", act.index, key_target=act.key_target, keys=(key,)), self.cfg)
            if b is not None:
                await b.call("setFocus", await a.call("focused"))
                await b.run(a.t - b.t)
                sa, sb = await asyncio.gather(a.snapshot(), b.snapshot())
            elif before is not None:
                sa, sb = await a.snapshot(), before[0]
            else:
                continue
            if sa["dom"] != sb["dom"] or sa["canvas"] != sb["canvas"]:
                act.keys = tuple(pressed)
                what = "visible text or form state" if sa["dom"] != sb["dom"] else "canvas pixels"
                return "live", f"{what} changed while holding {key}"
        act.keys = tuple(pressed)
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
        if c.kind == "keyboard":  # the focused listener's own focus ring is not a response
            box = await a.call("box", c.index) if c.index >= 0 else None
            return _Action("keyboard", c.index, box=box, key_target=c.index)
        aim = await a.call("aim", c.index)
        if not aim["ok"]:
            c.status, c.reason = "not_operable", aim["reason"]
            return None
        option = -1
        if c.kind == "select":
            option = await a.call("nextOption", c.index)
            if option < 0:
                c.status, c.reason = "not_operable", "select with a single option"
                return None
        if c.kind == "text":
            option = 1 if await a.page.evaluate("(i) => window.__cogevolProbe.controls[i].type === 'number'", c.index) else 0
        return _Action(c.kind, c.index, aim["x"], aim["y"], aim["box"], option)

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

    async def _resync(self, twin_stack, a: _Session, b: _Session, act: _Action) -> _Session:
        """Give the twin the input it was denied; rebuild it by replay if it does not converge."""
        await b.perform(act, self.cfg)
        await a.run(self.cfg.settle_ms)
        if b.t < a.t:
            await b.run(a.t - b.t)
        sa, sb = await asyncio.gather(a.snapshot(), b.snapshot())
        if sa == sb:
            return b
        await twin_stack.aclose()
        return await self._rebuild_twin(twin_stack, a.t)

    async def _viewports(self, a: _Session) -> dict:
        out = {}
        for name, (w, h) in (("tablet", (768, 1024)), ("mobile", (375, 812))):
            await a.page.set_viewport_size({"width": w, "height": h})
            await a.run(100)
            out[name] = await a.call("viewport")
        return out


async def probe_html(pool: BrowserPool, html: str, cfg: ProbeConfig | None = None) -> ProbeResult:
    """Probe one page; never raises for anything the page does."""
    cfg = cfg or ProbeConfig()
    t0 = time.perf_counter()
    probe = _Probe(pool, html, cfg)
    try:
        result = await asyncio.wait_for(probe.run(), cfg.page_timeout_s)
    except asyncio.TimeoutError:
        result = probe.result
        result.outcome = "page_hung"
        result.reason = "page hung: it stopped answering (busy main thread or runaway script)"
    except Exception as e:  # classify: the page's fault or ours
        result = probe.result
        msg = f"{type(e).__name__}: {e}".splitlines()[0][:240]
        if "Timeout" in type(e).__name__ or "Timeout" in msg:
            result.outcome, result.reason = "page_hung", f"page hung: {msg}"
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
