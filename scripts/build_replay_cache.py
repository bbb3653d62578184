#!/usr/bin/env python
"""Write data/teachers/replay.jsonl: the committed teacher answers the embedded default replays.

The CPU profile has no teacher model, so `distill` replays answers we wrote (teachers `replay-a`
and `replay-b`, up to two candidates each per prompt). They are built from the data files under
data/teachers/ (plans.yaml: which prompts and which candidates; lessons.yaml; templates/), tailored
to each chosen prompt (its language, app, requested features, colour, topic), and deliberately
mix good answers with the defects production models really make, so that distill's executed
admission has something to reject:

  html   good | dead_control | static_shell | script_error | self_running_dead | mobile_break
  slide  good | overlap | overflow | tiny_font | broken_chart | invalid_missing_field | invalid_json_prose

Deterministic: no clock, no unseeded randomness; rerunning gives the same bytes.

    python scripts/build_replay_cache.py            # write data/teachers/replay.jsonl
    python scripts/build_replay_cache.py --verify   # ... then probe / slide-score every candidate
    python scripts/build_replay_cache.py --dump DIR # also write each candidate's artifact to DIR

See data/teachers/README.md for the format, the prompt selection rule and the verification table.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from replay.candidates import html_candidate, html_response
from replay.compact import compact_response
from replay.data import ROOT
from replay.prompts import select_plans
from replay.slides import slide_response
from replay.verify import dump, summary, verify

PROMPTS = ROOT / "data/curated/prompts/prompts.jsonl"
OUT = ROOT / "data/teachers/replay.jsonl"


def build(prompts: Path = PROMPTS, only: set[str] | None = None) -> list[dict]:
    records = []
    for plan in select_plans(prompts):
        spec = plan.spec
        if only and spec.pid not in only:
            continue
        per_teacher: Counter = Counter()
        for n, (teacher, intended, variant) in enumerate(plan.answers):
            k = per_teacher[teacher]
            per_teacher[teacher] += 1
            if intended == "compact":
                response = compact_response(spec, plan.lesson)
            elif spec.modality == "html":
                response = html_response(spec, html_candidate(spec, spec.app, intended, variant, n), n)
            else:
                response = slide_response(spec.lang, plan.lesson, intended, variant, n)
            records.append({"teacher": teacher, "prompt_id": spec.pid, "modality": spec.modality,
                            "subcategory": spec.sub, "candidate": k, "request": spec.request,
                            "response": response, "intended": intended})
    records.sort(key=lambda r: (r["prompt_id"], r["teacher"], r["candidate"]))
    return records


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--prompts", default=str(PROMPTS), help="the curated prompts (the DVC filter stage's output)")
    ap.add_argument("--out", default=str(OUT))
    ap.add_argument("--only", nargs="*", help="prompt ids to build (debugging; the file then holds only those)")
    ap.add_argument("--dump", default=None, help="also write every candidate's artifact under this directory")
    ap.add_argument("--verify", action="store_true", help="probe / slide-score every candidate and check the labels")
    a = ap.parse_args(argv)
    records = build(Path(a.prompts), set(a.only) if a.only else None)
    out = Path(a.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8") as f:
        for r in records:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(json.dumps(summary(records), ensure_ascii=False, indent=1))
    if a.dump:
        dump(records, Path(a.dump))
    if a.verify:
        return verify(records)
    return 0


if __name__ == "__main__":
    sys.exit(main())
