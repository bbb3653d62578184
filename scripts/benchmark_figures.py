#!/usr/bin/env python
"""Write every benchmark's current figure into README.md and docs/benchmarks.md from
benchmarks/results/*.json, so the figures people read cannot drift from the runs behind them.

One registry (FIGURES below): each benchmark's results file and how its headline figure reads.
README.md's benchmark table sits between the README markers; each section of
docs/benchmarks.md carries its figure between `<!-- figure:NAME -->` markers. A hand-edited
figure, or a results file that moved without the docs, fails tests/test_benchmark_figures.py.

    python scripts/benchmark_figures.py           # rewrite after a benchmark run
    python scripts/benchmark_figures.py --check   # exit 1 when a document and the results disagree
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
START = "<!-- benchmarks: written by scripts/benchmark_figures.py from benchmarks/results/; do not edit -->"
END = "<!-- /benchmarks -->"


def _r(name: str) -> dict:
    return json.loads((RESULTS / name).read_text(encoding="utf-8"))


def _n(v: float, digits: int = 3) -> str:
    return f"{v:.{digits}f}"


def _dedup_speed() -> str:
    e = _r("dedup_speed.json")["end_to_end"]
    return f"{e['wall_s']} s, peak {e['peak_rss_gb_largest_process']} GB"


def _dedup_quality() -> str:
    d = _r("dedup_quality.json")["results"]["default"]
    return f"precision {d['precision_min']:.3f}, recall {d['recall_min']:.3f} (minimum over sets)"


def _curation_ray() -> str:
    s = _r("curation_ray.json")["sizes"]["5000000"]
    same = all(s["identical_files"].values())
    return (f"local {s['local']['wall_s']:.0f} s in {s['local']['peak_process_heap_gb']} GB; ray "
            f"{s['ray']['wall_s']:,.0f} s, at most {s['ray']['peak_process_heap_gb']:.1f} GB per process"
            + (", identical output" if same else ", outputs differ"))


def _mine() -> str:
    return f"{_r('mine_speed.json')['parse_validate_scrub_rps']:,} records/s"


def _taxonomy() -> str:
    t = _r("taxonomy.json")
    held, fresh = t["data/taxonomy/slice_test.jsonl"], t["data/taxonomy/slice_fresh.jsonl"]
    return (f"held-out L1 {held['l1']:.3f}, L2 {held['l2']:.3f}; written blind: L1 {fresh['l1']:.3f}, "
            f"L2 {fresh['l2']:.3f}")


def _fidelity() -> str:
    r = _r("probe_fidelity.json")
    t, b = r["twin (idle pages: own pre-input state)"], r["baseline (quiet-window subtraction)"]
    return (f"pages {t['page_accuracy']:.3f}, controls {t['control_accuracy']:.3f} ({t['wall_s_1_worker']} s on 1 "
            f"worker); the quiet-window baseline {b['page_accuracy']:.3f}")


def _speed() -> str:
    r = _r("probe_speed.json")["runs"]["1"]
    return f"{r['wall_s']} s on 1 worker, p50 {r['p50_s']} s"


def _hostile() -> str:
    h = _r("probe_hostile.json")
    ok = h["scored"] == h["pages"] and h["every_page_has_reason"] and h["harness_errors"] == 0
    return (f"{h['scored']}/{h['pages']} scored{' with a reason' if ok else ''}, {h['harness_errors']} harness errors, "
            f"{h['chromium_after']} Chromium left, {h['wall_s']} s (slowest page {h['max_page_s']:.1f} s)")


def _floor() -> str:
    f = _r("probe_floor.json")
    held, tune = f["held"], f["tune"]

    def part(x: dict) -> str:
        lab = x["labels"]
        caught = lambda k: round(x[f"{k}_caught"] * lab[k]) if x[f"{k}_caught"] is not None else 0  # noqa: E731
        return (f"broken {caught('broken')}/{lab['broken']}, poor {caught('poor')}/{lab['poor']}, false hard fails "
                f"{x['false_hard_fails']}/{x['fair_or_good']}")

    return f"held half: {part(held)}; tune half: {part(tune)}"


def _real() -> str:
    r = _r("probe_real_rules.json")
    o = r["out_of_sample"]
    return (f"false hard fails {r['false_hard_fails']}/{r['works_for_a_person']}, pair agreement "
            f"{r['pair_agreement']:.3f}, Spearman {r['spearman']:.3f}; requests the rules were not written on: "
            f"{o['pair_agreement']:.3f} / {o['spearman']:.3f}")


def _reading() -> str:
    r = _r("reading.json")
    p, held = r["primary"], r["requests"]["held"]["interactive"]
    return (f"held halves: reading-based hard fails {p['right']}/{p['hard_fails']} right; held requests: sure "
            f"interactive readings {held['sure_right']}/{held['sure']} right")


def _swap() -> str:
    s = _r("swapped_requests.json")["summary"]

    def part(k: str) -> str:
        x = s[k].get("passing_own_gate") or s[k]["all"]
        return f"{x['own_higher']}/{x['answers']}"

    decks = s.get("teacher_answers", {}).get("slide") or {}
    tail = f", decks {decks['own_higher']}/{decks['answers']}" if decks else ""
    teacher = s["teacher_answers"].get("html") or s["teacher_answers"]["all"]
    return f"real pages {part('real_pages')}, teacher pages {teacher['own_higher']}/{teacher['answers']}{tail}"


def _depth() -> str:
    d = _r("probe_depth.json")["explore_on"]
    return f"{d['full_ahead']}/{d['pairs']}"


def _language() -> str:
    d = _r("probe_language.json")
    s, x = d["same_vs_other"], d["cross_language_swap"]
    return (f"{round(s['share_same_higher'] * s['pairs'])}/{s['pairs']}; cross-language swap "
            f"{round(x['share_own_higher'] * x['pairs'])}/{x['pairs']}")


def _stability() -> str:
    d = _r("probe_stability.json")
    same = sum(r.get("same_gate", True) for r in d["rows"])
    return f"same gate {same}/{len(d['rows'])} pages x {d['repeats']}, reward spread at most {d['max_reward_spread']}"


def _service() -> str:
    return f"overhead {_r('scoring_service.json')['overhead']['overhead_median']:+.1%}"


def _slides() -> str:
    return f"p50 {_r('slide_speed.json')['measure_only']['warm_pool_reused_page']['p50_ms']} ms"


def _train() -> str:
    t = _r("train_speed.json")
    stages = t["stages"]
    wall = sum(s["wall_s"] for s in stages.values())
    peak = max(s["peak_rss_gb"] for s in stages.values())
    return f"{wall:.0f} s, peak {peak} GB"


def _learning() -> str:
    path = RESULTS / "grpo_learning.json"
    if not path.exists():
        return "declared test not yet run"
    r = json.loads(path.read_text(encoding="utf-8"))
    p, t, spr = r["primary"], r["table"], r["seconds_per_rollout"]
    return (f"near tier, greedy reward: sft {t['sft']['near']['reward']:.3f}, grpo {t['grpo']['near']['reward']:.3f}, "
            f"control {t['control']['near']['reward']:.3f}; grpo - sft {p['vs_sft']['diff']:+.3f} {p['vs_sft']['ci']}, "
            f"grpo - control {p['vs_control']['diff']:+.3f} {p['vs_control']['ci']} ({'met' if p['met'] else 'not met'}); "
            f"far tier grpo {t['grpo']['far']['reward']:.3f} vs sft {t['sft']['far']['reward']:.3f}; "
            f"{spr['before']} -> {spr['after']} s per rollout ({spr['ratio']}x); hacking check: {_hacking(r)}")


def _hacking(r: dict) -> str:
    """GRPO's highest-rewarded held-out answers that do what they were asked, read by a person:
    the reward's gain means little where this is low, so it stands beside the primary."""
    h = r.get("hacking_check") or {}
    if h.get("do_what_asked") is None:
        return "not yet recorded"
    line = f"{h['do_what_asked']} of {h['reviewed']} of grpo's top-rewarded answers do what was asked"
    sft = h.get("sft_same_requests")
    return line + (f" (sft on the same requests: {sft['do_what_asked']} of {sft['reviewed']})" if sft else "")


