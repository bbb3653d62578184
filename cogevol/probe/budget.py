"""The page's driving budget, counted in the time the machine gave this probe.

`page_timeout_s` bounds how long one page may be driven inside the RL loop. Counted on the wall
clock, it made verdicts depend on the machine's load: with a CPU hog on both cores the same page
got through fewer controls before the budget ran out, and its reward changed (issue 41: 2 of 30
real pages moved by more than 0.05). Here the budget advances by wall time scaled by the share
of the machine that was not taken by other processes: the CPU that the rest of the machine used
over an interval (system busy time minus this process tree's, psutil) slows the budget by that
share, so a page drives as many controls on a busy machine as on an idle one. A hard cap of
`cap_factor` times the budget on the wall clock still bounds a page on a machine that is busy
beyond reason.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

import psutil

FLOOR = 0.2  # the budget never runs slower than this: the cap is what a hopeless machine meets


def _own_busy() -> float:
    """CPU seconds of this process and everything it started (the driver and the browsers)."""
    me = psutil.Process()
    total = sum(me.cpu_times()[:2])
    for child in me.children(recursive=True):
        try:
            total += sum(child.cpu_times()[:2])
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return total


def _system_busy() -> float:
    t = psutil.cpu_times()
    return (
        t.user
        + t.system
        + getattr(t, "nice", 0.0)
        + getattr(t, "irq", 0.0)
        + getattr(t, "softirq", 0.0)
    )


class Budget:
    """`seconds` of driving, counted as described above; `over()` once spent (or capped)."""

    def __init__(
        self,
        seconds: float,
        cap_factor: float = 3.0,
        wall: Callable[[], float] = time.perf_counter,
        system_busy: Callable[[], float] = _system_busy,
        own_busy: Callable[[], float] = _own_busy,
        cores: int | None = None,
    ):
        self.seconds, self.cap = seconds, seconds * max(cap_factor, 1.0)
        self._wall, self._system, self._own = wall, system_busy, own_busy
        self.cores = cores or os.cpu_count() or 1
        self.start = self._last_wall = wall()
        self._last_system, self._last_own = system_busy(), own_busy()
        self.spent = 0.0

    def _update(self) -> None:
        now, system, own = self._wall(), self._system(), self._own()
        dt = now - self._last_wall
        if dt > 0:
            others = max(0.0, (system - self._last_system) - (own - self._last_own))
            share = 1.0 - min(1.0, others / (self.cores * dt))
            self.spent += dt * max(FLOOR, share)
        self._last_wall, self._last_system, self._last_own = now, system, own

    def over(self) -> bool:
        self._update()
        return self.spent >= self.seconds or self._wall() - self.start >= self.cap

    def stretch(self) -> float:
        """Wall seconds per budget second so far (1.0 on an idle machine)."""
        return (self._wall() - self.start) / self.spent if self.spent else 1.0
