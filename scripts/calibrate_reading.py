"""Calibrate the request reading's confidence (cogevol/rewards/reading_confidence.yaml) on the
tune half of data/reading/labels.jsonl.

Every labelled tune request is read by the rules (cogevol.rewards.expects.expects_for). Each
piece of evidence behind a kind the reading asks for (kind, class, term) is right when the
label asks for that kind too (`dynamic`: either kind). Per class: its precision, (k + 1) /
(n + 2). Per term: the `quantile` of Beta(prior_strength * p + k, prior_strength * (1 - p) +
n - k), counted only when requests from `min_sources` sources or more hold the term; a term
with less gets the class's prior alone (`unproven`). Requests marked `unsure` are left out.
The held half is never read here (benchmarks/reading.py scores it).

Run: python scripts/calibrate_reading.py [--labels data/reading/labels.jsonl]
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

import yaml
from scipy.stats import beta

from cogevol.rewards.confidence import CALIBRATION_PATH, CLASSES
from cogevol.rewards.expects import expects_for

ROOT = Path(__file__).resolve().parents[1]
PRIOR_STRENGTH = 4.0  # pseudo-requests the class's precision weighs in a term's posterior
QUANTILE = 0.1  # the posterior's lower decile: a term needs records to be trusted
MIN_SOURCES = 2  # a term's own record counts from this many sources up
DEFAULT = 0.5  # a class with no labelled request behind it


def truth(label: dict, kind: str) -> bool:
    return bool(label["interactive"] or label["animation"]) if kind == "dynamic" else bool(label[kind])


def evidence_records(labels: list[dict]) -> list[dict]:
    """(class, term, source, right) for every piece of evidence the rules read in `labels`."""
    out = []
    for lab in labels:
        e = expects_for(lab["request"])
        for kind, cls, term in e.evidence:
            out.append({"class": cls, "term": term.strip().lower(), "kind": kind, "source": lab["source"],
                        "id": lab["id"], "right": truth(lab, kind)})
    return out


def calibrate(records: list[dict]) -> dict:
    by_class: dict[str, list[dict]] = defaultdict(list)
    for r in records:
        by_class[r["class"]].append(r)
    classes, terms = {}, {}
    for cls in CLASSES:
        rs = by_class.get(cls, [])
        if not rs:
            continue
        # one vote per request: a request naming "button" three times is one record
        per_request = {(r["id"], r["term"]): r for r in rs}
        n, k = len(per_request), sum(r["right"] for r in per_request.values())
        p = (k + 1) / (n + 2)
        a0, b0 = PRIOR_STRENGTH * p, PRIOR_STRENGTH * (1 - p)
        classes[cls] = {"precision": round(p, 4), "evidence": n, "right": k,
                        "sources": len({r["source"] for r in rs}),
                        "unproven": round(float(beta.ppf(QUANTILE, a0, b0)), 4)}
        by_term: dict[str, list[dict]] = defaultdict(list)
        for r in per_request.values():
            by_term[r["term"]].append(r)
        own = {}
        for term, ts in sorted(by_term.items()):
            if len({t["source"] for t in ts}) < MIN_SOURCES:
                continue
            kt = sum(t["right"] for t in ts)
            a, b = a0 + kt, b0 + len(ts) - kt
            own[term] = {"probability": round(a / (a + b), 4), "confidence": round(float(beta.ppf(QUANTILE, a, b)), 4),
                         "right": kt, "evidence": len(ts)}
        if own:
            terms[cls] = own
    return {"classes": classes, "terms": terms}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--labels", default=str(ROOT / "data" / "reading" / "labels.jsonl"))
    a = ap.parse_args()
    labels = [json.loads(line) for line in Path(a.labels).read_text(encoding="utf-8").splitlines() if line.strip()]
    tune = [lab for lab in labels if lab["half"] == "tune" and not lab.get("unsure")]
    table = calibrate(evidence_records(tune))
    header = (
        "# Written by scripts/calibrate_reading.py from the tune half of data/reading/labels.jsonl\n"
        f"# ({len(tune)} requests, {len({lab['source'] for lab in tune})} sources); do not edit by hand.\n"
        "# classes: precision = (right + 1) / (evidence + 2) of the rules' evidence of that class;\n"
        f"# unproven = the {QUANTILE:g} quantile of Beta({PRIOR_STRENGTH:g} p, {PRIOR_STRENGTH:g} (1 - p)): the confidence of a\n"
        f"# term with no record of its own (its probability is the class's precision). terms: once the\n"
        f"# term's own record (from {MIN_SOURCES}+ sources) is added, the posterior's mean (probability) and\n"
        f"# the same quantile (confidence). cogevol/rewards/confidence.py reads it.\n"
    )
    body = {"version": 1, "default": DEFAULT, "prior_strength": PRIOR_STRENGTH, "quantile": QUANTILE,
            "min_sources": MIN_SOURCES, "tune_requests": len(tune), **table}
    CALIBRATION_PATH.write_text(header + yaml.safe_dump(body, allow_unicode=True, sort_keys=False), encoding="utf-8")
    for cls, v in table["classes"].items():
        print(f"{cls:26s} precision {v['precision']:.3f} ({v['right']}/{v['evidence']}, {v['sources']} sources) unproven {v['unproven']:.3f}"
              f"; terms with a record: {len(table['terms'].get(cls, {}))}")
    print(f"wrote {CALIBRATION_PATH.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
