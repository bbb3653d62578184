"""What tracing (probe.harness.trace, Action-Trace Credit's evidence) costs the probe, on the
48-page labelled corpus (tests/probe/corpus), 1 worker: rounds alternate tracing off and on in
one process, so the ratio is measured against a baseline in the same run on a noisy machine.

Also checked: the verdicts (gate and reward) with tracing on are those with it off, and how much
the traces hold (pages with a trace, spans, their depths).

    python benchmarks/probe_trace_cost.py --rounds 2 --out benchmarks/results/probe_trace_cost.json

Target (issue 26): tracing on costs at most +15% on this corpus; off, nothing changes (the off
rounds are the same code path as before: no CDP session is opened).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from dataclasses import replace
from pathlib import Path

from cogevol.probe import ProbeConfig
from cogevol.scoring import ScoringSettings
from cogevol.scoring.local import score_pages

ROOT = Path(__file__).resolve().parents[1]


def run(items: list[tuple[str, str]], trace: bool) -> tuple[float, list[dict]]:
    settings = replace(ScoringSettings(), probe=replace(ProbeConfig(), trace=trace))
    t0 = time.perf_counter()
    rows = asyncio.run(score_pages(items, settings))
    return time.perf_counter() - t0, rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=2, help="off/on pairs (the order alternates each round)")
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    corpus = ROOT / "tests" / "probe" / "corpus"
    labels = json.loads((corpus / "labels.json").read_text())
    items = [(n, (corpus / n).read_bytes().decode("utf-8")) for n in labels]
    walls: dict[str, list[float]] = {"off": [], "on": []}
    last: dict[str, list[dict]] = {}
    for k in range(a.rounds):
        for mode in ("off", "on") if k % 2 == 0 else ("on", "off"):
            wall, rows = run(items, mode == "on")
            walls[mode].append(round(wall, 2))
            last[mode] = rows
            print(f"round {k + 1}: tracing {mode}: {wall:.1f} s", flush=True)
    off, on = ({r["path"]: r for r in last[m]} for m in ("off", "on"))
    differ = [n for n in off if (off[n]["hard_fail"], off[n]["reward"]) != (on[n]["hard_fail"], on[n]["reward"])]
    traced = [r for r in on.values() if r.get("trace")]
    depths = [t["depth"] for r in traced for t in r["trace"]]
    res = {
        "pages": len(items),
        "rounds": a.rounds,
        "wall_s": walls,
        "ratio_median": round(statistics.median(walls["on"]) / statistics.median(walls["off"]), 3),
        "ratio_per_round": [round(b / a_, 3) for a_, b in zip(walls["off"], walls["on"])],
        "verdicts_differ": {n: {"off": (off[n]["hard_fail"], off[n]["reward"], off[n]["reason"][:100]),
                                "on": (on[n]["hard_fail"], on[n]["reward"], on[n]["reason"][:100])} for n in differ},
        "pages_with_trace": len(traced),
        "live_pages": sum(r["controls_live"] > 0 for r in on.values()),
        "spans": len(depths),
        "depth_histogram": {d: depths.count(d) for d in sorted(set(depths))},
        "trace_errors": sorted({r["trace_page"]["error"] for r in on.values() if (r.get("trace_page") or {}).get("error")}),
    }
    print(json.dumps(res, indent=2))
    if a.out:
        Path(a.out).write_text(json.dumps(res, indent=2) + "\n")


if __name__ == "__main__":
    main()
