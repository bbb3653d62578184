"""Score every system's answers on the suites with the training rewards, and summarise.

Per system: overall score 0-100 (mean reward x 100 over every item), a score per category,
hard failures (HTML answers that rendered nothing or have no live control; seed 000 counts them
out of HTML-500), render failures (no artifact, page not rendered, slides breaking the contract
or not rendering), and the slide validity rate. The same probe and slide scorer as GRPO, so an
evaluation number means what the training reward means.
"""

from __future__ import annotations

import asyncio
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from cogevol.core.progress import Progress
from cogevol.evaluate.suites import SuiteItem
from cogevol.scoring.types import Score, ScoreItem


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
    # the answer's screenshots when asked for: a page's first screen, then the states its
    # inputs reached; a deck's slides
    images: list[bytes] = field(default_factory=list, repr=False)

    @property
    def image(self) -> bytes | None:
        """The first screenshot (None when none was kept)."""
        return self.images[0] if self.images else None

    def record(self) -> dict:
        i = self.item
        return {
            "system": self.system,
            "id": i.id,
            "suite": i.suite,
            "kind": i.kind,
            "category": i.category,
            "reward": self.reward,
            "hard_fail": self.hard_fail,
            "render_failure": self.render_failure,
            "valid": self.valid,
            "reason": self.reason,
            **self.details,
        }


def item_result(system: str, item: SuiteItem, score: Score) -> ItemResult:
    """An evaluation row from a Score: an HTML answer that failed the gate (or holds no page) is a
    hard fail; one that did not render, a render failure; a deck that breaks the contract or did
    not render, a render failure. No verdict (a harness error) scores 0 here, with its reason."""
    d = score.details
    if item.kind == "html":
        return ItemResult(
            system,
            item,
            float(score.reward or 0.0),
            hard_fail=score.gate == "fail",
            render_failure=not d.get("rendered_ok"),
            reason=score.reason,
            details={
                "reason_id": d.get("reason_id") or "",
                "terms": score.terms,
                "controls_live": d.get("controls_live"),
                "controls_operable": d.get("controls_operable"),
                "checks": d.get("checks") or [],
            },
            images=list(score.images),
        )
    return ItemResult(
        system,
        item,
        float(score.reward or 0.0),
        valid=d.get("valid"),
        render_failure=not d.get("valid") or bool(score.harness_error),
        reason=score.reason,
        details={
            "rule_score": d.get("rule_score"),
            "vlm_score": d.get("vlm_score"),
            "checks": d.get("checks") or [],
        },
        images=list(score.images),
    )


async def score_rows(rows: list[tuple[str, SuiteItem, str | None]], scorers) -> list[ItemResult]:
    """Score (system, item, answer) rows on `scorers` (cogevol.scoring: any transport) in one batch,
    in row order, with progress lines. An answer several systems gave to the same item is scored
    once (the scorers answer identical items together). No answer (an endpoint that gave none)
    is a failure with its reason, not an item left out."""
    answered = [k for k, (_, _, out) in enumerate(rows) if out is not None]
    batch = [
        ScoreItem(rows[k][1].kind, rows[k][2], rows[k][1].prompt, checklist=rows[k][1].checklist)
        for k in answered
    ]
    progress = Progress("evaluate: scored answers", total=len(batch), unit="answers")
    results: dict[int, ItemResult] = {}
    async for j, score in scorers.stream(batch):
        k = answered[j]
        results[k] = item_result(rows[k][0], rows[k][1], score)
        progress.update()
    progress.done()
    return [
        results.get(k)
        or ItemResult(
            system,
            item,
            0.0,
            hard_fail=item.kind == "html",
            render_failure=True,
            valid=False if item.kind == "slide" else None,
            reason="no answer from the endpoint",
        )
        for k, (system, item, _) in enumerate(rows)
    ]


async def score_outputs(
    system: str, items: list[SuiteItem], outputs: list[str | None], scorers
) -> list[ItemResult]:
    """Score one system's answers, in item order (`score_rows`)."""
    return await score_rows([(system, i, o) for i, o in zip(items, outputs)], scorers)


STRATA = ("l2", "difficulty", "lang")


def strata(items: list[SuiteItem]) -> dict[str, dict[str, str]]:
    """Each item's prompt -> its stratum values (seed 004's L2 and difficulty for html items by
    the offline classifier, cogevol.taxonomy; the language for every item: the suite's, else
    identified)."""
    from cogevol.taxonomy.classify import label_one

    out: dict[str, dict[str, str]] = {}
    for item in items:
        if item.prompt in out:
            continue
        lab = label_one(item.prompt)
        out[item.prompt] = {
            "l2": lab.l2 if item.kind == "html" else "",
            "difficulty": lab.difficulty if item.kind == "html" else "",
            "lang": item.lang or lab.lang or "?",
        }
    return out


def _means(groups: dict[str, list[float]]) -> dict[str, float]:
    return {c: round(100 * sum(groups[c]) / len(groups[c]), 2) for c in sorted(groups, key=_order)}


