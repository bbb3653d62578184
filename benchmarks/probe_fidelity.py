"""Counterfactual methods compared on the labelled corpus: the lockstep twin against CogEvol's
quiet-window baseline subtraction, per page (the hard-fail gate) and per labelled control.

Run: python benchmarks/probe_fidelity.py
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from cogevol.probe import ProbeConfig
from cogevol.scoring import ScoringSettings
from cogevol.scoring.local import score_pages

ROOT = Path(__file__).resolve().parents[1]

CORPUS = ROOT / "tests" / "probe" / "corpus"


def main() -> None:
    labels = json.loads((CORPUS / "labels.json").read_text())
    items = [(n, (CORPUS / n).read_text()) for n in labels]
    runs = {"twin (idle pages: own pre-input state)": asyncio.run(score_pages(items)),
            "twin (always a lockstep copy)": asyncio.run(score_pages(items, ScoringSettings(probe=ProbeConfig(idle_shortcut=False))))}
    out = {}
    for name, method, rows in [(n, "twin", r) for n, r in runs.items()] + [("baseline (quiet-window subtraction)", "baseline", runs["twin (always a lockstep copy)"])]:
        key = f"{method}_verdict"
        pages_ok, ctl_ok, ctl_n, wrong = 0, 0, 0, []
        for r in rows:
            e = labels[r["path"]]
            ctl = {c.get("label", ""): c for c in r["controls"]}
            operable = [c for c in r["controls"] if c["status"] == "operable" and c.get(key)]
            hard_fail = (not r["rendered_ok"]) or r["outcome"] != "ok" or not any(c[key] == "live" for c in operable)
            if hard_fail == e["hard_fail"]:
                pages_ok += 1
            else:
                wrong.append(r["path"])
            for want, names in (("live", e["live"]), ("dead", e["dead"])):
                for n in names:
                    ctl_n += 1
                    ctl_ok += ctl.get(n, {}).get(key) == want
        out[name] = {"page_accuracy": round(pages_ok / len(rows), 4), "control_accuracy": round(ctl_ok / ctl_n, 4),
                     "pages_wrong": wrong, "wall_s_1_worker": round(sum(r["seconds"] for r in rows), 1)}
        print(name, out[name], flush=True)
    Path(ROOT / "benchmarks" / "results" / "probe_fidelity.json").write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
