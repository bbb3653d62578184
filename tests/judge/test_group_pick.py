"""Group pick against a real local OpenAI-compatible server: shifted rounds, votes, centring,
position bias, identical pages, repair of contradictory replies, a judge that stays down."""

import asyncio
import base64
import json

from cogevol.judge.group_pick import group_pick, parse_pick
from cogevol.judge.monitor import judge_stats
from cogevol.judge.vlm import GroupPickConfig, JudgeConfig, VisionJudge

PAGES = {b"png-best": "best", b"png-worst": "worst", b"png-a": "a", b"png-b": "b", b"png-c": "c"}


def shown(body: dict) -> list[str]:
    """The pages of a group-pick call, in display order (one image each here)."""
    out = []
    for part in body["messages"][1]["content"]:
        if part.get("type") == "image_url":
            out.append(PAGES[base64.b64decode(part["image_url"]["url"].split(",", 1)[1])])
    return out


def first_image(body: dict) -> str:
    return json.dumps({"reason": "the first looks best", "good": [0], "bad": [],
                       "no_clear_difference": False})


def sees_quality(body: dict) -> str:
    order = shown(body)
    return json.dumps({"reason": "one stands out, one is broken", "good": [order.index("best")],
                       "bad": [order.index("worst")], "no_clear_difference": False})


def pick(server, images, request="a to-do list", tmp_path=None, **kw):
    cfg = JudgeConfig(enabled=True, base_url=server.url, model="vlm", backoff_s=0.01, max_retries=1,
                      cache_dir=str(tmp_path / "judge") if tmp_path else None)

    async def go():
        async with VisionJudge(cfg) as judge:
            return await group_pick(judge, "page", request, images, GroupPickConfig(enabled=True, **kw))

    return asyncio.run(go())


def test_a_judge_that_always_prefers_the_first_image_gives_no_signal(fake):
    server = fake(responder=first_image)
    imgs = [[b"png-a"], [b"png-b"], [b"png-c"], [b"png-best"]]
    res = pick(server, imgs)
    assert server.calls == 4 and len(res.rounds) == 4  # rounds = group size
    # each page sat at each display position once
    assert sorted(tuple(r.order) for r in res.rounds) == sorted({tuple(r.order) for r in res.rounds})
    assert all(sorted(r.order[p] for r in res.rounds) == [0, 1, 2, 3] for p in range(4))
    assert res.raw == [0.25] * 4 and res.scores == [0.0] * 4  # centred: the mean pick is 0
    stats = judge_stats([{"lengths": [1, 2, 3, 4], "judge": res.scores, "pick": res.record()}])
    assert stats["first_position_bias"] == 0.75 and stats["position_bias"] == 0.75
    assert stats["round_agreement"] == 0.5 and stats["pick_mean"] == 0.0


def test_a_judge_that_sees_quality_agrees_with_itself_whatever_the_order(fake):
    server = fake(responder=sees_quality)
    res = pick(server, [[b"png-a"], [b"png-worst"], [b"png-best"], [b"png-b"]])
    assert res.raw == [0.0, -1.0, 1.0, 0.0] and res.scores == [0.0, -1.0, 1.0, 0.0]
    assert res.agreement() == 1.0 and not res.no_clear_difference
    stats = judge_stats([{"lengths": [10, 20, 30, 40], "judge": res.scores, "pick": res.record()}])
    assert stats["position_bias"] <= 0.5 and stats["no_clear_difference"] == 0.0
    # the page numbers the judge saw are display positions, never places in the group
    assert all(r.good == [2] and r.bad == [1] for r in res.rounds)


def test_identical_pages_have_no_clear_difference_and_cost_no_call(fake):
    server = fake(responder=first_image)
    res = pick(server, [[b"png-a"], [b"png-a"], [b"png-a"]])
    assert server.calls == 0 and res.scores == [0.0, 0.0, 0.0] and res.no_clear_difference
    # duplicates are shown once and share their votes
    server2 = fake(responder=sees_quality)
    res2 = pick(server2, [[b"png-best"], [b"png-worst"], [b"png-best"]])
    assert server2.calls == 2 and len(shown(server2.bodies[0])) == 2
    assert res2.scores[0] == res2.scores[2] > res2.scores[1]


def test_a_page_without_screenshots_takes_no_part(fake):
    server = fake(responder=sees_quality)
    res = pick(server, [[b"png-best"], [], [b"png-worst"]])
    assert res.scores[1] is None and res.scores[0] > res.scores[2]


def test_contradictory_replies_are_sent_back_then_resolved_towards_no_pick(fake):
    both = json.dumps({"good": [0, 1], "bad": [1], "no_clear_difference": False, "reason": "x"})
    fixed = json.dumps({"good": [0], "bad": [1], "no_clear_difference": False, "reason": "x"})
    server = fake(script=[{"content": both}, {"content": fixed}], responder=first_image)
    res = pick(server, [[b"png-a"], [b"png-b"]], rounds=1)
    assert server.calls == 2 and "in both good and bad" in json.dumps(server.bodies[1]["messages"][-1])
    assert parse_pick(both, 2, last=True)["good"] == [0] and parse_pick(both, 2, last=True)["bad"] == []
    ncd = parse_pick('{"good": [1], "bad": [], "no_clear_difference": true}', 2, last=True)
    assert ncd == {"good": [], "bad": [], "no_clear_difference": True, "reason": ""}
    assert len(res.rounds) == 1


def test_rounds_the_judge_never_answers_leave_no_score_and_say_why(fake):
    server = fake(plan=lambda n, body: {"status": 400, "text": "bad model"})
    res = pick(server, [[b"png-a"], [b"png-b"]])
    assert res.scores == [None, None] and "400" in res.error and res.asked == 2


def test_verdicts_are_cached_per_round(fake, tmp_path):
    server = fake(responder=sees_quality)
    imgs = [[b"png-a"], [b"png-worst"], [b"png-best"]]
    first = pick(server, imgs, tmp_path=tmp_path)
    again = pick(server, imgs, tmp_path=tmp_path)
    assert server.calls == 3 and all(r.cached for r in again.rounds) and again.scores == first.scores
