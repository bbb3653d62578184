"""The depth benchmark (issue 37): does the reward see past the first screen?

Each request in data/probe_depth/pairs.json is answered by a page that works all the way through
and by a copy whose controls past the first screen are dead (the same first screen: the copy is
made by the listed replacements). Both are scored through the real scorers against the request,
with the play-through on (params.yaml) and off (explore_depth 0, explore_controls 0: one pass
from the first screen, as before issue 37), in the same run. The figures: the share of pairs
whose full page scores strictly higher, and full pages hard-failed. Results go to
benchmarks/results/probe_depth.json.

Run: python benchmarks/probe_depth.py [--workers 1]
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import json
import time
from pathlib import Path

from cogevol.core.config import load_params
from cogevol.core.logs import setup_logging
from cogevol.scoring import ScoreItem, Scorers, ScoringSettings

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data" / "probe_depth"
RESULTS = ROOT / "benchmarks" / "results"


def pairs() -> list[dict]:
    """(id, request, full page, deeper-dead copy); a replacement that does not apply is an error
    (the copy would silently be the full page)."""
    out = []
    for p in json.loads((DATA / "pairs.json").read_text(encoding="utf-8"))["pairs"]:
        full = (DATA / "pages" / p["page"]).read_text(encoding="utf-8")
        dead = full
        for old, new in p["dead"]:
            if old not in dead:
                raise ValueError(f"{p['id']}: replacement not found: {old[:60]!r}")
            dead = dead.replace(old, new)
        out.append({"id": p["id"], "request": p["request"], "full": full, "dead": dead})
    return out


def explore_off(params: dict) -> dict:
    """The same params with the play-through off: one pass over the first screen."""
    p = copy.deepcopy(params)
    p["probe"]["harness"].update(explore_depth=0, explore_controls=0)
    return p


async def score(rows: list[dict], params: dict, workers: int) -> list:
    items = [ScoreItem("html", r[k], r["request"], raw=True) for r in rows for k in ("full", "dead")]
    async with Scorers(ScoringSettings.from_params(params, workers)) as scorers:
        return await scorers.score(items)


def summarise(rows: list[dict], scores: list) -> dict:
    out, n = [], len(rows)
    for j, r in enumerate(rows):
        full, dead = scores[2 * j], scores[2 * j + 1]
        out.append({"id": r["id"], "full": full.reward, "dead": dead.reward, "full_gate": full.gate,
                    "full_reason": full.reason[:200], "dead_reason": dead.reason[:200]})
    ahead = sum((x["full"] or 0) > (x["dead"] or 0) for x in out)
    return {"pairs": n, "full_ahead": ahead, "share_full_ahead": round(ahead / n, 4),
            "ties": sum((x["full"] or 0) == (x["dead"] or 0) for x in out),
            "full_hard_failed": sum(x["full_gate"] == "fail" for x in out), "rows": out}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--params", default=str(ROOT / "params.yaml"))
    a = ap.parse_args()
    setup_logging()
    params = load_params(a.params)
    rows = pairs()
    report = {}
    for arm, p in (("explore_on", params), ("explore_off", explore_off(params))):
        t0 = time.perf_counter()
        scores = asyncio.run(score(rows, p, a.workers))
        report[arm] = summarise(rows, scores) | {"wall_s": round(time.perf_counter() - t0, 1)}
        s = report[arm]
        print(f"{arm}: full ahead in {s['full_ahead']}/{s['pairs']}, ties {s['ties']}, "
              f"full hard-failed {s['full_hard_failed']}, {s['wall_s']} s")
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "probe_depth.json").write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
