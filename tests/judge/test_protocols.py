"""The rubric with bands, the Visual Anchor and blind A/B against a real local server; the judge's
watchers."""

import asyncio
import base64
import json

import pytest

from cogevol.judge.ab import compare, first_shown, win_rate
from cogevol.judge.anchor import degradation, load_references, parse_degradation
from cogevol.judge.monitor import judge_stats, length_score_spearman
from cogevol.judge.vlm import (
    BAND_RUBRICS,
    JudgeConfig,
    JudgeError,
    VerdictFormatError,
    VisionJudge,
    parse_bands,
)


def bands(**over):
    d = {"fulfilment": {"band": 4, "score": 0.7}, "layout_integrity": {"band": 5, "score": 0.9},
         "visual_quality": {"band": 3, "score": 0.5}, "premium_assets": {"band": 2, "score": 0.3},
         "has_premium_assets": False, "reason": "works, plain"}
    d.update(over)
    return json.dumps(d)


def cfg(url, **k):
    return JudgeConfig(enabled=True, base_url=url, model="vlm", backoff_s=0.01, cache_dir=None, **k)


def run(coro_fn, c):
    async def go():
        async with VisionJudge(c) as judge:
            return await coro_fn(judge)

    return asyncio.run(go())


def test_the_rubric_reads_bands_into_the_two_axes():
    v = parse_bands(bands())
    assert v["content"] == pytest.approx(3.5) and v["visual"] == pytest.approx(5 * (0.7 + 0.3) / 2)
    assert v["dims"]["visual_quality"] == {"band": 3, "score": 0.5}


@pytest.mark.parametrize("over, why", [
    ({"fulfilment": {"band": 2, "score": 0.7}}, "outside its band 2"),
    ({"premium_assets": {"band": 4, "score": 0.7}}, "has_premium_assets is false"),
    ({"layout_integrity": {"band": 7, "score": 0.9}}, "not 1-5"),
    ({"visual_quality": {"band": 3, "score": 1.4}}, "outside 0..1"),
])
def test_a_score_outside_its_band_is_sent_back_then_moved_into_it(over, why):
    with pytest.raises(VerdictFormatError, match=why):
        parse_bands(bands(**over))
    if "not 1-5" not in why:
        v = parse_bands(bands(**over), last=True)
        for d in v["dims"].values():
            lo = (d["band"] - 1) / 5
            assert lo <= d["score"] <= lo + 0.2
        assert v["dims"]["premium_assets"]["score"] < 0.6


def test_rubric_protocol_replaces_the_absolute_call_and_sees_every_state(fake):
    server = fake(responder=lambda body: bands())
    v = run(lambda j: j.score("page", [b"first", b"after-play", b"third"], "a quiz"), cfg(server.url, protocol="rubric"))
    body = server.bodies[0]
    assert body["messages"][0]["content"] == BAND_RUBRICS["page"]
    imgs = [p for p in body["messages"][1]["content"] if p["type"] == "image_url"]
    assert len(imgs) == 3 and "after inputs" in json.dumps(body["messages"][1]["content"])
    assert v.content == pytest.approx(3.5) and v.dims["fulfilment"]["band"] == 4
    # at most max_images
    run(lambda j: j.score("page", [b"1", b"2", b"3"], "a quiz"), cfg(server.url, protocol="rubric", max_images=2))
    assert sum(p["type"] == "image_url" for p in server.bodies[1]["messages"][1]["content"]) == 2


def test_the_anchor_prices_degradation_one_sided(fake):
    server = fake(script=[{"content": '{"degradation": "35%", "summary": "plainer", '
                                      '"current_deficiencies": ["no hierarchy"]}'}],
                  responder=lambda b: '{"degradationLevel": 0, "summary": "as good"}')
    c = cfg(server.url)
    worse = run(lambda j: degradation(j, "a solar system", b"ref", [b"mine", b"mine-2"]), c)
    same = run(lambda j: degradation(j, "a solar system", b"ref", [b"other"]), c)
    assert worse["degradation"] == 35 and worse["deficiencies"] == ["no hierarchy"]
    assert same["degradation"] == 0
    content = server.bodies[0]["messages"][1]["content"]
    imgs = [base64.b64decode(p["image_url"]["url"].split(",", 1)[1]) for p in content if p["type"] == "image_url"]
    assert imgs == [b"ref", b"mine", b"mine-2"] and "reference" in content[0]["text"]
    with pytest.raises(VerdictFormatError, match="outside 0..100"):
        parse_degradation('{"degradation": 140}')
    assert parse_degradation('{"degradation": 140}', last=True)["degradation"] == 100


def test_references_are_the_admitted_pages_by_request(tmp_path):
    f = tmp_path / "sft.jsonl"
    rows = [{"modality": "html", "messages": [{"role": "user", "content": "A  solar\nsystem"},
                                             {"role": "assistant", "content": "<html>ref</html>"}]},
            {"modality": "slide", "messages": [{"role": "user", "content": "Volcanoes"},
                                              {"role": "assistant", "content": "{}"}]}]
    f.write_text("\n".join(json.dumps(r) for r in rows))
    assert load_references(f) == {"A solar system": "<html>ref</html>"}
    assert load_references(tmp_path / "missing") == {}


def test_blind_ab_draws_the_order_and_a_left_preferring_judge_wins_half(fake):
    server = fake(responder=lambda b: '{"winner": "A", "reason": "left"}')
    c = cfg(server.url)

    async def go(judge):
        out = []
        for k in range(40):
            req = f"request {k}"
            out.append(await compare(judge, "page", req, [b"x"], [b"y"], first_shown(req, "sft", "base")))
        return out

    outcomes = run(go, c)
    firsts = [o["shown_first"] for o in outcomes]
    assert 10 < firsts.count("x") < 30  # drawn per item
    wr = win_rate(outcomes, resamples=200)
    assert wr.win_rate == firsts.count("x") / 40 and wr.first_shown_wins == 1.0
    assert wr.record()["position_bias"] == 0.5 and wr.ci[0] <= wr.win_rate <= wr.ci[1]
    assert first_shown("r", "a", "b") == first_shown("r", "a", "b")


def test_ab_tie_counts_half_and_a_bad_reply_is_an_error(fake):
    wr = win_rate([{"winner": "tie", "shown_first": "x"}] * 4 + [{"winner": "x", "shown_first": "y"}] * 4)
    assert wr.win_rate == 0.75 and wr.ties == 4 and wr.wins == 4
    server = fake(responder=lambda b: '{"winner": "C"}')
    with pytest.raises(JudgeError, match="not \"A\", \"B\" or \"tie\""):
        run(lambda j: compare(j, "page", "r", [b"x"], [b"y"], True), cfg(server.url, json_repair_attempts=1))


def test_length_bias_is_the_within_group_rank_correlation():
    longer_wins = [{"lengths": [100, 200, 300, 400], "judge": [0.1, 0.2, 0.3, 0.9]}] * 3
    assert length_score_spearman(longer_wins) == 1.0
    mixed = longer_wins + [{"lengths": [100, 200, 300, 400], "judge": [0.9, 0.3, 0.2, 0.1]}] * 3
    assert length_score_spearman(mixed) == 0.0
    assert length_score_spearman([{"lengths": [1, 2, 3], "judge": [0.5, 0.5, 0.5]}]) is None
    assert judge_stats([{"lengths": [1, 2], "judge": [None, 0.3]}]) == {}
