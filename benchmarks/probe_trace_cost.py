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
import resource
import statistics
import time
from dataclasses import replace
from pathlib import Path

from cogevol.probe import ProbeConfig
from cogevol.scoring import ScoringSettings
from cogevol.scoring.local import score_pages

ROOT = Path(__file__).resolve().parents[1]


def cpu_s() -> float:
    """User + system seconds of this process and its reaped children (the Playwright driver
    and, through it, Chromium): steadier than wall time on a shared machine."""
    return sum(
        r.ru_utime + r.ru_stime
        for r in (resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN))
    )


def run(items: list[tuple[str, str]], trace: bool) -> tuple[float, float, list[dict]]:
    settings = replace(ScoringSettings(), probe=replace(ProbeConfig(), trace=trace))
    t0, c0 = time.perf_counter(), cpu_s()
    rows = asyncio.run(score_pages(items, settings))
    return time.perf_counter() - t0, cpu_s() - c0, rows


def paired(times: dict[str, list[float]]) -> list[float]:
    return [round(on / off, 3) for off, on in zip(times["off"], times["on"])]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=2, help="off/on pairs (the order alternates each round)")
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    corpus = ROOT / "tests" / "probe" / "corpus"
    labels = json.loads((corpus / "labels.json").read_text())
    items = [(n, (corpus / n).read_bytes().decode("utf-8")) for n in labels]
    walls: dict[str, list[float]] = {"off": [], "on": []}
    cpus: dict[str, list[float]] = {"off": [], "on": []}
    last: dict[str, list[dict]] = {}
    for k in range(a.rounds):
        for mode in ("off", "on") if k % 2 == 0 else ("on", "off"):
            wall, cpu, rows = run(items, mode == "on")
            walls[mode].append(round(wall, 2))
            cpus[mode].append(round(cpu, 2))
            last[mode] = rows
            print(f"round {k + 1}: tracing {mode}: {wall:.1f} s wall, {cpu:.1f} s cpu", flush=True)
    off, on = ({r["path"]: r for r in last[m]} for m in ("off", "on"))
    differ = [n for n in off if (off[n]["hard_fail"], off[n]["reward"]) != (on[n]["hard_fail"], on[n]["reward"])]
    traced = [r for r in on.values() if r.get("trace")]
    depths = [t["depth"] for r in traced for t in r["trace"]]
    res = {
        "pages": len(items),
        "rounds": a.rounds,
        "wall_s": walls,
        "cpu_s": cpus,
        # paired: each round's on / off (the two ran back to back), then the median over rounds
        "ratio_per_round": paired(walls),
        "ratio_median": round(statistics.median(paired(walls)), 3),
        "cpu_ratio_per_round": paired(cpus),
        "cpu_ratio_median": round(statistics.median(paired(cpus)), 3),
        "verdicts_differ": {n: {"off": (off[n]["hard_fail"], off[n]["reward"], off[n]["reason"][:100]),
                                "on": (on[n]["hard_fail"], on[n]["reward"], on[n]["reason"][:100])} for n in differ},
        "pages_with_trace": len(traced),
        "live_pages": sum(r["controls_live"] > 0 for r in on.values()),
        "live_untraced": sorted(n for n, r in on.items() if r["controls_live"] > 0 and not r.get("trace")),
        "spans": len(depths),
        "depth_histogram": {d: depths.count(d) for d in sorted(set(depths))},
        "trace_errors": sorted({r["trace_page"]["error"] for r in on.values() if (r.get("trace_page") or {}).get("error")}),
    }
    print(json.dumps(res, indent=2))
    if a.out:
        Path(a.out).write_text(json.dumps(res, indent=2) + "\n")


if __name__ == "__main__":
    main()
