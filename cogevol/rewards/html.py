"""The interactive-HTML reward: a hard-fail gate that follows the request, then 1 - weighted mean
of defect terms.

The gate asks what the request asks for (cogevol.rewards.expects): an interactive request needs
a control whose input changes what is shown; an animation needs visible change on its own (in
the quiet window, or after an input started it); a static page needs to render. A mix needs
each of its parts. Without a request the gate is the interactive one.

Defect terms (each in 0..1; params.yaml probe.weights and probe.terms):
- interactivity: 1 - live / driven controls of the first screen; when the request asks for
  interaction or the page's own code wires its controls (cogevol.probe.wiring), so a
  decorative button no code is behind earns and costs nothing;
- revealed: 1 - live / driven controls that an input revealed (the game behind Play, a list
  item's buttons, a second tab; cogevol.probe.explore), so a page whose second screen is dead
  scores below one whose second screen works; whatever the request asks for (such a control
  exists only because an input of the page worked, so a dead one is a broken part);
- viewport_desktop / _tablet / _mobile: horizontal overflow, clipped, tiny or low-contrast text,
  overlapping text at 1280, 768 and 375 px;
- blank: the first screen is mostly background (a blank canvas with one small sprite);
- filler: the page shows lorem ipsum where its content should be (cogevol.rewards.filler),
  unless the request asks for placeholder text;
- console_errors: uncaught errors and console.error calls while loading and in use;
- response: share of driven controls whose input threw an error;
- fulfilment: weighted share of the request's checks the page misses, its subject and language
  aside (controls, labels, keys, counts; cogevol.checklist.request_fit; unverifiable checks are
  left out);
- language: 1 when the page is written in another language than the request's: a priced defect,
  never a gate;
- the subject (the things the request names, under their names in any traffic language) scales
  the reward: probe.terms.subject_floor + the rest times the share shown, so a working page about
  another subject scores low whatever its language; a page that shows none of them, each looked
  for in the page's language, fails the gate when probe.terms.fulfilment_gate is on;
- vlm_visual, vlm_content: the judge's, when one is configured;
- vlm_pick: (1 - the group-pick score) / 2, when rollouts are scored as a group with group pick
  on (cogevol.scoring.group_judging).
Absent terms are left out and the weights renormalised; every score records the terms it used.
Harness failures (the probe's own errors) carry `harness_error` and no reward, so a broken
harness never punishes the policy. The budget is never a verdict: controls the budget left
undriven are `skipped`, and only driven controls count.
"""

from __future__ import annotations

import asyncio
import logging
import re
from dataclasses import dataclass, field, fields, replace

from cogevol.browser.pool import BrowserPool
from cogevol.checklist import (
    CheckResult,
    PageFacts,
    checklist_for,
    lexicon,
    request_fit,
    run_checklist,
)
from cogevol.core.config import Weights, check_weights
from cogevol.probe import ProbeConfig, ProbeResult, probe_html
from cogevol.probe.motion import STILL
from cogevol.rewards.answer_format import FormatFault, shown_fault
from cogevol.rewards.expects import INTERACTIVE_DEFAULT, Expects, expects_for
from cogevol.rewards.filler import asks_for_filler, shows_filler
from cogevol.rewards.reasons import ReasonId
from cogevol.rewards.substance import EMPTY_CAP, emptiness
from cogevol.rewards.verdict import Defects, Verdict, weigh

log = logging.getLogger(__name__)

DEFAULT_WEIGHTS = Weights(
    {
        "vlm_visual": 0.2,
        "vlm_content": 0.2,
        "vlm_pick": 0.3,
        "interactivity": 0.25,
        "revealed": 0.25,
        "viewport_desktop": 0.1,
        "viewport_tablet": 0.1,
        "viewport_mobile": 0.1,
        "blank": 0.15,
        "filler": 0.15,
        "console_errors": 0.1,
        "response": 0.1,
        "fulfilment": 0.5,
        "language": 0.35,
    }
)


