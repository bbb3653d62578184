"""The play-through (issue 37): controls an input revealed are driven, typed text is a state the
buttons beside it are driven in again, a Reset pressed too early is tried again, a reload from a
click is a reset; each verdict carries its state graph."""

import asyncio
import json

import pytest

from cogevol.browser.pool import BrowserPool
from cogevol.probe import Control, ProbeConfig, probe_html
from cogevol.probe.explore import StateGraph
from cogevol.rewards.html import score
from tests.conftest import REPO

PAIRS = {p["id"]: p for p in json.loads((REPO / "data/probe_depth/pairs.json").read_text(encoding="utf-8"))["pairs"]}


def depth_pair(name: str) -> tuple[str, str, str]:
    p = PAIRS[name]
    full = (REPO / "data/probe_depth/pages" / p["page"]).read_text(encoding="utf-8")
    dead = full
    for old, new in p["dead"]:
        dead = dead.replace(old, new)
    assert dead != full
    return p["request"], full, dead


def probe_all(pages: list[tuple[str, str]], cfg: ProbeConfig | None = None) -> list:
    async def go():
        async with BrowserPool() as pool:
            return [await probe_html(pool, html, cfg, request) for html, request in pages]

    return asyncio.run(go())


def test_alike_revealed_controls_are_driven_once_within_the_per_state_budget():
    g = StateGraph(ProbeConfig(explore_per_state=2))
    rows = [Control(k, "click", "button", label, "operable") for k, label in
            enumerate(["Delete 1", "Delete 2", "Done", "Edit", "Share"])]
    assert g.pick(list(enumerate(rows)), 1) == [0, 2]
    assert rows[1].status == "alike" and rows[3].status == "not_operable" and "explore_per_state" in rows[3].reason
    assert g.budget_stopped == "explore_per_state" and g.report()["depths"] == [{"depth": 1, "revealed": 5, "driven": 0, "live": 0}]


def test_a_dialogs_fields_do_not_crowd_out_its_save_and_its_cancel_goes_last():
    def dialog():
        return [Control(k, kind, "button" if kind == "click" else "input", label, "operable") for k, (kind, label) in
                enumerate([("text", "title"), ("click", "✕ Cancel"), ("click", "B"), ("text", "content"),
                           ("select", "priority"), ("click", "Save"), ("click", "Share")])]
    # the fields are one form with its buttons; Cancel would close the dialog before Save
    assert StateGraph(ProbeConfig(explore_per_state=4)).pick(list(enumerate(dialog())), 1) == [0, 2, 3, 4, 5, 6, 1]
    g, small = StateGraph(ProbeConfig(explore_per_state=3)), dialog()
    assert g.pick(list(enumerate(small)), 1) == [0, 2, 3, 4, 5, 6]
    assert small[1].status == "not_operable" and g.budget_stopped == "explore_per_state"


def test_a_dead_option_of_a_set_that_already_answered_is_left_out():
    g = StateGraph(ProbeConfig())
    answers = [Control(k, "click", "button", p, "operable", group="7") for k, p in enumerate(["Mars", "Venus", "Earth"])]
    pair = [Control(3, "click", "button", "Done", "operable", group="8"), Control(4, "click", "button", "Delete", "operable", group="8")]
    assert not g.answered(answers + pair, answers[1])  # no option changed the state: the set is dead
    g.moved(answers[0]), g.moved(pair[0])
    assert g.answered(answers + pair, answers[1])  # the quiz locked its answers once Mars was given
    assert not g.answered(answers + pair, pair[1])  # two siblings are not a set of options


def test_a_state_seen_before_or_past_the_budgets_is_not_explored():
    g = StateGraph(ProbeConfig(explore_depth=2, explore_states=3))
    g.state("a")
    assert not g.can_explore("a", 0)  # seen: nothing new comes from it, nothing loops
    assert g.can_explore("b", 1) and not g.can_explore("b", 2) and g.budget_stopped == "explore_depth"
    g.state("b"), g.state("c")
    assert not g.can_explore("d", 0)


