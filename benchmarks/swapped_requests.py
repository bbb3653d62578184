"""The swap test (issue 23): does the reward pay more for an answer to the request it was given
than for the same answer read as the answer to another request of the same kind?

Two sets: the real-page corpus (data/probe_real: each page with its own request, and with the
next request of the same kind, expects alike), and the teacher answers of the committed replay
file (data/teachers/replay.jsonl, the `good` and `compact` candidates that distill admits: pages
and decks, each swapped with the next prompt of the same modality and subcategory). Every item
is scored twice through the real scorers; the figure is the share of answers whose own request
scores strictly higher, over all answers and over those that pass their own request's gate (a
page broken for every request ties at 0 whatever it answers). Logged to MLflow as part of the
`agreement` run; the JSON goes to benchmarks/results/swapped_requests.json.

Run: python benchmarks/swapped_requests.py [--workers 1] [--limit N]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from collections import defaultdict
from pathlib import Path

from cogevol.checklist.planner import ChecklistPlanner, PlannerConfig, planner_from_params
from cogevol.core.config import load_params
from cogevol.core.logs import setup_logging
from cogevol.core.progress import Progress
from cogevol.pipeline.tracking import stage_run
from cogevol.scoring import ScoreItem, Scorers, ScoringSettings
from cogevol_samples.page_agreement import load_labels

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "data" / "probe_real"
REPLAY = ROOT / "data" / "teachers" / "replay.jsonl"
RESULTS = ROOT / "benchmarks" / "results"


def swapped(groups: dict[str, list[str]]) -> dict[str, str]:
    """Each request -> the next request of its group (requests of one kind, in sorted order)."""
    out = {}
    for reqs in groups.values():
        reqs = sorted(set(reqs))
        for k, r in enumerate(reqs):
            if len(reqs) > 1:
                out[r] = reqs[(k + 1) % len(reqs)]
    return out


def real_pages(limit: int | None) -> list[dict]:
    labels = load_labels(CORPUS / "labels.jsonl")
    groups = defaultdict(list)
    for lab in labels:
        groups[",".join(sorted(lab["expects"]))].append(lab["request"])
    other = swapped(groups)
    rows = [{"set": "real_pages", "id": lab["file"], "modality": "html", "raw": True, "own": lab["request"], "swap": other[lab["request"]],
             "text": (CORPUS / lab["file"]).read_text(encoding="utf-8", errors="replace")} for lab in labels if lab["request"] in other]
    return rows[:limit] if limit else rows


def teacher_answers(limit: int | None) -> list[dict]:
    recs = [json.loads(line) for line in REPLAY.read_text(encoding="utf-8").splitlines() if line.strip()]
    recs = [r for r in recs if r.get("intended") in ("good", "compact")]
    groups = defaultdict(list)
    for r in recs:
        groups[f"{r['modality']}/{r['subcategory']}"].append(r["request"])
    other = swapped(groups)
    rows = [{"set": "teacher_answers", "id": f"{r['prompt_id']}#{r['candidate']}", "modality": r["modality"], "raw": False,
             "own": r["request"], "swap": other[r["request"]], "text": r["response"]} for r in recs if r["request"] in other]
    return rows[:limit] if limit else rows


async def score_both(rows: list[dict], workers: int, params: dict, planner: PlannerConfig) -> list[dict]:
    pairs = [(req, r["modality"]) for r in rows for req in (r["own"], r["swap"])]
    plans, stats = await ChecklistPlanner.plan_json(planner, pairs)
    print(f"swapped_requests: checklists {stats}")
    items = [ScoreItem(r["modality"], r["text"], req, raw=r["raw"], checklist=plans[2 * j + k])
             for j, r in enumerate(rows) for k, req in enumerate((r["own"], r["swap"]))]
    progress = Progress("swapped_requests: answers x 2 requests", total=len(items), unit="items")
    scores: list = [None] * len(items)
    async with Scorers(ScoringSettings.from_params(params, workers)) as scorers:
        async for k, s in scorers.stream(items):
            scores[k] = s
            progress.update(1)
    progress.done()
    out = []
    for j, r in enumerate(rows):
        own, swap = scores[2 * j], scores[2 * j + 1]
        out.append({"set": r["set"], "id": r["id"], "modality": r["modality"], "own_request": r["own"][:120], "swap_request": r["swap"][:120],
                    "own_reward": own.reward, "swap_reward": swap.reward, "own_gate": own.gate, "swap_gate": swap.gate,
                    "swap_reason": swap.reason[:400], "own_subject": (own.details or {}).get("subject"),
                    "swap_subject": (swap.details or {}).get("subject")})
    return out


def summarise(rows: list[dict]) -> dict:
    def share(sub: list[dict]) -> dict:
        higher = sum((r["own_reward"] or 0) > (r["swap_reward"] or 0) for r in sub)
        ties = sum((r["own_reward"] or 0) == (r["swap_reward"] or 0) for r in sub)
        n = len(sub)
        mean = (lambda k: round(sum(r[k] or 0 for r in sub) / n, 4)) if n else (lambda k: None)
        return {"answers": n, "own_higher": higher, "ties": ties, "own_lower": n - higher - ties,
                "share_own_higher": round(higher / n, 4) if n else None, "mean_own": mean("own_reward"), "mean_swap": mean("swap_reward")}

    out = {}
    for name in sorted({r["set"] for r in rows}):
        sub = [r for r in rows if r["set"] == name]
        out[name] = {"all": share(sub), "passing_own_gate": share([r for r in sub if r["own_gate"] == "pass"])}
        for m in sorted({r["modality"] for r in sub}):
            out[name][m] = share([r for r in sub if r["modality"] == m and r["own_gate"] == "pass"])
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--limit", type=int, default=None, help="answers per set (a quick look)")
    ap.add_argument("--params", default=str(ROOT / "params.yaml"))
    ap.add_argument("--checklists", choices=("params", "rules"), default="params",
                    help="who plans the requests' checklists: params.yaml's `checklist` (default) or the rules only")
    a = ap.parse_args()
    setup_logging()
    params = load_params(a.params)
    t0 = time.perf_counter()
    rows = asyncio.run(score_both(real_pages(a.limit) + teacher_answers(a.limit), a.workers, params,
                                  planner_from_params(params, rules_only=a.checklists == "rules")))
    report = {"summary": summarise(rows), "wall_s": round(time.perf_counter() - t0, 1), "workers": a.workers,
              "checklists": a.checklists}
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "swapped_requests.json").write_text(json.dumps({**report, "rows": rows}, indent=1, ensure_ascii=False) + "\n")
    print(json.dumps(report, indent=1))
    with stage_run("agreement", {"swapped_requests": {"sets": sorted(report["summary"]), "checklists": a.checklists}}) as run:
        run.log_metrics({f"swap.{name}.{part}": v["share_own_higher"] for name, s in report["summary"].items()
                         for part, v in s.items() if v["share_own_higher"] is not None})
        run.log_dict(report, "agreement/swapped_requests.json")
        run.log_table(rows, "agreement/swapped_requests_table.json")


if __name__ == "__main__":
    main()
