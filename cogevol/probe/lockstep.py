"""The counterfactual used while controls are driven: an idle page's own state, a twin page
kept in lockstep, or (when the page is not deterministic enough) the baseline method.

A twin is only a counterfactual while it is the same page at the same virtual time with the
same inputs, bar the one under test. This module owns what keeps it so: the input history,
starting a twin (and refusing one whose discovered controls or first state differ), giving it
each input after the verdict, and rebuilding it by replay when it does not converge.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from cogevol.probe.budget import Budget
from cogevol.probe.config import Action, ProbeConfig, ProbeResult
from cogevol.probe.session import Session

log = logging.getLogger(__name__)


class Lockstep:
    """Which counterfactual decides, and the twin page when there is one.

    `static`: the page was idle before the input (no timers, no frames pending), so its own
    state just before the input is the counterfactual and no twin is open. `b`: the twin.
    `use_twin`: False once the baseline method decides the remaining controls."""

    def __init__(
        self,
        open_page: Callable[[contextlib.AsyncExitStack], Awaitable[Session]],
        stack: contextlib.AsyncExitStack,
        cfg: ProbeConfig,
        result: ProbeResult,
        n_controls: int,
    ):
        self.open_page, self.stack, self.cfg, self.result = open_page, stack, cfg, result
        # controls the page under test discovered: the twin must find as many
        self.n_controls = n_controls
        self.history: list[tuple[int, Action]] = []  # (virtual time, action) of every input so far
        self.b: Session | None = None
        self.use_twin = cfg.counterfactual == "twin"
        self.static = False

    @property
    def method(self) -> str:
        """The counterfactual that decided, as the report names it."""
        return (
            ("twin" if self.b is not None or not self.static else "idle-state")
            if self.use_twin
            else "baseline"
        )

    async def begin(
        self, a: Session, animates: bool, anything_to_drive: bool, budget: Budget
    ) -> None:
        """An idle page (no timers, no frames pending) shows without input exactly what it shows
        now: its own state before the input is the counterfactual, and no twin is needed until
        an input wakes it up. Otherwise a twin runs in lockstep from the start."""
        cfg = self.cfg
        self.static = self.use_twin and cfg.idle_shortcut and not animates and await a.call("idle")
        if self.use_twin and anything_to_drive and not self.static and not budget.over():
            await self._start(a)

    async def after_input(self, a: Session, act: Action) -> None:
        """Keep the counterfactual in step after a control's verdict: a twin from here on if the
        input woke an idle page up; otherwise give the twin the input it was denied."""
        if self.static and not await a.call("idle"):
            self.static = False
            await self._start(a)
        elif self.b is not None:
            await self._resync(a, self.b, act)

    async def discover(self, a: Session, indices: list[int]) -> dict:
        """Look for controls again on the page under test (page.js discoverMore) and, at the
        same moment, on the twin, so that a new control has the same index on both; a rebuilt
        twin replays the discovery at the same virtual time. A twin that finds other controls
        is no longer the same page: the baseline method decides the rest."""
        found = await a.call("discoverMore", indices)
        self.history.append((a.t, Action("discover", -1)))
        if self.b is not None:
            found_b = await self.b.call("discoverMore", indices)
            if len(found_b["controls"]) != len(found["controls"]):
                log.info("probe: the twin revealed other controls; baseline method decides")
                await self.stack.aclose()
                self.b, self.use_twin = None, False
        return found

    async def _start(self, a: Session) -> None:
        """A twin in lockstep with `a`; none (the baseline method decides) when the page is not
        deterministic enough."""
        b = await self._rebuild(a.t)
        found_b = await b.call("discover") if not self.history else None
        if (
            found_b is not None and len(found_b["controls"]) != self.n_controls
        ) or await a.snapshot() != await b.snapshot():
            log.info(
                "probe: page is not deterministic under the seeded clock; baseline method decides"
            )
            await self.stack.aclose()
            self.b, self.use_twin = None, False
            return
        self.b, self.use_twin = b, True

    async def _rebuild(self, target_t: int) -> Session:
        """A fresh twin brought to virtual time `target_t` by replaying the input history."""
        b = await self.open_page(self.stack)
        await b.run(self.result.quiet_ms)  # what `a` ran
        await b.call("discover")
        for t, act in self.history:
            if t > b.t:
                await b.run(t - b.t)
            if act.kind == "discover":
                await b.call("discoverMore", [])
                continue
            if act.kind not in ("keyboard",):
                await b.call("aim", act.index)
            await b.perform(act, self.cfg)
        if target_t > b.t:
            await b.run(target_t - b.t)
        return b

    async def _resync(self, a: Session, b: Session, act: Action) -> None:
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
            self.b, self.use_twin = b, True
            return
        await self.stack.aclose()
        if self.result.twin_rebuilds >= self.cfg.max_twin_rebuilds:
            log.info(
                "probe: twin diverged %d times; baseline method decides the remaining controls",
                self.result.twin_rebuilds,
            )
            self.b, self.use_twin = None, False
            return
        self.result.twin_rebuilds += 1
        self.b, self.use_twin = await self._rebuild(a.t), True
