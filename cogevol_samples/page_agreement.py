"""Agreement of the HTML reward with people on real pages, grouped by request.

A labelled corpus (data/probe_real/labels.jsonl) gives, per page, the request it answers, whether
a person says it should pass the hard-fail gate and a 1-5 grade. Against the probe's records we
report what decides whether GRPO pushes towards better pages:

- hard-fail rate, false hard fails (pages that work for a person, zeroed) and false passes;
- within-request pair agreement: over pairs of pages answering the same request with different
  grades, the share the reward orders the same way (a reward tie counts one half; chance is 0.5);
- pooled Spearman of reward against grade;
each with a bootstrap 95% CI that resamples requests (pages of one request are not independent).

The ablation recomputes each reward without one defect term (weights renormalised, as the
reward does when a term is absent), so each term's contribution to agreement is measured from
one probing run.
"""

from __future__ import annotations

import json
import re
from itertools import combinations
from pathlib import Path

import numpy as np
from scipy.stats import spearmanr

LABEL_FIELDS = ("id", "file", "request_id", "request", "expects", "should_pass", "grade")


def load_labels(path: str | Path) -> list[dict]:
    """The corpus labels, one JSON object per line; a clear error names a bad line."""
    rows = []
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        row = json.loads(line)
        missing = [k for k in LABEL_FIELDS if k not in row]
        if missing:
            raise ValueError(f"{path}:{n}: missing {', '.join(missing)}")
        rows.append(row)
    return rows


def reward_without(rec: dict, drop: str | None = None) -> float:
    """The record's reward recomputed without the defect term `drop` (None: as recorded)."""
    if rec.get("hard_fail") or rec.get("reward") is None:
        return 0.0
    used = {
        k: w
        for k, w in (rec.get("weights_used") or {}).items()
        if k != drop and k in rec.get("terms", {})
    }
    total = sum(used.values())
    if not total:
        return 1.0
    return round(1 - sum(rec["terms"][k] * w for k, w in used.items()) / total, 6)


def _pairs(rows: list[dict]) -> dict[str, list[tuple[dict, dict]]]:
    groups: dict[str, list[dict]] = {}
    for r in rows:
        groups.setdefault(r["request_id"], []).append(r)
    return {
        rid: [(a, b) for a, b in combinations(g, 2) if a["grade"] != b["grade"]]
        for rid, g in groups.items()
    }


def _agreement(pairs: list[tuple[dict, dict]], key: str) -> float:
    if not pairs:
        return float("nan")
    score = 0.0
    for a, b in pairs:
        dr, dh = a[key] - b[key], a["grade"] - b["grade"]
        score += 0.5 if abs(dr) < 1e-9 else float(np.sign(dr) == np.sign(dh))
    return score / len(pairs)


def _spearman(rows: list[dict], key: str) -> float:
    x, y = [r[key] for r in rows], [r["grade"] for r in rows]
    if len(rows) < 3 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return float("nan")
    return float(spearmanr(x, y).statistic)


def _ci(samples: list[float]) -> list[float]:
    s = np.array([v for v in samples if np.isfinite(v)])
    return (
        [round(float(v), 4) for v in np.percentile(s, [2.5, 97.5])]
        if len(s)
        else [float("nan")] * 2
    )


def agreement_report(
    rows: list[dict], key: str = "reward", resamples: int = 1000, seed: int = 0
) -> dict:
    """Gate and ranking figures of `rows` (labels merged with probe records; `key` holds the
    reward to judge), with request-level bootstrap CIs."""
    by_req = _pairs(rows)
    requests = sorted(by_req)
    members = {rid: [r for r in rows if r["request_id"] == rid] for rid in requests}
    n = len(rows)
    works = [r for r in rows if r["should_pass"]]
    broken = [r for r in rows if not r["should_pass"]]
    report = {
        "pages": n,
        "requests": len(requests),
        "pairs": sum(len(p) for p in by_req.values()),
        "hard_fail_rate": round(sum(r["hard_fail"] for r in rows) / max(1, n), 4),
        "false_hard_fails": sum(r["hard_fail"] for r in works),
        "works_for_a_person": len(works),
        "false_hard_fail_rate": round(sum(r["hard_fail"] for r in works) / max(1, len(works)), 4),
        "false_passes": sum(not r["hard_fail"] for r in broken),
        "broken_for_a_person": len(broken),
        "budget_hard_fails": sum(
            r["hard_fail"] and ("budget" in r.get("reason", "") or r.get("outcome") == "page_hung")
            for r in works
        ),
        "gate_accuracy": round(
            sum(r["hard_fail"] != r["should_pass"] for r in rows) / max(1, n), 4
        ),
        "pair_agreement": round(_agreement([p for ps in by_req.values() for p in ps], key), 4),
        "spearman": round(_spearman(rows, key), 4),
    }
    rng = np.random.default_rng(seed)
    agree, rho = [], []
    for _ in range(resamples):
        pick = rng.choice(len(requests), size=len(requests), replace=True)
        agree.append(_agreement([p for i in pick for p in by_req[requests[i]]], key))
        rho.append(_spearman([r for i in pick for r in members[requests[i]]], key))
    report["pair_agreement_ci"] = _ci(agree)
    report["spearman_ci"] = _ci(rho)
    return report


