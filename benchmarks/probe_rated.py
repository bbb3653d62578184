"""The HTML reward on a rated set of pages you hold: gate errors and ranking against your scores.

For pages we may not redistribute (a benchmark's outputs under a licence that forbids it, a
team's held-out set): every page of DIR answers the request in REQUEST (a text file), SCORES maps
page file names to a person's score (any scale; 0 means "does not work": the gate should fail
it). The pages are probed through the real scorers with params.yaml's settings, the checklist
planned as params.yaml says (an unseen request: the rules), and the report is the real-page
corpus's (cogevol_samples.page_agreement): false hard fails, pair agreement, Spearman, with the
pages' verdicts listed worst disagreement first.

Run: python benchmarks/probe_rated.py --pages DIR --request REQUEST.txt --scores SCORES.json
         [--workers 1] [--out report.json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path

from cogevol.checklist.planner import planner_from_params
from cogevol.core.config import load_params
from cogevol.core.logs import setup_logging
from cogevol_samples.page_agreement import agreement_report, probe_corpus

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", required=True, help="folder of the rated pages (.html)")
    ap.add_argument("--request", required=True, help="text file: the request every page answers")
    ap.add_argument("--scores", required=True, help='JSON object {"page.html": score, ...}')
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--params", default=str(ROOT / "params.yaml"))
    ap.add_argument("--out", help="write the report (JSON) here")
    a = ap.parse_args()
    setup_logging()
    scores = json.loads(Path(a.scores).read_text(encoding="utf-8"))
    pages = sorted(p for p in Path(a.pages).glob("*.html") if p.name in scores)
    missing = sorted(set(scores) - {p.name for p in pages})
    if missing:
        raise SystemExit(f"probe_rated: scored but not in {a.pages}: {', '.join(missing[:5])}")
    request = Path(a.request).read_text(encoding="utf-8").strip()
    params = load_params(a.params)
    labels = [{"file": p.name, "request": request} for p in pages]
    records = asyncio.run(probe_corpus(labels, a.workers, params, planner_from_params(params), Path(a.pages)))
    rows = [{**records[p.name], "file": p.name, "request_id": Path(a.request).stem, "grade": scores[p.name],
             "should_pass": scores[p.name] > 0, "reward": records[p.name].get("reward") or 0.0} for p in pages]
    report = agreement_report(rows)
    # the pages whose reward disagrees most with their score's rank, first
    top, low = max(r["grade"] for r in rows), min(r["grade"] for r in rows)
    span = (top - low) or 1
    report["pages_by_disagreement"] = [
        {"file": r["file"], "score": r["grade"], "reward": r["reward"], "reason": r.get("reason", "")[:200]}
        for r in sorted(rows, key=lambda r: -abs((r["grade"] - low) / span - r["reward"]))
    ]
    print(json.dumps({k: v for k, v in report.items() if k != "pages_by_disagreement"}, indent=1))
    for p in report["pages_by_disagreement"][:10]:
        print(f"  {p['score']:>6} {p['reward']:.3f} {p['file'][:60]} | {p['reason'][:120]}")
    if a.out:
        Path(a.out).write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
