"""Checklist planners: strict validation of an LLM's reply, the replay file, and a live endpoint
(a real local HTTP server) with repair and fallback to the rules, each fallback with its reason."""

import json

import pytest

from cogevol.checklist import Checklist
from cogevol.checklist.planner import (
    NOT_IN_REPLAY,
    PlannerConfig,
    parse_plan,
    plan_checklists,
    plan_key,
    system_prompt,
)
from tests.chat_server import ChatServer

FR = "Fais une courbe des températures sur un an en HTML avec un bouton de réinitialisation, thème vert."
GOOD = {"language": "fr", "checks": [{"check": "label", "value": "Réinitialiser", "cue": "bouton de réinitialisation"},
                                     {"check": "mentions", "value": "températures"}, {"check": "mentions", "value": "courbe"}]}


def test_a_valid_reply_gets_the_formats_weights_and_must_haves():
    plan = parse_plan(json.dumps(GOOD), "html")
    assert plan.source == "llm" and plan.language == "fr"
    kinds = [(c.check, c.value, c.weight, c.must) for c in plan.checks]
    assert kinds[0] == ("language", "fr", 1.0, False)  # the language is priced, never a must-have
    assert ("label", "Réinitialiser", 1.0, False) in kinds
    assert [w for k, _, w, m in kinds if k == "mentions"] == [1.0, 1.0]  # two mentions share a weight of 2
    assert Checklist.from_json(plan.to_json()) == plan  # the stored form loads back unchanged


@pytest.mark.parametrize("reply, why", [
    ({"language": "xx", "checks": []}, "language must be one of"),
    ({"language": "en", "checks": [{"check": "control", "value": "slider"}]}, "a control's value must be one of"),
    ({"language": "en", "checks": [{"check": "slides", "n": 5}]}, "for a html request"),
    ({"language": "en", "checks": [{"check": "count", "value": "cards"}]}, "n must be an integer"),
    ({"language": "en", "checks": [{"check": "mentions", "value": "x", "weight": 9}]}, "unknown field"),
    ({"language": "en", "checks": [{"check": "mentions", "value": f"w{k}"} for k in range(7)]}, "at most 6 mentions"),
    ({"language": "en", "checks": [{"check": "key", "value": "Ctrl+Alt+Shift"}]}, "a key's value"),
])
def test_an_invalid_reply_is_an_error_that_says_what_is_wrong(reply, why):
    with pytest.raises(ValueError, match=why):
        parse_plan(json.dumps(reply), "html")


def test_slide_prompt_and_checks():
    assert "slide deck" in system_prompt("slide") and "label" not in system_prompt("slide").split("Rules:")[0]
    plan = parse_plan(json.dumps({"language": "en", "checks": [{"check": "slides", "n": 5}, {"check": "element", "value": "chart"}]}), "slide")
    assert [(c.check, c.n or c.value) for c in plan.checks] == [("language", "en"), ("slides", 5), ("element", "chart")]


def _replay(tmp_path, lines: list) -> str:
    p = tmp_path / "replay.jsonl"
    p.write_text("\n".join(x if isinstance(x, str) else json.dumps(x, ensure_ascii=False) for x in lines) + "\n", encoding="utf-8")
    return str(p)


def test_replay_hit_miss_and_rejected_reply(tmp_path, caplog):
    other = "Make a quiz about planets with 5 questions."
    bad = "Build a snake game with arrow keys."
    path = _replay(tmp_path, [{"modality": "html", "request": FR, "reply": GOOD}, "{not json",
                              {"modality": "html", "request": bad, "reply": {"language": "en", "checks": [{"check": "nope"}]}}])
    plans, stats = plan_checklists(PlannerConfig(source="replay", replay_path=path),
                                   [(FR, "html"), (other, "html"), (bad, "html"), (FR, "html")])
    assert plans[0].source == "llm" and plans[0] == plans[3] and not plans[0].note
    assert plans[1].source == "rules" and plans[1].note == f"{NOT_IN_REPLAY}; planned by the rules"
    assert plans[2].source == "rules" and plans[2].note.startswith("replay reply rejected: checks[0]")
    assert stats == {"llm": 1, f"rules ({NOT_IN_REPLAY})": 1, "rules (replay reply rejected)": 1}
    assert "skipped a malformed replay line" in caplog.text
    assert plan_key(FR + "  ", "html") == plan_key(FR, "html") != plan_key(FR, "slide")


