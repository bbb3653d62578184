"""The hybrid slide reward: 0.6 * vision-language judge + 0.4 * geometric rules, both on 0-5.

Order of checks: the output must parse under the contract (else reward 0 with the contract's
reason); the deck is rendered and the rule engine scores it; when a judge is configured, each
slide's screenshot is judged and the mean of its visual and content scores is the judge term;
the request's checklist (cogevol.checklist: the deck's language, the slide count, named
elements, the topic's words) gives the fulfilment term, 5 x (1 - the share it misses).
A term that cannot be computed (no judge configured, or the judge failed after its retries) is
left out and the weights renormalised; `terms_used` / `weights_used` say which terms made the
score. Each term is a defect on 0..1 (cogevol.rewards.verdict: a 0-5 score enters as
1 - score / 5), so `reward`, 1 - the weighted mean of the defects, is the 0-5 score divided by
5: the 0..1 scale of the RL trainers and of every other verdict.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field

from cogevol.browser.pool import BrowserPool
from cogevol.checklist import PageFacts, checklist_for, fulfilment, run_checklist
from cogevol.core.config import Weights, check_weights
from cogevol.rewards.verdict import Defects, Verdict, weigh
from cogevol.slides.contract import ContractError, parse
from cogevol.slides.normalise import normalise
from cogevol.slides.render import SlideRenderer
from cogevol.slides.rules import RuleConfig, evaluate, rule_config

log = logging.getLogger(__name__)

# vlm and rules: seed 000; fulfilment: the request's checklist
# vlm_pick: group pick, when a group is scored with it on (cogevol.scoring.group_judging)
DEFAULT_WEIGHTS = Weights({"vlm": 0.6, "rules": 0.4, "fulfilment": 0.25, "vlm_pick": 0.3})


@dataclass(kw_only=True)
class SlideScore(Verdict):
    """The verdict on a deck (cogevol.rewards.verdict.Verdict: its terms are defects, a 0-5
    score entering as 1 - score / 5) and the deck's own scores on 0-5."""

    valid: bool = False  # parsed under the contract
    score: float = 0.0  # 0-5: 5 x reward
    rule_score: float | None = None  # 0-5
    vlm_score: float | None = None  # 0-5
    rules: dict[str, float | None] = field(default_factory=dict)
    violations: list[str] = field(default_factory=list)
    terms_used: list[str] = field(default_factory=list)
    judge: list[dict] = field(default_factory=list)  # per-slide verdicts (visual, content, reasons)
    # 0-5: 5 x (1 - share of the request's checklist the deck misses)
    fulfilment_score: float | None = None
    normalised: bool = False
    fixes: list[str] = field(default_factory=list)
    slides: int = 0
    pngs: list[bytes] = field(default_factory=list, repr=False)  # one per slide, when asked for

    RECORD_SKIP = frozenset({"pngs"})

    def images(self) -> list[bytes]:
        return list(self.pngs)


def settings(params: dict) -> dict:
    """SlideScorer keyword arguments from the params.yaml `slides` group."""
    return {
        "rules": rule_config(params.get("rules") or {}),
        "weights": check_weights(params.get("weights"), DEFAULT_WEIGHTS, "slides.weights"),
        "normalise_schema": bool(params.get("normalise", False)),
        "pages": int(params.get("pages", 1)),
    }


