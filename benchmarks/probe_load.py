"""Verdicts do not depend on the machine's load (issue 41): the real-page corpus scored alone and
with a CPU hog on every core, in the same run.

A hog is one busy process per core (plain Python loops), started before its arm and stopped
after it. The figures: hard-fail verdicts that differ between the two arms (target: none), the
largest and the mean reward difference (target: within the stability spread, 0.05), and the
seconds per page in each arm. Results go to benchmarks/results/probe_load.json.

Run: python benchmarks/probe_load.py [--limit N] [--hogs 2]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import time
from pathlib import Path

from cogevol.checklist.planner import ChecklistPlanner, planner_from_params
from cogevol.core.config import load_params
from cogevol.core.logs import setup_logging
from cogevol.scoring import ScoreItem, Scorers, ScoringSettings
from cogevol_samples.page_agreement import load_labels

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "data" / "probe_real"
RESULTS = ROOT / "benchmarks" / "results"


def _burn(stop) -> None:  # one core busy until told to stop
    n = 0
    while not stop.is_set():
        for _ in range(200_000):
            n += 1


async def score(labels: list[dict], params: dict) -> dict[str, dict]:
    items = [(lab["file"], (CORPUS / lab["file"]).read_text(encoding="utf-8", errors="replace"), lab["request"])
             for lab in labels]
    plans, _ = await ChecklistPlanner.plan_json(planner_from_params(params), [(req, "html") for _, _, req in items])
    batch = [ScoreItem("html", html, req, raw=True, checklist=plan) for (_, html, req), plan in zip(items, plans, strict=True)]
    async with Scorers(ScoringSettings.from_params({"probe": params.get("probe")}, 1)) as scorers:
        scores = await scorers.score(batch)
    return {name: {"reward": s.reward, "gate": s.gate, "reason": s.reason[:160], "seconds": s.details.get("seconds")}
            for (name, _, _), s in zip(items, scores, strict=True)}


def arm(labels: list[dict], params: dict, hogs: int) -> tuple[dict, float]:
    stop = mp.Event()
    procs = [mp.Process(target=_burn, args=(stop,), daemon=True) for _ in range(hogs)]
    for p in procs:
        p.start()
    t0 = time.perf_counter()
    try:
        out = asyncio.run(score(labels, params))
    finally:
        stop.set()
        for p in procs:
            p.join(5)
            if p.is_alive():
                p.terminate()
    return out, round(time.perf_counter() - t0, 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=None, help="first N pages of the corpus")
    ap.add_argument("--hogs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--params", default=str(ROOT / "params.yaml"))
    a = ap.parse_args()
    setup_logging()
    params = load_params(a.params)
    labels = load_labels(CORPUS / "labels.jsonl")[: a.limit]
    alone, wall_alone = arm(labels, params, 0)
    busy, wall_busy = arm(labels, params, a.hogs)
    rows, diffs = [], []
    for name in alone:
        x, y = alone[name], busy[name]
        d = abs((x["reward"] or 0) - (y["reward"] or 0))
        diffs.append(d)
        rows.append({"file": name, "alone": x, "hog": y, "diff": round(d, 4)})
    flips = [r for r in rows if (r["alone"]["gate"] == "fail") != (r["hog"]["gate"] == "fail")]
    report = {"pages": len(rows), "hogs": a.hogs, "hard_fail_flips": len(flips),
              "flips": [{"file": r["file"], "alone": r["alone"]["reason"], "hog": r["hog"]["reason"]} for r in flips],
              "max_reward_diff": round(max(diffs), 4), "mean_reward_diff": round(sum(diffs) / len(diffs), 4),
              "over_0.05": sum(d > 0.05 for d in diffs), "wall_s": {"alone": wall_alone, "hog": wall_busy}}
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "probe_load.json").write_text(json.dumps(report | {"rows": rows}, indent=1, ensure_ascii=False) + "\n")
    print(json.dumps(report, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
