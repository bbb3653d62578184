"""Flows (issue 37): the request's flow checks run on fresh copies of the page, met or unmet with the
step that failed, through the real Chromium and the whole reward."""

import asyncio

import pytest

from cogevol.browser.pool import BrowserPool
from cogevol.rewards.html import HtmlScorer
from tests.probe.test_explore import depth_pair

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

CALC = ("<!doctype html><html><body><h1>Tip calculator</h1><input id=b type=number aria-label=bill>"
        "<input id=p type=number aria-label=percent><button id=go>Calculate</button><p id=r></p><script>"
        "go.onclick=()=>{{const b=parseFloat(document.getElementById('b').value),p=parseFloat(document.getElementById('p').value);"
        "if(isNaN(b)||isNaN(p))return;{body}}}</script></body></html>")


def scored(pages: list[tuple[str, str]]) -> list:
    async def go():
        async with BrowserPool() as pool:
            scorer = HtmlScorer(pool)
            return [await scorer.score(html, request) for html, request in pages]

    return asyncio.run(go())


def flows(s) -> dict:
    return {c["value"]: c for c in s.checks if c["check"] == "flow"}


def test_flows_are_met_by_a_working_page_and_unmet_by_one_whose_step_does_nothing():
    req, todo, todo_dead = depth_pair("todo")
    works = CALC.format(body="document.getElementById('r').textContent='Tip: '+(b*p/100).toFixed(2)")
    broken = CALC.format(body="0")
    ask = "A tip calculator: enter the bill and the percentage, then Calculate"
    full, dead, calc, calc_broken = scored([(todo, req), (todo_dead, req), (works, ask), (broken, ask)])
    assert flows(full)["add_item"]["status"] == "met" and flows(full)["delete_item"]["status"] == "met"
    assert flows(dead)["add_item"]["status"] == "met"
    assert flows(dead)["delete_item"]["status"] == "unmet" and "still shown" in flows(dead)["delete_item"]["reason"]
    # a form that works only when filled: the flow fills it, then computes
    assert flows(calc)["compute"]["status"] == "met", flows(calc)
    assert flows(calc_broken)["compute"]["status"] == "unmet" and "nothing shown changed" in flows(calc_broken)["compute"]["reason"]
    assert full.reward > dead.reward and calc.reward > calc_broken.reward
    # the flows ran on copies: the page under test's own verdict is its play-through's
    assert full.probe.flows and full.probe.explore["depth_reached"] == 1


NOTES = ("<!doctype html><html><body><h1>Notes</h1><input id=q type=search placeholder=Search>"
         "<button id=add>New note</button><div id=list>{items}</div><script>"
         "add.onclick=()=>{{const d=document.createElement('div');d.className='note';d.textContent='Note '+list.children.length;list.append(d)}};"
         "q.oninput=()=>{{{search}}}</script></body></html>")
FILTER = "for(const n of list.children)n.style.display=n.textContent.toLowerCase().includes(q.value.toLowerCase())?'':'none'"


def test_a_search_with_nothing_listed_is_unverifiable_and_a_dead_search_over_a_list_is_unmet():
    ask = "A notes app: add notes and search them"
    three = "".join(f"<div class=note>Note about {w}</div>" for w in ("apples", "boats", "clouds"))
    empty_dead, listed_dead, listed_works = scored([
        (NOTES.format(items="", search="0"), ask),
        (NOTES.format(items=three, search="0"), ask),
        (NOTES.format(items=three, search=FILTER), ask),
    ])
    assert flows(empty_dead)["search_list"]["status"] == "unverifiable"
    assert "nothing was listed" in flows(empty_dead)["search_list"]["reason"]
    assert flows(listed_dead)["search_list"]["status"] == "unmet"
    assert flows(listed_works)["search_list"]["status"] == "met"


KEYPAD = ("<!doctype html><html><body><h1>Calculator</h1><div id=d>0</div><div id=k></div><script>"
          "for(const c of '789456123+0='){{const b=document.createElement('button');b.textContent=c;"
          "b.onclick=()=>{{{body}}};k.append(b)}}</script></body></html>")


def test_a_keypad_calculator_gets_its_numbers_on_its_keys():
    # no field to fill: the flow presses 1 and 2 on the keypad, then =
    ask = "Build a calculator"
    works, dead = scored([
        (KEYPAD.format(body="d.textContent=c==='='?String(eval(d.textContent)):(d.textContent==='0'?'':d.textContent)+c"), ask),
        (KEYPAD.format(body="0"), ask),
    ])
    assert flows(works)["compute"]["status"] == "met", flows(works)
    assert flows(dead)["compute"]["status"] == "unmet", flows(dead)
    assert "nothing shown changed" in flows(dead)["compute"]["reason"]


