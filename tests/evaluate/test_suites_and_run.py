import asyncio
import json
from pathlib import Path

import pytest

from cogevol.evaluate.run import comparison_markdown, run_scoring, score_outputs, summarise
from cogevol.evaluate.suites import SuiteError, SuiteItem, load_suite
from cogevol.scoring import Scorers
from tests.conftest import Counting

ROOT = Path(__file__).parents[2]
DECK = (ROOT / "tests" / "slides" / "corpus" / "photosynthesis__clean.json").read_text()
LIVE = ("<!DOCTYPE html><html><body><button id=b>+</button><p id=out>0</p><script>let n = 0;"
        "b.onclick = () => { document.getElementById('out').textContent = ++n; };</script></body></html>")
DEAD = "<!DOCTYPE html><html><body><button>+</button><p>0</p></body></html>"


def test_committed_suites_load_and_cover_every_category():
    html = load_suite(ROOT / "data" / "eval" / "html_suite.jsonl")
    assert {i.category for i in html} == {"game", "3d", "simulation", "learning", "dataviz", "tool", "code"}
    assert all(i.kind == "slide" for i in load_suite(ROOT / "data" / "eval" / "slide_suite.jsonl"))


def test_webgen_bench_loads_through_the_same_loader():
    items = load_suite(ROOT / "data" / "external" / "webgen-bench" / "test.jsonl")
    assert len(items) == 101 and all(i.kind == "html" for i in items)
    assert {i.category for i in items} >= {"webgen/user_interaction", "webgen/data_management"}
    assert load_suite(ROOT / "data" / "external" / "webgen-bench" / "test.jsonl", limit=5)[4].id == "webgen-000005"


def test_bad_suite_lines_name_the_problem(tmp_path):
    p = tmp_path / "s.jsonl"
    p.write_text(json.dumps({"id": "a", "kind": "video", "category": "x", "prompt": "p"}) + "\n")
    with pytest.raises(SuiteError, match="s.jsonl:1: kind must be html or slide"):
        load_suite(p)
    p.write_text(json.dumps({"id": "a", "kind": "html", "category": "x", "prompt": "p"}) + "\n" +
                 json.dumps({"id": "a", "kind": "html", "category": "x", "prompt": "q"}) + "\n")
    with pytest.raises(SuiteError, match="duplicate id 'a'"):
        load_suite(p)


@pytest.mark.browser
def test_every_answer_is_scored_with_the_training_rewards():
    items = [SuiteItem("h1", "html", "tool", "a counter with a + button"), SuiteItem("h2", "html", "tool", "a counter with a + button"),
             SuiteItem("h3", "html", "game", "x"), SuiteItem("h4", "html", "game", "x"),
             SuiteItem("s1", "slide", "science", "photosynthesis"), SuiteItem("s2", "slide", "science", "x")]
    outputs = [f"```html\n{LIVE}\n```", DEAD, "I cannot do that.", None, DECK, '{"slides": 3}']

    async def run():
        async with Scorers() as scorers:
            return await score_outputs("sys", items, outputs, scorers)

    res = {r.item.id: r for r in asyncio.run(run())}
    assert res["h1"].reward > 0.5 and not res["h1"].hard_fail
    assert res["h2"].hard_fail and res["h2"].reward == 0.0 and not res["h2"].render_failure
    assert "no HTML document in the answer" in res["h3"].reason and res["h3"].render_failure
    assert res["h4"].reason == "no answer from the endpoint"
    assert res["s1"].valid and res["s1"].reward == 1.0
    assert res["s2"].valid is False and res["s2"].render_failure and res["s2"].reason.startswith("contract:")
    s = summarise(list(res.values()))["sys"]
    assert s["hard_fails"] == 3 and s["html_items"] == 4 and s["render_failures"] == 3 and s["slide_validity"] == 0.5
    assert s["categories"]["slide/science"] == 50.0
    # Cookie-Bench's Figure 8: per L2 domain and difficulty (html items), per language (all)
    assert set(s["by_l2"]) <= {"Tools & Productivity (Static)", "Interactive Applications",
                               "Browser Games", "Tools & Productivity (Dynamic)"} and s["by_l2"]
    assert s["by_difficulty"] and s["by_lang"]
    table = comparison_markdown({"sys": s})
    assert table.splitlines()[2].startswith("| sys |") and "3/4" in table
    assert "Score by domain (L2):" in table and "Score by language:" in table


def test_systems_that_answer_alike_are_scored_once_per_answer():
    items = [SuiteItem("h1", "html", "tool", "a counter"), SuiteItem("h2", "html", "tool", "a clock")]
    per_system = {"sft": (items, [LIVE, DEAD]), "grpo": (items, [LIVE, None]), "other": (items, [DEAD, DEAD])}
    scorers = Counting()
    results = run_scoring(per_system, scorers)
    # LIVE for h1 twice, DEAD for h2 twice: 6 rows, one unanswered, 3 distinct (answer, request) pairs
    assert len(scorers.asked) == 3
    assert [(r.system, r.item.id) for r in results] == [(s, i.id) for s in per_system for i in items]
    assert results[0].reward == results[2].reward and results[3].reason == "no answer from the endpoint"
