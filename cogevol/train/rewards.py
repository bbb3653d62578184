"""The project's rewards as GRPO reward functions: routed by modality and itemised.

TRL calls every reward function on every completion and passes the dataset columns as keyword
arguments. `ModalityReward` scores only the completions whose `modality` column is its own, on
the run's shared scorers (cogevol.scoring: in process, HTTP or Ray), and returns None for the
rest; TRL leaves None out of the sum, so a joint (One-Big-Round) run routes each sample to its
modality's reward with no extra machinery, and a serial run is the special case with one
modality. It is an async function: TRL runs it on its own event loop, which lives as long as the
trainer, so the browser pool opened on the first step serves every later one. Each call turns
the scores' details into per-step components (probe terms and hard-fail rate for HTML; rule
score, VLM score, validity and per-rule scores for slides) and its time per completion.
"""

from __future__ import annotations

import logging
import math
import os
import random
import time
from dataclasses import dataclass

from cogevol.judge.monitor import judge_stats
from cogevol.judge.vlm import JudgeError
from cogevol.rewards.reasons import ReasonId
from cogevol.scoring.extract import completion_text, last_message
from cogevol.scoring.group_formats import group_items
from cogevol.scoring.types import ScoreItem
from cogevol.train.monitor import RolloutLog, StepTimer, timed

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ComponentSpec:
    """Which fields of a reward's `last_details` become per-step metrics."""

    numbers: tuple[str, ...]  # averaged over the completions that have them
    # booleans -> rates; the value is the default for a detail without the key
    flags: dict[str, bool]
    groups: tuple[str, ...]  # dicts of numbers (probe terms, per-rule scores) -> one mean per key


HTML_SPEC = ComponentSpec(
    numbers=("reward", "interactivity", "controls_live", "controls_total"),
    # a completion with no document never reaches the probe, and the gate zeroes it all the same
    flags={"hard_fail": True, "rendered_ok": False, "harness_error": False, "judge_error": False},
    groups=("terms",),
)
SLIDE_SPEC = ComponentSpec(
    numbers=("reward", "score", "rule_score", "vlm_score"),
    flags={"valid": False, "harness_error": False, "judge_error": False},
    groups=("rules",),
)


class TooManyJudgeFailures(JudgeError):
    """Too many completions of a step lost their judge terms: the reward the step would train on
    is another one than configured (rules only), so the step stops with the judge's reason. A
    JudgeError (cogevol.judge.vlm) at the step's scale: one judge call failing is priced, not
    raised."""


def _number(v) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


REASON_FAMILIES = sorted({r.value.split(".")[0] for r in ReasonId})


def summarize(details: list[dict], spec: ComponentSpec) -> dict[str, float]:
    """Per-step means and rates of the components in `details` (one dict per completion)."""
    if not details:
        return {}
    out: dict[str, float] = {}
    for key in spec.numbers:
        vals = [d[key] for d in details if _number(d.get(key))]
        if vals:
            out[key] = sum(vals) / len(vals)
    for key, default in spec.flags.items():
        out[f"{key}_rate"] = sum(bool(d.get(key, default)) for d in details) / len(details)
    for group in spec.groups:
        acc: dict[str, list[float]] = {}
        for d in details:
            for k, v in (d.get(group) or {}).items():
                if _number(v):
                    acc.setdefault(k, []).append(v)
        out.update({f"{group}/{k}": sum(v) / len(v) for k, v in acc.items()})
    # the share of completions by the family of their reason id: how much of a step is not a
    # page at all (format), next to empty pages and pages that fail the gate; every family every
    # step, so a mean over steps is a mean of shares
    ids = [str(d.get("reason_id") or "") for d in details]
    if any(ids):
        for family in REASON_FAMILIES:
            out[f"reason/{family}_rate"] = sum(i.split(".")[0] == family for i in ids) / len(ids)
    return out