def _order(column: str) -> tuple[int, str]:
    """Columns in order: difficulty levels Easy to Hard, anything else alphabetically."""
    from cogevol.taxonomy.difficulty import LEVELS

    return (LEVELS.index(column) if column in LEVELS else len(LEVELS), column)


def summarise(results: list[ItemResult]) -> dict:
    """Per-system headline numbers (see the module docstring), with the score per L2 domain, per
    difficulty and per language (Cookie-Bench's Figure 8)."""
    by_system: dict[str, list[ItemResult]] = defaultdict(list)
    for r in results:
        by_system[r.system].append(r)
    where = strata([r.item for r in results])
    out = {}
    for system, rs in by_system.items():
        cats: dict[str, list[float]] = defaultdict(list)
        per: dict[str, dict[str, list[float]]] = {k: defaultdict(list) for k in STRATA}
        for r in rs:
            cats[f"{r.item.kind}/{r.item.category}"].append(r.reward)
            for k in STRATA:
                if value := where[r.item.prompt][k]:
                    per[k][value].append(r.reward)
        html = [r for r in rs if r.item.kind == "html"]
        slides = [r for r in rs if r.item.kind == "slide"]
        out[system] = {
            "overall": round(100 * sum(r.reward for r in rs) / len(rs), 2),
            "html_score": round(100 * sum(r.reward for r in html) / len(html), 2) if html else None,
            "slide_score": round(100 * sum(r.reward for r in slides) / len(slides), 2)
            if slides
            else None,
            "categories": _means(cats),
            **{f"by_{k}": _means(per[k]) for k in STRATA},
            "hard_fails": sum(r.hard_fail for r in html),
            # why, by fixed reason id (cogevol.rewards.reasons): format, substance or gate
            "hard_fails_by_reason": _by_reason([r for r in html if r.hard_fail]),
            "html_items": len(html),
            "render_failures": sum(r.render_failure for r in rs),
            "slide_validity": round(sum(bool(r.valid) for r in slides) / len(slides), 3)
            if slides
            else None,
            "items": len(rs),
        }
    return out


def _by_reason(rows: list[ItemResult]) -> dict[str, int]:
    return dict(sorted(Counter(r.details.get("reason_id") or "none" for r in rows).items()))


def comparison_markdown(summary: dict) -> str:
    """The comparison table managers read (also logged to MLflow as a table)."""
    cats = sorted({c for s in summary.values() for c in s["categories"]})
    head = [
        "system",
        "overall",
        "html",
        "slides",
        "hard fails",
        "render failures",
        "slide validity",
        *cats,
    ]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for system, s in summary.items():
        row = [
            system,
            f"{s['overall']:.1f}",
            _fmt(s["html_score"]),
            _fmt(s["slide_score"]),
            f"{s['hard_fails']}/{s['html_items']}",
            str(s["render_failures"]),
            "-" if s["slide_validity"] is None else f"{100 * s['slide_validity']:.0f}%",
            *(_fmt(s["categories"].get(c)) for c in cats),
        ]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines) + "\n" + strata_markdown(summary)


def _columns(summary: dict, k: str) -> list[str]:
    return sorted({c for s in summary.values() for c in s.get(f"by_{k}", {})}, key=_order)


def strata_figure(summary: dict):
    """Systems x strata heat maps (score 0-100) per L2 domain, difficulty and language."""
    from cogevol.pipeline.plots import heatmaps

    systems = list(summary)
    panels = {}
    for k, title in (("l2", "domain (L2)"), ("difficulty", "difficulty"), ("lang", "language")):
        cols = _columns(summary, k)
        if cols:
            values = [[summary[s][f"by_{k}"].get(c) for c in cols] for s in systems]
            panels[title] = (systems, cols, values)
    return heatmaps(panels, "score by stratum") if panels else None


def strata_markdown(summary: dict) -> str:
    """Each system's score per L2 domain, difficulty and language: one small table per axis."""
    out = []
    for k, title in (("l2", "domain (L2)"), ("difficulty", "difficulty"), ("lang", "language")):
        cols = _columns(summary, k)
        if not cols:
            continue
        out += ["", f"Score by {title}:", "", "| system | " + " | ".join(cols) + " |"]
        out.append("|" + "---|" * (len(cols) + 1))
        for system, s in summary.items():
            row = [_fmt(s[f"by_{k}"].get(c)) for c in cols]
            out.append(f"| {system} | " + " | ".join(row) + " |")
    return "\n".join(out) + ("\n" if out else "")


def _fmt(v: float | None) -> str:
    return "-" if v is None else f"{v:.1f}"


async def score_all(
    per_system: dict[str, tuple[list[SuiteItem], list[str | None]]], scorers
) -> list[ItemResult]:
    """Score every system's outputs in one batch on one set of scorers, closed at the end."""
    async with scorers:
        return await score_rows(
            [
                (system, i, o)
                for system, (items, outputs) in per_system.items()
                for i, o in zip(items, outputs)
            ],
            scorers,
        )


def run_scoring(per_system, scorers) -> list[ItemResult]:
    return asyncio.run(score_all(per_system, scorers))
