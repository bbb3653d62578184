from cogevol.probe import Control, ProbeResult
from cogevol.rewards.expects import Expects, expects_from_request
from cogevol.rewards.html import TermSettings, score, viewport_defect

GOOD_VIEW = {"width": 768, "overflow": 0, "clipped": 0, "small": 0, "textEls": 10, "overlaps": 0}


def _result(verdicts, **kw):
    controls = [Control(k, "click", "button", f"b{k}", "operable", verdict=v) for k, v in enumerate(verdicts)]
    kw.setdefault("fill", 0.5)
    return ProbeResult(rendered_ok=True, controls=controls, viewport={"tablet": GOOD_VIEW, "mobile": GOOD_VIEW}, **kw)


def test_gate_zeroes_rendered_pages_without_a_live_control():
    s = score(_result(["dead", "dead"]))
    assert s.hard_fail and s.reward == 0.0 and "none of 2" in s.reason
    s = score(ProbeResult(rendered_ok=True))
    assert s.hard_fail and s.reward == 0.0 and "no operable control" in s.reason


def test_reward_is_one_minus_weighted_mean_of_defects_with_renormalised_weights():
    s = score(_result(["live", "dead"]))
    assert not s.hard_fail
    assert s.terms == {"interactivity": 0.5, "viewport_tablet": 0.0, "viewport_mobile": 0.0, "blank": 0.0,
                       "console_errors": 0.0, "response": 0.0}
    assert abs(sum(s.weights_used.values()) - 1) < 1e-3 and "vlm_visual" not in s.weights_used
    assert s.reward == round(1 - 0.5 * s.weights_used["interactivity"], 4)
    with_judge = score(_result(["live"]), judge_terms={"vlm_visual": 1.0, "vlm_content": 0.0})
    assert {"vlm_visual", "vlm_content", "interactivity", "blank"} <= set(with_judge.weights_used)
    assert with_judge.reward == round(1 - with_judge.weights_used["vlm_visual"], 4)


def test_harness_errors_carry_no_reward_and_page_faults_do():
    assert score(ProbeResult(outcome="harness_error", reason="probe error: x")).reward is None
    hung = score(ProbeResult(outcome="page_hung", reason="page hung"))
    assert hung.reward == 0.0 and hung.hard_fail and not hung.harness_error


def test_viewport_defect():
    assert viewport_defect(GOOD_VIEW) == 0.0
    assert viewport_defect({**GOOD_VIEW, "overflow": 200}) == 0.35
    assert viewport_defect({**GOOD_VIEW, "lowContrast": 10}) == 0.15
    assert viewport_defect({**GOOD_VIEW, "overflow": 200, "clipped": 10, "small": 10, "lowContrast": 5, "overlaps": 9}) == 1.0


ANIMATION = expects_from_request("a rocket launch animation")
STATIC = expects_from_request("a landing page for a bakery")
MIX = expects_from_request("fireworks on click, plus a Grand Finale button")


def test_gate_follows_the_request():
    assert ANIMATION.kinds == ["animation"] and STATIC.kinds == ["static"] and MIX.kinds == ["animation", "interactive"]
    still = score(_result([]), ANIMATION)
    assert still.hard_fail and "nothing moves on its own" in still.reason and still.expects == ["animation"]
    assert not score(_result([], animates=True), ANIMATION).hard_fail
    assert not score(_result([], moves_later=True), ANIMATION).hard_fail  # started by a button or a timer
    frozen = score(_result([], animates=True, moves_at_end=False, error_count=1, errors=["TypeError: x"]), ANIMATION)
    assert frozen.hard_fail and "stops after a script error" in frozen.reason
    assert not score(_result([], animates=True, moves_at_end=False), ANIMATION).hard_fail  # a finished animation, no error
    unmeasured = score(_result([], budget_exhausted=True), ANIMATION)  # the budget ran out before motion after input was measured
    assert not unmeasured.hard_fail and "not measured" in unmeasured.reason
    assert not score(_result([]), STATIC).hard_fail
    assert score(_result(["dead"], animates=True), MIX).hard_fail  # the requested control is dead
    # the requested motion is missing: "fireworks" alone is a reading no labelled requests of
    # two sources back, so it is priced, not failed
    missing = score(_result(["live"]), MIX)
    assert not missing.hard_fail and missing.unmet == ["animation"] and missing.reward < 0.5
    assert not score(_result(["live"], animates=True), MIX).hard_fail
    assert score(_result([]), None).hard_fail  # no request: the interactive gate, as before


