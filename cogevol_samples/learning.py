"""What a GRPO learning run concludes, from its per-completion records: step means, first and
last windows with bootstrap CIs (prompt-balanced on a revisited pool), per-pass curves, the
spread screen. Pure functions (benchmarks/grpo_learning.py runs the training; tests pin these)."""

from __future__ import annotations

import numpy as np

RESAMPLES = 2000


def balanced_mean(values, strata=None) -> float:
    """The mean of `values`, or with `strata` the mean of the per-stratum means: each prompt of a
    revisited pool weighs the same, however often a window happened to draw it."""
    x = np.asarray(values, dtype=float)
    if strata is None:
        return float(x.mean())
    groups = _groups(strata)
    return float(np.mean([x[g].mean() for g in groups]))


def _groups(strata) -> list[np.ndarray]:
    keys = np.asarray(strata)
    return [np.flatnonzero(keys == k) for k in dict.fromkeys(strata)]


def bootstrap_ci(
    values, resamples: int = RESAMPLES, seed: int = 0, level: float = 0.95, strata=None
) -> tuple[float, float] | None:
    """Percentile bootstrap CI of the mean of `values` (None when there are none).

    With `strata` (one key per value: the prompt) the resampling stays within each stratum and
    the statistic is `balanced_mean`: the CI of the mean reward on that fixed set of prompts,
    without the spread that comes from how many times each was drawn."""
    x = np.asarray(values, dtype=float)
    if x.size == 0:
        return None
    rng = np.random.default_rng(seed)
    if strata is None:
        means = x[rng.integers(0, x.size, size=(resamples, x.size))].mean(axis=1)
    else:
        means = np.mean(
            [
                x[g][rng.integers(0, g.size, size=(resamples, g.size))].mean(axis=1)
                for g in _groups(strata)
            ],
            axis=0,
        )
    tail = 100 * (1 - level) / 2
    lo, hi = np.percentile(means, [tail, 100 - tail])
    return float(lo), float(hi)


def apart(a: tuple[float, float] | None, b: tuple[float, float] | None) -> bool:
    """Two CIs that do not overlap (False when either is missing)."""
    return a is not None and b is not None and (a[1] < b[0] or b[1] < a[0])


def judged(records: list[dict]) -> list[dict]:
    """The completions the probe gave a verdict on (reward None: the harness failed, not the
    answer)."""
    return [r for r in records if r["reward"] is not None]


def gate_pass(r: dict) -> float:
    return 0.0 if r["hard_fail"] else 1.0


def per_step(records: list[dict]) -> list[dict]:
    """Mean true reward and gate-pass rate of each step's completions."""
    steps: dict[int, list[dict]] = {}
    for r in records:
        steps.setdefault(r["step"], []).append(r)
    out = []
    for step in sorted(steps):
        rs, ok = steps[step], judged(steps[step])
        out.append(
            {
                "step": step,
                "completions": len(rs),
                "no_verdict": len(rs) - len(ok),
                "reward": float(np.mean([r["reward"] for r in ok])) if ok else None,
                "gate_pass": float(np.mean([gate_pass(r) for r in ok])) if ok else None,
            }
        )
    return out


def window(
    records: list[dict],
    steps: list[int],
    resamples: int = RESAMPLES,
    seed: int = 0,
    balanced: bool = False,
) -> dict:
    """Mean reward and gate-pass rate over the completions of `steps`, with bootstrap CIs;
    `balanced`: prompt-balanced means with CIs resampled within each prompt (`bootstrap_ci`).
    `reward_step_ci` resamples whole steps instead, for completions that are not independent."""
    wanted = set(steps)
    ok = judged([r for r in records if r["step"] in wanted])
    rewards, gates = [r["reward"] for r in ok], [gate_pass(r) for r in ok]
    strata = [r["prompt_id"] for r in ok] if balanced else None
    by_step: dict[int, list[float]] = {}
    for r in ok:
        by_step.setdefault(r["step"], []).append(r["reward"])
    return {
        "steps": [min(steps), max(steps)] if steps else [],
        "completions": len(ok),
        "prompts": len({r["prompt_id"] for r in ok}),
        "balanced": balanced,
        "reward": balanced_mean(rewards, strata) if ok else None,
        "reward_ci": bootstrap_ci(rewards, resamples, seed, strata=strata),
        # the cautious check: whole steps resampled (a step's completions share one policy and
        # one prompt)
        "reward_step_ci": bootstrap_ci(
            [float(np.mean(v)) for v in by_step.values()], resamples, seed
        ),
        "gate_pass": balanced_mean(gates, strata) if ok else None,
        # the share of the request's checklist missed, over the answers past the gate that have it
        "fulfilment": _mean_of(ok, "fulfilment"),
        "gate_pass_ci": bootstrap_ci(gates, resamples, seed, strata=strata),
    }


def _mean_of(records: list[dict], key: str) -> float | None:
    vals = [r[key] for r in records if isinstance(r.get(key), int | float)]
    return float(np.mean(vals)) if vals else None


