"""Probe speed on the labelled corpus: pages/s with 1, 2 and 4 workers, p50 per page, the cost of an
infinite-loop page, and the ratio against launching a fresh browser per page.

Targets (issue 3): corpus in <= 40 s on 2 cores, p50 <= 1 s, an infinite loop <= 5 s.
Run: python benchmarks/probe_speed.py [--workers 1 2 4]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import time
from pathlib import Path

from cogevol.browser.pool import BrowserConfig, BrowserPool
from cogevol.probe.core import probe_html
from cogevol.scoring import ScoringSettings
from cogevol.scoring.local import score_pages

ROOT = Path(__file__).resolve().parents[1]

CORPUS = ROOT / "tests" / "probe" / "corpus"


async def fresh_browser_per_page(items) -> float:
    t = time.perf_counter()
    for _, html in items:
        async with BrowserPool(BrowserConfig(instances=1)) as pool:
            await probe_html(pool, html)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "probe_speed.json"))
    a = ap.parse_args()
    items = [(p.name, p.read_text()) for p in sorted(CORPUS.glob("*.html"))]
    res = {"machine": f"{os.cpu_count()} cores", "pages": len(items), "runs": {}}
    for w in a.workers:
        t = time.perf_counter()
        rows = asyncio.run(score_pages(items, ScoringSettings(workers=w)))
        wall = time.perf_counter() - t
        secs = [r["seconds"] for r in rows]
        res["runs"][str(w)] = {"wall_s": round(wall, 1), "pages_per_s": round(len(items) / wall, 2),
                               "p50_s": round(statistics.median(secs), 2), "p90_s": round(sorted(secs)[int(0.9 * len(secs))], 2),
                               "infinite_loop_s": next(r["seconds"] for r in rows if r["path"] == "render_infinite_loop.html")}
        print(w, res["runs"][str(w)], flush=True)
    pooled = res["runs"]["1"]["wall_s"] if "1" in res["runs"] else None
    fresh = asyncio.run(fresh_browser_per_page(items))
    res["fresh_browser_per_page"] = {"wall_s": round(fresh, 1), "ratio_vs_pool_1_worker": round(fresh / pooled, 2) if pooled else None}
    best = min(r["wall_s"] for r in res["runs"].values())
    res["meets_40s"] = best <= 40
    Path(a.out).write_text(json.dumps(res, indent=2) + "\n")
    print(json.dumps(res, indent=2))


if __name__ == "__main__":
    main()