def test_decorative_controls_on_an_animation_earn_nothing():
    plain = score(_result([], animates=True), ANIMATION)
    decorated = score(_result(["live", "dead"], animates=True), ANIMATION)
    assert "interactivity" not in decorated.terms and decorated.reward == plain.reward


def test_skipped_controls_are_not_a_verdict():
    controls = [Control(0, "click", "button", "a", "operable", verdict="dead"), Control(1, "click", "button", "b", "skipped")]
    r = ProbeResult(rendered_ok=True, controls=controls, fill=0.5, budget_exhausted=True)
    s = score(r)
    assert not s.hard_fail and s.controls_skipped == 1 and "budget" in s.reason
    # how far driving got depends on the machine's load: those terms are left out
    r.viewport = {"desktop": GOOD_VIEW, "tablet": GOOD_VIEW}  # tablet measured in one run, not in another
    s = score(r)
    assert set(s.terms) == {"viewport_desktop", "blank", "console_errors"}
    r.error_count, r.load_errors, r.error_kinds, r.load_error_kinds = 5, 1, 3, 1
    assert score(r).terms["console_errors"] == round(1 / 3, 4)


def test_blocked_resources_get_their_own_reason_and_a_param_decides_the_reward():
    r = ProbeResult(rendered_ok=False, reason="render: nothing visible; script error: THREE is not defined",
                    resources={"blocked": ["https://example.org/lib/three.min.js", "https://fonts.gstatic.com/x.woff2"]})
    s = score(r)
    assert s.hard_fail and s.reward == 0.0 and s.resource_failure and s.reason.startswith("hard fail: resource unavailable (1 blocked")
    s = score(r, settings=TermSettings(unavailable="none"))
    assert s.reward is None and not s.hard_fail and s.resource_failure
    dead_but_whole = ProbeResult(rendered_ok=True, controls=[Control(0, "click", "button", "b", "operable", verdict="dead")],
                                 resources={"blocked": ["https://example.org/unused.js"]})
    assert not score(dead_but_whole).resource_failure  # nothing broke: a dead page, whatever failed to load
    only_fonts = ProbeResult(rendered_ok=False, reason="render: nothing visible", resources={"blocked": ["https://fonts.googleapis.com/css?family=A"]})
    assert not score(only_fonts).resource_failure


def test_browser_measured_terms():
    s = score(_result(["live"], fill=0.05, error_count=6, error_kinds=3))
    assert s.terms["blank"] == 0.8 and s.terms["console_errors"] == 1.0
    # how many things are broken, not how often the probe ran into the same one
    assert score(_result(["live"], error_count=6, error_kinds=1)).terms["console_errors"] == round(1 / 3, 4)
    bad = _result(["live", "live"])
    bad.controls[1].errors = 2
    assert score(bad).terms["response"] == 0.5
    assert score(_result(["live"], fill=0.5), weights={"interactivity": 1.0}).weights_used == {"interactivity": 1.0}


def test_expects_kinds_are_what_the_verdict_reports():
    assert score(_result(["live"]), Expects(interactive=True, animation=False, static=False)).expects == ["interactive"]


def _checks(request: str, text: str, controls=()):
    from cogevol.checklist import PageFacts, plan_rules, run_checklist

    return run_checklist(plan_rules(request), PageFacts(text=text, controls=list(controls)))


SOLAR_ZH = "做一个太阳系动画：行星绕着太阳转，用滑块控制速度"
SOLAR_PAGE = "Solar System\nThe planets orbit the Sun, each at its own speed. Drag the slider to change the speed of time."


def test_a_working_page_in_another_language_is_priced_not_zeroed():
    page = _result(["live"])
    same = score(page, checks=_checks(SOLAR_ZH, "太阳系\n行星绕着太阳转。拖动滑块改变速度，每颗行星都有自己的轨道和速度。"))
    other = score(page, checks=_checks(SOLAR_ZH, SOLAR_PAGE))
    assert not other.hard_fail and other.terms["language"] == 1.0 and "language" not in same.terms or same.terms["language"] == 0.0
    assert 0 < other.reward < same.reward
    broken = score(_result(["dead"]), checks=_checks(SOLAR_ZH, SOLAR_PAGE))
    assert broken.hard_fail and other.reward > broken.reward


