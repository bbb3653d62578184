"""The scoring layer without a browser: the typed Score's JSON round trip, strict settings, the
backend params.yaml picks, and fan-out in chunks answered in order."""

import asyncio

import pytest
import yaml

from cogevol.scoring import Score, ScoreItem, Scorers, ScoringConfig, ScoringSettings, open_scorers
from cogevol.scoring.base import in_chunks
from cogevol.scoring.http_client import HttpScorers
from cogevol.scoring.ray_transport import RayScorers
from tests.conftest import REPO, Counting


def test_score_round_trips_through_json_without_its_images():
    s = Score("html", 0.8, "pass", "1/1 operable controls live", False, True, {"blank": 0.1}, {"blank": 1.0}, 1.2,
              details={"controls_live": 1}, images=[b"png"])
    back = Score.from_json({**s.to_json(), "unknown_future_field": 1})
    assert back == Score(**{**s.__dict__, "images": []}) and "images" not in s.to_json()
    none = Score.no_verdict("slide", "deadline: no verdict within 1 s")
    assert none.reward is None and none.gate == "none" and not none.passed and none.harness_error.startswith("deadline")
    with pytest.raises(ValueError, match="modality must be one of"):
        ScoreItem("video", "x")


def test_params_pick_the_backend_strictly(monkeypatch):
    params = yaml.safe_load((REPO / "params.yaml").read_text())
    assert ScoringConfig.from_params(params["scoring"]).transport == "local"
    local = open_scorers(params, workers=3)
    assert isinstance(local, Scorers) and local.settings.workers == 3
    assert local.settings.probe.page_timeout_s == params["probe"]["harness"]["page_timeout_s"]
    monkeypatch.setenv("COGEVOL_SCORING_TOKEN", "t0k")
    http = open_scorers({**params, "scoring": {**params["scoring"], "transport": "http", "url": "http://h:1/"}})
    assert isinstance(http, HttpScorers) and http.url == "http://h:1" and http.token == "t0k"
    ray = open_scorers({**params, "scoring": {**params["scoring"], "transport": "ray"}})
    assert isinstance(ray, RayScorers) and ray.settings.workers == params["scoring"]["ray"]["workers_per_actor"]
    with pytest.raises(ValueError, match="scoring.transport must be one of"):
        open_scorers({"scoring": {"transport": "spark"}})
    with pytest.raises(KeyError, match="unknown key"):
        open_scorers({"scoring": {"transport": "ray", "ray": {"actor": 2}}})
    assert ScoringSettings.from_params({"judge": {"enabled": True, "base_url": "http://j"}}).judge.base_url == "http://j"


def test_chunks_fan_out_and_come_back_in_order():
    items = [ScoreItem("html", str(k)) for k in range(10)]
    calls = []

    async def run(chunk):
        calls.append(len(chunk))
        await asyncio.sleep(0.01 * (10 - int(chunk[0].text)))  # later chunks finish first
        return [Score("html", int(i.text) / 10, "pass", i.text) for i in chunk]

    async def go():
        return [pair async for pair in in_chunks(items, 4, run)]

    pairs = asyncio.run(go())
    assert sorted(calls) == [2, 4, 4] and sorted(k for k, _ in pairs) == list(range(10))
    assert all(s.reason == str(k) for k, s in pairs)


def test_identical_items_are_scored_once_and_every_one_is_answered():
    same, other = ScoreItem("html", "<p>a</p>", "a counter"), ScoreItem("html", "<p>bb</p>", "a counter")
    items = [same, other, same, ScoreItem("html", "<p>a</p>", "a clock"), same, ScoreItem("slide", "<p>a</p>", "a counter")]
    scorers = Counting()
    scores = asyncio.run(scorers.score(items))
    # a different request or modality is a different item; a repeat is not scored again
    assert len(scorers.asked) == 4 and scorers.asked.count(same) == 1
    assert [s.reason for s in scores] == [i.text for i in items] and scores[0] == scores[2] == scores[4]
    assert scores[0] is not scores[2]  # each repeat gets its own copy to keep
    assert asyncio.run(Counting().score([])) == []


def test_a_misspelt_weight_is_an_error_not_a_dropped_term():
    params = yaml.safe_load((REPO / "params.yaml").read_text())
    typo = {**params, "probe": {**params["probe"], "weights": {**params["probe"]["weights"], "fulfillment": 0.5}}}
    with pytest.raises(KeyError, match=r"probe.weights: unknown term\(s\) \['fulfillment'\]"):
        ScoringSettings.from_params(typo)
    slides = {**params, "slides": {**params["slides"], "weights": {"vlm": 0.6, "rule": 0.4}}}
    with pytest.raises(KeyError, match=r"slides.weights: unknown term\(s\) \['rule'\]"):
        ScoringSettings.from_params(slides)
    negative = {**params, "probe": {**params["probe"], "weights": {"blank": -1}}}
    with pytest.raises(ValueError, match="weights must be numbers >= 0"):
        ScoringSettings.from_params(negative)


def test_the_class_level_factory_is_the_one_factory():
    assert Scorers.from_params is open_scorers