@dataclass(frozen=True)
class TermSettings:
    """Scales of the browser-measured terms (params.yaml: probe.terms)."""

    fill_target: float = 0.25
    errors_full: int = 3
    unavailable: str = "penalise"
    fulfilment_gate: bool = True
    subject_floor: float = 0.3
    task_evidence: float = 3.0
    reading_confidence: float = 0.9

    def __post_init__(self) -> None:
        if self.task_evidence <= 0:
            raise ValueError(f"probe.terms.task_evidence must be > 0, not {self.task_evidence}")
        if not 0 < self.reading_confidence <= 1:
            raise ValueError(
                f"probe.terms.reading_confidence must be in (0, 1], not {self.reading_confidence}"
            )


@dataclass(kw_only=True)
class HtmlScore(Verdict):
    """The verdict on a page (cogevol.rewards.verdict.Verdict) and what it rests on: the
    controls driven and found live, what the request expects, and the probe's own report."""

    interactivity: float = 0.0  # live / driven controls of the first screen
    # the factor the request's subject put on the reward (probe.terms.subject_floor + the rest
    # times the share of the subject shown; 1 when the request names no subject)
    subject: float = 1.0
    # the factor unmet expectations of an unsure reading put on the reward (the product of
    # 1 - confidence over them; 1 when every expectation is met or none is unsure) and
    # their kinds
    reading: float = 1.0
    unmet: list[str] = field(default_factory=list)
    controls_total: int = 0
    controls_operable: int = 0  # driven (operable and given a verdict)
    controls_live: int = 0
    controls_excluded: int = 0
    controls_skipped: int = 0  # left undriven by the page budget: not verdicts
    expects: list[str] = field(default_factory=list)
    # failed the gate, broken (not rendered, or errors) and a script or stylesheet was blocked
    resource_failure: bool = False
    # what the probe measured (set by HtmlScorer); its report joins the record
    probe: ProbeResult | None = field(default=None, repr=False)

    RECORD_SKIP = frozenset({"probe"})

    def extra_record(self) -> dict:
        """The probe's report under the verdict's fields (`cogevol probe` prints both, the
        contract in docs/probe.md)."""
        report = (self.probe or ProbeResult()).report()
        own = {f.name for f in fields(self)}
        return {k: v for k, v in report.items() if k not in own} | {
            "no_reward": self.reward is None
        }

    def images(self) -> list[bytes]:
        """The first screen, then the states inputs reached (when screenshots were kept)."""
        if self.probe is None or not self.probe.screenshot:
            return []
        return [self.probe.screenshot, *self.probe.state_shots]


def not_a_page(fault: FormatFault) -> HtmlScore:
    """The verdict on an answer that is not a page by its text (no document, two documents, cut
    off: cogevol.rewards.answer_format.answer_fault): the gate fails before any probe."""
    why = f"hard fail: not a page: {fault.why}"
    return HtmlScore(
        reward=0.0,
        reason=why,
        reason_id=fault.id,
        hard_fail=True,
        probe=ProbeResult(reason=why),
    )


def page_facts(result: ProbeResult, html: str) -> PageFacts:
    """What the probed page shows, as the request's checklist reads it."""
    controls = [
        {
            "kind": c.kind,
            "type": c.type,
            "label": c.label,
            "verdict": c.verdict,
            "status": c.status,
            "reason": c.reason,
        }
        for c in result.controls
    ]
    return PageFacts(
        text=result.text,
        controls=controls,
        groups=list(result.groups),
        source=html,
        scene=result.scene,
        drawn=result.drawn,
        flows=list(result.flows),
    )


def viewport_defect(v: dict) -> float:
    """Horizontal overflow, clipped text, unreadable (< 11 px or contrast < 3:1) text, overlapping
    text boxes."""
    if not v:
        return 0.0
    n = max(1, v["textEls"])
    d = (
        0.35 * (v["overflow"] > 8)
        + 0.25 * min(1.0, 5 * v["clipped"] / n)
        + 0.15 * min(1.0, 2 * v["small"] / n)
        + 0.15 * min(1.0, 2 * v.get("lowContrast", 0) / n)
        + 0.1 * min(1.0, v["overlaps"] / 3)
    )
    return round(min(1.0, d), 4)


# blocked requests that cannot break a page: pictures, fonts, media
_HARMLESS = re.compile(
    r"\.(png|jpe?g|gif|webp|avif|svg|ico|bmp|woff2?|ttf|otf|eot|mp3|wav|ogg|mp4|webm)([?#]|$)|fonts\.(googleapis|gstatic)\.com",
    re.I,
)