class ModalityReward:
    """An async TRL reward function: this modality's completions scored on `scorers`, None on the
    others. `scorers` is shared by every modality's reward of a run and closed by the trainer."""

    def __init__(
        self,
        modality: str,
        scorers,
        spec: ComponentSpec,
        rollouts: RolloutLog | None = None,
        shuffle_seed: int | None = None,
        record: list | None = None,
        max_judge_failure_rate: float = 1.0,
        timer: StepTimer | None = None,
    ):
        """`shuffle_seed` (a control run, benchmarks/grpo_learning.py): the rewards handed to TRL
        are permuted across each call's completions with an RNG seeded once here, so the policy
        learns from rewards that no longer belong to its completions; everything logged (metrics,
        rollouts, `record`) stays the completions' true rewards. `record`: a list that gets one
        dict per scored completion (call, step, prompt_id, true reward, hard_fail, gate). None:
        neither. `max_judge_failure_rate`: the share of a call's completions whose configured
        judge gave no verdict above which the call raises TooManyJudgeFailures (1.0: never).
        `timer`: the run's StepTimer, charged with the time this reward is in flight."""
        self.max_judge_failure_rate = max_judge_failure_rate
        self.timer = timer
        self.modality, self.scorers, self.spec, self.rollouts = modality, scorers, spec, rollouts
        self.__name__ = f"{modality}_reward"  # TRL names the reward column after the function
        self.record = record
        self._rng = None if shuffle_seed is None else random.Random(shuffle_seed)
        self.calls = 0  # calls that scored at least one completion of this modality
        # per completion of the last call: (its text, the probe's trace, what the trace is
        # into) when the probe traced it (Action-Trace Credit, cogevol.train.atc), else None
        self.last_traces: list[tuple[str, list, dict | None] | None] = []

    async def __call__(self, prompts: list, completions: list, **kwargs) -> list[float | None]:
        with timed(self.timer, "reward"):
            return await self._score(prompts, completions, **kwargs)

    async def _score(self, prompts: list, completions: list, **kwargs) -> list[float | None]:
        n = len(completions)
        modality = kwargs.get("modality") or [self.modality] * n
        idx = [i for i, m in enumerate(modality) if m == self.modality]
        out: list[float | None] = [None] * n
        if not idx:
            return out
        t0 = time.perf_counter()
        # the prompt's stored checklist (cogevol.train.data)
        checklists = kwargs.get("checklist") or [""] * n
        items = [
            ScoreItem(
                self.modality,
                last_message(completions[i], "assistant"),
                last_message(prompts[i], "user"),
                checklist=checklists[i] or "",
            )
            for i in idx
        ]
        # each prompt's completions as one group (TRL hands them over adjacent), so the judges
        # that compare rollouts see them side by side
        ids = kwargs.get("prompt_id") or [""] * n
        groups, where = group_items(items, [str(ids[i]) for i in idx])
        scored = await self.scorers.score_groups(groups)
        scores = [scored[g].scores[m] for g, m in where]
        seconds = time.perf_counter() - t0
        log.info(
            "%s reward: rank %s scored %d completion(s) in %.1f s (%.2f s each)",
            self.modality, os.environ.get("RANK", "0"), len(idx), seconds, seconds / len(idx),
        )  # fmt: skip
        self._check_judge([s.details for s in scores])
        self.last_traces = [None] * n
        for i, item, s in zip(idx, items, scores):
            if s.details.get("trace") is not None:
                self.last_traces[i] = (item.text, s.details["trace"], s.details.get("trace_page"))
        given = (
            [s.reward for s in scores]
            if self._rng is None
            else permuted([s.reward for s in scores], self._rng)
        )
        for i, r in zip(idx, given):
            out[i] = r
        log_metric = kwargs.get("log_metric")
        if log_metric is not None:
            metrics = summarize([s.details for s in scores], self.spec)
            metrics["seconds_per_completion"] = seconds / len(idx)
            watched = [g.judge for g in scored if g.judge]
            if watched:  # cogevol.judge.monitor: length bias, round agreement, position bias
                metrics.update({f"judge/{k}": v for k, v in judge_stats(watched).items()})
            for k, v in metrics.items():
                log_metric(f"{self.modality}/{k}", v)
        if self.rollouts is not None:
            for i, s in zip(idx, scores):
                self.rollouts.add(
                    str(ids[i]), self.modality, completion_text(completions[i]), s.reward, s.reason
                )
        if self.record is not None:
            self._record(idx, scores, kwargs)
        self.calls += 1
        return out

    def _check_judge(self, details: list[dict]) -> None:
        failed = [d["judge_error"] for d in details if d.get("judge_error")]
        if failed and len(failed) / len(details) > self.max_judge_failure_rate:
            raise TooManyJudgeFailures(
                f"{self.modality}: the judge gave no verdict on {len(failed)}/{len(details)} "
                f"completions (more than grpo.max_judge_failure_rate "
                f"{self.max_judge_failure_rate:g}), so this step's reward would be rules only: "
                f"{failed[0]}"
            )

    def _record(self, idx: list[int], scores: list, kwargs: dict) -> None:
        """One row per scored completion; `step` is the optimizer step these completions train
        (TRL scores a step's rollouts before the step: global_step + 1), else the call number."""
        state = kwargs.get("trainer_state")
        step = state.global_step + 1 if state is not None else self.calls + 1
        ids = kwargs.get("prompt_id") or [""] * (max(idx) + 1)
        self.record.extend(
            {
                "call": self.calls,
                "step": step,
                "prompt_id": str(ids[i]),
                "reward": s.reward,
                "hard_fail": bool(s.hard_fail),
                "reason_id": s.details.get("reason_id") or "",
                "gate": s.gate,
                # the share of the request's checklist the answer missed (None: not measured)
                "fulfilment": s.terms.get("fulfilment"),
            }
            for i, s in zip(idx, scores)
        )


def permuted(values: list, rng: random.Random) -> list:
    """`values` in an order drawn from `rng` (the same multiset, the link to each position
    broken)."""
    out = list(values)
    rng.shuffle(out)
    return out


SPECS = {"html": HTML_SPEC, "slide": SLIDE_SPEC}