def reading_hard_fails(rows: list[dict], bad) -> dict:
    """The hard fails that rest on the request's reading alone (ReasonId.rests_on_reading) and
    the share of them on pages `bad` says a person would fail too: their precision."""
    from cogevol.rewards.reasons import ReasonId

    ids = {r.value for r in ReasonId if r.rests_on_reading}
    fails = [r for r in rows if r.get("hard_fail") and r.get("reason_id") in ids]
    right = sum(bool(bad(r)) for r in fails)
    return {"hard_fails": len(fails), "right": right,
            "precision": round(right / len(fails), 4) if fails else None}


def ablation(rows: list[dict], resamples: int = 200) -> dict[str, dict]:
    """Pair agreement and Spearman with each defect term left out (and with all of them: the
    gate alone), next to the full reward."""
    terms = sorted({k for r in rows for k in (r.get("weights_used") or {})})
    out = {"all terms": rows}
    for t in terms:
        out[f"without {t}"] = [{**r, "reward": reward_without(r, t)} for r in rows]
    out["gate only"] = [{**r, "reward": 0.0 if r["hard_fail"] else 1.0} for r in rows]
    return {
        name: {
            k: v
            for k, v in agreement_report(rs, resamples=resamples).items()
            if k in ("pair_agreement", "pair_agreement_ci", "spearman", "spearman_ci")
        }
        for name, rs in out.items()
    }


def merge(labels: list[dict], records: dict[str, dict]) -> list[dict]:
    """Labels joined with the probe's records (by file name); pages without a record are left
    out."""
    out = []
    for lab in labels:
        rec = records.get(lab["file"])
        if rec is not None:
            out.append(
                {
                    **rec,
                    **{k: lab[k] for k in LABEL_FIELDS if k != "expects"},
                    "label_expects": lab["expects"],
                    "reward": 0.0 if rec.get("reward") is None else rec["reward"],
                }
            )
    return out


async def probe_corpus(
    labels: list[dict], workers: int, params: dict, planner, root: Path
) -> dict[str, dict]:
    """Each label's page (`file` under `root`) probed against its `request` through the real
    scorers, its checklist planned by `planner` (a PlannerConfig): file -> the verdict's record.
    A `.html` file is the page; a `.txt` file is a model's whole answer, prose and fences kept."""
    from cogevol.checklist.planner import ChecklistPlanner
    from cogevol.core.progress import Progress
    from cogevol.scoring import ScoreItem, Scorers, ScoringSettings

    items = [
        (lab["file"], (root / lab["file"]).read_text(encoding="utf-8", errors="replace"))
        for lab in labels
    ]
    requests = {lab["file"]: lab["request"] for lab in labels}
    plans, stats = await ChecklistPlanner.plan_json(
        planner, [(requests[name], "html") for name, _ in items]
    )
    print(f"checklists {stats}")
    progress = Progress("pages probed", total=len(items), unit="pages")
    out = {}
    async with Scorers(
        ScoringSettings.from_params({"probe": params.get("probe")}, workers)
    ) as scorers:
        batch = [
            # a .txt file is a model's whole reply: the scorer pulls the page out of it
            ScoreItem("html", html, requests[name], raw=not name.endswith(".txt"), checklist=plan)
            for (name, html), plan in zip(items, plans)
        ]
        async for k, score in scorers.stream(batch):
            out[items[k][0]] = {"path": items[k][0], **score.details}
            progress.update(1)
    progress.done()
    return out


_QUOTE = re.compile(r'(?<!")"([^"\n]{4,160})"(?!")|“([^”\n]{4,160})”')
_CJK = re.compile(r"[\u3040-\u9fff\uac00-\ud7af]")


def _norm(s: str) -> str:
    return re.sub(r"\s+", " ", s.lower()).strip()


def rules_quotes(root: str | Path) -> set[str]:
    """Phrases the reward's rules quote (double-quoted, 3+ words, or 4+ CJK characters) in the
    library's code and lexicons: the trace a rule leaves when it was written after a miss on a
    request."""
    out = set()
    for p in sorted([*Path(root).rglob("*.py"), *Path(root).rglob("*.yaml")]):
        for m in _QUOTE.finditer(p.read_text(encoding="utf-8")):
            q = _norm(m.group(1) or m.group(2))
            if len(q.split()) >= 3 or (_CJK.search(q) and len(q) >= 4):
                out.add(q)
    return out


def developed_on(rows: list[dict], quotes: set[str]) -> set[str]:
    """The request ids whose request text holds a phrase the rules quote: in-sample requests,
    whose figures measure what the rules were fitted to, not how they generalise."""
    return {r["request_id"] for r in rows if any(q in _norm(r["request"]) for q in quotes)}
