"""Periodic progress lines with rates, for long loops that run under DVC or Prefect.

Log lines rather than a progress bar: stage output goes to files and Prefect logs, where a bar
is noise. One line every `every_s` seconds, plus a final one.
"""

from __future__ import annotations

import logging
import time

log = logging.getLogger("cogevol.core.progress")


class Progress:
    def __init__(
        self, name: str, total: int | None = None, unit: str = "items", every_s: float = 5.0
    ):
        self.name, self.total, self.unit, self.every_s = name, total, unit, every_s
        self.n = 0
        self.t0 = self.last = time.perf_counter()

    def update(self, k: int = 1) -> None:
        self.n += k
        now = time.perf_counter()
        if now - self.last >= self.every_s:
            self.last = now
            self._emit(now)

    def _emit(self, now: float) -> None:
        rate = self.n / max(now - self.t0, 1e-9)
        of = f"/{self.total}" if self.total else ""
        log.info("%s: %d%s %s (%.3g %s/s)", self.name, self.n, of, self.unit, rate, self.unit)

    def done(self) -> None:
        self._emit(time.perf_counter())