def breaking_blocked(result: ProbeResult) -> list[str]:
    """Blocked requests that may be why a page failed: scripts, stylesheets, modules, data."""
    return [u for u in (result.resources or {}).get("blocked", []) if not _HARMLESS.search(u)]


def score(
    result: ProbeResult,
    expects: Expects | None = None,
    judge_terms: dict[str, float] | None = None,
    weights: dict[str, float] | None = None,
    settings: TermSettings | None = None,
    checks: list[CheckResult] | None = None,
    filler_asked: bool = False,
) -> HtmlScore:
    """The verdict on a probed page: the gate, then 1 - weighted mean of the defect terms.
    `checks` are the request's checklist run against the page (cogevol.checklist): the
    share it misses is the `fulfilment` term, and missing every must-have fails the gate.
    `filler_asked`: the request asks for placeholder text (no `filler` term)."""
    expects = expects or INTERACTIVE_DEFAULT
    weights = check_weights(weights, DEFAULT_WEIGHTS, "probe.weights") or DEFAULT_WEIGHTS
    settings = settings or TermSettings()
    driven = [c for c in result.controls if c.status == "operable" and c.verdict]
    live = [c for c in driven if c.verdict == "live"]
    skipped = result.controls_skipped
    top = [c for c in driven if not c.depth]
    interactivity = sum(c.verdict == "live" for c in top) / len(top) if top else 0.0
    base = dict(
        rendered_ok=result.rendered_ok,
        interactivity=round(interactivity, 4),
        controls_total=len(result.controls),
        controls_operable=len(driven),
        controls_live=len(live),
        controls_skipped=skipped,
        controls_excluded=sum(c.status == "excluded" for c in result.controls),
        expects=list(expects.kinds),
        checks=[c.as_dict() for c in checks or []],
        seconds=result.seconds,
        probe=result,
    )
    fit = request_fit(checks or [])
    if result.outcome == "harness_error":
        return HtmlScore(
            reward=None,
            reason=result.reason,
            harness_error=result.reason,
            reason_id=ReasonId.HARNESS,
            **base,
        )
    fail, fail_id, unmet = _gate(
        result, expects, driven, live, skipped, settings.reading_confidence
    )
    empty = emptiness(result, len(live)) if not fail else ""
    if empty and (expects.source == "none" or not expects.static or fit.subject is not None):
        # the request asks for something to see or do
        fail, fail_id = f"hard fail: {empty}", ReasonId.EMPTY
    if not fail and fit.off_request and settings.fulfilment_gate and result.rendered_ok:
        fail, fail_id = "hard fail: " + fit.off_request, ReasonId.OFF_REQUEST
    if fail:
        blocked = breaking_blocked(result) if not result.rendered_ok or result.error_count else []
        if blocked:  # it broke and a script or stylesheet was missing: maybe not the page's fault
            why = (
                f"hard fail: resource unavailable ({len(blocked)} blocked: "
                f"{', '.join(u[:80] for u in blocked[:2])}); {fail}"
            )
            rid = ReasonId.RESOURCE
            if settings.unavailable == "none":
                return HtmlScore(
                    reward=None, reason=why, reason_id=rid, resource_failure=True, **base
                )
            return HtmlScore(
                hard_fail=True, reward=0.0, reason=why, reason_id=rid, resource_failure=True, **base
            )
        return HtmlScore(hard_fail=True, reward=0.0, reason=fail, reason_id=fail_id, **base)
    terms = _terms(result, expects, driven, live, settings)
    filler = not filler_asked and shows_filler(result.text)
    if filler:
        terms["filler"] = 1.0
    if fit.fulfilment is not None:
        terms["fulfilment"] = fit.fulfilment
    if fit.language is not None:
        terms["language"] = fit.language
    for k, v in (judge_terms or {}).items():
        terms[k] = min(1.0, max(0.0, float(v)))
    reward, used = weigh(Defects(terms), weights)
    why = _reason(result, expects, driven, live, skipped)
    if filler:
        why += "; lorem ipsum filler shown"
    if checks:
        judged = [c for c in checks if c.status != "unverifiable"]
        why += f"; request checklist: {sum(c.status == 'met' for c in judged)}/{len(judged)} met"
        missed = [c for c in judged if c.status == "unmet"]
        if missed:
            why += f" (missing: {', '.join(c.value for c in missed[:3])})"
    subject = 1.0
    if fit.subject is not None:
        # what the request is about outweighs the parts every page has (a slider, a Reset):
        # a working page about another subject scores low, whatever its language
        subject = round(settings.subject_floor + (1 - settings.subject_floor) * fit.subject, 4)
        reward *= subject
        if subject < 1:
            why += f"; subject shown {fit.subject:.0%}: reward x {subject:g}"
    reading = 1.0
    for u in unmet:
        # an unsure reading: the reward it would get on average over the reading being right
        # (zero) or wrong (as scored)
        reading *= 1 - u.probability
        what = u.why.removeprefix("hard fail: ")
        why += (
            f"; {what}, which the request asks for with probability {u.probability:.2f}"
            f" (too unsure to fail it): reward x {1 - u.probability:.2g}"
        )
    reward *= reading
    if empty:  # a bare page whose request asks for nothing to see or do
        reward = min(reward, EMPTY_CAP)
        why += f"; {empty}: reward at most {EMPTY_CAP:g}"
    rid = ReasonId.EMPTY if empty else ReasonId.UNMET if unmet else ReasonId.OK
    return HtmlScore(
        reason_id=rid,
        reward=round(reward, 4),
        reason=why,
        terms=Defects(terms),
        weights_used=used,
        subject=subject,
        reading=round(reading, 4),
        unmet=[u.kind for u in unmet],
        **base,
    )


