"""What every cogevol flow shares: run DVC stages in order under one MLflow parent run.

Each stage runs through `dvc repro --single-item <stage>` so dvc.lock stays the single truth
about what ran on which inputs; Prefect adds retries, scheduling and log forwarding. The flow
creates one MLflow parent run and hands its id to the stages (COGEVOL_PIPELINE_RUN_ID), so the
stage runs group under it exactly as with `make repro`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import yaml
from prefect import get_run_logger, task


def dag_order(repo: str | Path = ".", upto: str | None = None) -> tuple[str, ...]:
    """The stages of `repo`'s dvc.yaml in dependency order (a stage comes after every stage whose
    outs it reads; ties keep the file's order), or only `upto` and the stages it needs. Read from
    dvc.yaml, so the flows can never run a stale order."""
    stages = yaml.safe_load((Path(repo) / "dvc.yaml").read_text(encoding="utf-8"))["stages"]

    def paths(st: dict, key: str) -> list[str]:
        return [(p if isinstance(p, str) else next(iter(p))).rstrip("/") for p in st.get(key) or []]

    def needs(name: str) -> set[str]:
        deps = paths(stages[name], "deps")
        return {other for other in stages if other != name and any(
            d == o or d.startswith(o + "/") or o.startswith(d + "/") for d in deps for o in paths(stages[other], "outs"))}

    order: list[str] = []
    while len(order) < len(stages):
        ready = [s for s in stages if s not in order and needs(s) <= set(order)]
        if not ready:
            raise ValueError(f"dvc.yaml: a cycle among {sorted(set(stages) - set(order))}")
        order.append(ready[0])
    if upto is None:
        return tuple(order)
    wanted, todo = set(), [upto]
    while todo:
        s = todo.pop()
        if s not in wanted:
            wanted.add(s)
            todo += needs(s)
    return tuple(s for s in order if s in wanted)

# Stages that call networks get retries (filter and evaluate: an LLM or judge endpoint when
# configured; distill: the teacher; grpo_slide: the judge); local stages fail fast, since a
# retry would fail the same way.
DEFAULT_RETRIES = {"filter": 2, "distill": 2, "grpo_slide": 1, "evaluate": 1}


def _venv_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """Environment whose PATH starts with this interpreter's bin/, so stage commands
    (`python stages/...`) run in the same virtual environment as the flow."""
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env.update(extra or {})
    return env


def _dvc() -> str:
    local = Path(sys.executable).parent / "dvc"
    return str(local) if local.exists() else (shutil.which("dvc") or "dvc")


@task(retry_delay_seconds=10)
def dvc_stage(stage: str, repo: str, env: dict[str, str]) -> dict:
    """`dvc repro --single-item stage`, its output forwarded line by line to the Prefect log."""
    logger = get_run_logger()
    t0 = time.perf_counter()
    proc = subprocess.Popen([_dvc(), "repro", "--single-item", stage], cwd=repo, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
    assert proc.stdout is not None
    for line in proc.stdout:
        logger.info("[%s] %s", stage, line.rstrip())
    rc = proc.wait()
    if rc != 0:
        raise RuntimeError(f"dvc repro --single-item {stage} exited with {rc} (see the log above)")
    return {"stage": stage, "seconds": round(time.perf_counter() - t0, 2)}


def run_stages(name: str, stages: tuple[str, ...], repo: str = ".", retries: dict[str, int] | None = None,
               track: bool = True, env: dict[str, str] | None = None) -> list[dict]:
    """Run `stages` in order (call from inside a flow); returns per-stage timings. `env` is added
    to the stages' environment (where curation runs: COGEVOL_CURATION_ENGINE, RAY_ADDRESS)."""
    logger = get_run_logger()
    retries = {**DEFAULT_RETRIES, **(retries or {})}
    extra = dict(env or {})
    if track and os.environ.get("COGEVOL_TRACKING", "1") != "0":
        from cogevol.pipeline.tracking import start_pipeline_run

        cwd = os.getcwd()
        try:
            os.chdir(repo)  # the default MLflow store is relative to the repository
            extra["COGEVOL_PIPELINE_RUN_ID"] = start_pipeline_run(name)
        except Exception as e:  # tracking never blocks the data
            logger.warning("MLflow unavailable (%s): stages run untracked by the flow", e)
        finally:
            os.chdir(cwd)
    env = _venv_env(extra)
    results = []
    for stage in stages:
        run = dvc_stage.with_options(name=f"dvc-{stage}", retries=retries.get(stage, 0))
        results.append(run(stage, str(Path(repo).resolve()), env))
        logger.info("stage %s done in %.1fs", stage, results[-1]["seconds"])
    return results
