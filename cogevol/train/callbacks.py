"""Trainer callbacks that log into the stage's MLflow run (cogevol.pipeline.tracking.stage_run).

Per-step numbers go to the stage's own child run only; the parent pipeline run gets the stage's
headline metrics once, at the end (StageRun.log_metrics), so it stays readable. The history is
also kept in memory for the DVC plot CSVs and the figures. Tracking never fails training.
"""

from __future__ import annotations

import logging
import time

from transformers import TrainerCallback

from cogevol.pipeline.tracking import StageRun
from cogevol.train.monitor import RolloutLog, StepTimer

log = logging.getLogger(__name__)


def _numeric(d: dict) -> dict[str, float]:
    return {
        k: float(v) for k, v in d.items() if isinstance(v, int | float) and not isinstance(v, bool)
    }


def log_step(run: StageRun | None, metrics: dict, step: int) -> None:
    """Numbers of one step into the stage's child run (not the parent)."""
    if run is None or not run.active or not metrics:
        return
    try:
        import mlflow

        mlflow.MlflowClient().log_batch(
            run.run_id,
            metrics=[
                mlflow.entities.Metric(k, v, int(time.time() * 1000), step)
                for k, v in _numeric(metrics).items()
            ],
        )
    except Exception as e:  # tracking must not fail training
        log.warning("mlflow: could not log step %d: %s", step, e)


# The MLflow run page draws one section of charts per metric prefix, in alphabetical order: the
# numbers a reader wants first go under `headline/` (it sorts before TRL's diagnostics), and TRL's
# clip ratios and completion statistics move under `trl/` so they stop leading the page.
HEADLINE = (
    "reward",
    "reward_std",
    "frac_reward_zero_std",
    "kl",
    "loss",
    "html/reward",
    "html/hard_fail_rate",
    "slide/reward",
    "slide/valid_rate",
)
DIAGNOSTIC_PREFIXES = ("clip_ratio/", "completions/")


def mlflow_names(row: dict) -> dict:
    """A trainer log row as it goes to MLflow: headline copies first, diagnostics under trl/."""
    out = {f"headline/{k.replace('/', '_')}": row[k] for k in HEADLINE if k in row}
    for k, v in row.items():
        out[f"trl/{k}" if k.startswith(DIAGNOSTIC_PREFIXES) else k] = v
    return out


class MetricsCallback(TrainerCallback):
    """Every trainer log line (loss, reward, KL, ...) plus processed tokens per second."""

    def __init__(self, run: StageRun | None = None):
        self.run = run
        self.history: list[dict] = []
        self._t = self._tokens = None

    def on_train_begin(self, args, state, control, **kwargs):
        self._t, self._tokens = time.perf_counter(), 0.0

    def on_log(self, args, state, control, logs=None, **kwargs):
        row = _numeric(logs or {})
        now = time.perf_counter()
        if "num_tokens" in row and self._t is not None:
            dt = now - self._t
            if dt > 0:
                row["tokens_per_s"] = (row["num_tokens"] - self._tokens) / dt
            self._t, self._tokens = now, row["num_tokens"]
        row["step"] = state.global_step
        self.history.append(row)
        log_step(
            self.run, mlflow_names({k: v for k, v in row.items() if k != "step"}), state.global_step
        )


class StepTimingCallback(TrainerCallback):
    """Closes each optimizer step on the StepTimer (generate / reward / update) and writes a
    sample of the step's rollouts as an MLflow table (`rollouts/step_NNNN.json`, MLflow's
    split-orient table layout: columns + data)."""

    def __init__(
        self,
        timer: StepTimer,
        rollouts: RolloutLog | None = None,
        run: StageRun | None = None,
        sample: int = 4,
    ):
        self.timer, self.rollouts, self.run, self.sample = timer, rollouts, run, sample
        self.steps: list[dict] = []
        self._t0 = None

    def on_step_begin(self, args, state, control, **kwargs):
        self._t0 = time.perf_counter()

    def on_step_end(self, args, state, control, **kwargs):
        if self._t0 is None:
            return
        total = time.perf_counter() - self._t0
        split = self.timer.close_step(total)
        row = {
            "step_s": total,
            **{f"{k}_s": v for k, v in split.items()},
            "reward_share": split["reward"] / total if total else 0.0,
        }
        self.steps.append({"step": state.global_step, **row})
        log_step(self.run, {f"time/{k}": v for k, v in row.items()}, state.global_step)
        if self.rollouts is not None:
            rows = self.rollouts.take()[: self.sample]
            if rows and self.run is not None:
                cols = list(rows[0])
                table = {
                    "columns": ["step", *cols],
                    "data": [[state.global_step, *(r[c] for c in cols)] for r in rows],
                }
                self.run.log_dict(table, f"rollouts/step_{state.global_step:04d}.json")


class TimeBudgetCallback(TrainerCallback):
    """Stops training once `minutes` of wall clock have passed since training began (model
    loading not counted): the step in flight finishes and is logged, no new one starts, so a run
    overshoots its budget by at most one step. For runs sized by time rather than by steps (set
    max_steps high enough that the budget, not the step count, ends the run)."""

    def __init__(self, minutes: float, clock=time.monotonic):
        self.budget_s, self.clock = 60.0 * minutes, clock
        self.elapsed_s = 0.0
        # the global step after which the budget stopped training
        self.stopped_at: int | None = None
        self._t0: float | None = None

    def on_train_begin(self, args, state, control, **kwargs):
        self._t0 = self.clock()

    def on_step_end(self, args, state, control, **kwargs):
        if self._t0 is None:
            return
        self.elapsed_s = self.clock() - self._t0
        if self.elapsed_s < self.budget_s:
            return
        control.should_training_stop = True
        if self.stopped_at is None:
            self.stopped_at = state.global_step
            log.info(
                "time budget: %.1f of %.1f min spent after step %d: stopping",
                self.elapsed_s / 60,
                self.budget_s / 60,
                state.global_step,
            )