class SlideScorer:
    """Scores slide outputs on a shared browser pool; one instance serves a whole run."""

    def __init__(
        self,
        pool: BrowserPool,
        rules: RuleConfig | None = None,
        weights: dict[str, float] | None = None,
        judge=None,
        normalise_schema: bool = False,
        pages: int = 1,
        screenshots: bool = False,
    ):
        self.rules = rules or RuleConfig()
        self.weights = check_weights(weights, DEFAULT_WEIGHTS, "slides.weights") or DEFAULT_WEIGHTS
        self.judge = judge  # a cogevol.judge.vlm.VisionJudge, or None for rules only
        self.normalise_schema = normalise_schema
        self.screenshots = screenshots or judge is not None
        self.renderer = SlideRenderer(pool, pages=pages)

    async def score(
        self, output: str | dict, request: str = "", checklist: dict | None = None
    ) -> SlideScore:
        """The verdict on one deck answering `request`; `checklist`: the request's stored
        checklist (JSON), else the rules plan one."""
        t0 = time.perf_counter()
        result = await self._score(output, request, checklist)
        result.seconds = round(time.perf_counter() - t0, 4)
        return result

    async def _score(
        self, output: str | dict, request: str, checklist: dict | None = None
    ) -> SlideScore:
        fixes: list[str] = []
        try:
            if self.normalise_schema:
                output, fixes = normalise(output)
            deck = parse(output)
        except ContractError as e:
            return SlideScore(
                valid=False,
                hard_fail=True,
                reward=0.0,
                reason=f"contract: {e}",
                violations=[f"contract: {m}" for m in e.errors],
                normalised=bool(fixes),
                fixes=fixes,
            )
        try:
            rendered = await self.renderer.render(deck, screenshots=self.screenshots)
        except Exception as e:  # the browser's fault, not the output's
            log.warning("slide render failed: %s", e)
            return SlideScore(
                valid=True,
                reward=None,
                reason="harness error while rendering",
                harness_error=f"{type(e).__name__}: {e}"[:300],
                slides=len(deck.slides),
                normalised=bool(fixes),
                fixes=fixes,
            )
        report = evaluate(deck, rendered.slides, self.rules)
        vlm, verdicts, judge_note = await self._judge(rendered.pngs, request)
        checks = (
            run_checklist(checklist_for(request, "slide", checklist), deck_facts(deck))
            if (request or checklist)
            else []
        )
        unmet, _ = fulfilment(checks)
        fulfil = None if unmet is None else round(5 * (1 - unmet), 3)
        terms = Defects()
        for name, value in (("rules", report.score), ("vlm", vlm), ("fulfilment", fulfil)):
            if value is not None:
                terms.update(Defects.from_score(name, value))
        reward, used = weigh(terms, self.weights)
        reason = _reason(report.violations, judge_note)
        judged = [c for c in checks if c.status != "unverifiable"]
        if judged:
            missed = [c.value for c in judged if c.status == "unmet"]
            reason += f"; request checklist: {len(judged) - len(missed)}/{len(judged)} met" + (
                f" (missing: {', '.join(missed[:3])})" if missed else ""
            )
        return SlideScore(
            valid=True,
            rendered_ok=True,
            reward=round(reward, 4),
            score=round(5 * reward, 3),
            terms=terms,
            rule_score=report.score,
            vlm_score=vlm,
            reason=reason,
            rules=report.rules,
            violations=report.violations,
            terms_used=sorted(used),
            weights_used=used,
            judge=verdicts,
            normalised=bool(fixes),
            fixes=fixes,
            slides=len(deck.slides),
            pngs=rendered.pngs,
            fulfilment_score=fulfil,
            checks=[c.as_dict() for c in checks],
            judge_error=judge_note if self.judge is not None and vlm is None else "",
        )

    async def _judge(self, pngs: list[bytes], request: str) -> tuple[float | None, list[dict], str]:
        if self.judge is None:
            return None, [], "no judge configured"
        from cogevol.judge.vlm import JudgeError

        results = await asyncio.gather(
            *(self.judge.score("slide", png, request) for png in pngs), return_exceptions=True
        )
        bugs = [
            r for r in results if isinstance(r, BaseException) and not isinstance(r, JudgeError)
        ]
        if bugs:
            raise bugs[0]
        failed = [r for r in results if isinstance(r, JudgeError)]
        if failed:  # retried inside the client already; the term is left out, not guessed
            return None, [], f"judge failed on {len(failed)}/{len(pngs)} slide(s): {failed[0]}"
        verdicts = [
            {"visual": r.visual, "content": r.content, "reasons": r.reasons, "cached": r.cached}
            for r in results
        ]
        vlm = sum((v["visual"] + v["content"]) / 2 for v in verdicts) / len(verdicts)
        return round(vlm, 3), verdicts, ""

    async def close(self) -> None:
        await self.renderer.close()


def deck_facts(deck) -> PageFacts:
    """What a deck shows, as the request's checklist reads it: its text (titles, text, bullets,
    tables, chart titles and categories, image alt texts), slide count and element types."""
    parts, elements = [], {}
    for slide in deck.slides:
        for el in slide:
            elements[el.type] = elements.get(el.type, 0) + 1
            p = el.props
            for k in ("text", "title", "alt"):
                if isinstance(p.get(k), str):
                    parts.append(p[k])
            for k in ("items", "header", "categories"):
                parts += [str(x) for x in p.get(k) or []]
            parts += [str(x) for row in p.get("rows") or [] for x in row]
    return PageFacts(text="\n".join(parts), slides=len(deck.slides), elements=elements)


def _reason(violations: list[str], judge_note: str) -> str:
    head = (
        f"{len(violations)} rule violation(s): {violations[0]}"
        if violations
        else "no rule violations"
    )
    return f"{head}; {judge_note}" if judge_note else head
