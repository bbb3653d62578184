"""Prefect flow for the curation subset: mine -> dedup -> filter (the data curators' rerun, and
the nightly mining deployment in infra/prefect/prefect.yaml).

Run it: `python -m flows.curation` (a temporary Prefect server starts; 15-30 s on small machines).
"""

from __future__ import annotations

from prefect import flow

from flows.common import dag_order, run_stages


@flow(name="cogevol-curation")
def curation(repo: str = ".", stages: tuple[str, ...] | None = None, retries: dict[str, int] | None = None,
             track: bool = True) -> list[dict]:
    """Run `filter` and the stages it needs (mine, dedup), in DAG order; returns per-stage timings."""
    return run_stages("curation-flow", stages or dag_order(repo, upto="filter"), repo, retries, track)


if __name__ == "__main__":
    curation()