@dataclass(frozen=True)
class Unmet:
    """A kind of life the request's reading asks for and the page lacks: a hard fail when the
    reading is sure (`confidence` >= probe.terms.reading_confidence), else a price."""

    kind: str
    why: str  # "hard fail: nothing moves on its own ..."
    reason_id: ReasonId
    probability: float  # that the request asks for it: what prices it
    confidence: float  # in that probability: what a hard fail needs


def _gate(
    result: ProbeResult,
    expects: Expects,
    driven: list,
    live: list,
    skipped: int,
    sure_at: float = 0.9,
) -> tuple[str, ReasonId | None, list[Unmet]]:
    """Why the page fails the gate and its reason id (("", None) when it passes), and the
    expectations it leaves unmet on a reading too unsure to fail it (priced by the caller).
    First what the page shows of itself (not rendered, not a page, controls its own code wires
    that all do nothing), then what the request's reading asks for."""
    if result.outcome in ("page_hung", "page_crashed", "page_navigated") or not result.rendered_ok:
        return f"hard fail: {result.reason or 'not rendered'}", ReasonId.NOT_RENDERED, []
    fault = shown_fault(result.shown)
    if fault is not None:
        return f"hard fail: not a page: {fault.why}", fault.id, []
    if _broken_controls(result, driven, live, skipped):
        return (
            f"hard fail: the page's code wires its controls ({', '.join(result.wired)}) and none"
            f" of {len(driven)} driven controls changes the visible state",
            ReasonId.BROKEN_CONTROLS,
            [],
        )
    unmet = _unmet(result, expects, driven, live, skipped)
    for u in unmet:
        if u.confidence >= sure_at:
            return u.why, u.reason_id, []
    return "", None, unmet


def _broken_controls(result: ProbeResult, driven: list, live: list, skipped: int) -> bool:
    """The page's own evidence that it is broken, whatever its request: its code wires its
    controls (cogevol.probe.wiring) and, of the controls driven, none responds. Links alone
    are no such evidence (a landing page's anchors), nor a page the budget cut short."""
    return bool(
        result.wired
        and driven
        and not live
        and not skipped
        and not result.budget_exhausted
        and any(c.tag != "a" for c in driven)
    )