def test_a_missing_replay_file_is_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="checklist.replay_path"):
        plan_checklists(PlannerConfig(source="replay", replay_path=str(tmp_path / "none.jsonl")), [(FR, "html")])


def test_unknown_backend_is_an_error():
    with pytest.raises(ValueError, match="rules, replay or openai"):
        PlannerConfig(source="gpt")


def Endpoint(replies: list[str], status: int | None = None) -> ChatServer:
    """Replies in turn from `replies` (the last repeats), or always `status` when it is set."""
    return ChatServer(lambda body, n: (status, "") if status else (200, replies[min(n, len(replies)) - 1]))


@pytest.fixture
def endpoint():
    made = []

    def make(*a, **k):
        made.append(Endpoint(*a, **k))
        return made[-1]

    yield make
    for e in made:
        e.close()


def _cfg(url: str, tmp_path, **k) -> PlannerConfig:
    return PlannerConfig(source="openai", base_url=url, cache_dir=str(tmp_path / "cache"), backoff_s=0.01, **k)


def test_openai_plans_from_the_request_alone_and_caches(endpoint, tmp_path):
    ep = endpoint([json.dumps(GOOD)])
    plans, stats = plan_checklists(_cfg(ep.url, tmp_path), [(FR, "html")])
    assert plans[0].source == "llm" and stats == {"llm": 1}
    msgs = ep.bodies[0]["messages"]
    assert msgs[0]["content"] == system_prompt("html") and msgs[-1] == {"role": "user", "content": FR}
    assert ep.bodies[0]["response_format"] == {"type": "json_object"} and ep.bodies[0]["temperature"] == 0.0
    again, _ = plan_checklists(_cfg(ep.url, tmp_path), [(FR, "html")])
    assert again == plans and len(ep.bodies) == 1  # frozen: the second run asks nothing


def test_an_invalid_reply_is_sent_back_with_the_error_then_repaired(endpoint, tmp_path):
    ep = endpoint([json.dumps({"language": "fr", "checks": [{"check": "control", "value": "button"}]}), json.dumps(GOOD)])
    plans, stats = plan_checklists(_cfg(ep.url, tmp_path), [(FR, "html")])
    assert plans[0].source == "llm" and stats == {"llm": 1}
    repair = ep.bodies[1]["messages"]
    assert repair[-2]["role"] == "assistant" and "a control's value must be one of" in repair[-1]["content"]


def test_a_reply_that_stays_invalid_falls_back_to_the_rules_with_the_reason(endpoint, tmp_path):
    ep = endpoint(["not json at all"])
    plans, stats = plan_checklists(_cfg(ep.url, tmp_path, repair_attempts=1), [(FR, "html")])
    assert plans[0].source == "rules" and plans[0].note.startswith("planner reply invalid after 2 attempts")
    assert len(ep.bodies) == 2 and stats == {"rules (planner reply invalid after 2 attempts)": 1}


def test_an_unreachable_endpoint_is_retried_then_reported_and_the_rules_plan(endpoint, tmp_path):
    ep = endpoint([], status=503)
    plans, stats = plan_checklists(_cfg(ep.url, tmp_path, max_retries=2), [(FR, "html")])
    assert len(ep.bodies) == 3  # one try and two retries
    assert plans[0].source == "rules" and "planner endpoint" in plans[0].note and "503" in plans[0].note
    assert plans[0].checks  # the prompt keeps a checklist
    assert stats == {"rules (planner endpoint)": 1}


def test_the_committed_replay_validates_and_round_trips():
    """Every frozen plan in data/checklists/replay.jsonl parses, under the key of its own request."""
    from cogevol.checklist.planner import read_replay, replay_line
    from tests.conftest import REPO

    path = REPO / "data" / "checklists" / "replay.jsonl"
    lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    assert len(read_replay(path)) == len(lines) >= 100
    for r in lines:
        plan = parse_plan(r["reply"], r["modality"], source=r["author"])
        assert r["key"] == plan_key(r["request"], r["modality"])
        again = replay_line(r["request"], r["modality"], plan, r["author"])
        assert parse_plan(again["reply"], r["modality"], source=again["author"]) == plan


