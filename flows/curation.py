"""Prefect flow for the curation subset: mine -> dedup -> filter (the data curators' rerun, and
the nightly mining deployment in infra/prefect/prefect.yaml).

Run it: `python -m flows.curation` (a temporary Prefect server starts; 15-30 s on small machines).
On a Ray cluster: `curation(engine="ray", ray_address="HEAD:6379")`, or the `curation-on-ray`
deployment in infra/prefect/prefect.yaml (docs/curation_ray.md).
"""

from __future__ import annotations

from prefect import flow

from flows.common import dag_order, run_stages


@flow(name="cogevol-curation")
def curation(repo: str = ".", stages: tuple[str, ...] | None = None, retries: dict[str, int] | None = None,
             track: bool = True, engine: str | None = None, ray_address: str | None = None) -> list[dict]:
    """Run `filter` and the stages it needs (mine, dedup), in DAG order; returns per-stage timings.

    `engine` ("local" or "ray") overrides params.yaml `curation.engine` for this run, and
    `ray_address` names the Ray cluster the stages submit to (else $RAY_ADDRESS, else a local
    instance): docs/curation_ray.md. Neither reruns anything in DVC's eyes: both engines write
    the same records."""
    env = {k: v for k, v in (("COGEVOL_CURATION_ENGINE", engine), ("RAY_ADDRESS", ray_address)) if v}
    return run_stages("curation-flow", stages or dag_order(repo, upto="filter"), repo, retries, track, env)


if __name__ == "__main__":
    curation()