def first_last(
    records: list[dict], resamples: int = RESAMPLES, seed: int = 0, period: int = 1
) -> dict:
    """First K and last K steps (K = max(2, steps // 4)) compared: do their CIs separate?

    `period`: steps per pass over a revisited prompt pool (the sampler reshuffles the pool each
    pass). Then a trailing partial pass is left out and K is rounded down to whole passes (when
    there is at least one), so both windows ask every prompt equally often; and when both windows
    ask the same prompts their means are prompt-balanced, with CIs resampled within each prompt:
    the prompts are then fixed, not drawn, so how hard each one is is no part of the error."""
    steps = sorted({r["step"] for r in records})
    if len(steps) >= period > 1:
        steps = steps[: len(steps) - len(steps) % period]
    k = max(2, len(steps) // 4)
    if k >= period > 1:
        k -= k % period
    asked = [
        {r["prompt_id"] for r in records if r["step"] in set(w)} for w in (steps[:k], steps[-k:])
    ]
    balanced = period > 1 and asked[0] == asked[1] and len(asked[0]) > 1
    first = window(records, steps[:k], resamples, seed, balanced)
    last = window(records, steps[-k:], resamples, seed, balanced)
    out = {"k": k, "first": first, "last": last}
    for key in ("reward", "gate_pass"):
        have = first[key] is not None and last[key] is not None
        out[f"{key}_change"] = last[key] - first[key] if have else None
        out[f"{key}_cis_apart"] = apart(first[f"{key}_ci"], last[f"{key}_ci"])
        out[f"{key}_rose"] = out[f"{key}_cis_apart"] and out[f"{key}_change"] > 0
    out["reward_step_cis_apart"] = apart(first["reward_step_ci"], last["reward_step_ci"])
    have = first["fulfilment"] is not None and last["fulfilment"] is not None
    out["fulfilment_change"] = last["fulfilment"] - first["fulfilment"] if have else None
    return out


def per_pass(records: list[dict], period: int) -> list[float]:
    """Prompt-balanced mean reward of each whole pass over a revisited pool (`period` steps): the
    learning curve with the prompt mix taken out."""
    steps = sorted({r["step"] for r in records})
    out = []
    for start in range(0, len(steps) - period + 1, period):
        ok = judged([r for r in records if r["step"] in set(steps[start : start + period])])
        if ok:
            out.append(balanced_mean([r["reward"] for r in ok], [r["prompt_id"] for r in ok]))
    return out


def kl_stats(history: list[dict]) -> dict:
    kl = [h["kl"] for h in history if isinstance(h.get("kl"), float)]
    return (
        {"first": kl[0], "last": kl[-1], "mean": float(np.mean(kl)), "max": float(np.max(kl))}
        if kl
        else {}
    )


def with_spread(passed: list[int], samples: int, keep: int) -> list[int]:
    """Indices of at most `keep` prompts that passed some but not all of their `samples`, the
    closest to half first (the largest group variance p(1-p)), returned in their original order."""
    spread = [k for k, n in enumerate(passed) if 0 < n < samples]
    spread.sort(key=lambda k: -passed[k] * (samples - passed[k]))  # stable: ties keep their order
    return sorted(spread[:keep])


def rolling(values: list[float | None], width: int) -> list[float | None]:
    """Trailing mean over the last `width` values present (None where none is)."""
    out = []
    for i in range(len(values)):
        seen = [v for v in values[max(0, i - width + 1) : i + 1] if v is not None]
        out.append(float(np.mean(seen)) if seen else None)
    return out


def steps_to(values: list[float | None], threshold: float, width: int) -> int | None:
    """The first step (1-based) at which the trailing mean of `width` steps reaches `threshold`:
    how fast an arm gets somewhere (seed 001 compares ATC and plain GRPO this way); None when
    it never does."""
    for i, v in enumerate(rolling(values, width)):
        if v is not None and i + 1 >= width and v >= threshold:
            return i + 1
    return None


def summary(rows: list[dict], keys: tuple[str, ...] = ("reward", "gate_pass", "valid")) -> dict:
    """Each key's mean over answer rows (dicts with `id`, the request, and the keys) with a
    bootstrap 95% CI that resamples requests: a request's answers (one greedy, or several sampled)
    count as its mean, so the CI says how the figure would move on other requests like these,
    and several samples of one request do not pass for independent evidence."""
    out: dict = {"answers": len(rows), "requests": len({r["id"] for r in rows})}
    for key in keys:
        means = list(_per_request(rows, key).values())
        out[key] = round(float(np.mean(means)), 4)
        ci = bootstrap_ci(means)
        out[f"{key}_ci"] = [round(ci[0], 4), round(ci[1], 4)] if ci else None
    return out


def _per_request(rows: list[dict], key: str) -> dict:
    d: dict = {}
    for r in rows:
        d.setdefault(r["id"], []).append(r[key])
    return {k: float(np.mean(v)) for k, v in d.items()}


def paired_diff(
    a: list[dict], b: list[dict], key: str, resamples: int = RESAMPLES, seed: int = 0
) -> dict:
    """Mean over the requests both systems answered of (a's mean - b's mean) on `key`, with a
    bootstrap 95% CI over requests. On the same held-out requests this is more sensitive than
    comparing two CIs: how hard each request is cancels out."""
    pa, pb = _per_request(a, key), _per_request(b, key)
    ids = sorted(set(pa) & set(pb))
    if not ids:
        raise ValueError("paired_diff: no request answered by both systems")
    diff = np.array([pa[i] - pb[i] for i in ids])
    rng = np.random.default_rng(seed)
    means = diff[rng.integers(0, len(diff), size=(resamples, len(diff)))].mean(axis=1)
    lo, hi = np.percentile(means, [2.5, 97.5])
    return {
        "requests": len(ids),
        "diff": round(float(diff.mean()), 4),
        "ci": [round(float(lo), 4), round(float(hi), 4)],
        "above_zero": bool(lo > 0),
    }
