"""MLflow conventions in one place: where runs go, how a pipeline run groups its stages.

* Store: `sqlite:///mlruns/mlflow.db` (current MLflow refuses the plain ./mlruns file store),
  artifacts under mlruns/artifacts. MLFLOW_TRACKING_URI overrides both.
* One parent run per pipeline run, one child run per stage. Stages run as separate processes
  under `dvc repro`, so the parent is found rather than passed: COGEVOL_PIPELINE_RUN_ID when a
  driver (the Prefect flow, `make repro`) sets it; otherwise the latest pipeline run of the last
  COGEVOL_PIPELINE_WINDOW_H hours (default 12) that has no run of this stage yet; otherwise a
  new one. So `dvc repro` groups its stages, and a later `dvc repro` that reruns only `filter`
  gets a new parent holding just that stage.
* The parent run spans the pipeline: each stage that ends moves the parent's end time to its
  own, so the parent lasts from the first stage's start to the last one's end.
* The experiment is tagged as model development, so the UI opens on runs and charts (not on the
  GenAI traces view); evaluated checkpoints become versions of the registered model
  `cogevol-policy` with their scores, the best aliased `best`.
* Tracking must never take a data stage down: if MLflow is unreachable the stage logs a warning
  and runs untracked. COGEVOL_TRACKING=0 turns it off.
"""

from __future__ import annotations

import logging
import os
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

log = logging.getLogger(__name__)

DEFAULT_URI = "sqlite:///mlruns/mlflow.db"
EXPERIMENT = os.environ.get("COGEVOL_EXPERIMENT", "cogevol")
KIND_TAG, STAGE_TAG = "cogevol.kind", "cogevol.stage"
# the UI's model-training view
EXPERIMENT_KIND = ("mlflow.experimentKind", "custom_model_development")
REGISTERED_MODEL = "cogevol-policy"


def tracking_uri() -> str:
    return os.environ.get("MLFLOW_TRACKING_URI", DEFAULT_URI)


def metric_name(key: str) -> str:
    """`key` as MLflow accepts a metric name (letters, digits, `_ - . / :` and spaces): a count
    keyed by a reason ("rules (not in the replay file)") would otherwise fail the whole batch."""
    return re.sub(r"[^\w\-./: ]", "_", key)


def flatten(d: dict, prefix: str = "", sep: str = ".") -> dict:
    out = {}
    for k, v in d.items():
        key = f"{prefix}{sep}{k}" if prefix else str(k)
        if isinstance(v, dict):
            out.update(flatten(v, key, sep))
        else:
            out[key] = v
    return out


class StageRun:
    """What a stage logs to: params, numeric metrics (nested dicts flattened), artifacts."""

    def __init__(self, run_id: str | None = None, parent_id: str | None = None, stage: str = ""):
        self.run_id, self.parent_id, self.stage = run_id, parent_id, stage

    @property
    def active(self) -> bool:
        return self.run_id is not None

    def _guard(self, what: str, fn, *args) -> None:
        if not self.active:
            return
        try:
            fn(*args)
        except Exception as e:  # tracking must not fail a stage
            log.warning("mlflow: could not log %s: %s", what, e)

    def log_metrics(self, metrics: dict, step: int | None = None) -> None:
        import mlflow

        flat = {
            metric_name(k): float(v)
            for k, v in flatten(metrics).items()
            if isinstance(v, int | float) and not isinstance(v, bool)
        }
        self._guard("metrics", lambda: mlflow.log_metrics(flat, step=step))
        if self.parent_id:  # the parent shows each stage's headline numbers side by side
            from mlflow.entities import Metric

            ts = int(time.time() * 1000)
            batch = [Metric(f"{self.stage}.{k}", v, ts, step or 0) for k, v in flat.items()]
            self._guard(
                "parent metrics",
                lambda: mlflow.MlflowClient().log_batch(self.parent_id, metrics=batch),
            )

    def log_dict(self, obj: dict, name: str) -> None:
        import mlflow

        self._guard(name, lambda: mlflow.log_dict(obj, name))

    def log_figure(self, fig, name: str) -> None:
        import mlflow

        self._guard(name, lambda: mlflow.log_figure(fig, name))

    def log_table(self, rows: list[dict], name: str) -> None:
        """A table artifact (MLflow's UI shows it under Artifacts and in the evaluation view)."""
        import mlflow

        columns = {k: [r.get(k) for r in rows] for k in dict.fromkeys(k for r in rows for k in r)}
        self._guard(name, lambda: mlflow.log_table(data=columns, artifact_file=name))

    def log_artifact(self, path: str | Path, artifact_path: str | None = None) -> None:
        """A file, or a directory (a Ray engine's part files) under its own name."""
        import mlflow

        if Path(path).is_dir():
            where = artifact_path or Path(path).name
            self._guard(str(path), lambda: mlflow.log_artifacts(str(path), where))
            return
        self._guard(str(path), lambda: mlflow.log_artifact(str(path), artifact_path))

    def log_dataset(self, rows: list[dict], source: str, name: str, context: str) -> None:
        """An input of this run as an MLflow dataset (its digest, schema and source show on the
        run)."""
        import mlflow
        import pandas as pd

        def log() -> None:
            frame = pd.DataFrame(rows)
            mlflow.log_input(
                mlflow.data.from_pandas(frame, source=source, name=name), context=context
            )

        self._guard(f"dataset {name}", log)

    def register_checkpoint(self, source: str, alias: str, scores: dict[str, float]) -> str | None:
        """A version of REGISTERED_MODEL for the checkpoint at `source`, tagged with its scores and
        aliased `alias`; returns the version (None when untracked).

        The checkpoint stays where DVC keeps it: the version points at an MLflow 3 external
        logged model of this run (`models:/<model_id>`) whose tags say where the weights are. A
        `file://` source would be refused by a tracking server (`mlflow server`), which accepts
        local paths only inside the run's own artifacts; copying gigabytes of weights into the
        artifact store for a registry entry is not what a registry is for."""
        if not self.active:
            return None
        import mlflow

        src = Path(source)
        where = str(src.resolve()) if src.exists() else source
        tags = {k: str(v) for k, v in scores.items()}
        try:
            model = mlflow.create_external_model(
                name=alias,
                source_run_id=self.run_id,
                tags={**tags, "checkpoint": where},
                model_type="cogevol-policy",
            )
            mv = mlflow.register_model(
                f"models:/{model.model_id}", REGISTERED_MODEL, tags={**tags, "checkpoint": where}
            )
            client = mlflow.MlflowClient()
            client.update_model_version(
                REGISTERED_MODEL,
                mv.version,
                description=f"{alias} ({where}): "
                + ", ".join(f"{k} {v}" for k, v in scores.items()),
            )
            client.set_registered_model_alias(REGISTERED_MODEL, alias, mv.version)
            return mv.version
        except Exception as e:  # tracking must not fail a stage
            log.warning("mlflow: could not register %s: %s", source, e)
            return None

    def set_model_alias(self, alias: str, version: str) -> None:
        import mlflow

        self._guard(
            f"alias {alias}",
            lambda: mlflow.MlflowClient().set_registered_model_alias(
                REGISTERED_MODEL, alias, version
            ),
        )


