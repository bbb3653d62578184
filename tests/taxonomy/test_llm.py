import json

import pytest

from cogevol.taxonomy.classify import TaxonomyConfig, classify
from cogevol.taxonomy.llm import parse_label, request_key, system_prompt
from cogevol.taxonomy.tree import load
from tests.chat_server import ChatServer

REQ = "Build a pricing-strategy simulator: adjust price elasticity and see predicted revenue"


@pytest.fixture
def endpoint():
    made = []

    def make(replies=None, status=None):
        made.append(
            ChatServer(
                lambda body, n: (status, "") if status else (200, replies[min(n, len(replies)) - 1])
            )
        )
        return made[-1]

    yield make
    for e in made:
        e.close()


def _cfg(url, tmp_path, **k):
    return TaxonomyConfig(
        source="openai", base_url=url, cache_dir=str(tmp_path / "cache"), backoff_s=0.01, **k
    )


def test_prompt_lists_every_leaf_with_its_revised_definition_and_the_contract():
    tax = load()
    prompt = system_prompt(tax)
    assert all(f"- {leaf.name} [" in prompt for leaf in tax.leaves)
    sim = tax.leaf("Data-driven Simulation")
    assert sim.revised and sim.revised[:40] in prompt  # A.7.4's sharpened definition
    assert '{"task_scenario": ' in prompt and "surface wording" in prompt


def test_parse_is_strict_about_the_label():
    tax = load()
    assert parse_label('{"task_scenario": "Physics Simulation"}', tax) == "Physics Simulation"
    assert parse_label('{"task_scenario": "physics  simulation"}', tax) == "Physics Simulation"
    with pytest.raises(ValueError, match="not one of the task types"):
        parse_label('{"task_scenario": "Simulation"}', tax)
    with pytest.raises(ValueError):
        parse_label('{"scenario": "Physics Simulation"}', tax)


def test_openai_labels_recovers_l1_l2_from_the_tree_and_caches(endpoint, tmp_path):
    ep = endpoint(['{"task_scenario": "Data-driven Simulation"}'])
    labels, counts = classify([REQ, REQ], _cfg(ep.url, tmp_path))
    lab = labels[0]
    assert (lab.l1, lab.l2, lab.l3) == ("Dynamic", "Data Analysis & Visualization (Dynamic)",
                                        "Data-driven Simulation")
    assert lab.source == "llm" and lab.lang == "en" and lab.difficulty
    assert counts == {"llm": 1} and ep.calls == 1  # the same request asked once
    body = ep.bodies[0]
    assert body["temperature"] == 0.2 and body["messages"][-1]["content"] == REQ
    classify([REQ], _cfg(ep.url, tmp_path))
    assert ep.calls == 1  # the cache answers a rerun


def test_a_bad_label_is_sent_back_then_the_rules_place_it_with_the_reason(endpoint, tmp_path):
    ep = endpoint(['{"task_scenario": "Simulator"}', '{"task_scenario": "Simulator"}'])
    labels, counts = classify([REQ], _cfg(ep.url, tmp_path, repair_attempts=1))
    assert ep.calls == 2 and "not one of the task types" in ep.bodies[1]["messages"][-1]["content"]
    assert labels[0].source == "rules" and counts == {"rules (reply invalid after repairs)": 1}


def test_an_unreachable_endpoint_leaves_every_request_to_the_rules(endpoint, tmp_path):
    ep = endpoint(status=503)
    labels, counts = classify([REQ], _cfg(ep.url, tmp_path, max_retries=1))
    assert labels[0].source == "rules" and counts == {"rules (endpoint unreachable)": 1}


def test_a_refused_request_is_counted_as_refused_not_unreachable(endpoint, tmp_path):
    ep = endpoint(status=400)  # e.g. the prompt past the model's context
    labels, counts = classify([REQ], _cfg(ep.url, tmp_path, max_retries=3))
    assert ep.calls == 1  # a 4xx is not retried
    assert labels[0].source == "rules" and counts == {"rules (endpoint refused (HTTP 400))": 1}


def test_replay_reads_frozen_replies_and_the_rules_take_the_rest(tmp_path):
    path = tmp_path / "replay.jsonl"
    lines = [
        {"request": REQ, "reply": '{"task_scenario": "Data-driven Simulation"}'},
        {"request": "bad", "reply": '{"task_scenario": "nope"}'},
    ]
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\nnot json\n")
    cfg = TaxonomyConfig(source="replay", replay_path=str(path))
    labels, counts = classify([REQ, "bad", "a pomodoro timer"], cfg)
    assert [lab.source for lab in labels] == ["llm", "rules", "rules"]
    assert counts == {"llm": 1, "rules (replay reply rejected)": 1,
                      "rules (not in the replay file)": 1}
    assert request_key(" x ") == request_key("x")
