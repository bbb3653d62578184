"""How sure a reading of a request is: calibrated confidence per kind of life it asks for.

Why: the gate zeroes a page for not doing what its request asks. When that rests on the words
of the request alone, a wrong reading zeroes a good page (an app "that runs in the browser"
read as asking for motion). So each reading carries the evidence that decided it, as
(class, term) pairs, and a confidence learnt from labelled requests: a hard fail that rests on
the reading needs a confident one (probe.terms.reading_confidence); below that, the unmet
expectation is priced, and the reward is what it would be on average over the reading being
right or wrong: reward x (1 - probability).

Calibration (scripts/calibrate_reading.py, on the tune half of data/reading, split by request
and by source) writes reading_confidence.yaml: per evidence class (an explicit animation word,
described motion, a control word, a page type, a task type read from one term or from
several...) its precision on the labelled requests, and per term a Beta posterior whose prior
is the class's precision with `prior_strength` pseudo-requests: its mean is the term's
probability, its lower `quantile` the confidence in it. A term's
own record counts only when requests from at least `min_sources` sources hold it: a term earns
its weight across requests written by different people, not from one template. A term nobody
labelled gets the class's prior (`unproven`), which is below the hard-fail line by
construction; a class nobody calibrated gets `default`.

Several classes behind one kind combine as independent witnesses: 1 - prod(1 - c), for the
probability and for the confidence alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml

CALIBRATION_PATH = Path(__file__).with_name("reading_confidence.yaml")

# evidence classes: what a reading of each kind can rest on (cogevol.rewards.expects)
ANIMATION_WORD = "animation word"  # animat*, アニメーション, 动画: motion asked for by name
DESCRIBED_MOTION = "described motion"  # bouncing, fireworks, 旋转: a scene described moving
HANDS_OFF = "hands-off"  # "no interactions": what it names runs by itself
CONTROL_WORD = "control word"  # a button, click, slider, typing: input named
PAGE_TYPE = "page type"  # a game, quiz, tool, steering: a page that waits for its user
SIMULATOR = "simulator"  # a simulation, operated
TASK_ONE_TERM = "task type, one term"  # seed 004's task type read from one strong term
TASK_TERMS = "task type, several terms"  # ... from more evidence
LLM = "llm"  # an LLM endpoint's reading
CLASSES = (
    ANIMATION_WORD,
    DESCRIBED_MOTION,
    HANDS_OFF,
    CONTROL_WORD,
    PAGE_TYPE,
    SIMULATOR,
    TASK_ONE_TERM,
    TASK_TERMS,
    LLM,
)


@dataclass(frozen=True)
class Calibration:
    """The table reading_confidence.yaml holds: per class and per term, the probability that
    what the evidence reads is asked (the posterior mean, which prices an unmet expectation)
    and the confidence in it (the posterior's lower quantile, which a hard fail needs)."""

    classes: dict[str, tuple[float, float]]  # class -> (probability, confidence) of a term
    terms: dict[str, dict[str, tuple[float, float]]]  # class -> term -> (probability, confidence)
    default: float  # both numbers for a class with no calibration

    def of(self, cls: str, term: str) -> tuple[float, float]:
        """(probability, confidence) that the kind `cls` / `term` evidence asks for is asked."""
        own = self.terms.get(cls, {}).get(term.strip().lower())
        if own is not None:
            return own
        return self.classes.get(cls, (self.default, self.default))


@lru_cache(maxsize=1)
def calibration() -> Calibration:
    """The committed table (read once)."""
    data = yaml.safe_load(CALIBRATION_PATH.read_text(encoding="utf-8"))
    classes = {
        k: (float(v["precision"]), float(v["unproven"]))
        for k, v in (data.get("classes") or {}).items()
    }
    terms = {
        k: {str(t).lower(): (float(c["probability"]), float(c["confidence"])) for t, c in v.items()}
        for k, v in (data.get("terms") or {}).items()
    }
    unknown = set(classes) - set(CLASSES)
    if unknown:
        raise ValueError(f"{CALIBRATION_PATH.name}: unknown evidence classes {sorted(unknown)}")
    return Calibration(classes, terms, float(data.get("default", 0.5)))


def combine(
    evidence: list[tuple[str, str]], table: Calibration | None = None
) -> tuple[float, float]:
    """One kind's (probability, confidence) from its (class, term) evidence: the best term of
    each class, then independent classes as 1 - prod(1 - c); (0, 0) with no evidence."""
    table = table or calibration()
    best: dict[str, tuple[float, float]] = {}
    for cls, term in evidence:
        p, c = table.of(cls, term)
        old = best.get(cls, (0.0, 0.0))
        best[cls] = (max(old[0], p), max(old[1], c))
    if not best:
        return 0.0, 0.0
    miss_p = miss_c = 1.0
    for p, c in best.values():
        miss_p, miss_c = miss_p * (1 - p), miss_c * (1 - c)
    return round(1 - miss_p, 4), round(1 - miss_c, 4)
