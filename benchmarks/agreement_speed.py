"""Reward-human agreement speed: Spearman with a 1,000-resample bootstrap on 10,000 ratings.

Target (issue 7): at most 2 s. Baseline in the same run: ranking every resample with
scipy.stats.rankdata (what a straightforward bootstrap does).
Run: python benchmarks/agreement_speed.py [--n 10000] [--resamples 1000]
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import numpy as np
from scipy.stats import rankdata

from cogevol.evaluate.agreement import bootstrap_spearman, correlate

ROOT = Path(__file__).resolve().parents[1]


def baseline(x: np.ndarray, y: np.ndarray, resamples: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(x), size=(resamples, len(x)))
    out = []
    for chunk in np.array_split(idx, max(1, resamples // 100)):
        rx, ry = rankdata(x[chunk], axis=1), rankdata(y[chunk], axis=1)
        rx -= rx.mean(1, keepdims=True)
        ry -= ry.mean(1, keepdims=True)
        out.append((rx * ry).sum(1) / np.sqrt((rx**2).sum(1) * (ry**2).sum(1)))
    return np.concatenate(out)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "agreement_speed.json"))
    a = ap.parse_args()
    rng = np.random.default_rng(0)
    reward = rng.uniform(size=a.n)
    human = np.clip(np.round(5 * reward + rng.normal(scale=1.2, size=a.n)), 1, 5)  # 1-5 ratings: many ties
    t = time.perf_counter()
    ours = bootstrap_spearman(reward, human, a.resamples)
    t_ours = time.perf_counter() - t
    t = time.perf_counter()
    base = baseline(reward, human, a.resamples)
    t_base = time.perf_counter() - t
    t = time.perf_counter()
    full = correlate("reward", reward, human, resamples=a.resamples)
    t_full = time.perf_counter() - t
    res = {"machine": f"{os.cpu_count()} cores", "ratings": a.n, "resamples": a.resamples,
           "spearman_bootstrap_s": round(t_ours, 3), "rankdata_baseline_s": round(t_base, 3),
           "speedup": round(t_base / t_ours, 1), "target_s": 2.0, "target_met": t_ours <= 2.0,
           "ci_ours": [round(float(v), 4) for v in np.percentile(ours, [2.5, 97.5])],
           "ci_baseline": [round(float(v), 4) for v in np.percentile(base, [2.5, 97.5])],
           "spearman_plus_kendall_with_cis_s": round(t_full, 3), "correlation": full.record()}
    Path(a.out).write_text(json.dumps(res, indent=2) + "\n")
    print(json.dumps(res, indent=2))


if __name__ == "__main__":
    main()
