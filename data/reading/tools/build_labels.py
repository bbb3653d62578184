"""Write data/reading/labels.jsonl: the judged requests (tools/judgements.jsonl) and the
expectations of data/probe_real's requests, one row per distinct request, each with its half.

The split is by source, and so by request (cogevol_samples/halves.py): every source goes wholly
to one half, and a request that several sources hold (the floor corpus reuses the eval suite's,
the test slice's and the language tasks' requests; probe_real and the floor both hold
LocalLLM_VisualCodeTest's) lands where all of them are. Tune: what the rules may be calibrated
on; held: scored only by benchmarks/reading.py.

Run: python data/reading/tools/build_labels.py
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from cogevol_samples.halves import half_of

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent
ROOT = CORPUS.parents[1]


def key(request: str) -> str:
    return re.sub(r"\s+", " ", request.strip().lower())


def main() -> None:
    rows = [json.loads(line) for line in (HERE / "judgements.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    seen: set[str] = set()
    for lab in map(json.loads, (ROOT / "data" / "probe_real" / "labels.jsonl").read_text(encoding="utf-8").splitlines()):
        if lab["request_id"] in seen:
            continue
        seen.add(lab["request_id"])
        rows.append({"id": f"real-{lab['request_id']}", "source": f"real:{lab['source']['repo']}",
                     "lang": lab.get("request_lang", ""), "request": lab["request"],
                     "interactive": "interactive" in lab["expects"], "animation": "animation" in lab["expects"],
                     "unsure": False, "why": "data/probe_real's expects label"})
    merged: dict[str, dict] = {}
    for r in rows:
        k = key(r["request"])
        if k in merged:
            m = merged[k]
            m["sources"] = sorted({*m["sources"], r["source"]})
            if (m["interactive"], m["animation"]) != (r["interactive"], r["animation"]):
                m["unsure"] = True  # two labels of one request disagree
            continue
        merged[k] = {**r, "sources": [r["source"]]}
    out = []
    for r in merged.values():
        halves = {half_of(s) for s in r["sources"]}
        if len(halves) > 1:
            raise SystemExit(f"{r['id']}: its sources {r['sources']} are in both halves")
        out.append({**r, "half": halves.pop()})
    (CORPUS / "labels.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in out), encoding="utf-8")
    for half in ("tune", "held"):
        part = [r for r in out if r["half"] == half]
        print(f"{half}: {len(part)} requests from {len({s for r in part for s in r['sources']})} sources, "
              f"{sum(r['unsure'] for r in part)} unsure")


if __name__ == "__main__":
    main()
