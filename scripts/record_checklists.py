#!/usr/bin/env python
"""Plan checklists on a live planner endpoint and write them as a replay file (issue 23).

The embedded default plans from data/checklists/replay.jsonl (checklist.source: replay), whose
125 replies were written by hand to the planner's prompt (author "hand"). To extend it to other
prompts, or to freeze a GPU-profile planner's plans so that a CPU run replays them (author: the
model), point `checklist` at the endpoint and record:

    python scripts/record_checklists.py --prompts data/curated/prompts/prompts.jsonl \\
        --out data/checklists/replay.jsonl -S base_url=http://127.0.0.1:8001/v1 -S model=Qwen/Qwen3-32B

Requests already in --out are kept as they are (a plan, once frozen, does not move); a request
the endpoint could not plan is reported and left out (the rules plan it at stage time).
--prompts takes prompts.jsonl records ({"prompt", "category"}) or suite items ({"prompt", "kind"}).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import yaml

from cogevol.checklist.planner import (
    PlannerConfig,
    plan_checklists,
    plan_key,
    read_replay,
    replay_line,
)
from cogevol.core.config import from_dict, load_params
from cogevol.core.logs import setup_logging


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--prompts", nargs="+", required=True, help="JSONL files of prompts or suite items")
    ap.add_argument("--out", required=True, help="the replay file to extend")
    ap.add_argument("-S", dest="overrides", action="append", default=[], help="checklist.KEY=VALUE (YAML value)")
    a = ap.parse_args()
    setup_logging()
    params = dict(load_params().get("checklist") or {})
    for kv in a.overrides:
        k, _, v = kv.partition("=")
        params[k] = yaml.safe_load(v)
    cfg = from_dict(PlannerConfig, {**params, "source": "openai"})
    out = Path(a.out)
    have = read_replay(out) if out.exists() else {}
    items = []
    for path in a.prompts:
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            if line.strip():
                r = json.loads(line)
                modality = "slide" if (r.get("kind") or r.get("category")) == "slide" else "html"
                if plan_key(r["prompt"], modality) not in have:
                    items.append((r["prompt"], modality))
    items = list(dict.fromkeys(items))
    plans, stats = plan_checklists(cfg, items)
    lines = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines() if x.strip()] if out.exists() else []
    lines += [replay_line(q, m, p, cfg.model) for (q, m), p in zip(items, plans) if p.source == "llm"]
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in sorted(lines, key=lambda x: x["key"])), encoding="utf-8")
    print(json.dumps({"planned": len(items), **stats, "replay_lines": len(lines)}), file=sys.stderr)
    return 0 if stats.get("llm", 0) == len(items) else 1


if __name__ == "__main__":
    sys.exit(main())