def _unmet(
    result: ProbeResult, expects: Expects, driven: list, live: list, skipped: int
) -> list[Unmet]:
    """What the reading asks for and the page does not do, each with the reading's confidence
    in that kind."""
    out = []
    asked = (
        f" (the request asks for {' and '.join(expects.kinds)})" if expects.source != "none" else ""
    )
    if (
        expects.dynamic
        and not (result.animates or result.moves_later or result.changes or live or skipped)
        and not result.budget_exhausted
    ):
        task = next((c for c in expects.cues if c.startswith("task type")), "its task type")
        why = (
            "hard fail: nothing changes, on its own or under input"
            f" ({task} asks for a page that does something)"
        )
        out.append(Unmet("dynamic", why, ReasonId.NO_CHANGE, *expects.belief("dynamic")))
    animation = expects.belief("animation")
    if (
        expects.animation
        and not (result.animates or result.moves_later)
        and not result.budget_exhausted
    ):
        still = result.motion.removeprefix(STILL).strip() if result.motion.startswith(STILL) else ""
        why = f" ({still})" if still.startswith("only") else ""
        # (with the budget spent, later motion was never measured)
        why = "hard fail: nothing moves on its own" + why + asked
        out.append(Unmet("animation", why, ReasonId.NO_MOTION, *animation))
    elif expects.animation and result.moves_at_end is False and result.error_count:
        why = (
            "hard fail: the animation stops after a script error "
            f"({result.errors[0][:80] if result.errors else 'error'})" + asked
        )
        out.append(Unmet("animation", why, ReasonId.STOPS_ON_ERROR, *animation))
    if expects.interactive and not live and not skipped:
        sure = expects.belief("interactive")
        if not driven:
            why = "hard fail: no operable control" + asked + _not_operable(result)
            out.append(Unmet("interactive", why, ReasonId.NO_CONTROL, *sure))
        else:
            why = (
                f"hard fail: none of {len(driven)} operable controls changes the visible state"
                + asked
            )
            out.append(Unmet("interactive", why, ReasonId.DEAD_CONTROLS, *sure))
    return out


def _terms(
    result: ProbeResult, expects: Expects, driven: list, live: list, settings: TermSettings
) -> dict[str, float]:
    """The defect terms. When the budget ran out, how far the probe got depends on the machine's
    load: only what was measured before any input counts (desktop layout, the first screen,
    errors while loading), so a heavy page gets the same reward on a busy machine as on an idle
    one."""
    terms: dict[str, float] = {}
    partial = result.budget_exhausted
    top, deeper = [c for c in driven if not c.depth], [c for c in driven if c.depth]
    # asked for, or meant by the page itself: controls its own code wires that do nothing are
    # broken parts whatever the request (a decorative button no code is behind costs nothing)
    if (expects.interactive or result.wired) and top and not partial:
        terms["interactivity"] = round(1 - sum(c.verdict == "live" for c in top) / len(top), 4)
    # whatever the request: a control exists past the first screen only because an input of
    # the page worked, so a dead one is a broken part, not decoration
    if deeper and not partial:
        terms["revealed"] = round(1 - sum(c.verdict == "live" for c in deeper) / len(deeper), 4)
    for name in ("desktop",) if partial else ("desktop", "tablet", "mobile"):
        if name in result.viewport:
            terms[f"viewport_{name}"] = viewport_defect(result.viewport[name])
    # a page too slow to reach its first screen within the budget has no fill to judge
    if result.fill is not None:
        terms["blank"] = round(max(0.0, 1 - result.fill / settings.fill_target), 4)
    errors = result.load_error_kinds if partial else result.error_kinds
    terms["console_errors"] = round(min(1.0, errors / max(1, settings.errors_full)), 4)
    if driven and not partial:
        terms["response"] = round(sum(c.errors > 0 for c in driven) / len(driven), 4)
    return terms


def _reason(result: ProbeResult, expects: Expects, driven: list, live: list, skipped: int) -> str:
    parts = []
    if expects.animation:
        parts.append(
            "moves on its own"
            if result.animates
            else "moves on its own later"
            if result.moves_later
            else "motion not measured within the page budget"
        )
    if driven or expects.interactive:
        dead = [c for c in driven if c.verdict == "dead"]
        deeper = [c for c in driven if c.depth]
        parts.append(
            f"{len(live)}/{len(driven)} operable controls live"
            + (
                f" ({sum(c.verdict == 'live' for c in deeper)}/{len(deeper)} of those an input"
                " revealed)"
                if deeper
                else ""
            )
            + (f"; dead: {', '.join(_name(c) for c in dead[:3])}" if dead else "")
        )
    if skipped:
        parts.append(f"page budget ran out: {skipped} controls not driven")
    if not parts:
        parts.append("renders")
    if result.error_count:
        parts.append(f"{result.error_count} script errors")
    return "; ".join(parts)