def _endpoints() -> str:
    path = RESULTS / "endpoints.json"
    if not path.exists():
        return "not yet run"
    r = json.loads(path.read_text(encoding="utf-8"))
    c = r["cases"]
    retried = sum(x.get("retries", 0) for x in c.values())
    return (f"{r['lost']} requests lost over {len(c)} paths and failure cases; filter {c['filter']['parsed']}/"
            f"{c['filter']['sent']} parsed, taxonomy {c['taxonomy']['parsed']}/{c['taxonomy']['sent']}, planner "
            f"{c['planner']['parsed']}/{c['planner']['sent']}, distill {c['distill']['candidates']} candidates, "
            f"judge text {c['judge_text']['verdicts']}/{c['judge_text']['sent']} verdicts; "
            f"{retried} retries; server restart: {c['server_restart']['answered']}/{c['server_restart']['sent']} answered")


def _agreement() -> str:
    return f"{_r('agreement_speed.json')['spearman_bootstrap_s']} s"


@dataclass(frozen=True)
class Figure:
    name: str  # the docs section's marker
    what: str  # README's first column
    script: str
    figure: Callable[[], str]
    target: str
    bold: bool = False


FIGURES = (
    Figure("dedup_speed", "dedup, 200,000 queries end to end", "dedup_speed.py", _dedup_speed, "<= 60 s, <= 4 GB"),
    Figure("dedup_quality", "dedup quality, 3 labelled sets", "dedup_quality.py", _dedup_quality, ">= 0.98, >= 0.90"),
    Figure("curation_ray", "curation on Ray Data, 5 M queries", "curation_ray.py", _curation_ray, "memory bounded per process"),
    Figure("mine_speed", "mining: parse + validate + scrub", "mine_speed.py", _mine, ">= 50,000/s"),
    Figure("taxonomy", "task type of unseen requests, 8 languages", "taxonomy.py", _taxonomy, ">= 0.95, >= 0.80"),
    Figure("probe_fidelity", "probe fidelity, 48 labelled pages", "probe_fidelity.py", _fidelity, "100%"),
    Figure("probe_speed", "probe speed, the same 48 pages", "probe_speed.py", _speed, "<= 40 s, p50 <= 1 s"),
    Figure("probe_hostile", "200 hostile pages", "probe_hostile.py", _hostile, "no crash, none left"),
    Figure("probe_floor", "the reward's floor: small models' answers, halves split by request and source",
           "probe_floor.py", _floor, ">= 90%, >= 75%, <= 5%"),
    Figure("probe_real", "118 real pages with human labels", "probe_real.py --checklists rules", _real,
           "<= 5%, >= 0.75, >= 0.6"),
    Figure("reading", "hard fails resting on the request's reading", "reading.py", _reading, "precision >= 0.95"),
    Figure("swapped_requests", "the swap test: own request vs another", "swapped_requests.py", _swap, ">= 90%"),
    Figure("probe_depth", "play-through past the first screen", "probe_depth.py", _depth, ">= 90%"),
    Figure("probe_language", "language: a page vs its copy in another language", "probe_language.py", _language,
           ">= 90%, >= 95%"),
    Figure("probe_stability", "verdicts under load", "probe_stability.py", _stability, "within 0.05"),
    Figure("scoring_service", "scoring as a service vs in process", "scoring_service.py", _service, "<= 10%"),
    Figure("slide_speed", "slide render + rules, per slide", "slide_speed.py", _slides, "<= 300 ms"),
    Figure("train_speed", "sft + both GRPO stages, embedded default", "train_speed.py", _train, "<= 8 min, <= 6 GB"),
    Figure("grpo_learning", "learning on held-out requests", "grpo_learning.py", _learning,
           "grpo - sft and grpo - control on the near tier, paired CI lower bounds above 0; >= 3x fewer s/rollout",
           bold=True),
    Figure("endpoints", "text LLM paths against a real vLLM server on the CPU", "endpoints.py", _endpoints,
           "0 lost"),
    Figure("agreement_speed", "Spearman + bootstrap on 10,000 ratings", "agreement_speed.py", _agreement, "<= 2 s"),
)