@pytest.mark.browser
@pytest.mark.timeout(300)
def test_the_deeper_half_is_driven_and_priced():
    todo_req, todo, todo_dead = depth_pair("todo")
    quiz_req, quiz, quiz_dead = depth_pair("quiz")
    full, dead, quiz_r, quiz_dead_r = probe_all(
        [(todo, todo_req), (todo_dead, todo_req), (quiz, quiz_req), (quiz_dead, quiz_req)])
    (off,) = probe_all([(todo, todo_req)], ProbeConfig(explore_depth=0, explore_controls=0))
    deep = {c.label: c for c in full.controls if c.depth == 1}
    assert deep["Done"].verdict == "live" and deep["Delete"].verdict == "live"
    field = next(c for c in full.controls if c.kind == "text")
    assert field.verdict == "live" and "Add" in field.evidence  # a form that works when filled is live
    assert {c.label: c.verdict for c in dead.controls if c.depth == 1} == {"Done": "dead", "Delete": "dead"}
    ex = full.explore
    assert ex["depth_reached"] == 1 and ex["states"] >= 2 and ex["depths"][1]["revealed"] == 2
    assert any(t["label"] == "Add" and t["verdict"] == "live" for t in ex["transitions"])
    s_full, s_dead = score(full), score(dead)
    assert not s_full.hard_fail and s_full.terms["revealed"] == 0.0 and s_dead.terms["revealed"] == 1.0
    assert s_full.reward > s_dead.reward
    # the quiz: answers appear after Start; the next question's text is read in its state
    assert any(c.depth >= 1 and c.verdict == "live" for c in quiz_r.controls)
    assert "Question 2 of 5" in quiz_r.text and score(quiz_r).reward > score(quiz_dead_r).reward
    # off: one pass over the first screen, no graph of deeper states
    assert all(c.depth == 0 for c in off.controls) and off.explore["depth_reached"] == 0


@pytest.mark.browser
@pytest.mark.timeout(300)
def test_a_reset_too_early_is_tried_again_and_a_reload_from_a_click_is_a_reset():
    counter = ("<!doctype html><html><body><h1>Counter</h1><p>Count: <span id=n>0</span></p>{reset}"
               "<button id=inc>Add one</button><script>let n=0;inc.onclick=()=>{{n++;document.getElementById('n').textContent=n}};"
               "{script}</script></body></html>")
    by_script = counter.format(reset="<button id=rs>Reset</button>", script="rs.onclick=()=>{n=0;document.getElementById('n').textContent=0}")
    by_reload = counter.format(reset="<button onclick='location.reload()'>Reset</button>", script="")
    on_timer = counter.format(reset="", script="setTimeout(()=>location.reload(),300)")
    a, b, c = probe_all([(by_script, ""), (by_reload, ""), (on_timer, "")])
    for r in (a, b):
        reset = next(x for x in r.controls if x.label == "Reset")
        assert r.outcome == "ok" and reset.verdict == "live" and reset.again, (r.reason, reset)
    assert "reloads the page" in next(x for x in b.controls if x.label == "Reset").evidence
    assert c.outcome == "page_navigated"  # a reload nobody asked for is the page's fault


@pytest.mark.browser
@pytest.mark.timeout(300)
def test_controls_drawn_anew_by_an_input_that_looked_dead_are_driven_in_their_place():
    # the request names the Restart, so it goes first: it redraws the board as it was, and the
    # cells found at the start are gone from the page
    board = ("<!doctype html><html><body><h1>Tic Tac Toe</h1><div id=b></div><button id=rs>Restart Game</button>"
             "<script>let cells=Array(9).fill(''),p='X';function draw(){b.innerHTML='';cells.forEach((v,i)=>{"
             "const d=document.createElement('div');d.className='cell';d.textContent=v;"
             "d.style.cssText='display:inline-block;width:60px;height:60px;border:1px solid #333;font-size:40px';"
             "d.addEventListener('click',()=>{if(!cells[i]){cells[i]=p;p=p=='X'?'O':'X';draw()}});b.appendChild(d)})}"
             "rs.onclick=()=>{cells=Array(9).fill('');p='X';draw()};draw()</script></body></html>")
    (r,) = probe_all([(board, "A tic tac toe game with a Restart Game button")])
    cells = [c for c in r.controls if c.label != "Restart Game"]
    assert any(c.reason == "detached" for c in cells)
    assert any(c.verdict == "live" for c in cells), r.reason
    s = score(r, None)
    assert not s.hard_fail, s.reason


