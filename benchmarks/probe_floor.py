"""The reward's floor on what small models really write (issue 57): is junk zeroed, and are fair
and good pages left alone?

data/probe_floor holds small models' answers (SmolLM2-135M-Instruct generated here, the tiny
default student at base and after SFT, public pages by 1B-8B models) labelled by hand broken /
poor / fair / good. The halves are split by source and so by request
(cogevol_samples/halves.py, issue 66): the `tune` half (the eval suite's requests and the public
pages') may be looked at while building the checks, the `held` half (the test slice's, the
language tasks' and the CS-concept template's requests) is scored only at the end; no held
answer shares its request with a tuned one (the labels' own per-item `half` did: 38 of 60).
Each answer is scored through the real scorers against its request (a `.txt` answer
as the model wrote it: the scorer extracts the page). Reported per half and in all:

- caught: the share of broken and of poor answers that are hard-failed or get reward <= 0.3;
- false hard fails: fair and good answers hard-failed;
- pair agreement over pairs with different labels (broken < poor < fair < good; a reward tie
  counts one half), and Spearman of reward against the label's rank;
- hard fails by reason id (format.*, substance.empty, gate.*).

Run: python benchmarks/probe_floor.py [--workers 1] [--half tune|held|all]
     [--records benchmarks/results/probe_floor_records.jsonl]
Writes benchmarks/results/probe_floor.json and probe_floor_records.jsonl (with --half tune:
probe_floor_tune.json, and so on).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from collections import Counter
from itertools import combinations
from pathlib import Path

from scipy.stats import spearmanr

from cogevol.checklist.planner import planner_from_params
from cogevol.core.config import load_params
from cogevol.core.logs import setup_logging
from cogevol_samples.halves import floor_source, half_of
from cogevol_samples.page_agreement import probe_corpus, reading_hard_fails

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "data" / "probe_floor"
RESULTS = ROOT / "benchmarks" / "results"
RANK = {"broken": 0, "poor": 1, "fair": 2, "good": 3}
CAUGHT_AT = 0.3  # the line: a hard fail, or a reward at most this


def caught(r: dict) -> bool:
    return bool(r["hard_fail"]) or (r["reward"] or 0.0) <= CAUGHT_AT


def figures(rows: list[dict]) -> dict:
    """The floor's figures for a set of scored, labelled answers."""
    by = {k: [r for r in rows if r["label"] == k] for k in RANK}
    share = lambda xs, f: round(sum(map(f, xs)) / len(xs), 4) if xs else None  # noqa: E731
    fine = by["fair"] + by["good"]
    pairs = [(a, b) for a, b in combinations(rows, 2) if RANK[a["label"]] != RANK[b["label"]]]
    agree = 0.0
    for a, b in pairs:
        lo, hi = (a, b) if RANK[a["label"]] < RANK[b["label"]] else (b, a)
        agree += 1.0 if hi["reward"] > lo["reward"] else 0.5 if hi["reward"] == lo["reward"] else 0.0
    rho = spearmanr([RANK[r["label"]] for r in rows], [r["reward"] for r in rows]).statistic if len(rows) > 2 else None
    return {
        "answers": len(rows),
        "labels": {k: len(v) for k, v in by.items()},
        "broken_caught": share(by["broken"], caught),
        "poor_caught": share(by["poor"], caught),
        "false_hard_fails": sum(bool(r["hard_fail"]) for r in fine),
        "fair_or_good": len(fine),
        "false_hard_fail_rate": share(fine, lambda r: bool(r["hard_fail"])),
        "false_hard_fail_rate_good": share(by["good"], lambda r: bool(r["hard_fail"])),
        "pair_agreement": round(agree / len(pairs), 4) if pairs else None,
        "pairs": len(pairs),
        "spearman": None if rho is None or rho != rho else round(float(rho), 4),
        "hard_fails_by_reason": dict(sorted(Counter(r.get("reason_id") or "none" for r in rows if r["hard_fail"]).items())),
        # hard fails only the request's reading makes, right when a person labelled the answer broken or poor
        "reading_hard_fails": reading_hard_fails(rows, lambda r: r["label"] in ("broken", "poor")),
        "mean_reward": {k: round(sum(r["reward"] for r in v) / len(v), 4) if v else None for k, v in by.items()},
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--records", help="reuse the records of an earlier run (JSONL) instead of scoring")
    ap.add_argument("--params", default=str(ROOT / "params.yaml"))
    ap.add_argument("--half", choices=("tune", "held", "all"), default="all",
                    help="score one half only (tune: while building the checks; held: once, at the end)")
    a = ap.parse_args()
    setup_logging()
    params = load_params(a.params)
    labels = [json.loads(line) for line in (CORPUS / "labels.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    for lab in labels:  # by source and request, not the per-item split the labels carry
        lab["half"] = half_of(floor_source(lab))
    labels = [lab for lab in labels if a.half in ("all", lab["half"])]
    name = "probe_floor" if a.half == "all" else f"probe_floor_{a.half}"
    t0 = time.perf_counter()
    if a.records:
        records = {r["path"]: r for r in map(json.loads, Path(a.records).read_text().splitlines())}
    else:
        records = asyncio.run(probe_corpus(labels, a.workers, params, planner_from_params(params, rules_only=True), CORPUS))
        RESULTS.mkdir(parents=True, exist_ok=True)
        with (RESULTS / f"{name}_records.jsonl").open("w") as f:
            for lab in labels:
                f.write(json.dumps(records[lab["file"]], ensure_ascii=False) + "\n")
    wall = time.perf_counter() - t0
    rows = [{**records[lab["file"]], **lab, "reward": records[lab["file"]].get("reward") or 0.0} for lab in labels]
    report = {
        "corpus": str(CORPUS.relative_to(ROOT)),
        "all": figures(rows),
        **{half: figures([r for r in rows if r["half"] == half]) for half in ("tune", "held") if a.half in ("all", half)},
        "misses": [
            {"id": r["id"], "half": r["half"], "label": r["label"], "reward": r["reward"], "reason_id": r.get("reason_id"),
             "reason": (r.get("reason") or "")[:160]}
            for r in rows
            if (r["label"] in ("broken", "poor") and not caught(r)) or (r["label"] in ("fair", "good") and r["hard_fail"])
        ],
        "wall_s": round(wall, 1),
        "workers": a.workers,
    }
    (RESULTS / f"{name}.json").write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    for half in [h for h in ("tune", "held", "all") if h in report]:
        f = report[half]
        print(f"{half:5s} n={f['answers']} {f['labels']}: broken caught {f['broken_caught']}, poor caught {f['poor_caught']}, "
              f"false hard fails {f['false_hard_fails']}/{f['fair_or_good']}, pair agreement {f['pair_agreement']}, Spearman {f['spearman']}")
    print("misses:")
    for m in report["misses"]:
        print("  ", m)


if __name__ == "__main__":
    main()