def readme_block() -> str:
    rows = ["| what (`benchmarks/...`) | current figure | target |", "| --- | --- | --- |"]
    for f in FIGURES:
        what = f"**{f.what}**" if f.bold else f.what
        rows.append(f"| {what} (`{f.script}`) | {f.figure()} | {f.target} |")
    return "\n".join([START, *rows, END])


def figure_line(f: Figure) -> str:
    return f"<!-- figure:{f.name} -->**Current figure** (`benchmarks/results/`): {f.figure()}.<!-- /figure:{f.name} -->"


def rewrite(readme: str, docs: str) -> tuple[str, str]:
    start, end = readme.find(START), readme.find(END)
    if start < 0 or end < start:
        raise SystemExit(f"README.md has no block between {START!r} and {END!r}")
    readme = readme[:start] + readme_block() + readme[end + len(END):]
    for f in FIGURES:
        rx = re.compile(rf"<!-- figure:{f.name} -->.*?<!-- /figure:{f.name} -->", re.S)
        if not rx.search(docs):
            raise SystemExit(f"docs/benchmarks.md has no figure:{f.name} marker")
        docs = rx.sub(lambda _m, f=f: figure_line(f), docs)
    return readme, docs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="only compare; exit 1 on a difference")
    ap.add_argument("--readme", default=str(ROOT / "README.md"))
    ap.add_argument("--docs", default=str(ROOT / "docs" / "benchmarks.md"))
    a = ap.parse_args()
    readme_p, docs_p = Path(a.readme), Path(a.docs)
    readme, docs = readme_p.read_text(encoding="utf-8"), docs_p.read_text(encoding="utf-8")
    new_readme, new_docs = rewrite(readme, docs)
    if a.check:
        bad = [p.name for p, old, new in ((readme_p, readme, new_readme), (docs_p, docs, new_docs)) if old != new]
        if bad:
            print(f"{', '.join(bad)}: figures differ from benchmarks/results/: run scripts/benchmark_figures.py",
                  file=sys.stderr)
            return 1
        return 0
    readme_p.write_text(new_readme, encoding="utf-8")
    docs_p.write_text(new_docs, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