def _experiment_id(client) -> str:
    exp = client.get_experiment_by_name(EXPERIMENT)
    if exp is not None:
        if exp.tags.get(EXPERIMENT_KIND[0]) != EXPERIMENT_KIND[1]:
            client.set_experiment_tag(exp.experiment_id, *EXPERIMENT_KIND)
        return exp.experiment_id
    artifacts = None
    uri = tracking_uri()
    # artifacts next to the database, never in the working directory
    if uri.startswith("sqlite:///"):
        root = Path(uri[len("sqlite:///") :]).parent
        root.mkdir(parents=True, exist_ok=True)
        artifacts = (root / "artifacts").resolve().as_uri()
    return client.create_experiment(
        EXPERIMENT, artifact_location=artifacts, tags=dict([EXPERIMENT_KIND])
    )


def _parent_run(client, exp_id: str, stage: str) -> str:
    explicit = os.environ.get("COGEVOL_PIPELINE_RUN_ID")
    if explicit:
        return explicit
    window_ms = float(os.environ.get("COGEVOL_PIPELINE_WINDOW_H", "12")) * 3600 * 1000
    latest = client.search_runs(
        [exp_id],
        filter_string=f"tags.`{KIND_TAG}` = 'pipeline'",
        max_results=1,
        order_by=["attributes.start_time DESC"],
    )
    if latest and time.time() * 1000 - latest[0].info.start_time < window_ms:
        pid = latest[0].info.run_id
        done = client.search_runs(
            [exp_id],
            filter_string=f"tags.`mlflow.parentRunId` = '{pid}' and tags.`{STAGE_TAG}` = '{stage}'",
            max_results=1,
        )
        if not done:
            return pid
    run = client.create_run(
        exp_id, run_name=f"pipeline-{time.strftime('%Y%m%d-%H%M%S')}", tags={KIND_TAG: "pipeline"}
    )
    client.set_terminated(run.info.run_id)
    return run.info.run_id


def start_pipeline_run(name: str | None = None) -> str:
    """Create a parent run explicitly (drivers export its id as COGEVOL_PIPELINE_RUN_ID)."""
    import mlflow

    mlflow.set_tracking_uri(tracking_uri())
    client = mlflow.MlflowClient()
    run = client.create_run(
        _experiment_id(client),
        run_name=name or f"pipeline-{time.strftime('%Y%m%d-%H%M%S')}",
        tags={KIND_TAG: "pipeline"},
    )
    client.set_terminated(run.info.run_id)
    return run.info.run_id


@contextmanager
def stage_run(stage: str, params: dict | None = None) -> Iterator[StageRun]:
    """A child run for one stage under the current pipeline run (see module docstring)."""
    if os.environ.get("COGEVOL_TRACKING", "1") == "0":
        yield StageRun()
        return
    try:
        import mlflow

        mlflow.set_tracking_uri(tracking_uri())
        client = mlflow.MlflowClient()
        exp_id = _experiment_id(client)
        parent = _parent_run(client, exp_id, stage)
        run = mlflow.start_run(
            experiment_id=exp_id,
            run_name=stage,
            parent_run_id=parent,
            tags={KIND_TAG: "stage", STAGE_TAG: stage},
        )
    except Exception as e:
        log.warning("mlflow unavailable (%s): stage %s runs untracked", e, stage)
        yield StageRun()
        return
    sr = StageRun(run.info.run_id, parent, stage)
    status = "FAILED"
    try:
        if params:
            flat = {k: str(v)[:500] for k, v in flatten(params).items()}
            sr._guard("params", lambda: mlflow.log_params(flat))
        yield sr
        status = "FINISHED"
    finally:
        mlflow.end_run(status=status)
        sr._guard(
            "parent end",
            lambda: client.set_terminated(
                parent,
                status if status == "FAILED" else "FINISHED",
                end_time=int(time.time() * 1000),
            ),
        )
