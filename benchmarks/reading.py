"""How far the request's reading can be trusted to fail a page on its own (issue 66).

The reading (cogevol.rewards.expects) tells the gate what a page must do: respond to input,
move on its own, change somehow. A hard fail that rests on it alone needs a confident reading
(probe.terms.reading_confidence), calibrated on the tune half of data/reading
(scripts/calibrate_reading.py). This scores the held half, which the calibration never read:

- PRIMARY (declared before any run): the precision of the hard fails that rest on the reading
  (ReasonId.rests_on_reading) over the held halves of the two labelled page corpora,
  data/probe_real (a person says the page should fail) and data/probe_floor (labelled broken
  or poor), read from their benchmarks' records (probe_real.py --checklists rules,
  probe_floor.py). Target >= 0.95.
- Secondary, on the held requests of data/reading (no browser): per kind, how many readings
  are sure enough to fail a page, and the share of those the label agrees with; the precision
  and recall of every reading; the Brier score of the probability that prices an unsure one.
  False hard fails of the page corpora's held halves beside them (target <= 5%).

Run: python benchmarks/reading.py   (after probe_real.py --checklists rules and probe_floor.py)
Writes benchmarks/results/reading.json.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cogevol.core.config import load_params  # noqa: E402
from cogevol.rewards.expects import expects_for  # noqa: E402
from cogevol_samples.halves import floor_source, half_of, real_source  # noqa: E402
from cogevol_samples.page_agreement import reading_hard_fails  # noqa: E402

PRIMARY = "held-half precision of reading-based hard fails (probe_real + probe_floor)"
TARGET = 0.95
RESULTS = ROOT / "benchmarks" / "results"
KINDS = ("interactive", "animation", "dynamic")


def truth(label: dict, kind: str) -> bool:
    return bool(label["interactive"] or label["animation"]) if kind == "dynamic" else bool(label[kind])


def request_figures(labels: list[dict], sure_at: float) -> dict:
    """Per kind over `labels`: readings, sure readings and how often the label agrees."""
    out = {}
    read = [(lab, expects_for(lab["request"])) for lab in labels]
    for kind in KINDS:
        asked = [(lab, e) for lab, e in read if getattr(e, kind)]
        sure = [(lab, e) for lab, e in asked if e.confidence(kind) >= sure_at]
        wanted = [lab for lab in labels if truth(lab, kind)]
        brier = [(e.probability(kind) - truth(lab, kind)) ** 2 for lab, e in asked]
        out[kind] = {
            "labelled": len(wanted),
            "read": len(asked),
            "read_right": sum(truth(lab, kind) for lab, _ in asked),
            "sure": len(sure),
            "sure_right": sum(truth(lab, kind) for lab, _ in sure),
            "sure_precision": round(sum(truth(lab, kind) for lab, _ in sure) / len(sure), 4) if sure else None,
            "recall": round(sum(truth(lab, kind) for lab, _ in asked) / len(wanted), 4) if wanted else None,
            "brier": round(sum(brier) / len(brier), 4) if brier else None,
        }
    return out


def page_rows(records: Path, labels: Path, source, bad) -> list[dict]:
    recs = {r["path"]: r for r in map(json.loads, records.read_text(encoding="utf-8").splitlines())}
    rows = []
    for lab in map(json.loads, labels.read_text(encoding="utf-8").splitlines()):
        rec = recs.get(lab["file"])
        if rec is not None:
            rows.append({**rec, "half": half_of(source(lab)), "bad": bad(lab), "fine": not bad(lab) and lab.get("label") not in ("poor",)})
    return rows


def main() -> None:
    params = load_params(str(ROOT / "params.yaml"))
    sure_at = params["probe"]["terms"]["reading_confidence"]
    labels = [json.loads(x) for x in (ROOT / "data" / "reading" / "labels.jsonl").read_text(encoding="utf-8").splitlines()]
    settled = [lab for lab in labels if not lab.get("unsure")]
    corpora = {
        "probe_real": page_rows(RESULTS / "probe_real_rules_records.jsonl", ROOT / "data" / "probe_real" / "labels.jsonl",
                                real_source, lambda lab: not lab["should_pass"]),
        "probe_floor": page_rows(RESULTS / "probe_floor_records.jsonl", ROOT / "data" / "probe_floor" / "labels.jsonl",
                                 floor_source, lambda lab: lab["label"] in ("broken", "poor")),
    }
    pages = {}
    for half in ("tune", "held"):
        per = {}
        for name, rows in corpora.items():
            sub = [r for r in rows if r["half"] == half]
            fine = [r for r in sub if r["fine"]]
            per[name] = {"pages": len(sub), "reading_hard_fails": reading_hard_fails(sub, lambda r: r["bad"]),
                         "false_hard_fails": sum(bool(r["hard_fail"]) for r in fine), "fine_pages": len(fine)}
        both = [r for rows in corpora.values() for r in rows if r["half"] == half]
        pages[half] = {"both": reading_hard_fails(both, lambda r: r["bad"]), **per}
    primary = pages["held"]["both"]["precision"]
    report = {
        "primary": {"metric": PRIMARY, "value": primary, "target": TARGET,
                    "met": primary is not None and primary >= TARGET, **pages["held"]["both"]},
        "reading_confidence": sure_at,
        "pages": pages,
        "requests": {half: {"requests": len([lab for lab in settled if lab["half"] == half]),
                            **request_figures([lab for lab in settled if lab["half"] == half], sure_at)}
                     for half in ("tune", "held")},
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "reading.json").write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    p = report["primary"]
    print(f"PRIMARY {PRIMARY}: {p['value']} ({p['right']}/{p['hard_fails']}), target {TARGET}: {'met' if p['met'] else 'not met'}")
    for half in ("tune", "held"):
        for name in corpora:
            v = pages[half][name]
            print(f"  {half} {name}: {v['pages']} pages, reading-based hard fails {v['reading_hard_fails']['right']}/"
                  f"{v['reading_hard_fails']['hard_fails']} right, false hard fails {v['false_hard_fails']}/{v['fine_pages']}")
        for kind, v in report["requests"][half].items():
            if isinstance(v, dict):
                print(f"  {half} requests, {kind}: read {v['read']} ({v['read_right']} right), sure {v['sure']} "
                      f"({v['sure_right']} right, precision {v['sure_precision']}), recall {v['recall']}, Brier {v['brier']}")


if __name__ == "__main__":
    main()
