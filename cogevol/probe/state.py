"""One page's probe as the parts share it: the page, its settings, the result being built, the
open copies of the page (the page under test and its twins), the budget and what the page
threw. The parts (page_load, discovery, driving, end_look) are functions of it; core runs
them in order."""

from __future__ import annotations

import contextlib
import re

from cogevol.browser.pool import BrowserPool, PageHung
from cogevol.probe.budget import Budget
from cogevol.probe.config import PageOutcome, ProbeConfig, ProbeResult
from cogevol.probe.explore import StateGraph
from cogevol.probe.session import Session, instrument_script, is_closed, is_timeout, renders
from cogevol.probe.trace import Tracer

_ERROR_TYPE = re.compile(r"^(?:Uncaught )?\w*(?:Error|Exception):\s*")


class ProbeState:
    """One page's probe: what every part reads and the result they write."""

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
        # the request's flow checks (cogevol.probe.checklist_flows) and the label words their
        # steps use
        self.flows, self.flow_labels = flows or [], flow_labels or {}
        self.motion = motion  # measure motion after the inputs (the request asks for animation)
        self.result = ProbeResult(counterfactual=cfg.counterfactual)
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

    def on_console(self, msg) -> None:
        # blocked resources are listed apart
        if msg.type == "error" and not msg.text.startswith("Failed to load resource"):
            self.error(f"console.error: {msg.text}")

    def error(self, text: str) -> None:
        r = self.result
        r.error_count += 1
        # the clock rethrows a timer's error without its type: "ReferenceError: x" is "x"
        self.error_seen.add(re.sub(r"\d+", "0", _ERROR_TYPE.sub("", text[:200])))
        r.error_kinds = len(self.error_seen)
        if len(r.errors) < 10:
            r.errors.append(text[:200])

    async def open(self, stack: contextlib.AsyncExitStack, register: bool = True) -> Session:
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
            s.on_error = self.error
            page.on("pageerror", lambda e: self.error(str(e)))
            page.on("console", self.on_console)
            if self.cfg.trace:
                self.tracer = Tracer(page, self.html, self.cfg.trace_pause_cap)
                await self.tracer.start()
        await s.load(self.pool.cfg.load_timeout_ms, self.instrument)
        if s is self.a and self.tracer is not None:
            await self.tracer.loaded()
        return s

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
