"""What `GET /metrics` reports, in Prometheus text: queue depth, items pending, pages per second,
latency p50 / p95 (arrival to verdict, over the last `window` items), harness errors, 429s, and
the scoring fingerprint (`cogevol_scoring_fingerprint_info{fingerprint="..."} 1`).

Rate and quantiles are computed over a recent window at scrape time (a gauge each), so a
dashboard shows them without PromQL; the latency histogram is there too for proper aggregation
across replicas.
"""

from __future__ import annotations

import time
from collections import deque

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

from cogevol.scoring.types import GroupScores, Score


class ServiceMetrics:
    def __init__(
        self, workers: int, window: int = 1000, rate_window_s: float = 60.0, fingerprint: str = ""
    ):
        self.workers, self.rate_window_s = workers, rate_window_s
        self.pending = 0  # items accepted and unfinished
        self._latency: deque[float] = deque(maxlen=window)
        self._done: deque[float] = deque(maxlen=100_000)  # finish times, for the rate
        self._first: float | None = None
        self.registry = r = CollectorRegistry()
        self.items = Counter(
            "cogevol_scoring_items", "items scored", ["modality", "gate"], registry=r
        )
        self.harness_errors = Counter(
            "cogevol_scoring_harness_errors",
            "items with no verdict (harness error, deadline)",
            registry=r,
        )
        self.rejected = Counter(
            "cogevol_scoring_rejected_requests", "requests answered 429 (queue full)", registry=r
        )
        self.groups = Counter(
            "cogevol_scoring_groups", "groups scored (POST /score_group)", registry=r
        )
        self.judge_calls = Counter(
            "cogevol_scoring_group_judge_calls",
            "comparing-judge calls for groups, by judge and outcome (answered from the model, "
            "answered from the verdict cache, or no verdict after the retries)",
            ["judge", "outcome"],
            registry=r,
        )
        self.latency = Histogram(
            "cogevol_scoring_item_seconds",
            "arrival to verdict, per item",
            registry=r,
            buckets=(0.25, 0.5, 1, 2, 4, 8, 16, 32, 64, 128, float("inf")),
        )
        Gauge(
            "cogevol_scoring_items_pending", "items accepted and unfinished", registry=r
        ).set_function(lambda: self.pending)
        Gauge("cogevol_scoring_queue_depth", "items waiting for a worker", registry=r).set_function(
            lambda: max(0, self.pending - self.workers)
        )
        Gauge(
            "cogevol_scoring_pages_per_second",
            "items finished per second over the rate window",
            registry=r,
        ).set_function(self.rate)
        q = Gauge(
            "cogevol_scoring_latency_seconds",
            "arrival-to-verdict quantiles over recent items",
            ["quantile"],
            registry=r,
        )
        q.labels("0.5").set_function(lambda: self.quantile(0.5))
        q.labels("0.95").set_function(lambda: self.quantile(0.95))
        Gauge(
            "cogevol_scoring_fingerprint_info",
            "what decides this service's scores (cogevol.scoring.fingerprint)",
            ["fingerprint"],
            registry=r,
        ).labels(fingerprint).set(1)

    def bind_judge(self, counts) -> None:
        """Gauges over the judge's own counters (`counts()`: name -> number; empty without a
        judge): its HTTP calls, retries, failures, cache hits and repair turns."""
        g = Gauge(
            "cogevol_judge_counter",
            "the judge client's counters since the service started (HTTP calls, retries, "
            "failures, verdict-cache hits, repair turns)",
            ["counter"],
            registry=self.registry,
        )
        for name in ("calls", "retries", "failures", "verdicts", "cache_hits", "repairs"):
            g.labels(name).set_function(lambda name=name: counts().get(name, 0))

    def observe(self, score: Score, seconds: float) -> None:
        self.items.labels(score.modality, score.gate).inc()
        if score.reward is None:
            self.harness_errors.inc()
        self.latency.observe(seconds)
        self._latency.append(seconds)
        self._done.append(time.monotonic())
        if self._first is None:
            self._first = self._done[-1] - seconds  # when the service started working

    def observe_group(self, group: GroupScores) -> None:
        """A group's judge calls: group-pick rounds and anchor comparisons."""
        self.groups.inc()
        pick = group.judge.get("pick") or {}
        rounds = pick.get("rounds") or []
        cached = sum(bool(r.get("cached")) for r in rounds)
        self.judge_calls.labels("group_pick", "model").inc(len(rounds) - cached)
        self.judge_calls.labels("group_pick", "cache").inc(cached)
        self.judge_calls.labels("group_pick", "failed").inc(pick.get("asked", 0) - len(rounds))
        for a in group.judge.get("anchor") or []:
            if a is not None:
                self.judge_calls.labels("anchor", "cache" if a.get("cached") else "model").inc()

    def rate(self) -> float:
        """Items finished per second over the window (or since the first one, when that is
        shorter: a young service would otherwise look slow and hand out minute-long
        Retry-Afters)."""
        now = time.monotonic()
        while self._done and self._done[0] < now - self.rate_window_s:
            self._done.popleft()
        if self._first is None:
            return 0.0
        return len(self._done) / max(1.0, min(self.rate_window_s, now - self._first))

    def quantile(self, q: float) -> float:
        if not self._latency:
            return 0.0
        xs = sorted(self._latency)
        return xs[min(len(xs) - 1, int(q * len(xs)))]

    def render(self) -> tuple[bytes, str]:
        return generate_latest(self.registry), CONTENT_TYPE_LATEST
