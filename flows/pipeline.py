"""Prefect flow for the whole pipeline: mine -> ... -> evaluate, each through `dvc repro
--single-item` in DAG order (flows/common.py), with retries on the stages that call networks.

Run it locally: `python -m flows.pipeline`; on a GPU work pool: the `cogevol-gpu` deployment in
infra/prefect/prefect.yaml (README, "ML engineers").
"""

from __future__ import annotations

from prefect import flow

from flows.common import dag_order, run_stages


@flow(name="cogevol-pipeline")
def pipeline(repo: str = ".", stages: tuple[str, ...] | None = None, retries: dict[str, int] | None = None,
             track: bool = True) -> list[dict]:
    """Run every stage (or `stages`) in dvc.yaml's DAG order under one MLflow parent run;
    returns per-stage timings."""
    return run_stages("pipeline-flow", stages or dag_order(repo), repo, retries, track)


@flow(name="cogevol-evaluation")
def evaluation(repo: str = ".", track: bool = True) -> list[dict]:
    """Only the evaluate stage (after a new checkpoint or a new suite)."""
    return run_stages("evaluation-flow", ("evaluate",), repo, None, track)


if __name__ == "__main__":
    pipeline()