def test_the_subject_outweighs_the_furniture_and_positive_evidence_gates():
    ask = "Create a solar system: the planets orbit the sun, a slider controls the speed"
    own = score(_result(["live"]), checks=_checks(ask, SOLAR_PAGE))
    projectile = ("Projectile simulator\nSet the launch angle and the power with the sliders, then fire "
                  "the cannon and watch the parabola of the shot.")
    off = score(_result(["live"]), checks=_checks(ask, projectile), settings=TermSettings(fulfilment_gate=False))
    assert own.subject == 1.0 and off.subject == 0.3 and off.reward <= 0.3 < own.reward
    gated = score(_result(["live"]), checks=_checks(ask, projectile))
    assert gated.hard_fail and gated.reason.startswith("hard fail: answers another request")
    # in French, with no French name for a thing, its absence is no evidence: priced, not gated
    french = ("Simulateur de tir parabolique\nRéglez l'angle et la puissance avec les curseurs, puis tirez "
              "et observez la trajectoire du boulet de canon.")
    fr = score(_result(["live"]), checks=_checks(ask, french), settings=TermSettings(fulfilment_gate=False))
    assert fr.subject == 0.3 and fr.terms["language"] == 1.0 and fr.reward < off.reward  # planète, soleil: looked for


def test_revealed_dead_controls_cost_whatever_the_request():
    first = Control(0, "click", "button", "Play", "operable", verdict="live")
    deep = [Control(k, "click", "button", f"b{k}", "operable", verdict=v, depth=1) for k, v in ((1, "live"), (2, "dead"))]
    r = ProbeResult(rendered_ok=True, controls=[first, *deep], fill=0.5, viewport={"tablet": GOOD_VIEW, "mobile": GOOD_VIEW})
    s = score(r, expects_from_request("A poster about the history of Rome"))
    assert s.terms["revealed"] == 0.5 and "interactivity" not in s.terms
    assert score(r).terms["interactivity"] == 0.0 and s.interactivity == 1.0


BAKERY = expects_from_request("a landing page for a bakery")


def test_controls_the_page_wires_itself_that_all_do_nothing_fail_under_any_reading():
    # a drawing app read as static: its script threw before the handlers attached
    broken = _result(["dead", "dead", "dead"], wired=["addEventListener"])
    s = score(broken, BAKERY)
    assert s.hard_fail and s.reason_id == "gate.broken_controls" and "wires its controls" in s.reason
    # one of them works: no evidence of a broken page
    assert not score(_result(["live", "dead"], wired=["addEventListener"]), BAKERY).hard_fail
    # plain markup buttons with no code behind them on a static page: not a fail
    plain = score(_result(["dead", "dead"]), BAKERY)
    assert not plain.hard_fail and plain.reason_id == "ok"


def test_a_wired_page_with_only_dead_links_is_no_evidence():
    link = Control(0, "click", "a", "About", "operable", verdict="dead")
    r = ProbeResult(rendered_ok=True, controls=[link], fill=0.5, wired=["handler property"])
    assert not score(r, BAKERY).hard_fail


def test_an_unsure_reading_prices_what_a_sure_one_fails():
    from cogevol.rewards import confidence as conf

    unsure = Expects(False, True, False, ("drifting",), evidence=(("animation", conf.DESCRIBED_MOTION, "drifting"),))
    sure = Expects(False, True, False, ("animation",), evidence=(("animation", conf.ANIMATION_WORD, "animation"),))
    c, p = unsure.confidence("animation"), unsure.probability("animation")
    assert c < 0.9 <= sure.confidence("animation") and c < p
    still = _result([])
    assert score(still, sure).hard_fail and score(still, sure).reason_id == "gate.no_motion"
    priced, plain = score(still, unsure), score(still, BAKERY)
    assert not priced.hard_fail and priced.reason_id == "priced.unmet" and priced.unmet == ["animation"]
    # priced by the probability the reading is right: the reward on average over right and wrong
    assert priced.reward == round(plain.reward * (1 - p), 4) and "too unsure" in priced.reason
    # a lower line makes the same reading sure enough to fail
    assert score(still, unsure, settings=TermSettings(reading_confidence=c)).hard_fail
    assert not score(_result([], animates=True), unsure).unmet
