from cogevol.probe.core import Control, ProbeResult
from cogevol.rewards.html import score, viewport_defect

GOOD_VIEW = {"width": 768, "overflow": 0, "clipped": 0, "small": 0, "textEls": 10, "overlaps": 0}


def _result(verdicts, **kw):
    controls = [Control(k, "click", "button", f"b{k}", "operable", verdict=v) for k, v in enumerate(verdicts)]
    return ProbeResult(rendered_ok=True, controls=controls, viewport={"tablet": GOOD_VIEW, "mobile": GOOD_VIEW}, **kw)


def test_gate_zeroes_rendered_pages_without_a_live_control():
    s = score(_result(["dead", "dead"]))
    assert s.hard_fail and s.reward == 0.0 and "none of 2" in s.reason
    s = score(ProbeResult(rendered_ok=True))
    assert s.hard_fail and s.reward == 0.0 and "no operable control" in s.reason


def test_reward_is_one_minus_weighted_mean_of_defects_with_renormalised_weights():
    s = score(_result(["live", "dead"]))
    assert not s.hard_fail
    assert s.terms == {"interactivity": 0.5, "viewport_tablet": 0.0, "viewport_mobile": 0.0}
    assert abs(sum(s.weights_used.values()) - 1) < 1e-3 and "vlm_visual" not in s.weights_used
    assert s.reward == round(1 - 0.5 * s.weights_used["interactivity"], 4)
    with_judge = score(_result(["live"]), judge_terms={"vlm_visual": 1.0, "vlm_content": 0.0})
    assert set(with_judge.weights_used) == {"interactivity", "viewport_tablet", "viewport_mobile", "vlm_visual", "vlm_content"}
    assert with_judge.reward == 0.8


def test_harness_errors_carry_no_reward_and_page_faults_do():
    assert score(ProbeResult(outcome="harness_error", reason="probe error: x")).reward is None
    hung = score(ProbeResult(outcome="page_hung", reason="page hung"))
    assert hung.reward == 0.0 and hung.hard_fail and not hung.harness_error


def test_viewport_defect():
    assert viewport_defect(GOOD_VIEW) == 0.0
    assert viewport_defect({**GOOD_VIEW, "overflow": 200}) == 0.4
    assert viewport_defect({**GOOD_VIEW, "overflow": 200, "clipped": 10, "small": 10, "overlaps": 9}) == 1.0
