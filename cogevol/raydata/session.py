"""The Ray session curation's ray engine runs in (params.yaml `curation.ray`).

Ray Data does the scheduling, the shuffles, the retries and the spilling; this module only
connects (or starts a local instance) and sets the few Data options the engines rely on:

* shuffles are Ray Data's task-based sort shuffle: every intermediate block is a task output,
  so a block lost with its worker or node is rebuilt from lineage, and a small shuffle costs
  a fraction of a second (the default hash shuffle waits seconds for its aggregator actors);
* a shuffle task gathers `partitions_per_task` hash partitions and a map task bundles blocks, so
  that shuffle pieces go to the object store, not the driver's heap (exchange.py says why);
* progress bars (rows/s and ETA per operator) only when asked: stage logs get one line per step
  from the engines instead.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

log = logging.getLogger(__name__)

# DataContext config keys the exchanges read (cogevol/raydata/exchange.py): partitions a shuffle
# task gathers, and the cluster's CPUs
PARTITIONS_PER_TASK, CLUSTER_CPUS = "cogevol.partitions_per_task", "cogevol.cluster_cpus"


@dataclass(frozen=True)
class RayDataConfig:
    """params.yaml: curation.ray (each knob explained there)."""

    address: str = ""
    num_cpus: int = 0
    object_store_mb: int = 0
    chunk_mb: float = 8
    rows_per_partition: int = 100_000
    partitions_per_task: int = 4
    progress_bars: bool = False


@dataclass
class RaySession:
    """What the engines need to know of the cluster they run on."""

    cfg: RayDataConfig
    cpus: int
    nodes: int

    def partitions(self, rows: int, per_row: int = 1, least: int | None = None) -> int:
        """Hash partitions for a shuffle of `rows` input rows, each fanning out to about
        `per_row` shuffled rows (n-gram tables): each partition near `rows_per_partition` rows,
        and at least `least` (default: 4 per CPU, so that the last task of a step is short)."""
        want = -(-rows * per_row // max(1, self.cfg.rows_per_partition))
        return max(4 * self.cpus if least is None else least, want, 1)


class StepLog:
    """One log line per finished step of a distributed job: which step of how many, what it
    produced, how long it took and at what rate. Returns the step's seconds (timings)."""

    def __init__(self, job: str, total: int):
        self.job, self.total, self.k = job, total, 0
        self.t0 = self.last = time.perf_counter()

    def done(self, step: str, what: str, rows: int, since: float | None = None) -> float:
        now = time.perf_counter()
        seconds = now - (self.last if since is None else since)
        self.k, self.last = self.k + 1, now
        log.info(
            "%s %d/%d %s: %s in %.1fs (%s rows/s); %.0fs so far",
            self.job,
            self.k,
            self.total,
            step,
            what,
            seconds,
            f"{rows / seconds:,.0f}" if seconds > 0 else "-",
            now - self.t0,
        )
        return seconds


@contextmanager
def ray_data(cfg: RayDataConfig | None = None) -> Iterator[RaySession]:
    """A Ray session for Ray Data: the one already initialised in this process, the cluster at
    `cfg.address` (or $RAY_ADDRESS), or a local instance started here and stopped on exit."""
    import ray
    from ray.data import DataContext
    from ray.data.context import ShuffleStrategy

    cfg = cfg or RayDataConfig()
    started = False
    if not ray.is_initialized():
        address = cfg.address or os.environ.get("RAY_ADDRESS") or None
        if address == "local":
            address = None
        local = {}
        if address is None:
            local = {
                "num_cpus": cfg.num_cpus or None,
                "object_store_memory": cfg.object_store_mb * 2**20 or None,
                "include_dashboard": False,
            }
        t0 = time.perf_counter()
        ray.init(address=address, log_to_driver=False, configure_logging=False, **local)
        started = True
        log.info(
            "ray: %s in %.1fs",
            "connected to " + address if address else "started locally",
            time.perf_counter() - t0,
        )
    ctx = DataContext.get_current()
    ctx.shuffle_strategy = ShuffleStrategy.SORT_SHUFFLE_PULL_BASED
    ctx.enable_progress_bars = cfg.progress_bars
    if not cfg.progress_bars:
        logging.getLogger("ray.data").setLevel(logging.WARNING)
    resources = ray.cluster_resources()
    session = RaySession(cfg, int(resources.get("CPU", 1)), len(ray.nodes()))
    ctx.set_config(PARTITIONS_PER_TASK, cfg.partitions_per_task)
    ctx.set_config(CLUSTER_CPUS, session.cpus)
    log.info("ray: %d CPUs on %d node(s)", session.cpus, session.nodes)
    try:
        yield session
    finally:
        if started:
            ray.shutdown()
