"""The `filter` stage's library: deduplicated requests in, admissible prompts out.

Every record is checked on all seven axes independently (one failure does not hide another);
kept records become prompts for distillation, dropped ones are written with all their reasons,
and per-axis / per-reason counts become DVC and MLflow metrics.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

import orjson

from cogevol.checklist.planner import PlannerConfig, plan_checklists
from cogevol.core import shards
from cogevol.core.config import from_dict
from cogevol.core.progress import Progress
from cogevol.curate.axes import AXES
from cogevol.curate.base import Verdict
from cogevol.curate.rules import default_filters
from cogevol.pipeline.stage_counts import add_counts
from cogevol.taxonomy.classify import TaxonomyConfig, classify
from cogevol.taxonomy.difficulty import LEVELS

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class FilterConfig:
    """params.yaml: filter (the values and their meaning live there)."""

    method: str = "rules"
    allowed_categories: tuple[str, ...] = ("slide", "html")
    min_content_units: float = 2.0
    drop_redacted: bool = False
    judge: dict = field(default_factory=dict)


OUTPUTS = ("prompts", "dropped", "review")


@dataclass
class FilterStats:
    input: int = 0
    kept: int = 0
    dropped: int = 0
    routed: int = 0
    judge_errors: int = 0
    by_axis: Counter = field(default_factory=Counter)
    by_reason: Counter = field(default_factory=Counter)
    kept_by_category: Counter = field(default_factory=Counter)
    checklists: dict = field(default_factory=dict)  # how the kept prompts' checklists were planned
    # the kept prompts by seed 004's axes (cogevol.taxonomy), and which classifier placed them
    kept_by_l1: Counter = field(default_factory=Counter)
    kept_by_l2: Counter = field(default_factory=Counter)
    kept_by_difficulty: Counter = field(default_factory=Counter)
    kept_by_lang: Counter = field(default_factory=Counter)
    taxonomy: dict = field(default_factory=dict)

    def merge(self, other: FilterStats) -> None:
        """Add another piece's counts (the Ray engine filters chunk by chunk)."""
        add_counts(self, other)

    def as_metrics(self) -> dict:
        return {
            "input": self.input,
            "kept": self.kept,
            "dropped": self.dropped,
            "routed": self.routed,
            "judge_errors": self.judge_errors,
            "keep_rate": round(self.kept / self.input, 4) if self.input else 0.0,
            "dropped_by_axis": {a: self.by_axis.get(a, 0) for a in AXES},
            "dropped_by_reason": dict(self.by_reason.most_common()),
            "kept_by_category": dict(self.kept_by_category),
            "checklists": dict(sorted(self.checklists.items())),
            "kept_by_l1": dict(sorted(self.kept_by_l1.items())),
            "kept_by_l2": dict(self.kept_by_l2.most_common()),
            "kept_by_difficulty": {
                d: self.kept_by_difficulty[d] for d in LEVELS if self.kept_by_difficulty[d]
            },
            "kept_by_lang": dict(self.kept_by_lang.most_common()),
            "taxonomy": dict(sorted(self.taxonomy.items())),
        }

    def strata_rows(self) -> list[tuple[str, str, int]]:
        """(axis, value, kept prompts) for the strata plot: L1, L2, difficulty, language."""
        m = self.as_metrics()
        return [
            (axis, value, n)
            for axis in ("l1", "l2", "difficulty", "lang")
            for value, n in m[f"kept_by_{axis}"].items()
        ]


def reason_key(v: Verdict) -> str:
    """A drop's key in the metrics: axis and reason id ("safety.phishing")."""
    return f"{v.axis}.{v.reason}"


def modality(rec: dict) -> str:
    return "slide" if rec.get("category") == "slide" else "html"


def to_prompt(rec: dict) -> dict:
    """The prompt record that distill, GRPO and evaluate read (the checklist is added by
    `run_filter`, planned once for every kept prompt)."""
    return {
        "id": rec["id"],
        "prompt": rec["request"],
        "category": rec["category"],
        "subcategory": rec.get("subcategory"),
        "lang": rec.get("lang"),
        "locale": rec.get("locale"),
        "failure": rec.get("failure"),
        "dedup": rec.get("dedup"),
        "provenance": rec.get("provenance"),
    }


def _rule_verdicts(
    records: list[dict], cfg: dict
) -> Iterator[tuple[str, list[Verdict], str | None]]:
    filters = default_filters(cfg)
    for rec in records:
        verdicts = [f(rec) for f in filters]
        yield ("drop" if any(not v.keep for v in verdicts) else "keep"), verdicts, None