def test_hand_written_replay_lines_are_labelled_hand_never_llm(tmp_path):
    """The committed replay was written by people: its plans say `hand`, and are counted so."""
    from tests.conftest import REPO

    committed = [json.loads(x) for x in (REPO / "data" / "checklists" / "replay.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]
    assert {r["author"] for r in committed} == {"hand"}
    other = "Make a quiz about planets with 5 questions."
    path = _replay(tmp_path, [{"modality": "html", "request": FR, "reply": GOOD, "author": "hand"},
                              {"modality": "html", "request": other, "reply": GOOD, "author": "Qwen/Qwen3-32B"}])
    plans, stats = plan_checklists(PlannerConfig(source="replay", replay_path=path), [(FR, "html"), (other, "html")])
    assert [p.source for p in plans] == ["hand", "llm"] and stats == {"hand": 1, "llm": 1}
    assert plans[0].to_json()["source"] == "hand"


def test_a_reply_may_name_a_things_aliases_and_what_the_code_must_use():
    reply = {"language": "zh", "checks": [
        {"check": "mentions", "value": "行星", "aliases": ["planets", "planètes", "惑星", "행성"]},
        {"check": "code", "value": "曼哈顿距离", "aliases": ["manhattan distance"]}]}
    plan = parse_plan(json.dumps(reply, ensure_ascii=False), "html")
    planets = next(c for c in plan.checks if c.check == "mentions")
    assert planets.aliases == ("planets", "planètes", "惑星", "행성") and planets.must
    code = next(c for c in plan.checks if c.check == "code")
    assert code.aliases == ("manhattan distance",) and not code.must
    assert plan.to_json()["checks"][1]["aliases"] == ["planets", "planètes", "惑星", "행성"]
    bad = {"language": "en", "checks": [{"check": "label", "value": "Start", "aliases": ["Démarrer"]}]}
    with pytest.raises(ValueError, match="aliases belong"):
        parse_plan(json.dumps(bad), "html")


def test_a_reply_may_hold_flows_in_the_grammar_the_probe_runs():
    flow = {"check": "flow", "value": "add a task", "steps": [{"do": "type", "into": "text", "text": "Milch kaufen"},
                                                          {"do": "click", "label": "add", "or_key": "Enter"}],
            "expect": [{"appears": "Milch kaufen"}]}
    plan = parse_plan(json.dumps({"language": "de", "checks": [flow]}), "html")
    (f,) = [c for c in plan.checks if c.check == "flow"]
    assert f.steps[1]["label"] == "add" and f.expect == ({"appears": "Milch kaufen"},) and not f.must
    for bad, why in (({"do": "teleport"}, "do must be"), ({"do": "wait", "ms": 99999}, "ms"),
                     ({"do": "click"}, "names a label")):
        with pytest.raises(ValueError, match=why):
            parse_plan(json.dumps({"language": "de", "checks": [flow | {"steps": [bad]}]}), "html")
    with pytest.raises(ValueError, match="belong to flow"):
        parse_plan(json.dumps({"language": "de", "checks": [{"check": "label", "value": "Start", "steps": [{"do": "wait", "ms": 200}]}]}), "html")


def test_a_replay_line_keeps_aliases_and_flow_scripts():
    from cogevol.checklist.planner import replay_line

    reply = {"language": "en", "checks": [
        {"check": "mentions", "value": "notes", "aliases": ["notas", "笔记"]},
        {"check": "flow", "value": "add_note", "steps": [{"do": "type", "into": "text", "text": "Milk 42"},
                                                         {"do": "click", "label": "add", "or_key": "Enter"}],
         "expect": [{"appears": "Milk 42"}]}]}
    plan = parse_plan(json.dumps(reply, ensure_ascii=False), "html")
    line = replay_line("A notes app", "html", plan, "Qwen/Qwen3-32B")
    assert line["author"] == "Qwen/Qwen3-32B"
    assert parse_plan(line["reply"], "html") == plan
