"""The project's rewards as GRPO reward functions: routed by modality, timed, and itemised.

TRL calls every reward function on every completion and passes the dataset columns as keyword
arguments. `ModalityReward` scores only the completions whose `modality` column is its own and
returns None for the rest; TRL leaves None out of the sum, so a joint (One-Big-Round) run routes
each sample to its modality's reward with no extra machinery, and a serial run is the special
case with one modality. Around the call it measures the reward's wall time (its share of the step
is the number that decides how many probe / render workers a run needs) and turns the reward's
`last_details` into per-step components: probe terms and hard-fail rate for HTML; rule score,
VLM score, validity and per-rule scores for slides.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from dataclasses import dataclass

from cogevol.train.monitor import RolloutLog, StepTimer, timed

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ComponentSpec:
    """Which fields of a reward's `last_details` become per-step metrics."""

    numbers: tuple[str, ...]  # averaged over the completions that have them
    flags: dict[str, bool]  # booleans -> rates; the value is the default for a detail without the key
    groups: tuple[str, ...]  # dicts of numbers (probe terms, per-rule scores) -> one mean per key


HTML_SPEC = ComponentSpec(
    numbers=("reward", "interactivity", "controls_live", "controls_total"),
    # a completion with no document never reaches the probe, and the gate zeroes it all the same
    flags={"hard_fail": True, "rendered_ok": False, "harness_error": False},
    groups=("terms",),
)
SLIDE_SPEC = ComponentSpec(numbers=("reward", "score", "rule_score", "vlm_score"),
                           flags={"valid": False, "harness_error": False}, groups=("rules",))


def _number(v) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


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
    return out


def completion_text(completion) -> str:
    """The text of a completion, conversational (list of messages) or plain."""
    if isinstance(completion, list):
        return "".join(m.get("content", "") for m in completion if isinstance(m, dict))
    return str(completion or "")


class ModalityReward:
    """A TRL reward function: `fn` on this modality's completions, None on the others."""

    def __init__(self, modality: str, fn: Callable, spec: ComponentSpec, timer: StepTimer | None = None,
                 rollouts: RolloutLog | None = None):
        self.modality, self.fn, self.spec, self.timer, self.rollouts = modality, fn, spec, timer, rollouts
        self.__name__ = f"{modality}_reward"  # TRL names the reward column after the function

    def __call__(self, prompts: list, completions: list, **kwargs) -> list[float | None]:
        n = len(completions)
        modality = kwargs.pop("modality", None) or [self.modality] * n
        log_metric = kwargs.get("log_metric")
        idx = [i for i, m in enumerate(modality) if m == self.modality]
        out: list[float | None] = [None] * n
        if not idx:
            return out
        pick = lambda xs: [xs[i] for i in idx]  # noqa: E731
        sub = {k: pick(v) if isinstance(v, list) and len(v) == n else v for k, v in kwargs.items()}
        with timed(self.timer, "reward") as t:
            scores = self.fn(prompts=pick(prompts), completions=pick(completions), modality=pick(modality), **sub)
        details = list(getattr(self.fn, "last_details", None) or [])
        for j, i in enumerate(idx):
            out[i] = scores[j]
        if log_metric is not None:
            metrics = summarize(details, self.spec)
            metrics["seconds_per_completion"] = t.seconds / len(idx)
            for k, v in metrics.items():
                log_metric(f"{self.modality}/{k}", v)
        if self.rollouts is not None:
            ids = sub.get("prompt_id") or [""] * len(idx)
            for j, i in enumerate(idx):
                d = details[j] if j < len(details) else {}
                self.rollouts.add(str(ids[j]), self.modality, completion_text(completions[i]), scores[j],
                                  str(d.get("reason", "")))
        return out

    def close(self) -> None:
        close = getattr(self.fn, "close", None)
        if callable(close):
            close()


def html_reward(workers: int, probe_params: dict | None = None, judge_params: dict | None = None):
    """The executable HTML reward (probe + hard-fail gate) on `workers` pages in flight,
    with the probe and browser settings of params.yaml's `probe` group, and the judge terms
    when `judge.enabled`."""
    from cogevol.browser.pool import BrowserConfig
    from cogevol.probe.core import ProbeConfig
    from cogevol.rewards.html import TermSettings
    from cogevol.rewards.trl import HtmlReward

    p = probe_params or {}
    judge_cfg = None
    if (judge_params or {}).get("enabled"):
        from cogevol.judge.vlm import from_params

        judge_cfg = from_params(judge_params)
    browser = BrowserConfig(**{**p.get("browser", {}), "instances": max(1, workers)})
    return HtmlReward(workers=workers, cfg=ProbeConfig(**p.get("probe", {})), browser=browser, weights=p.get("weights"),
                      judge_cfg=judge_cfg, terms=TermSettings(**p.get("terms", {})))


def slide_reward(workers: int, slides_params: dict | None = None, judge_params: dict | None = None,
                 browser_params: dict | None = None):
    """The slide reward (0.6 * VLM + 0.4 * rules, on 0..1) with params.yaml's `slides` group, the
    `judge` group when judge.enabled (else the rules alone), `workers` decks rendered at once."""
    from cogevol.browser.pool import BrowserConfig
    from cogevol.rewards.slide import settings
    from cogevol.rewards.slide_trl import SlideReward

    s = settings(slides_params or {})
    judge_cfg = None
    if (judge_params or {}).get("enabled"):
        from cogevol.judge.vlm import from_params

        judge_cfg = from_params(judge_params)
    browser = BrowserConfig(**{**(browser_params or {}), "instances": 1})  # decks share one browser's pages
    return SlideReward(rules=s["rules"], weights=s["weights"], judge_cfg=judge_cfg, workers=workers, browser=browser)


SPECS = {"html": HTML_SPEC, "slide": SLIDE_SPEC}
