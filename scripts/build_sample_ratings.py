"""Writes data/eval/ratings/ (sample.jsonl + artifacts/) from the teacher replay file.

These are SAMPLE ratings for the embedded default: the score of each artifact is assigned from
what we know about how it was built (data/teachers/replay.jsonl `intended`: a working page, dead
controls, a layout that breaks on phones, overlapping slide boxes, ...), on a 1-5 scale, by the
maintainers. They exercise the ratings format, `cogevol agreement` and the MLflow dashboard; they
are not independent human judgments and say nothing about how well the reward agrees with people.
Run: python scripts/build_sample_ratings.py
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "data" / "eval" / "ratings"
SCORE = {  # intended construction -> sample rating (1 = useless, 5 = excellent)
    ("html", "good"): 4, ("html", "mobile_break"): 3, ("html", "dead_control"): 2,
    ("html", "self_running_dead"): 2, ("html", "static_shell"): 1, ("html", "script_error"): 1,
    ("slide", "good"): 4, ("slide", "tiny_font"): 3, ("slide", "overflow"): 2, ("slide", "overlap"): 2,
    ("slide", "broken_chart"): 2, ("slide", "invalid_json_prose"): 1, ("slide", "invalid_missing_field"): 1,
}
PER_GROUP = {"good": 2}  # good artifacts per (modality, subcategory); every defect kind: up to 3
_FENCE = re.compile(r"```(?:html|json)?\s*\n(.*?)```", re.S)


def main() -> None:
    rows = [json.loads(line) for line in (ROOT / "data" / "teachers" / "replay.jsonl").read_text().splitlines()]
    picked, count = [], defaultdict(int)
    for r in rows:
        key = (r["modality"], r["subcategory"] if r["intended"] == "good" else r["intended"])
        limit = PER_GROUP.get(r["intended"], 3)
        if (r["modality"], r["intended"]) in SCORE and count[key] < limit:
            count[key] += 1
            picked.append(r)
    (OUT / "artifacts").mkdir(parents=True, exist_ok=True)
    for old in (OUT / "artifacts").iterdir():
        old.unlink()
    with (OUT / "sample.jsonl").open("w", encoding="utf-8") as f:
        for r in picked:
            m = _FENCE.search(r["response"])
            body = m.group(1) if m and r["modality"] == "html" else r["response"]
            ext = "html" if r["modality"] == "html" else "json"
            name = f"artifacts/{r['prompt_id']}__{r['teacher']}__{r['candidate']}.{ext}"
            (OUT / name).write_text(body, encoding="utf-8")
            f.write(json.dumps({"artifact": name, "human_score": SCORE[r["modality"], r["intended"]],
                                "rater": "maintainers-sample", "kind": r["modality"]}) + "\n")
    print(f"{len(picked)} rated artifacts in {OUT}")


if __name__ == "__main__":
    main()