def _name(c) -> str:
    return f"{c.kind} {c.label!r}" if c.label else c.kind


def _not_operable(result: ProbeResult) -> str:
    blocked = [c for c in result.controls if c.status != "operable"]
    return f" ({'; '.join(f'{_name(c)}: {c.reason}' for c in blocked[:3])})" if blocked else ""


class HtmlScorer:
    """Runs pages in the probe and scores them on a shared browser pool; one instance serves a
    whole run (the HTML counterpart of cogevol.rewards.slide.SlideScorer). At most `pages` pages
    are in flight. With a judge (cogevol.judge.vlm.VisionJudge), a page past the gate also gets
    the vlm_visual / vlm_content terms from its screenshots (the first screen, then the states
    the play-through reached) and the request; the gate comes first, so a dead page costs no
    judge call."""

    def __init__(
        self,
        pool: BrowserPool,
        cfg: ProbeConfig | None = None,
        weights: dict[str, float] | None = None,
        terms: TermSettings | None = None,
        judge=None,
        pages: int = 1,
    ):
        cfg = cfg or ProbeConfig()
        self.cfg = (
            replace(cfg, screenshot=True) if judge is not None and not cfg.screenshot else cfg
        )
        weights = check_weights(weights, DEFAULT_WEIGHTS, "probe.weights") or DEFAULT_WEIGHTS
        self.pool, self.weights, self.terms, self.judge = pool, weights, terms, judge
        self._slots = asyncio.Semaphore(max(1, pages))

    async def score(self, html: str, request: str = "", checklist: dict | None = None) -> HtmlScore:
        """The verdict on one page that answers `request` (no request: the interactive gate).
        `checklist`: the request's stored checklist (JSON); without one the rules plan it."""
        expects = expects_for(request, (self.terms or TermSettings()).task_evidence)
        plan = checklist_for(request, "html", checklist) if (request or checklist) else None
        flows = [
            {"value": c.value, "steps": c.steps, "expect": c.expect}
            for c in (plan.checks if plan is not None else ())
            if c.check == "flow"
        ]
        labels = lexicon().flow_labels if flows else None
        async with self._slots:
            result = await probe_html(
                self.pool, html, self.cfg, request, expects.animation, flows, labels
            )
            # the harness's fault: one retry on a fresh context
            if result.outcome == "harness_error":
                log.warning("probe: retrying a page after a harness error: %s", result.reason)
                result = await probe_html(
                    self.pool, html, self.cfg, request, expects.animation, flows, labels
                )
        checks = None
        # a page slow to reach its first screen shows the
        # checks nothing (the budget is never a verdict)
        if plan is not None:
            facts = page_facts(result, html) if result.fill is not None else None
            checks = run_checklist(
                plan, facts, "the page did not reach its first screen within the budget"
            )
        filler_asked = asks_for_filler(request)
        s = score(
            result,
            expects,
            weights=self.weights,
            settings=self.terms,
            checks=checks,
            filler_asked=filler_asked,
        )
        if self.judge is not None and s.reward is not None and not s.hard_fail:
            jterms, why = await self._judge_terms(result, request)
            s = score(
                result,
                expects,
                judge_terms=jterms,
                weights=self.weights,
                settings=self.terms,
                checks=checks,
                filler_asked=filler_asked,
            )
            if why:
                s.reason = f"{s.reason}; {why}"
                s.judge_error = why
        return s

    async def _judge_terms(
        self, result: ProbeResult, request: str
    ) -> tuple[dict[str, float] | None, str]:
        """The judge's defect terms (1 - score / 5 for visual and content), or (None, why) when the
        judge gives no verdict after its retries: the terms are then left out and the weights
        renormalised, never guessed. The judge sees the first screen and the states the probe
        reached after inputs (judge.max_images in all), so a dead second screen is in view."""
        from cogevol.judge.vlm import JudgeError

        if result.screenshot is None:
            return None, "judge: no screenshot"
        try:
            v = await self.judge.score("page", [result.screenshot, *result.state_shots], request)
        except JudgeError as e:
            return None, f"judge failed: {e}"
        return {
            "vlm_visual": round(1 - v.visual / 5, 4),
            "vlm_content": round(1 - v.content / 5, 4),
        }, ""