@pytest.mark.browser
@pytest.mark.timeout(300)
def test_a_reset_too_early_that_the_budget_leaves_untried_is_no_verdict(monkeypatch):
    class SpentOnceTheStateMoves:  # the page budget, run out by the first live input
        spent = False

        def __init__(self, *args):
            pass

        def over(self):
            return SpentOnceTheStateMoves.spent

    moved = StateGraph.moved

    def moved_and_spent(self, c):
        moved(self, c)
        SpentOnceTheStateMoves.spent = True

    monkeypatch.setattr("cogevol.probe.state.Budget", SpentOnceTheStateMoves)
    monkeypatch.setattr(StateGraph, "moved", moved_and_spent)
    page = ("<!doctype html><html><body><p>Count: <span id=n>0</span></p><button id=rs>Reset</button>"
            "<button id=inc>Add one</button><script>let n=0;const show=()=>document.getElementById('n').textContent=n;"
            "rs.onclick=()=>{n=0;show()};inc.onclick=()=>{n++;show()};</script></body></html>")
    (r,) = probe_all([(page, "")])
    reset = next(x for x in r.controls if x.label == "Reset")
    assert r.budget_exhausted and reset.status == "skipped" and not reset.verdict, reset
    assert "before any input changed the page" in reset.reason
    assert next(x for x in r.controls if x.label == "Add one").verdict == "live"


@pytest.mark.browser
@pytest.mark.timeout(300)
def test_the_play_through_is_deterministic():
    req, full, _ = depth_pair("cart")
    one, two = probe_all([(full, req), (full, req)])
    assert one.explore == two.explore
    assert [(c.label, c.verdict, c.depth) for c in one.controls] == [(c.label, c.verdict, c.depth) for c in two.controls]


COUNTDOWN = """<!doctype html><html><body><h1 id=t>5</h1><button id=r disabled>Restart</button><script>
let n = 5; const t = document.getElementById('t'), r = document.getElementById('r');
function tick() { n--; t.textContent = n; if (n > 0) setTimeout(tick, 1000); else r.disabled = false; }
setTimeout(tick, 1000);
r.onclick = () => { n = 5; t.textContent = n; r.disabled = true; setTimeout(tick, 1000); };
</script></body></html>"""


def test_a_control_that_time_enables_is_waited_for_not_called_missing():
    (res,) = probe_all([(COUNTDOWN, "a 5 second countdown with a Restart button")])
    s = score(res, None)
    assert not s.hard_fail, s.reason
    restart = next(c for c in res.controls if c.label == "Restart")
    assert restart.status == "operable" and restart.verdict == "live" and res.quiet_ms >= 5000
    dead = COUNTDOWN.replace("r.onclick = () => {", "r.onclick = () => { return;")
    (res,) = probe_all([(dead, "a 5 second countdown with a Restart button")])
    assert score(res, None).hard_fail  # enabled, and it does nothing: the gate still holds


def test_a_stop_that_asks_for_confirmation_is_live():
    page = """<!doctype html><body><p id=s>recording</p><button id=b>Stop</button><script>
    document.getElementById('b').onclick = () => { if (confirm('Stop recording?')) document.getElementById('s').textContent = 'stopped'; };
    </script></body>"""
    (res,) = probe_all([(page, "a recorder with a Stop button")])
    stop = next(c for c in res.controls if c.label == "Stop")
    assert stop.verdict == "live" and not score(res, None).hard_fail


@pytest.mark.browser
@pytest.mark.timeout(300)
def test_answers_that_lock_once_one_is_given_are_not_dead():
    page = ("<!doctype html><html><body><h1>Planets quiz</h1><button id=go>Start</button><div id=q></div><p id=r></p><script>"
            "go.onclick=()=>{let done=false;q.innerHTML='<p>Largest planet?</p><div>'+['Mars','Jupiter','Venus','Earth']"
            ".map(a=>'<button>'+a+'</button>').join('')+'</div>';for(const b of q.querySelectorAll('button'))"
            "b.onclick=()=>{if(done)return;done=true;r.textContent=b.textContent==='Jupiter'?'Right!':'Wrong';}}"
            "</script></body></html>")
    dead = page.replace("r.textContent=b.textContent==='Jupiter'?'Right!':'Wrong';", "")
    full, broken = probe_all([(page, "A planets quiz"), (dead, "A planets quiz")])
    answers = [c for c in full.controls if c.depth == 1]
    assert [c.verdict for c in answers if c.verdict] == ["live"] and sum(c.status == "alike" for c in answers) == 3, [
        (c.label, c.status, c.verdict, c.reason) for c in answers]
    assert score(full).terms["revealed"] == 0.0 and score(broken).terms["revealed"] == 1.0

