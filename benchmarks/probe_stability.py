"""Stable verdicts under load (issue 11): the same page scored 5 times alone and 5 times beside
two CPU-bound processes must get the same gate and rewards within 0.05.

Pages: the slowest real pages of the last probe_real run (benchmarks/results/probe_real_records.jsonl:
the ones the budget matters for) plus a few light ones, each with its request. The virtual clock
makes a page's own behaviour deterministic; what load can change is how far the budget reaches,
which is what this measures.

Run: python benchmarks/probe_stability.py [--pages 6] [--repeats 5]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import time
from pathlib import Path

from cogevol.core.config import load_params
from cogevol.core.logs import setup_logging
from cogevol.scoring import ScoringSettings
from cogevol.scoring.local import score_pages
from cogevol_samples.page_agreement import load_labels

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "data" / "probe_real"
RESULTS = ROOT / "benchmarks" / "results"


def _burn(stop_at: float) -> None:
    x = 0
    while time.time() < stop_at:
        x = (x * 1103515245 + 12345) % 2**31


def pick_pages(n: int) -> list[dict]:
    labels = {lab["file"]: lab for lab in load_labels(CORPUS / "labels.jsonl")}
    records = RESULTS / "probe_real_records.jsonl"
    if not records.exists():
        return list(labels.values())[:n]
    secs = sorted(((r["seconds"], r["path"]) for r in map(json.loads, records.read_text().splitlines()) if r["path"] in labels), reverse=True)
    heavy = [labels[p] for _, p in secs[: n - 2]]
    light = [labels[p] for _, p in secs[-2:]]
    return heavy + light


def score_repeatedly(pages: list[dict], repeats: int, params: dict) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {p["file"]: [] for p in pages}
    settings = ScoringSettings.from_params({"probe": params.get("probe")}, 1)
    items = [(p["file"], (CORPUS / p["file"]).read_text(encoding="utf-8", errors="replace")) for p in pages]
    for _ in range(repeats):
        for r in asyncio.run(score_pages(items, settings, requests={p["file"]: p["request"] for p in pages})):
            out[r["path"]].append({"hard_fail": r["hard_fail"], "reward": r["reward"], "seconds": r["seconds"],
                                   "skipped": r["controls_skipped"], "outcome": r["outcome"]})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", type=int, default=6)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--hogs", type=int, default=2)
    a = ap.parse_args()
    setup_logging("WARNING")
    params = load_params(ROOT / "params.yaml")
    pages = pick_pages(a.pages)
    alone = score_repeatedly(pages, a.repeats, params)
    stop_at = time.time() + 3600
    hogs = [mp.Process(target=_burn, args=(stop_at,), daemon=True) for _ in range(a.hogs)]
    for h in hogs:
        h.start()
    try:
        loaded = score_repeatedly(pages, a.repeats, params)
    finally:
        for h in hogs:
            h.terminate()
    rows, worst = [], 0.0
    for p in pages:
        runs = alone[p["file"]] + loaded[p["file"]]
        rewards = [r["reward"] for r in runs]
        spread = max(rewards) - min(rewards)
        worst = max(worst, spread)
        rows.append({"file": p["file"], "gates": sorted({r["hard_fail"] for r in runs}), "same_gate": len({r["hard_fail"] for r in runs}) == 1,
                     "reward_min": min(rewards), "reward_max": max(rewards), "spread": round(spread, 4),
                     "seconds_alone": [r["seconds"] for r in alone[p["file"]]], "seconds_loaded": [r["seconds"] for r in loaded[p["file"]]],
                     "skipped_alone": [r["skipped"] for r in alone[p["file"]]], "skipped_loaded": [r["skipped"] for r in loaded[p["file"]]]})
    report = {"pages": len(pages), "repeats": a.repeats, "hogs": a.hogs, "all_same_gate": all(r["same_gate"] for r in rows),
              "max_reward_spread": round(worst, 4), "within_0.05": worst <= 0.05, "rows": rows}
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "probe_stability.json").write_text(json.dumps(report, indent=2) + "\n")
    for r in rows:
        print(f"{r['file'][:60]:60s} gate {r['gates']} reward {r['reward_min']:.3f}-{r['reward_max']:.3f} "
              f"s alone {min(r['seconds_alone']):.1f}-{max(r['seconds_alone']):.1f} loaded {min(r['seconds_loaded']):.1f}-{max(r['seconds_loaded']):.1f} "
              f"skipped {r['skipped_alone']} / {r['skipped_loaded']}")
    print(json.dumps({k: v for k, v in report.items() if k != "rows"}))


if __name__ == "__main__":
    main()
