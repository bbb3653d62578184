"""One page under the probe's paused virtual clock, and the real inputs it is given.

Everything that touches Playwright for a single page lives here: installing the clock and the
instrumentation before the page's own scripts, running virtual time in bounded slices (so a
heavy page is slow without looking hung, and a hung one is caught), bounded calls into the
instrumentation, and the gestures (click, type, select, held key, tap, drag). The probe and
its twin are two Sessions; keeping them identical in behaviour is what makes the twin a
counterfactual.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cogevol.browser.pool import PAGE_URL

try:  # public in some Playwright releases, only in its errors module in others
    from playwright.async_api import TargetClosedError
except ImportError:
    from playwright._impl._errors import TargetClosedError
from cogevol.probe.config import ProbeConfig

if TYPE_CHECKING:
    from cogevol.probe.config import Action, Step

_HERE = Path(__file__).parent
_INSTRUMENT = (_HERE / "instrument.js").read_text()
_PAGE_JS = (_HERE / "page.js").read_text()
T0 = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)


def instrument_script(cfg: ProbeConfig) -> str:
    """The init script every probed page (and its twin) gets: the same seed and frame length,
    so that two copies of a page run the same way."""
    return (
        _INSTRUMENT.replace("__SEED__", str(int(cfg.seed))).replace(
            "__FRAME_MS__", str(int(cfg.frame_ms))
        )
        + "\n"
        + _PAGE_JS
    )


_RENDERS = re.compile(
    r"<canvas|getContext\s*\(|webgl|three(\.module)?(\.min)?\.js|babylon|pixi|p5(\.min)?\.js|regl",
    re.I,
)


def renders(html: str) -> bool:
    """Whether a page draws to a canvas or WebGL (read from its source, before it runs). Such a
    page can keep its main thread waiting on the rasteriser for seconds (shader compiles, frames
    read back on a software GPU): that is slow, not hung, so it gets render_hang_s to answer."""
    return bool(_RENDERS.search(html))


def is_timeout(e: BaseException) -> bool:
    """Whether an exception is a timeout (asyncio's or Playwright's): the page, not the probe."""
    return (
        isinstance(e, asyncio.TimeoutError)
        or "Timeout" in type(e).__name__
        or "Timeout" in str(e).split("\n")[0]
    )


def is_closed(e: BaseException) -> bool:
    """Whether the page, its context or its browser went away under a call (Playwright's
    TargetClosedError): with or without a crash event, the page is gone."""
    return isinstance(e, TargetClosedError)


class Session:
    """One page under a paused virtual clock."""

    def __init__(
        self,
        page: Any,
        timeout_s: float = 3.0,
        slice_ms: int = 100,
        on_error: Callable[[str], None] | None = None,
        hang_s: float = 1.5,
        grace_s: float | None = None,
    ):
        self.page = page
        self.hang_s = hang_s  # how long a call may take before the page is asked whether it answers
        # ... and how long it then has to answer before it is hung
        self.grace_s = hang_s if grace_s is None else grace_s
        # a call waits as long: a slow answer is still an answer
        self.timeout_s = max(timeout_s, hang_s)
        self.slice_ms = max(1, slice_ms)
        # page errors thrown out of timer callbacks (the clock rethrows them)
        self.on_error = on_error
        self.t = 0
        self.crashed = False  # the tab crashed (Playwright's "crash" event)
        # the loaded page reloaded or went elsewhere (a main-frame navigation after load)
        self.navigated = False
        self.hung = False  # did not answer within the grace once
        self._loaded = False
        page.on("crash", self._on_crash)
        page.on("framenavigated", self._on_navigated)

    def _on_crash(self, *_: object) -> None:
        self.crashed = True

    def _on_navigated(self, frame: Any) -> None:
        if self._loaded and frame == self.page.main_frame:
            self.navigated = True

    async def load(self, timeout_ms: int, instrument: str) -> None:
        """Load the page with the clock installed and paused and the instrumentation first."""
        await self.page.clock.install(time=T0)
        # the installed clock runs in real time until paused: pause far enough ahead that a
        # loaded machine cannot have passed it already
        await self.page.clock.pause_at(T0 + dt.timedelta(minutes=10))
        await self.page.add_init_script(instrument)  # after the clock's script, so ours wins
        try:
            await self.page.goto(PAGE_URL, wait_until="load", timeout=timeout_ms)
        except Exception as e:  # slow to load is not hung: a page that still answers goes on
            if "Timeout" not in f"{type(e).__name__} {e}" or not await self.answers(self.grace_s):
                raise
        self._loaded = True
        # marks this document: another document of the same page (a reload) lacks it
        await self.page.evaluate("window.__cogevolDoc = true")

    async def reloaded_itself(self) -> bool:
        """Whether the page is now another document of itself: an input reloaded it
        (location.reload(), a link or form to the page itself). Links away are refused by the
        pool, and a same-document navigation (a #tab) keeps the document. Read from the page,
        not from navigation events, which may arrive after the input's call has failed."""
        for _ in range(3):
            if self.crashed or self.page.url.split("#")[0] != PAGE_URL:
                return False
            try:
                await self.page.wait_for_load_state("load", timeout=self.timeout_s * 1000)
                return not await asyncio.wait_for(
                    self.page.evaluate("!!window.__cogevolDoc"), self.timeout_s
                )
            except Exception:  # the new document is still being committed
                await asyncio.sleep(0.1)
        return False

    async def answers(self, within_s: float) -> bool:
        """Whether the page's main thread still answers: the line between slow and hung. A
        page that once did not answer is not asked again (it would cost the wait twice)."""
        if self.hung:
            return False
        try:
            await asyncio.wait_for(self.page.evaluate("1"), within_s)
            return True
        except Exception:
            self.hung = True
            return False

    async def run(self, ms: int) -> None:
        """Advance virtual time by `ms`, in slices: every slice of virtual time has its own
        bound, so a heavy page is slow without looking hung, and the page budget can stop
        between slices."""
        while ms > 0:
            step = min(ms, self.slice_ms)
            try:
                await asyncio.wait_for(self.page.clock.run_for(step), self.timeout_s + step / 100)
            except Exception as e:
                # a timer callback threw: the clock ran the whole slice and rethrows the page's
                # first error, which is the page's defect, not the probe's
                msg = str(e).split("\n")[0]
                if (
                    not msg.startswith("Clock.run_for:")
                    or is_timeout(e)
                    or is_closed(e)
                    or self.crashed
                ):
                    raise
                if self.on_error is not None:
                    self.on_error(msg.removeprefix("Clock.run_for:").strip())
            self.t += step
            ms -= step

    async def call(self, fn: str, *args: Any) -> Any:
        """Call the instrumentation (page.js); bounded, as a page that pegs its main thread
        never answers."""
        return await asyncio.wait_for(
            self.page.evaluate(f"(a) => window.__cogevolProbe.{fn}(...a)", list(args)),
            self.timeout_s,
        )

    async def resize(self, width: int, height: int, wait_ms: int) -> None:
        """Set the viewport and wait, at most `wait_ms` of real time, until the page has heard it:
        the browser dispatches `resize` at its next frame, and a page sizes its canvas in the
        handler. A page that does not hear it is measured as it is."""
        heard = "window.__cogevol ? window.__cogevol.resizes : 0"
        seen = await asyncio.wait_for(self.page.evaluate(heard), self.timeout_s)
        await self.page.set_viewport_size({"width": width, "height": height})
        with contextlib.suppress(Exception):
            await self.page.wait_for_function(
                f"n => ({heard}) > n", arg=seen, polling=20, timeout=wait_ms
            )

    async def perform(self, act: Action, cfg: ProbeConfig) -> None:
        """All the steps of an action, as when replaying it on the twin."""
        for step in act.steps:
            await self.gesture(step, act, cfg)

    async def gesture(self, step: Step, act: Action, cfg: ProbeConfig) -> None:
        """One real input, bounded: a handler that never returns blocks input dispatch too."""
        await asyncio.wait_for(
            _gesture(self, step, act, cfg), self.timeout_s + (cfg.key_hold_ms + 200) / 100
        )
        # a transition or animation the input started is held from the input's virtual time
        await self.call("sync")

    async def point(self, x: float, y: float) -> None:
        """Move the pointer (hover styles and their transitions start at this virtual time)."""
        await self.page.mouse.move(x, y)
        await self.call("sync")

    async def snapshot(self, skip: int = -1) -> dict:
        """The visible state (DOM text and structure, form state, canvas pixels), without the
        echo of control `skip`."""
        return await self.call("snapshot", skip)

    async def screenshot(self) -> bytes:
        """A PNG of the viewport at the virtual time, caret hidden. CSS and SMIL animations are
        already held at the virtual clock's time (instrument.js); Playwright's `animations=
        "disabled"` would finish or cancel them, which changes the page under the probe."""
        await self.call("sync")
        return await self.page.screenshot(type="png", animations="allow", caret="hide")


async def _gesture(s: Session, step: Step, act: Action, cfg: ProbeConfig) -> None:
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
    elif how == "hover":  # the pointer crosses a few points, no button, a few frames at each
        for x, y in step[4]:
            await m.move(x, y)
            await s.run(48)
    elif how == "drag":  # press, move across a few frames, release: ropes, sliders, sketch pads
        x0, y0, x1, y1 = step[2:6]
        await m.move(x0, y0)
        await m.down()
        for k in range(1, 6):
            await m.move(x0 + (x1 - x0) * k / 5, y0 + (y1 - y0) * k / 5)
            await s.run(16)
        await m.up()
        await s.run(16)
