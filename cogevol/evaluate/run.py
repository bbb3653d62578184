"""Score every system's answers on the suites with the training rewards, and summarise.

Per system: overall score 0-100 (mean reward x 100 over every item), a score per category,
hard failures (HTML answers that rendered nothing or have no live control; seed 000 counts them
out of HTML-500), render failures (no artifact, page not rendered, slides breaking the contract
or not rendering), and the slide validity rate. The same probe and slide scorer as GRPO, so an
evaluation number means what the training reward means.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from dataclasses import dataclass, field

from cogevol.browser.pool import BrowserConfig, BrowserPool
from cogevol.evaluate.suites import SuiteItem
from cogevol.probe.core import ProbeConfig
from cogevol.probe.runner import probe_all
from cogevol.rewards.slide import SlideScorer
from cogevol.rewards.trl import extract_html


@dataclass
class ItemResult:
    system: str
    item: SuiteItem
    reward: float
    hard_fail: bool = False
    render_failure: bool = False
    valid: bool | None = None  # slides: parses under the contract
    reason: str = ""
    details: dict = field(default_factory=dict)

    def record(self) -> dict:
        i = self.item
        return {"system": self.system, "id": i.id, "suite": i.suite, "kind": i.kind, "category": i.category,
                "reward": self.reward, "hard_fail": self.hard_fail, "render_failure": self.render_failure,
                "valid": self.valid, "reason": self.reason, **self.details}


async def score_outputs(system: str, items: list[SuiteItem], outputs: list[str | None], pool: BrowserPool,
                        scorer: SlideScorer, probe_cfg: ProbeConfig | None = None, workers: int = 1,
                        weights: dict | None = None, terms=None) -> list[ItemResult]:
    results: list[ItemResult | None] = [None] * len(items)
    pages = []
    for k, (item, out) in enumerate(zip(items, outputs)):
        if out is None:
            results[k] = ItemResult(system, item, 0.0, hard_fail=item.kind == "html", render_failure=True,
                                    valid=False if item.kind == "slide" else None, reason="no answer from the endpoint")
        elif item.kind == "html":
            doc = extract_html(out)
            if doc is None:
                results[k] = ItemResult(system, item, 0.0, hard_fail=True, render_failure=True,
                                        reason="no HTML document in the answer")
            else:
                pages.append((str(k), doc))
    requests = {k: items[int(k)].prompt for k, _ in pages}
    for r in await probe_all(pages, workers=workers, cfg=probe_cfg, pool=pool, weights=weights, judge=scorer.judge,
                             requests=requests, terms=terms):
        k = int(r["path"])
        results[k] = ItemResult(system, items[k], float(r["reward"]), hard_fail=r["hard_fail"],
                                render_failure=not r["rendered_ok"], reason=r["reason"],
                                details={"terms": r["terms"], "controls_live": r["controls_live"],
                                         "controls_operable": r["controls_operable"]})
    for k, (item, out) in enumerate(zip(items, outputs)):
        if item.kind == "slide" and out is not None:
            s = await scorer.score(out, item.prompt)
            results[k] = ItemResult(system, item, float(s.reward or 0.0), valid=s.valid,
                                    render_failure=not s.valid or bool(s.harness_error), reason=s.reason,
                                    details={"rule_score": s.rule_score, "vlm_score": s.vlm_score})
    return [r for r in results if r is not None]


def summarise(results: list[ItemResult]) -> dict:
    """Per-system headline numbers (see the module docstring)."""
    by_system: dict[str, list[ItemResult]] = defaultdict(list)
    for r in results:
        by_system[r.system].append(r)
    out = {}
    for system, rs in by_system.items():
        cats: dict[str, list[float]] = defaultdict(list)
        for r in rs:
            cats[f"{r.item.kind}/{r.item.category}"].append(r.reward)
        html = [r for r in rs if r.item.kind == "html"]
        slides = [r for r in rs if r.item.kind == "slide"]
        out[system] = {
            "overall": round(100 * sum(r.reward for r in rs) / len(rs), 2),
            "html_score": round(100 * sum(r.reward for r in html) / len(html), 2) if html else None,
            "slide_score": round(100 * sum(r.reward for r in slides) / len(slides), 2) if slides else None,
            "categories": {c: round(100 * sum(v) / len(v), 2) for c, v in sorted(cats.items())},
            "hard_fails": sum(r.hard_fail for r in html), "html_items": len(html),
            "render_failures": sum(r.render_failure for r in rs),
            "slide_validity": round(sum(bool(r.valid) for r in slides) / len(slides), 3) if slides else None,
            "items": len(rs),
        }
    return out


def comparison_markdown(summary: dict) -> str:
    """The comparison table managers read (also logged to MLflow as a table)."""
    cats = sorted({c for s in summary.values() for c in s["categories"]})
    head = ["system", "overall", "html", "slides", "hard fails", "render failures", "slide validity", *cats]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for system, s in summary.items():
        row = [system, f"{s['overall']:.1f}", _fmt(s["html_score"]), _fmt(s["slide_score"]),
               f"{s['hard_fails']}/{s['html_items']}", str(s["render_failures"]),
               "-" if s["slide_validity"] is None else f"{100 * s['slide_validity']:.0f}%",
               *(_fmt(s["categories"].get(c)) for c in cats)]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines) + "\n"


def _fmt(v: float | None) -> str:
    return "-" if v is None else f"{v:.1f}"


async def score_all(per_system: dict[str, tuple[list[SuiteItem], list[str | None]]], workers: int = 1,
                    probe_cfg: ProbeConfig | None = None, browser: BrowserConfig | None = None,
                    weights: dict | None = None, slide_kw: dict | None = None, judge=None, terms=None) -> list[ItemResult]:
    """Score every system's outputs on one browser pool."""
    out: list[ItemResult] = []
    async with BrowserPool(browser or BrowserConfig(instances=max(1, workers))) as pool:
        scorer = SlideScorer(pool, judge=judge, **(slide_kw or {}))
        try:
            for system, (items, outputs) in per_system.items():
                out += await score_outputs(system, items, outputs, pool, scorer, probe_cfg, workers, weights, terms)
        finally:
            await scorer.close()
            if judge is not None:
                await judge.aclose()
    return out


def run_scoring(per_system, **kw) -> list[ItemResult]:
    return asyncio.run(score_all(per_system, **kw))