def test_a_drawing_with_notes_beside_it_has_counts_no_one_can_read():
    notes = "Notes: every ball is an object with a position and a velocity; gravity pulls it down. " * 4
    page = (f"<!doctype html><html><body style='margin:0'><canvas id=c width=1280 height=600></canvas><p>{notes}</p>"
            "<script>const x=c.getContext('2d');let t=0;(function f(){x.clearRect(0,0,1280,600);"
            "for(let i=0;i<50;i++){x.beginPath();x.arc((i*97+t)%1280,(i*53)%600,8,0,7);x.fill();}t+=3;"
            "requestAnimationFrame(f)})()</script></body></html>")
    (s,) = scored([(page, "Draw 50 balls bouncing in a box, animated")])
    assert s.probe.drawn and not s.probe.scene
    count = next(c for c in s.checks if c["check"] == "count")
    assert count["status"] == "unverifiable", count


TODO_WITH_SEARCH = ("<!doctype html><html><body><h1>Tasks</h1><input id=q placeholder='Search tasks'>"
                    "<input id=t placeholder='New task'><button id=add>Add</button><ul id=list></ul><script>"
                    "add.onclick=()=>{if(!t.value)return;const li=document.createElement('li');li.textContent=t.value;"
                    "list.append(li);t.value=''};"
                    "q.oninput=()=>{for(const li of list.children)li.hidden=!li.textContent.includes(q.value)}</script></body></html>")


def test_a_task_is_typed_into_the_task_field_not_the_search_box_above_it():
    # typed into the search box, the task would never be added and a working list would be unmet
    (s,) = scored([(TODO_WITH_SEARCH, "A to-do list: add tasks and search them")])
    assert flows(s)["add_item"]["status"] == "met", flows(s)


# a notes app as models write one: "+ New Note" in the header opens an editor (title, body,
# Save); a saved note is a card, and its Delete is inside the note the card opens, or on the
# card, shown only while the pointer is over it
NOTES_APP = ("<!doctype html><html><head><style>#ed{{display:none}} .card .del{{opacity:0}}"
             " .card:hover .del{{opacity:1}}</style></head><body><header><h1>My notes</h1>"
             "<button id=nb>+ New Note</button><input id=q type=search placeholder='Search notes'></header>"
             "<div id=ed><input id=t placeholder=Title><textarea id=c></textarea><button id=del>Delete</button>"
             "<button id=save>Save</button></div><div id=list></div><script>"
             "let notes=[],cur=null;"
             "const draw=()=>{{list.innerHTML='';notes.forEach((n,i)=>{{const d=document.createElement('div');"
             "d.className='card';d.innerHTML='<b></b>{card_del}';d.firstChild.textContent=n;"
             "d.onclick=(e)=>{{if(e.target.className==='del'){{notes.splice(i,1);draw();return}}"
             "cur=i;t.value=n;ed.style.display='block';del.style.display=''}};list.append(d)}})}};"
             "nb.onclick=()=>{{cur=null;t.value='';ed.style.display='block';del.style.display='none'}};"
             "save.onclick=()=>{{if(!t.value)return;if(cur===null)notes.push(t.value);else notes[cur]=t.value;"
             "ed.style.display='none';{after_save}}};"
             "del.onclick=()=>{{notes.splice(cur,1);ed.style.display='none';draw()}};"
             "</script></body></html>")
NOTES_ASK = ("# Build me a Note Taking App\n\nCreate a simple notes app as a web page:\n\n"
             "- I can create new notes with a title and content\n"
             "- Click a note to view/edit it\n- Delete notes I don't need")


def test_a_notes_app_saves_from_its_editor_and_deletes_what_it_saved():
    inside = NOTES_APP.format(card_del="", after_save="draw()")
    on_card = NOTES_APP.format(card_del="<button class=del>Delete</button>", after_save="draw()")
    unsaved = NOTES_APP.format(card_del="", after_save="0")  # Save keeps it but never redraws
    a, b, c = scored([(inside, NOTES_ASK), (on_card, NOTES_ASK), (unsaved, NOTES_ASK)])
    # typed into the editor's title (not the search box), saved with the editor's Save (not the
    # header's "+ New Note"); deleted inside the note the card opens, or on the card itself
    for s in (a, b):
        assert flows(s)["add_item"]["status"] == "met", flows(s)
        assert flows(s)["delete_item"]["status"] == "met", flows(s)
    assert flows(c)["add_item"]["status"] == "unmet" and "did not appear" in flows(c)["add_item"]["reason"]
    assert a.reward > c.reward and b.reward > c.reward
