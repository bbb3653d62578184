"""The substance half of the floor: a page with next to nothing on it prices as empty."""

from cogevol.probe import Control, ProbeResult
from cogevol.rewards.expects import expects_for, expects_from_request
from cogevol.rewards.html import TermSettings, score
from cogevol.rewards.reasons import ReasonId
from cogevol.rewards.substance import EMPTY_CAP, emptiness, words

TITLE_ONLY = {"prose": "", "ownChars": 18, "shapes": 1, "canvasInk": 0.0, "canvasTexts": 0}
VIEW = {"width": 768, "overflow": 0, "clipped": 0, "small": 0, "textEls": 3, "overlaps": 0}


def page(shown, **kw) -> ProbeResult:
    kw.setdefault("fill", 0.05)
    return ProbeResult(rendered_ok=True, shown=shown, viewport={"tablet": VIEW, "mobile": VIEW}, **kw)


def test_words_count_every_script():
    assert words("Bubble sort swaps neighbours") == 4
    assert words("冒泡排序") == 2 and words("버블 정렬") == 2


def test_a_title_over_an_empty_box_is_empty_and_anything_real_is_not():
    assert "next to nothing shown" in emptiness(page(TITLE_ONLY), 0)
    paragraph = "This page explains how the heart pumps blood through two circuits of the body every day."
    assert emptiness(page({**TITLE_ONLY, "prose": paragraph}), 0) == ""
    assert emptiness(page({**TITLE_ONLY, "shapes": 6}), 0) == ""  # bars of a chart, cells of a board
    assert emptiness(page({**TITLE_ONLY, "canvasInk": 0.2}), 0) == ""  # a drawn scene
    assert emptiness(page(TITLE_ONLY, animates=True), 0) == ""  # it moves
    assert emptiness(page(TITLE_ONLY), 1) == ""  # a control changes what is shown
    assert emptiness(page(None), 0) == ""  # not measured: never a verdict
    assert emptiness(page(TITLE_ONLY, budget_exhausted=True), 0) == ""  # nor is the budget


def test_empty_is_a_hard_fail_where_the_request_asks_for_something_and_capped_otherwise():
    asked = expects_for("a landing page for a bakery")
    s = score(page(TITLE_ONLY), asked, checks=None)
    # a static request without a subject to show: capped, not zeroed
    assert not s.hard_fail and s.reward <= EMPTY_CAP and s.reason_id == ReasonId.EMPTY
    from cogevol.checklist import checklist_for, run_checklist
    from cogevol.rewards.html import page_facts

    plan = checklist_for("a landing page for a bakery", "html", None)
    result = page(TITLE_ONLY, text="Bakery")
    s = score(result, asked, checks=run_checklist(plan, page_facts(result, "<h1>Bakery</h1>"), ""))
    assert s.hard_fail and s.reward == 0.0 and s.reason_id == ReasonId.EMPTY


def test_a_dynamic_task_must_change_on_its_own_or_under_input():
    demo = expects_for("Generate a single HTML file with JavaScript demonstrating the concept: bubble sort")
    assert demo.dynamic and demo.kinds == ["dynamic"] and any("2D Graphics" in c for c in demo.cues)
    rich = {**TITLE_ONLY, "prose": "Bubble sort compares neighbours and swaps them " * 5}
    # one task-type term is a reading too unsure to fail a page alone: the still page is priced
    still = score(page(rich), demo)
    assert demo.confidence("dynamic") < 0.9
    assert not still.hard_fail and still.reason_id == ReasonId.UNMET and still.unmet == ["dynamic"]
    sure = score(page(rich), demo, settings=TermSettings(reading_confidence=demo.confidence("dynamic")))
    assert sure.hard_fail and sure.reason_id == ReasonId.NO_CHANGE
    assert not score(page(rich, animates=True), demo).hard_fail
    live = [Control(0, "click", "button", "Step", "operable", verdict="live")]
    assert not score(page(rich, controls=live), demo).hard_fail
    # a page type that is built once asks for no change; an unsure reading asks for nothing more
    assert expects_for("a landing page for a bakery").static
    assert expects_for("bubble sort", task=("2D Graphics", 1.0, "", 0.0)).static  # one cue: unsure
    assert expects_for("bubble sort", task=("2D Graphics", 1.0, "", 0.0), min_evidence=1.0).dynamic
    assert expects_for("bubble sort", task=("2D Graphics", 3.0, "Static Chart Page", 4.0)).static
    # a one-page summary names physics once: no demand (the rules place it in Physics Simulation)
    assert expects_for("a one-page summary of a physics lab about motion").static
    # the request's own cues decide the kind where it names one
    assert expects_for("a unit converter with a slider").kinds == ["interactive"]


def test_a_page_built_once_asks_only_for_the_controls_it_names():
    # its game, simulation or animation words are its topic
    jam = "Announcement page for our 48-hour game jam: dates, venue, schedule and judges"
    assert expects_from_request(jam).interactive and expects_for(jam).static
    film = "An infographic page about how animation works in film: 24 frames per second, keyframes, in-betweens"
    assert expects_from_request(film).animation and expects_for(film).static
    # a control it names still has to work; a reading that is unsure changes nothing
    assert expects_for("A static chart page of sales by month with a dark mode toggle").interactive
    assert expects_for("a game", task=("", 0.0, "Blog / Article Page", 2.0)).interactive


def test_every_task_type_has_a_demand():
    from cogevol.rewards.expects import task_demands
    from cogevol.taxonomy.tree import load

    assert {leaf.name for leaf in load().leaves} == set(task_demands())