def _judge_verdicts(
    records: list[dict], cfg: dict
) -> Iterator[tuple[str, list[Verdict], str | None]]:
    from cogevol.curate.judge import FilterJudgeConfig, LLMJudge

    judge = LLMJudge(from_dict(FilterJudgeConfig, cfg.get("judge")))
    try:
        batch = 256
        for s in range(0, len(records), batch):
            for d in judge.judge_many([r["request"] for r in records[s : s + batch]]):
                yield (
                    {"accept": "keep", "reject": "drop", "route": "route"}[d.decision],
                    d.verdicts,
                    d.error,
                )
    finally:
        judge.close()


def filter_records(
    records: Iterable[dict], cfg: dict, stats: FilterStats
) -> Iterator[tuple[str, dict]]:
    """Yield (destination, record) with destination in kept / dropped / review."""
    records = list(records)
    method = cfg.get("method", "rules")
    if method not in ("rules", "llm"):
        raise ValueError(f"filter.method must be 'rules' or 'llm', got {method!r}")
    verdicts = _rule_verdicts(records, cfg) if method == "rules" else _judge_verdicts(records, cfg)
    progress = Progress("filter", total=len(records), unit="records")
    for rec, (decision, vs, error) in zip(records, verdicts):
        stats.input += 1
        progress.update()
        failed = [v for v in vs if not v.keep]
        admissibility = {v.axis: ("pass" if v.keep else v.reason) for v in vs}
        if decision == "keep":
            stats.kept += 1
            stats.kept_by_category[rec.get("category")] += 1
            yield "kept", {**to_prompt(rec), "admissibility": admissibility}
            continue
        for v in failed:
            stats.by_axis[v.axis] += 1
            stats.by_reason[reason_key(v)] += 1
        out = {
            **rec,
            "admissibility": admissibility,
            "drop_reasons": [v.to_json() for v in failed],
        }
        if error:
            stats.judge_errors += 1
            out["judge_error"] = error
        if decision == "drop":
            stats.dropped += 1
            yield "dropped", out
        else:
            stats.routed += 1
            yield "review", out
    progress.done()


def filter_lines(
    records: Iterable[dict],
    cfg: dict,
    planner: PlannerConfig,
    stats: FilterStats,
    taxonomy: TaxonomyConfig | None = None,
) -> dict[str, list[bytes]]:
    """The lines of prompts.jsonl, dropped.jsonl and review.jsonl for `records`, in order: each
    record filtered on the seven axes, each kept prompt's checklist planned on `planner` and its
    task type, difficulty and language labelled on `taxonomy` (default: the offline rules)."""
    out: dict[str, list[bytes]] = {name: [] for name in OUTPUTS}
    kept: list[dict] = []
    for dest, rec in filter_records(records, cfg, stats):
        if dest == "kept":
            kept.append(rec)
        else:
            out[dest].append(orjson.dumps(rec) + b"\n")
    plans, counts = plan_checklists(planner, [(r["prompt"], modality(r)) for r in kept])
    for how, k in counts.items():
        stats.checklists[how] = stats.checklists.get(how, 0) + k
    labels, counts = classify(
        [r["prompt"] for r in kept], taxonomy, modalities=[modality(r) for r in kept]
    )
    for how, k in counts.items():
        stats.taxonomy[how] = stats.taxonomy.get(how, 0) + k
    for lab in labels:
        stats.kept_by_l1[lab.l1] += 1
        stats.kept_by_l2[lab.l2] += 1
        stats.kept_by_difficulty[lab.difficulty] += 1
        stats.kept_by_lang[lab.lang or "?"] += 1
    out["prompts"] = [
        orjson.dumps({**rec, "checklist": plan.to_json(), "taxonomy": lab.to_json()}) + b"\n"
        for rec, plan, lab in zip(kept, plans, labels)
    ]
    return out


def run_filter(
    input_path: str | Path,
    out_dir: str | Path,
    cfg: dict,
    planner: PlannerConfig | None = None,
    taxonomy: TaxonomyConfig | None = None,
) -> FilterStats:
    """Filter a JSONL of requests (a file or a directory of parts) into prompts.jsonl,
    dropped.jsonl and review.jsonl under `out_dir`. `cfg` is the params group, checked strictly
    (a misspelt key is an error). Each kept prompt's checklist is planned once, on `planner`
    (params.yaml `checklist`; default: the rules), and stored with it; `stats.checklists` counts
    how each was planned. Each kept prompt is labelled on `taxonomy` (params.yaml `taxonomy`:
    task type, difficulty, language; `stats.taxonomy` counts which classifier placed them)."""
    cfg = asdict(from_dict(FilterConfig, cfg))
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    stats = FilterStats()
    lines = filter_lines(
        shards.iter_jsonl(input_path),
        cfg,
        planner or PlannerConfig(source="rules"),
        stats,
        taxonomy,
    )
    for name, body in lines.items():
        target = out / f"{name}.jsonl"
        shards.clear(target)  # a Ray run may have left a part directory here
        tmp = out / f"{name}.jsonl.tmp"
        tmp.write_bytes(b"".join(body))
        tmp.replace(target)
    return stats
