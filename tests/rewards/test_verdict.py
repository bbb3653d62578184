"""The one verdict: defects on one scale, weights loaded strictly, the record derived from fields."""

import pytest

from cogevol.core.config import check_weights
from cogevol.probe import ProbeResult
from cogevol.probe.config import PageOutcome
from cogevol.rewards.answer_format import answer_fault
from cogevol.rewards.html import HtmlScore, not_a_page, score
from cogevol.rewards.slide import SlideScore
from cogevol.rewards.verdict import Defects, TermError, weigh
from cogevol.scoring import Score


def test_a_defect_off_its_scale_or_not_a_number_is_refused():
    assert Defects({"blank": 0.0, "rules": 1.0}) == {"blank": 0.0, "rules": 1.0}
    for bad in (4.0, -0.1, float("nan"), True, "0.5"):
        with pytest.raises(TermError, match="0..1"):
            Defects({"rules": bad})


def test_a_deck_score_on_0_5_enters_as_one_minus_score_over_5():
    assert Defects.from_score("rules", 4.0) == {"rules": 0.2}
    assert Defects.from_score("vlm", 5.0) == {"vlm": 0.0}


def test_weigh_renormalises_over_the_terms_present_and_refuses_an_unweighted_term():
    # a deck at rules 4 (defect 0.2) and judge 2 (defect 0.6): 0-5 score 2.8, reward 0.56
    reward, used = weigh(Defects({"rules": 0.2, "vlm": 0.6}), {"vlm": 0.6, "rules": 0.4, "fulfilment": 0.25})
    assert reward == pytest.approx(0.56) and used == {"rules": 0.4, "vlm": 0.6}
    assert weigh(Defects({"rules": 0.2}), {"vlm": 0.6, "rules": 0.4}) == (pytest.approx(0.8), {"rules": 1.0})
    assert weigh(Defects({"rules": 0.2}), {"rules": 0.0}) == (1.0, {})  # weight 0: left out on purpose
    with pytest.raises(TermError, match="no weight"):
        weigh(Defects({"rulez": 0.2}), {"rules": 0.4})


def test_weights_load_strictly_and_completely():
    known = {"a": 0.5, "b": 0.5}
    assert check_weights({"a": 1}, known, "w") == {"a": 1.0, "b": 0.0}
    assert check_weights(None, known, "w") is None
    with pytest.raises(KeyError, match="unknown term"):
        check_weights({"aa": 1}, known, "w")


def test_the_record_is_derived_from_the_fields_of_the_verdict_and_the_probe():
    r = ProbeResult(rendered_ok=True, fill=0.5, viewport={"desktop": {}}, quiet_ms=500)
    s = score(r)
    rec = s.record()
    verdict_fields = {"reward", "reason", "hard_fail", "rendered_ok", "terms", "weights_used", "checks",
                      "harness_error", "seconds", "interactivity", "controls_total", "controls_live"}
    assert verdict_fields <= set(rec) and "probe" not in rec and "text" not in rec
    assert rec["quiet_ms"] == 500 and rec["outcome"] == "ok" and rec["no_reward"] is False
    assert type(rec["terms"]) is dict  # plain JSON, not the Defects type


def test_no_document_has_the_same_shape_as_any_page_verdict():
    missing = Score.of("html", not_a_page(answer_fault("Sorry, I cannot help.", None)))
    page = Score.of("html", score(ProbeResult(rendered_ok=True)))
    assert set(missing.details) == set(page.details)
    assert missing.gate == "fail" and missing.reward == 0.0
    assert missing.details["reason_id"] == "format.no_document" and "no HTML document" in missing.reason


def test_a_harness_error_has_no_reward_in_the_record_and_zero_on_the_cli_line():
    s = Score.of("html", score(ProbeResult(outcome=PageOutcome.HARNESS_ERROR, reason="probe error: x")))
    assert s.reward is None and s.details["reward"] is None and s.gate == "none"
    assert s.harness_error == "probe error: x" and s.line()["reward"] == 0.0 and s.line()["no_reward"]


def test_both_modalities_travel_as_the_same_score_with_defect_terms():
    deck = SlideScore(valid=True, rendered_ok=True, reward=0.8, reason="ok", terms=Defects({"rules": 0.2}),
                      weights_used={"rules": 1.0}, score=4.0, rule_score=4.0, pngs=[b"png"])
    s = Score.of("slide", deck)
    assert s.terms == {"rules": 0.2} and s.gate == "pass" and s.images == [b"png"] and "pngs" not in s.details
    assert Score.from_json(s.to_json()).terms == s.terms
    assert isinstance(HtmlScore(reward=1.0, reason="").terms, Defects)
