"""The HTML reward on real pages nobody here wrote: gate errors, ranking, speed (issue 11).

Probes every page of data/probe_real (labels.jsonl: request, should_pass, 1-5 grade, provenance)
with params.yaml's probe settings and each page's request, then reports against the labels:
hard-fail rate, false hard fails, budget hard fails, within-request pair agreement, pooled
Spearman (bootstrap 95% CIs over requests), what each defect term adds (ablation), and seconds
per page. Logs an `agreement` run to MLflow (sqlite:///mlruns/mlflow.db) with the table and a
scatter plot.

Run: python benchmarks/probe_real.py [--workers 1] [--records benchmarks/results/probe_real_records.jsonl]
     (--records reuses a probing run: the ablation and report without probing again)
     [--checklists rules] (every request planned by the rules, as a request outside the replay
     file is: writes probe_real_rules.json and probe_real_rules_records.jsonl)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from pathlib import Path

import numpy as np

from cogevol.checklist.planner import planner_from_params
from cogevol.core.config import load_params
from cogevol.core.logs import setup_logging
from cogevol.pipeline.tracking import stage_run
from cogevol_samples.halves import half_of, real_source
from cogevol_samples.page_agreement import (
    ablation,
    agreement_report,
    developed_on,
    load_labels,
    merge,
    probe_corpus,
    reading_hard_fails,
    rules_quotes,
)

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "data" / "probe_real"
RESULTS = ROOT / "benchmarks" / "results"


def scatter(rows: list[dict], report: dict):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5.5, 4))
    rng = np.random.default_rng(0)
    for passed, colour in ((True, "#3b6ea5"), (False, "#c0392b")):
        pts = [(r["reward"], r["grade"] + rng.uniform(-0.12, 0.12)) for r in rows if r["should_pass"] == passed]
        if pts:
            xy = np.array(pts)
            ax.scatter(xy[:, 0], xy[:, 1], s=18, alpha=0.75, color=colour, label="works for a person" if passed else "broken for a person")
    ax.set_xlabel("reward")
    ax.set_ylabel("grade (1-5, jittered)")
    ax.legend(fontsize=8, loc="lower right")
    ax.set_title(f"real pages: pair agreement {report['pair_agreement']:.2f}, Spearman {report['spearman']:.2f}, n={report['pages']}", fontsize=9)
    fig.tight_layout()
    return fig


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--records", help="reuse the records of an earlier run (JSONL) instead of probing")
    ap.add_argument("--params", default=str(ROOT / "params.yaml"))
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--checklists", choices=("params", "rules"), default="params",
                    help="who plans the requests' checklists: params.yaml's `checklist` (default) or the rules only")
    a = ap.parse_args()
    setup_logging()
    params = load_params(a.params)
    labels = load_labels(CORPUS / "labels.jsonl")
    RESULTS.mkdir(parents=True, exist_ok=True)
    name = "probe_real" if a.checklists == "params" else f"probe_real_{a.checklists}"
    t0 = time.perf_counter()
    if a.records:
        records = {r["path"]: r for r in map(json.loads, Path(a.records).read_text().splitlines())}
    else:
        records = asyncio.run(probe_corpus(labels, a.workers, params, planner_from_params(params, rules_only=a.checklists == "rules"), CORPUS))
        with (RESULTS / f"{name}_records.jsonl").open("w") as f:
            for lab in labels:
                f.write(json.dumps(records[lab["file"]], ensure_ascii=False) + "\n")
    wall = time.perf_counter() - t0
    rows = merge(labels, records)
    report = agreement_report(rows, resamples=a.resamples)
    secs = np.array([r["seconds"] for r in rows])
    report["seconds"] = {"p50": round(float(np.median(secs)), 3), "p90": round(float(np.percentile(secs, 90)), 3),
                         "max": round(float(secs.max()), 3), "slowest": max(rows, key=lambda r: r["seconds"])["file"],
                         "workers": a.workers, "wall_s": round(wall, 1)}
    report["budget_exhausted"] = sum(bool(r.get("budget_exhausted")) for r in rows)
    report["resource_failures"] = sum(bool(r.get("resource_failure")) for r in rows)
    report["ablation"] = ablation(rows)
    wrong = [{"file": r["file"], "should_pass": r["should_pass"], "grade": r["grade"], "reward": r["reward"], "reason": r["reason"][:160]}
             for r in rows if r["hard_fail"] == r["should_pass"]]
    report["gate_disagreements"] = wrong
    report["checklists"] = a.checklists
    # the rules were partly written against this corpus: its requests whose words the rules quote
    # are in-sample, the others measure how the rules carry over (issue 57)
    inside = developed_on(rows, rules_quotes(ROOT / "cogevol"))
    for part, keep in (("in_sample", True), ("out_of_sample", False)):
        sub = [r for r in rows if (r["request_id"] in inside) == keep]
        report[part] = {"request_ids": sorted({r["request_id"] for r in sub}),
                        **{k: v for k, v in agreement_report(sub, resamples=a.resamples).items()
                           if k in ("pages", "requests", "pairs", "false_hard_fails", "works_for_a_person",
                                    "pair_agreement", "pair_agreement_ci", "spearman", "spearman_ci")}}
    # the tune and held halves, split by source and so by request (cogevol_samples/halves.py):
    # the request reading is calibrated on the tune half only (issue 66)
    source = {lab["file"]: real_source(lab) for lab in labels}
    for r in rows:
        r["half"] = half_of(source[r["file"]])
    report["reading_hard_fails"] = reading_hard_fails(rows, lambda r: not r["should_pass"])
    for half in ("tune", "held"):
        sub = [r for r in rows if r["half"] == half]
        report[half] = {"sources": sorted({source[r["file"]] for r in sub}),
                        "reading_hard_fails": reading_hard_fails(sub, lambda r: not r["should_pass"]),
                        **{k: v for k, v in agreement_report(sub, resamples=a.resamples).items()
                           if k in ("pages", "requests", "false_hard_fails", "works_for_a_person", "false_passes",
                                    "broken_for_a_person", "pair_agreement", "pair_agreement_ci", "spearman", "spearman_ci")}}
    (RESULTS / f"{name}.json").write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    print(json.dumps({k: v for k, v in report.items() if k not in ("ablation", "gate_disagreements", "in_sample", "out_of_sample", "tune", "held")}, indent=1))
    for part in ("tune", "held", "in_sample", "out_of_sample"):
        v = report[part]
        print(f"{part}: {v['requests']} requests, {v['pages']} pages, pair agreement {v['pair_agreement']:.3f} {v['pair_agreement_ci']},"
              f" Spearman {v['spearman']:.3f} {v['spearman_ci']}, false hard fails {v['false_hard_fails']}/{v['works_for_a_person']}")
    print("ablation (pair agreement / Spearman):")
    for name, v in report["ablation"].items():
        print(f"  {name:28s} {v['pair_agreement']:.3f} {v['pair_agreement_ci']}  {v['spearman']:.3f} {v['spearman_ci']}")
    print("gate disagreements:")
    for w in wrong:
        print("  ", w)
    with stage_run("agreement", {"corpus": str(CORPUS.relative_to(ROOT)), "probe": params.get("probe", {}),
                                 "checklists": a.checklists}) as run:
        run.log_metrics({k: v for k, v in report.items() if isinstance(v, int | float)} | {"seconds": report["seconds"]})
        run.log_metrics({f"ablation.{name}": {"pair_agreement": v["pair_agreement"], "spearman": v["spearman"]}
                         for name, v in report["ablation"].items()})
        run.log_dict(report, "agreement/real_pages.json")
        run.log_table([{k: r.get(k) for k in ("file", "request_id", "grade", "should_pass", "reward", "hard_fail", "reason", "seconds")}
                       for r in rows], "agreement/real_pages_table.json")
        run.log_figure(scatter(rows, report), "agreement/real_pages.png")


if __name__ == "__main__":
    main()
