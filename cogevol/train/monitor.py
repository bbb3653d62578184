"""What a GRPO step spends its time on, and what it generated: shared by the trainer, the
reward wrappers and the logging callbacks (plain data holders, no MLflow here)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field


@dataclass
class StepTimer:
    """Wall seconds inside one optimizer step. `reward` is the time a reward function was in
    flight (they run side by side: overlapping calls count once); `generate` is the rest of the
    trainer's rollout phase (sampling, and the old and reference log-probs TRL takes of the
    samples); `update` is the rest of the step (forward, backward, optimizer), so the three add
    up to the step time."""

    generate: float = 0.0
    reward: float = 0.0
    totals: dict[str, float] = field(
        default_factory=lambda: {"generate": 0.0, "reward": 0.0, "update": 0.0}
    )
    steps: int = 0
    # part -> (blocks inside it now, since when): overlapping blocks of one part count once
    _open: dict[str, tuple[int, float]] = field(default_factory=dict)

    def add(self, part: str, seconds: float) -> None:
        setattr(self, part, getattr(self, part) + seconds)

    def enter(self, part: str, now: float) -> None:
        inside, since = self._open.get(part, (0, now))
        self._open[part] = (inside + 1, since if inside else now)

    def leave(self, part: str, now: float) -> None:
        inside, since = self._open[part]
        self._open[part] = (inside - 1, since)
        if inside == 1:
            self.add(part, now - since)

    def close_step(self, step_seconds: float) -> dict[str, float]:
        """The split of a finished step; resets the per-step counters."""
        update = max(0.0, step_seconds - self.generate - self.reward)
        split = {"generate": self.generate, "reward": self.reward, "update": update}
        for k, v in split.items():
            self.totals[k] += v
        self.steps += 1
        self.generate = self.reward = 0.0
        return split

    def shares(self) -> dict[str, float]:
        total = sum(self.totals.values()) or 1.0
        return {k: v / total for k, v in self.totals.items()}


class timed:
    """`with timed(timer, "reward"):` adds the block's wall time to the timer; blocks of one part
    that overlap (async reward functions awaited together) add the time they cover, once."""

    def __init__(self, timer: StepTimer | None, part: str):
        self.timer, self.part = timer, part

    def __enter__(self):
        self.t0 = time.perf_counter()
        if self.timer is not None:
            self.timer.enter(self.part, self.t0)
        return self

    def __exit__(self, *exc) -> None:
        now = time.perf_counter()
        self.seconds = now - self.t0
        if self.timer is not None:
            self.timer.leave(self.part, now)


@dataclass
class RolloutLog:
    """Rollouts of the current step (prompt id, modality, completion, reward, reason); the
    callback writes a sample of them to MLflow at the end of each step and clears the list."""

    max_chars: int = 2000  # a completion can be a whole page; the table shows its start
    rows: list[dict] = field(default_factory=list)

    def add(
        self, prompt_id: str, modality: str, completion: str, reward: float | None, reason: str
    ) -> None:
        self.rows.append(
            {
                "prompt_id": prompt_id,
                "modality": modality,
                "completion": completion[: self.max_chars],
                "reward": reward,
                "reason": reason,
            }
        )

    def take(self) -> list[dict]:
        rows, self.rows = self.rows, []
        return rows
