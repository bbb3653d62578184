"""Execute every candidate the way distill does and check it is judged the way its label says.

HTML: the extracted document through `cogevol probe`; good pages must be admitted (not
hard-failed, reward >= params.yaml distill.html_min_reward), the hard-fail defects hard-failed,
`mobile_break` low on reward with a viewport_mobile defect. Slides: `cogevol slide-score`; good
decks valid with rule_score >= plans.yaml verify.slide_min_rules, defective ones invalid or below.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from cogevol.core.config import load_params
from cogevol.scoring.extract import extract_html

from .data import ROOT, plans

GOOD = ("good", "compact")  # answers that must be admitted; the rest carry a defect


def summary(records: list[dict]) -> dict:
    prompts = {(r["prompt_id"], r["modality"], r["subcategory"]) for r in records}
    return {
        "records": len(records),
        "prompts": len(prompts),
        "prompts_by_category": dict(sorted(Counter(f"{m}/{s}" for _, m, s in prompts).items())),
        "candidates_by_intended": dict(sorted(Counter(f"{r['modality']}:{r['intended']}" for r in records).items())),
        "good": sum(r["intended"] in GOOD for r in records),
        "defective": sum(r["intended"] not in GOOD for r in records),
        "bytes": sum(len(json.dumps(r, ensure_ascii=False).encode()) + 1 for r in records),
    }


def artifact(rec: dict) -> str:
    """What distill executes: the HTML document, or the slide answer as written."""
    if rec["modality"] == "html":
        return extract_html(rec["response"]) or ""
    return rec["response"]


def dump(records: list[dict], out: Path) -> list[tuple[dict, Path]]:
    out.mkdir(parents=True, exist_ok=True)
    files = []
    for r in records:
        ext = "html" if r["modality"] == "html" else "txt"
        path = out / f"{r['prompt_id']}__{r['teacher']}__{r['candidate']}__{r['intended']}.{ext}"
        path.write_text(artifact(r), encoding="utf-8")
        files.append((r, path))
    return files


def _cli(args: list[str]) -> list[dict]:
    exe = ROOT / ".venv/bin/cogevol"
    cmd = [str(exe) if exe.exists() else "cogevol", *args]
    run = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
    out = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
    if run.returncode:
        print(run.stderr[-2000:], file=sys.stderr)
    return out


def judge(rec: dict, res: dict, html_min_reward: float, slide_min_rules: float) -> tuple[str, bool]:
    """(outcome, matches the label) for one executed candidate."""
    if rec["modality"] == "html":
        if res.get("harness_error"):
            return "harness_error", False
        if res["hard_fail"]:
            outcome = "hard_fail"
        else:
            outcome = "admitted" if res["reward"] >= html_min_reward else "low_reward"
        if rec["intended"] in GOOD:
            return outcome, outcome == "admitted"
        if rec["intended"] in plans()["verify"]["hard_fail"]:
            return outcome, outcome == "hard_fail"
        # mobile_break: renders and works, loses reward on the viewport terms
        terms = res.get("terms", {})
        return outcome, outcome == "low_reward" and terms.get("viewport_mobile", 0) > 0
    if not res.get("valid"):
        return "invalid", rec["intended"] not in GOOD
    outcome = f"rules>={slide_min_rules}" if res["rule_score"] >= slide_min_rules else f"rules<{slide_min_rules}"
    return outcome, (res["rule_score"] >= slide_min_rules) == (rec["intended"] in GOOD)


def verify(records: list[dict]) -> int:
    html_min_reward = load_params(os.environ.get("COGEVOL_PARAMS") or ROOT / "params.yaml")["distill"]["html_min_reward"]
    slide_min_rules = plans()["verify"]["slide_min_rules"]
    with tempfile.TemporaryDirectory(prefix="replay-verify-") as tmp:
        files = dump(records, Path(tmp))
        by_path = {str(p): r for r, p in files}
        html = [str(p) for r, p in files if r["modality"] == "html"]
        slides = [str(p) for r, p in files if r["modality"] == "slide"]
        results = []
        if html:
            results += _cli(["probe", "--workers", "1", *html])
        if slides:
            results += _cli(["slide-score", *slides])
    table: Counter = Counter()
    bad = []
    seen = set()
    for res in results:
        rec = by_path[res["path"]]
        seen.add(res["path"])
        outcome, ok = judge(rec, res, html_min_reward, slide_min_rules)
        table[(rec["modality"], rec["intended"], outcome)] += 1
        score = res.get("reward") if rec["modality"] == "html" else res.get("rule_score")
        line = (f"{rec['prompt_id']} {rec['teacher']}#{rec['candidate']} {rec['modality']}/{rec['subcategory']} "
                f"{rec['intended']}: {outcome} score={score} {res.get('seconds')}s {res.get('reason', '')[:110]}")
        print(("   " if ok else "!! ") + line)
        if not ok:
            bad.append(line)
    for path in set(by_path) - seen:
        bad.append(f"{path}: no result")
    print("\n| modality | intended | outcome | candidates |\n| --- | --- | --- | --- |")
    for (m, i, o), n in sorted(table.items()):
        print(f"| {m} | {i} | {o} | {n} |")
    print(f"\n{len(results) - len(bad)}/{len(records)} candidates judged as labelled")
    for line in bad:
        print("MISMATCH", line)
    return 1 if bad else 0
