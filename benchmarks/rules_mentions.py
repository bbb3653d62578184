"""What the rules planner names in real requests: the mentions it plans, per language, most frequent first.

Every request of the taxonomy slices (data/taxonomy), WebGen-Bench's test set
(../shared/data/webgen-bench, when present) and the mined traffic sample (data/raw/traffic, the
first user turn of each conversation) is planned by `plan_rules`. The most frequent mentions of
each language are where request vocabulary leaks into the topic ("ich", "besoin", "我叫"): a
mention no page shows costs every page of its request alike and dilutes the subject. To compare
two commits, run it in each (`git worktree add /tmp/base REV`, then `PYTHONPATH=/tmp/base python
benchmarks/rules_mentions.py --out /tmp/base.json`).

Run: python benchmarks/rules_mentions.py [--top 30] [--out benchmarks/results/rules_mentions.json]
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter, defaultdict
from pathlib import Path

from cogevol.checklist.rules import plan_rules

ROOT = Path(__file__).resolve().parents[1]


def requests() -> list[str]:
    out: list[str] = []
    for part in ("slice_dev", "slice_test"):
        for line in (ROOT / "data" / "taxonomy" / f"{part}.jsonl").read_text(encoding="utf-8").splitlines():
            out.append(json.loads(line)["request"])
    webgen = ROOT.parent / "shared" / "data" / "webgen-bench" / "test.jsonl"
    if webgen.exists():
        out += [json.loads(line)["instruction"] for line in webgen.read_text(encoding="utf-8").splitlines()]
    seen = set(out)
    with open(ROOT / "data" / "raw" / "traffic" / "part-000.jsonl", "rb") as f:
        for raw in f:
            try:  # the sample keeps the malformed lines the miner quarantines
                row = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError):
                continue
            turn = next((m for m in (row.get("messages") or []) if isinstance(m, dict) and m.get("role") == "user"), None) \
                if isinstance(row, dict) else None
            text = turn.get("content") if turn else None
            if isinstance(text, str) and text not in seen:
                seen.add(text)
                out.append(text)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "rules_mentions.json"))
    a = ap.parse_args()
    reqs = requests()
    t0 = time.perf_counter()
    per_lang: dict[str, Counter] = defaultdict(Counter)
    n_requests: Counter = Counter()
    for r in reqs:
        plan = plan_rules(r)
        n_requests[plan.language] += 1
        per_lang[plan.language].update(c.value for c in plan.checks if c.check == "mentions")
    seconds = time.perf_counter() - t0
    result = {
        "requests": len(reqs),
        "mentions": sum(sum(c.values()) for c in per_lang.values()),
        "seconds": round(seconds, 2),
        "languages": {
            lang: {"requests": n_requests[lang], "mentions": sum(c.values()), "top": c.most_common(a.top)}
            for lang, c in sorted(per_lang.items())
        },
    }
    Path(a.out).write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"rules_mentions: {result['requests']} requests, {result['mentions']} mentions, {seconds:.1f} s")
    for lang, v in result["languages"].items():
        top = ", ".join(f"{w} {n}" for w, n in v["top"][:12])
        print(f"  {lang}: {v['requests']} requests, {v['mentions']} mentions; {top}")


if __name__ == "__main__":
    main()
